// One attack of `pnpm bench:abuse`, in a process of its own so that its work does not slow the
// honest client's measurements in the orchestrator (it competes for the machine's cores, as a
// real attacker's traffic competes for the server's). Told what to do by argv; prints one JSON
// line of what it achieved, by refusal code, when told to stop (SIGTERM) or after `SECONDS`.
import { type IdiotView, idiotLegalMovesFromView } from '@kortbord/engine'
import { io } from 'socket.io-client'
import { type Client, connect } from '../scripts/client.ts'

const [url = '', attack = '', secondsArg = '10'] = process.argv.slice(2)
const seconds = Number(secondsArg)
let until = performance.now() + seconds * 1000 + 60_000
const counts: Record<string, number> = {}
const count = (k: string) => {
  counts[k] = (counts[k] ?? 0) + 1
}
const live = () => performance.now() < until
const at = (ip: string) => ({ headers: { 'x-forwarded-for': ip } })
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const clients: Client[] = []
/** Tells the orchestrator that the attack is set up and running: measuring starts now. */
let readySent = false
const ready = () => {
  if (!readySent) process.stdout.write('READY\n')
  readySent = true
  until = performance.now() + seconds * 1000
}

async function client(ip: string): Promise<Client> {
  const c = await connect(url, at(ip))
  clients.push(c)
  return c
}

type AnyAck = Awaited<ReturnType<Client['send']>>
type Ok = Extract<AnyAck, { ok: true }>

/** Records an ack by its code ('ok' for success). */
function tally(a: AnyAck): a is Ok {
  count(a.ok ? 'ok' : a.error.code)
  return a.ok
}

const attacks: Record<string, () => Promise<void>> = {
  /** One address creating tables (and leaving them) as fast as the acks come back. */
  async 'create-flood'() {
    const cs = await Promise.all(Array.from({ length: 20 }, () => client('203.0.113.1')))
    ready()
    await Promise.all(
      cs.map(async (c) => {
        while (live()) {
          const r = await c.send('table:create', {
            game: 'idiot',
            name: 'Eve',
            options: { seats: 2 },
          })
          if (tally(r)) await c.send('table:leave', { table: String(r.table) })
        }
      }),
    )
  },

  /** 4,000 connections from one address, 200 at a time. */
  async connections() {
    let opened = 0
    ready()
    while (live() && opened < 4000) {
      const batch = Array.from(
        { length: 200 },
        () =>
          new Promise<void>((resolve) => {
            const s = io(url, {
              transports: ['websocket'],
              auth: { protocol: 1 },
              reconnection: false,
              forceNew: true,
              extraHeaders: { 'x-forwarded-for': '203.0.113.2' },
            })
            const done = (k: string) => {
              count(k)
              resolve()
            }
            s.once('connect', () => done('connected'))
            s.once('connect_error', () => done('refused'))
            setTimeout(() => done('no answer'), 5000)
          }),
      )
      await Promise.all(batch)
      opened += 200
    }
  },

  /** 1,000 spectators (each its own address) on 20 tables, watching and leaving in a loop. */
  async spectators() {
    const hosts = await Promise.all(
      Array.from({ length: 20 }, (_, i) => client(`198.18.0.${i + 1}`)),
    )
    const codes: string[] = []
    for (const h of hosts) {
      const r = await h.send('table:create', { game: 'idiot', name: 'Host', options: { seats: 2 } })
      if (tally(r)) codes.push(String(r.table))
    }
    const watchers: Client[] = []
    for (let i = 0; i < 1000; i += 50) {
      watchers.push(
        ...(await Promise.all(
          Array.from({ length: 50 }, (_, j) => client(`198.19.${(i + j) >> 8}.${(i + j) & 255}`)),
        )),
      )
    }
    ready()
    await Promise.all(
      watchers.map(async (w, i) => {
        const code = codes[i % codes.length]!
        while (live()) {
          if (tally(await w.send('table:watch', { table: code })))
            await w.send('table:leave', { table: code })
          await sleep(200)
        }
      }),
    )
  },

  /** 30 tables of one player and three hard bots each (30 addresses: creation is limited). */
  async 'hard-bots'() {
    setTimeout(ready, 3000)
    await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const c = await client(`198.20.0.${i + 1}`)
        const r = await c.send('table:create', {
          game: 'idiot',
          name: 'Solo',
          options: { seats: 4, turnSeconds: null },
        })
        if (!tally(r)) return
        const code = String(r.table)
        let version = r.version
        for (const seat of [1, 2, 3]) {
          const b = await c.send('table:bot', { table: code, version, seat, level: 'hard' })
          count(`bot:${String((b as { level?: string }).level ?? 'refused')}`)
          if (b.ok) version = b.version
        }
        tally(await c.send('table:start', { table: code, version }))
        // The player plays along at once whenever it is their turn, so the bots never wait; a
        // finished game is started again.
        while (live()) {
          const u = c.state(code)
          const view = u?.view as IdiotView | null
          if (u && u.table.status === 'over') {
            await c.send('table:start', { table: code, version: u.table.version })
          } else if (u && view) {
            const moves = idiotLegalMovesFromView(view)
            const m =
              moves.find((x) => x.type === 'ready') ??
              moves.find((x) => x.type === 'play') ??
              moves[0]
            if (m) await c.send('game:move', { table: code, version: u.table.version, move: m })
          }
          await sleep(50)
        }
      }),
    )
  },

  /** A seated player reclaiming and dropping as fast as they can (one address). */
  async reconnect() {
    const host = await client('198.21.0.1')
    const r = await host.send('table:create', { game: 'idiot', name: 'Ada', options: { seats: 2 } })
    if (!tally(r)) return
    const code = String(r.table)
    const bo = await client('198.21.0.2')
    const j = await bo.send('table:join', { table: code, name: 'Bo' })
    if (!tally(j)) return
    const token = String(j.token)
    bo.close()
    ready()
    while (live()) {
      const c = await connect(url, at('198.21.0.2')).catch(() => null)
      if (!c) {
        count('connect refused')
        await sleep(20)
        continue
      }
      tally(await c.send('table:reclaim', { table: code, token }))
      c.close()
    }
  },
}

const run = attacks[attack]
if (!run) {
  console.error(`no attack ${attack}; one of ${Object.keys(attacks).join(', ')}`)
  process.exit(2)
}
const finish = () => {
  process.stdout.write(`${JSON.stringify({ attack, counts })}\n`)
  for (const c of clients) c.close()
  process.exit(0)
}
process.on('SIGTERM', finish)
setTimeout(finish, seconds * 1000 + 90_000).unref()
run()
  .then(finish)
  .catch((e: unknown) => {
    console.error(e)
    finish()
  })
