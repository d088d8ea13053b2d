// pnpm bench:abuse — issue 13: an honest player's acknowledgement times while each abuse runs
// against the same node (memory store, default limits), and the node's memory after each.
//
// The server runs in its own process (src/main.ts, as in production); each attack runs in
// another (abuse-attacker.ts); the honest client runs here: a two-player Idiot table whose first
// player swaps a hand card with a face-up card HONEST_RATE times a second (a full command:
// checked, saved, sent to both players) and times each acknowledgement.
//
//   pnpm bench:abuse [SECONDS=10] [HONEST_RATE=20] [ATTACKS=create-flood,connections,…]
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { IdiotView } from '@kortbord/engine'
import { type Client, connect, must } from '../scripts/client.ts'
import { freePort } from '../test/cluster.ts'
import { settings, summarize } from './common.ts'

const ATTACKS = ['create-flood', 'connections', 'spectators', 'hard-bots', 'reconnect'] as const
const cfg = settings(process.argv.slice(2), process.env)
const SECONDS = cfg.num('SECONDS', 10)
const RATE = cfg.num('HONEST_RATE', 20)
const attacks = cfg.str('ATTACKS', ATTACKS.join(',')).split(',')
const TOKEN = 'bench-abuse-metrics-token'
const serverDir = fileURLToPath(new URL('..', import.meta.url))
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function startServer(): Promise<{ url: string; proc: ChildProcess }> {
  const port = await freePort()
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      WEB_DIST: '',
      METRICS_TOKEN: TOKEN,
      // The attacks speak for many addresses through X-Forwarded-For, as behind a proxy.
      TRUST_PROXY: 'loopback',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 200; i++) {
    const r = await fetch(`${url}/readyz`).catch(() => null)
    if (r?.status === 200) return { url, proc }
    await sleep(100)
  }
  throw new Error('the server did not start')
}

/** A few of the node's own figures, from /metrics. */
async function serverFigures(url: string) {
  const text = await (
    await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
  ).text()
  const read = (name: string) => {
    const m = new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text)
    return m ? Number(m[1]) : Number.NaN
  }
  return {
    rssMB: read('kortbord_process_resident_memory_bytes') / 2 ** 20,
    heapMB: read('kortbord_nodejs_heap_size_used_bytes') / 2 ** 20,
    sockets: read('kortbord_sockets'),
    tables: read('kortbord_tables'),
    stored: read('kortbord_tables_stored'),
    hardBots: read('kortbord_hard_bots'),
    escaped: read('kortbord_escaped_errors_total'),
    // prom-client's event-loop delay since the last scrape.
    lagP99ms: read('kortbord_nodejs_eventloop_lag_p99_seconds') * 1000,
    lagMaxMs: read('kortbord_nodejs_eventloop_lag_max_seconds') * 1000,
  }
}

/** The honest table: two players from their own addresses, in the swap phase. */
async function honestTable(url: string): Promise<{ a: Client; b: Client; code: string }> {
  const a = await connect(url, { headers: { 'x-forwarded-for': '10.0.0.1' } })
  const b = await connect(url, { headers: { 'x-forwarded-for': '10.0.0.2' } })
  const code = must(
    await a.send('table:create', {
      game: 'idiot',
      name: 'Ada',
      options: { seats: 2, turnSeconds: null },
    }),
  ).table as string
  const j = must(await b.send('table:join', { table: code, name: 'Bo' }))
  await a.atVersion(code, j.version)
  must(await a.send('table:start', { table: code, version: j.version }))
  await a.waitFor(code, (u) => u.table.status === 'playing')
  return { a, b, code }
}

