/**
 * Measures the server's background proof of A-16 (issue 16): the seeded four-pile deals
 * `bench-solve-4-<from>` … `<to - 1>` (the bench's first deals) at its node budget, and how many
 * are proven, how long the slowest proven one took, and the memory at its peak.
 *
 *   cd packages/engine && npx tsx scripts/proof-sample.ts [--from 0] [--to 200]
 *     [--maxNodes 20000000] [--highCards default|none|<rank>]
 *
 * Prints every deal that takes over 2 s or stays unproven. Minutes of one core at the default.
 */
import { parseArgs } from 'node:util'
import { solveAcesUp } from '../src/aces-up/solver.ts'
import { acesUp } from '../src/aces-up.ts'

const { values } = parseArgs({
  options: {
    from: { type: 'string', default: '0' },
    to: { type: 'string', default: '200' },
    maxNodes: { type: 'string', default: '20000000' },
    highCards: { type: 'string', default: 'default' },
  },
})
const from = Number(values.from)
const to = Number(values.to)
const maxNodes = Number(values.maxNodes)
const highCards =
  values.highCards === 'default'
    ? undefined
    : values.highCards === 'none'
      ? null
      : Number(values.highCards)

console.log(
  `A-16 background proof: deals ${from}…${to - 1}, maxNodes ${maxNodes}, highCards ${values.highCards}`,
)
let proven = 0
let slowest = 0
const t0 = performance.now()
for (let i = from; i < to; i++) {
  const deck = acesUp.setup({ piles: 4 }, 1, { seed: `bench-solve-4-${i}` }).deck
  const t = performance.now()
  const r = solveAcesUp(deck, 4, { maxNodes, highCards })
  const ms = performance.now() - t
  if (r.proven === 'all') {
    proven++
    slowest = Math.max(slowest, ms)
  }
  if (ms > 2000 || r.proven !== 'all') {
    console.log(
      `  deal ${i}: best ${r.best}, proven ${r.proven}, ${Math.round(ms)} ms, ${r.nodes} nodes`,
    )
  }
}
const n = to - from
console.log(
  `proven ${proven} of ${n} (${((100 * proven) / n).toFixed(1)}%), slowest proven ${(slowest / 1000).toFixed(1)} s, ` +
    `${Math.round((performance.now() - t0) / 1000)} s in all, at most ${Math.round(process.resourceUsage().maxRSS / 1024)} MB resident`,
)
