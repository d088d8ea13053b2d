// One attack of `pnpm bench:abuse`, in a process of its own so that its work does not slow the
// honest client's measurements in the orchestrator (it competes for the machine's cores, as a
// real attacker's traffic competes for the server's). Told what to do by argv; prints one JSON
// line of what it achieved, by refusal code, when told to stop (SIGTERM) or after `SECONDS`.
// Every attack sets itself up first (connections, tables, bots), says READY, and then keeps
// going until it is stopped: the orchestrator measures only while it runs at full strength.
import { randomBytes } from 'node:crypto'
import { request } from 'node:http'
import {
  type DuelView,
  duelLegalMovesFromView,
  type IdiotView,
  idiotLegalMovesFromView,
} from '@kortbord/engine'
import { type Client, connect } from '../scripts/client.ts'

const [url = '', attack = '', secondsArg = '10', honestCode = ''] = process.argv.slice(2)
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
  if (readySent) return
  process.stdout.write('READY\n')
  readySent = true
  // Past the orchestrator's window (it stops us with SIGTERM): the attack never ends early.
  until = performance.now() + seconds * 1000 + 30_000
}

async function client(ip: string): Promise<Client> {
  // A connect the node shed (ACCEPTS_PER_SECOND) is tried again, as any client would.
  for (let attempt = 0; ; attempt++) {
    try {
      const c = await connect(url, at(ip))
      clients.push(c)
      return c
    } catch (e) {
      if (attempt >= 20) throw e
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200))
    }
  }
}

/**
 * An attack: sets itself up, then returns what keeps it going (it runs until `live()` is false).
 * Set up first, so that attacks can be combined and READY said once all of them are running.
 */
type Attack = () => Promise<() => Promise<unknown>>

type AnyAck = Awaited<ReturnType<Client['send']>>
type Ok = Extract<AnyAck, { ok: true }>

/** Records an ack by its code ('ok' for success). */
function tally(a: AnyAck): a is Ok {
  count(a.ok ? 'ok' : a.error.code)
  return a.ok
}

