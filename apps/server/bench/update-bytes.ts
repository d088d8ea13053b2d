// What an Idiot delta update's bytes are made of (issue 17): plays seeded 4-player games (and a
// spectator) against an in-process server and sums every table:delta received by part: the
// envelope, the table info's patch (by key), the view's patch (by path), the log. The same
// seeds every run, so two commits compare exactly.
//   npx tsx bench/update-bytes.ts [GAMES=6]
import type { TableDelta } from '@kortbord/protocol'
import { type Client, must } from '../scripts/client.ts'
import { driveIdiot } from '../scripts/drive.ts'
import { startServer } from '../test/harness.ts'
import { settings } from './common.ts'

const games = settings(process.argv.slice(2), process.env).num('GAMES', 6)
const srv = await startServer({ LOG_LEVEL: 'warn' })
const deltas: TableDelta[] = []
try {
  for (let g = 0; g < games; g++) {
    const host = await srv.client()
    const created = await host.send('table:create', {
      game: 'idiot',
      name: 'Bot 1',
      spectators: true,
      options: { seats: 4 },
    })
    const code = must(created).table as string
    const players: Client[] = [host]
    for (let i = 1; i < 4; i++) {
      const c = await srv.client()
      must(await c.send('table:join', { table: code, name: `Bot 1.${i}` }))
      players.push(c)
    }
    const watcher = await srv.client()
    must(await watcher.send('table:watch', { table: code }))
    for (const c of [...players, watcher]) c.socket.on('table:delta', (d) => deltas.push(d))
    const v = players[3]!.state(code)!.table.version
    await Promise.all([...players, watcher].map((c) => c.atVersion(code, v)))
    const deal = { seed: `update-bytes-${g}` }
    const started = must(await host.send('table:start', { table: code, version: v, deal }))
    await driveIdiot(players, code, started.version, { seed: `update-bytes-drive-${g}` })
  }
} finally {
  await srv.stop()
}

const bytes = (x: unknown) => (x === undefined ? 0 : Buffer.byteLength(JSON.stringify(x)))
/** A member's bytes in its object: `"key":` and the comma before the next. */
const member = (k: string, x: unknown) => (x === undefined ? 0 : k.length + 4 + bytes(x))
const n = Math.max(1, deltas.length)
const parts = { all: 0, envelope: 0, table: 0, dl: 0, h: 0, view: 0, log: 0 }
let wholeViews = 0
const byPath = new Map<string, number>()
for (const d of deltas) {
  const { t, dl, h, p, view, log, ...envelope } = d
  parts.all += bytes(d)
  parts.envelope += bytes(envelope)
  parts.table += member('t', t)
  parts.dl += member('dl', dl)
  parts.h += member('h', h)
  parts.view += p === null ? bytes(view) : bytes(p)
  parts.log += member('log', log)
  if (p === null) wholeViews++
  for (const [where, ops] of [
    ['table', t ?? []],
    ['view', p ?? []],
  ] as const)
    for (const op of ops) {
      const path = op[1].map((x) => (typeof x === 'number' ? '#' : x)).join('.')
      const key = `${where} ${op[0]} ${path}`
      byPath.set(key, (byPath.get(key) ?? 0) + bytes(op) + 1)
    }
}
const avg = (x: number) => (x / n).toFixed(1)
console.log(`${deltas.length} deltas of ${games} 4-player Idiot games (4 players and a spectator)`)
console.log(
  `average ${avg(parts.all)} B: envelope ${avg(parts.envelope)} B (code, version, sum, logAfter, at), table patch ${avg(parts.table)} B, deadlines (dl) ${avg(parts.dl)} B, chain head (h) ${avg(parts.h)} B, view patch ${avg(parts.view)} B (or the whole view: ${wholeViews} times), log ${avg(parts.log)} B`,
)
console.log('bytes per delta by operation and path:')
for (const [k, v] of [...byPath].sort((a, b) => b[1] - a[1]).slice(0, 20))
  console.log(`  ${avg(v).padStart(6)}  ${k}`)
process.exit(0)
