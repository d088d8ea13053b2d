// pnpm records [GAMES=10000]: seeded random games of every kind, recorded as the server records
// them; each record is verified (commitment, deal, chain) and replayed to the same end. Prints
// how many, how long, and the records' sizes. The test suite runs a sample of the same games.
import { recordText, verifyRecord } from '../src/index.ts'
import { recordedGame } from '../test/record-games.ts'

const n = Number(process.argv.find((a) => a.startsWith('GAMES='))?.slice(6) ?? 10_000)
let failed = 0
for (const game of ['idiot', 'duel', 'klockan', 'herrarna'] as const) {
  const t0 = performance.now()
  let moves = 0
  let bytes = 0
  let textBytes = 0
  const ends: Record<string, number> = {}
  for (let i = 0; i < n; i++) {
    const r = recordedGame(game, `records/${i}`)
    const v = verifyRecord(r)
    if (!v.ok) {
      failed++
      console.error(`${game} ${i}: ${JSON.stringify(v.problems)}`)
    }
    moves += r.moves.length
    bytes += JSON.stringify(r).length
    textBytes += recordText(r).length
    const end = r.end?.reason ?? 'none'
    ends[end] = (ends[end] ?? 0) + 1
  }
  const s = (performance.now() - t0) / 1000
  console.log(
    `${game.padEnd(8)} ${n} games verified and replayed in ${s.toFixed(1)} s; ` +
      `${(moves / n).toFixed(0)} moves, ${(bytes / n / 1024).toFixed(1)} KB JSON, ` +
      `${(textBytes / n / 1024).toFixed(1)} KB text per game; ends ${JSON.stringify(ends)}`,
  )
}
if (failed > 0) {
  console.error(`${failed} records did not verify`)
  process.exit(1)
}
console.log('every record verified')