const attacks: Record<string, Attack> = {
  /** One address creating tables (and leaving them) as fast as the acks come back. */
  async 'create-flood'() {
    const cs = await Promise.all(Array.from({ length: 20 }, () => client('203.0.113.1')))
    return () =>
      Promise.all(
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

  /**
   * 4,000 connection attempts from one address at all times: each of 4,000 slots opens a
   * websocket (a bare upgrade, attempt()), holds it while the server keeps it, and opens another
   * as soon as it is refused or dropped, for the whole window (the first 4,000 go out 200 at a
   * time).
   */
  async connections() {
    const slot = async (): Promise<void> => {
      // A refused attempt is tried again at once; a held one when the server drops it.
      while (live()) count(await attempt())
    }
    return async () => {
      const slots: Promise<void>[] = []
      for (let i = 0; i < 4000 && live(); i += 200) {
        for (let j = 0; j < 200; j++) slots.push(slot())
        await sleep(20)
      }
      await Promise.all(slots)
    }
  },

  /**
   * 1,000 spectators (each its own address) on 20 tables of theirs and on the honest players'
   * table (so the honest client gets their presence traffic), about 48 a table (under
   * SPECTATORS_PER_TABLE's default 50): all watch, hold 1.5 s, then all 1,000 leave at once, and
   * again a second later, for the whole window. Every watch counts against its address's lookup
   * limit: a cycle of 2.5 s keeps within the default 30 a minute.
   */
  async spectators() {
    const hosts = await Promise.all(
      Array.from({ length: 20 }, (_, i) => client(`198.18.0.${i + 1}`)),
    )
    const codes: string[] = honestCode ? [honestCode] : []
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
    return async () => {
      while (live()) {
        const watching = await Promise.all(
          watchers.map(async (w, i) => {
            const code = codes[i % codes.length]!
            return tally(await w.send('table:watch', { table: code })) ? code : null
          }),
        )
        await sleep(1500)
        // The burst: every spectator leaves at the same moment.
        count('bursts')
        await Promise.all(
          watchers.map(async (w, i) => {
            const code = watching[i]
            if (code) await w.send('table:leave', { table: code })
          }),
        )
        await sleep(1000)
      }
    }
  },

  /**
   * The 30 tables of one player and three hard bots each (30 addresses: creation is
   * limited); beyond HARD_BOTS_PER_NODE the server seats a bot as normal (counted as
   * bot:hard / bot:normal).
   */
  async 'hard-bots'() {
    const tables = await Promise.all(Array.from({ length: 30 }, (_, i) => hardBotTable(i)))
    return () => Promise.all(tables.map((play) => play?.()))
  },

  /**
   * 10 duel tables (two players from two addresses each) racing through matches of 20 games,
   * dealing at once and finishing as soon as the stock is out: every finished game asks the
   * worker pool for its A-16 best possible (issue 16), about 4 solves a second per table.
   */
  async 'solver-flood'() {
    const tables = await Promise.all(Array.from({ length: 10 }, (_, i) => duelTable(i)))
    return () => Promise.all(tables.map((play) => play?.()))
  },

  /** The hard bots and the solver flood at once (issue 16: one pool serves both). */
  async 'bots-and-solver'() {
    const both = await Promise.all([attacks['hard-bots']!(), attacks['solver-flood']!()])
    return () => Promise.all(both.map((play) => play()))
  },

  /** A seated player reclaiming and dropping as fast as they can (one address). */
  async reconnect() {
    const host = await client('198.21.0.1')
    const r = await host.send('table:create', { game: 'idiot', name: 'Ada', options: { seats: 2 } })
    if (!tally(r)) return async () => undefined
    const code = String(r.table)
    const bo = await client('198.21.0.2')
    const j = await bo.send('table:join', { table: code, name: 'Bo' })
    if (!tally(j)) return async () => undefined
    const token = String(j.token)
    bo.close()
    return async () => {
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
    }
  },
}

/**
 * One websocket attempt from the connections attack's address, as cheap as an attacker would
 * make it: a bare HTTP upgrade to Engine.IO (no socket.io client). 'refused' (the handshake was
 * answered with an HTTP error), 'no answer' in 5 s, 'error', or 'held' once a connection the
 * server accepted has closed (the server drops a connection that never speaks, or the attack
 * ended).
 */
function attempt(): Promise<string> {
  return new Promise((resolve) => {
    let settled = false
    let watch: NodeJS.Timeout | undefined
    const done = (k: string) => {
      if (settled) return
      settled = true
      clearInterval(watch)
      req.destroy()
      resolve(k)
    }
    const req = request(`${url}/socket.io/?EIO=4&transport=websocket`, {
      agent: false,
      timeout: 5000,
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': randomBytes(16).toString('base64'),
        'x-forwarded-for': '203.0.113.2',
      },
    })
    req.once('upgrade', (_res, socket) => {
      count('connected')
      socket.once('close', () => done('held'))
      socket.on('error', () => undefined)
      watch = setInterval(() => {
        if (!live()) {
          socket.destroy()
          done('held')
        }
      }, 200)
    })
    req.once('response', (res) => {
      res.resume()
      done('refused')
    })
    req.once('timeout', () => done('no answer'))
    req.once('error', () => done('error'))
    req.end()
  })
}

/** One table of the hard-bots attack, set up; returns its play loop (or null if refused). */
async function hardBotTable(i: number): Promise<(() => Promise<void>) | null> {
  const c = await client(`198.20.0.${i + 1}`)
  const r = await c.send('table:create', {
    game: 'idiot',
    name: 'Solo',
    options: { seats: 4, turnSeconds: null },
  })
  if (!tally(r)) return null
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
  return async () => {
    while (live()) {
      const u = c.state(code)
      const view = u?.view as IdiotView | null
      if (u && u.table.status === 'over') {
        await c.send('table:start', { table: code, version: u.table.version })
      } else if (u && view) {
        const moves = idiotLegalMovesFromView(view)
        const m =
          moves.find((x) => x.type === 'ready') ?? moves.find((x) => x.type === 'play') ?? moves[0]
        if (m) await c.send('game:move', { table: code, version: u.table.version, move: m })
      }
      await sleep(50)
    }
  }
}

/** One duel table of the solver flood, set up; returns its play loop (or null if refused). */
async function duelTable(i: number): Promise<(() => Promise<void>) | null> {
  const a = await client(`198.22.${i}.1`)
  const b = await client(`198.22.${i}.2`)
  const r = await a.send('table:create', {
    game: 'duel',
    name: 'Ann',
    options: { games: 20, turnSeconds: null },
  })
  if (!tally(r)) return null
  const code = String(r.table)
  const j = await b.send('table:join', { table: code, name: 'Ben' })
  if (!tally(j)) return null
  await a.atVersion(code, j.version)
  tally(await a.send('table:start', { table: code, version: j.version }))
  // Both players deal and finish as fast as acks come; a finished match is started again.
  return async () => {
    await Promise.all(
      [a, b].map(async (c, seat) => {
        while (live()) {
          const u = c.state(code)
          const view = u?.view as DuelView | null
          if (u && u.table.status === 'over' && seat === 0) {
            await c.send('table:start', { table: code, version: u.table.version })
          } else if (u && view) {
            const moves = duelLegalMovesFromView(view)
            const m = moves.find((x) => x.type === 'deal' || x.type === 'finish')
            if (m)
              tally(await c.send('game:move', { table: code, version: u.table.version, move: m }))
          }
          await sleep(20)
        }
      }),
    )
  }
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
setTimeout(finish, seconds * 1000 + 120_000).unref()
run()
  .then((play) => {
    ready()
    return play()
  })
  .then(finish)
  .catch((e: unknown) => {
    console.error(e)
    finish()
  })
