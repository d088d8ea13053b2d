// Plays one whole Idiot game between scripted clients against a running server:
//   pnpm play                     (2–4 players via PLAYERS, server at KORTBORD_URL or :3000)
import type { IdiotView } from '@kortbord/engine'
import { formatCard } from '@kortbord/engine'
import { connect, must } from './client.ts'
import { driveIdiot } from './drive.ts'

const url = process.env.KORTBORD_URL ?? 'http://localhost:3000'
const players = Number(process.env.PLAYERS ?? 3)
const seed = process.env.SEED ?? `play-${Date.now()}`
const names = ['Astrid', 'Bo', 'Cecilia', 'Dag']

const host = await connect(url).catch((e: unknown) => {
  console.error(
    `cannot reach a kortbord server at ${url} (${String(e)}); start one with pnpm start`,
  )
  process.exit(1)
})
const created = must(
  await host.send('table:create', {
    game: 'idiot',
    name: names[0]!,
    options: { seats: players, turnSeconds: null },
  }),
)
const code = created.table as string
console.log(`table ${code} at ${url}/t/${code}`)
const clients = [host]
for (let i = 1; i < players; i++) {
  const c = await connect(url)
  must(await c.send('table:join', { table: code, name: names[i]! }))
  clients.push(c)
}
const watcher = await connect(url)
must(await watcher.send('table:watch', { table: code }))
const version = clients.at(-1)!.state(code)?.table.version ?? 1
await Promise.all(clients.map((c) => c.atVersion(code, version)))
const started = must(await host.send('table:start', { table: code, version }))
let moves = 0
const end = await driveIdiot(clients, code, started.version, {
  seed,
  pauseMs: Number(process.env.PAUSE_MS ?? 25),
  onMove: () => moves++,
})
const v = end.view as IdiotView
const o = v.outcome!
console.log(`seed ${seed}: ${moves} moves, ${o.turns} turns`)
console.log(`places: ${o.places.map((s, i) => `${i + 1}. ${names[s]}`).join('  ')}`)
console.log(
  `the Idiot is ${names[o.loser]}; burned ${v.burned.map(formatCard).join(' ') || 'nothing'}`,
)
const seen = watcher.state(code)
console.log(
  `the spectator saw version ${seen?.table.version} with ${watcher.updates.length} updates`,
)
for (const c of [...clients, watcher]) c.close()