/** Swaps at RATE a second for `seconds`; returns every acknowledgement time, ms. */
async function honest(c: Client, code: string, seconds: number) {
  const times: number[] = []
  const refused: Record<string, number> = {}
  const end = performance.now() + seconds * 1000
  let next = performance.now()
  while (performance.now() < end) {
    const u = c.state(code)!
    const me = (u.view as IdiotView).players[0]!
    const hand = me.hand?.[0]
    const up = me.row.find((p) => p.faceUp !== null)?.faceUp
    if (hand === undefined || up === undefined || up === null) throw new Error('no swap to make')
    const t0 = performance.now()
    const r = await c.send('game:move', {
      table: code,
      version: u.table.version,
      move: { type: 'swap', hand, faceUp: up },
    })
    times.push(performance.now() - t0)
    if (!r.ok) refused[r.error.code] = (refused[r.error.code] ?? 0) + 1
    else await c.atVersion(code, r.version)
    next += 1000 / RATE
    await sleep(Math.max(0, next - performance.now()))
  }
  return { ack: summarize(times), refused }
}

function runAttack(url: string, attack: string) {
  // At the lowest priority: a real attacker's own work is done on their machines, not the
  // server's; here it shares two cores with the server and the honest client.
  const proc = spawn(
    'nice',
    [
      '-n',
      '19',
      process.execPath,
      '--import',
      'tsx',
      'bench/abuse-attacker.ts',
      url,
      attack,
      String(SECONDS),
    ],
    { cwd: serverDir, stdio: ['ignore', 'pipe', 'inherit'] },
  )
  let out = ''
  let onReady: () => void = () => undefined
  const ready = new Promise<void>((resolve) => {
    onReady = resolve
  })
  proc.stdout?.on('data', (d: Buffer) => {
    out += d.toString()
    if (out.includes('READY\n')) onReady()
  })
  const done = new Promise((resolve) => {
    proc.once('exit', () => {
      onReady()
      try {
        resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '{}'))
      } catch {
        resolve({ output: out })
      }
    })
  })
  return { ready, done, stop: () => proc.kill('SIGTERM') }
}

const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '–')

async function main() {
  const server = await startServer()
  try {
    const { a, b, code } = await honestTable(server.url)
    console.log(`bench:abuse — ${SECONDS} s per attack, an honest swap ${RATE}/s, memory store`)
    console.log('')
    const rows: string[] = []
    // Warm up (JIT, first allocations), then measure a quiet phase.
    await honest(a, code, 3)
    await serverFigures(server.url)
    const quiet = await honest(a, code, SECONDS)
    const f0 = await serverFigures(server.url)
    rows.push(
      `| none (quiet) | ${fmt(quiet.ack.p50)} | ${fmt(quiet.ack.p99)} | ${fmt(quiet.ack.max)} | ${fmt(f0.lagP99ms)} / ${fmt(f0.lagMaxMs)} | ${fmt(f0.rssMB)} | ${fmt(f0.heapMB)} | — |`,
    )
    for (const attack of attacks) {
      const atk = runAttack(server.url, attack)
      // Measure once the attack is set up (its connections, tables) and running.
      await atk.ready
      await serverFigures(server.url)
      const h = await honest(a, code, SECONDS)
      atk.stop()
      const result = (await atk.done) as { counts?: Record<string, number> }
      await sleep(1000)
      const f = await serverFigures(server.url)
      const counts = Object.entries(result.counts ?? {})
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')
      rows.push(
        `| ${attack} | ${fmt(h.ack.p50)} | ${fmt(h.ack.p99)} | ${fmt(h.ack.max)} | ${fmt(f.lagP99ms)} / ${fmt(f.lagMaxMs)} | ${fmt(f.rssMB)} | ${fmt(f.heapMB)} | ${counts}${Object.keys(h.refused).length ? `; honest refused: ${JSON.stringify(h.refused)}` : ''} |`,
      )
      console.log(
        `${attack}: honest ack p50 ${fmt(h.ack.p50)} ms, p99 ${fmt(h.ack.p99)} ms (n ${h.ack.n}); server ${JSON.stringify(f)}`,
      )
    }
    console.log('')
    console.log(
      '| attack | honest ack p50 ms | p99 ms | max ms | server loop delay p99 / max ms | server RSS MB after | heap MB | what the attacker got |',
    )
    console.log('|---|---|---|---|---|---|---|---|')
    for (const r of rows) console.log(r)
    a.close()
    b.close()
  } finally {
    server.proc.kill('SIGTERM')
  }
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
