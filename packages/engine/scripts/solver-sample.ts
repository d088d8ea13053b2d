/**
 * Measures the A-16 solver on seeded random deals: time per deal (median, p95, max), how often
 * the result is proven over every line, and how often keeping a card beat the closed optimum.
 *
 *   cd packages/engine && npx tsx scripts/solver-sample.ts [--deals 500] [--maxNodes N]
 *     [--piles 4,5,8] [--seed solver-sample]
 *
 * 52-card deals for 4 and 5 piles, 104-card deals for 8 piles. Times include everything the
 * server would run after a game (closed search, keep search, line).
 */
import { parseArgs } from 'node:util'
import { DEFAULT_MAX_NODES, solveAcesUp } from '../src/aces-up/solver.ts'
import { fullDeck } from '../src/cards.ts'
import { Rng } from '../src/rng.ts'

const { values } = parseArgs({
  options: {
    deals: { type: 'string', default: '500' },
    maxNodes: { type: 'string', default: String(DEFAULT_MAX_NODES) },
    piles: { type: 'string', default: '4,5,8' },
    seed: { type: 'string', default: 'solver-sample' },
  },
})
const deals = Number(values.deals)
const maxNodes = Number(values.maxNodes)
const pileCounts = values.piles.split(',').map(Number) as (4 | 5 | 8)[]

const quantile = (xs: readonly number[], q: number): number => {
  const s = xs.slice().sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN
}
const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)}%`

console.log(`A-16 solver sample: ${deals} deals per pile count, maxNodes ${maxNodes}`)
for (const k of pileCounts) {
  const decks = k === 8 ? 2 : 1
  const ms: number[] = []
  const nodes: number[] = []
  let proven = 0
  let won = 0
  let improved = 0
  let improvedBy = 0
  const bestHist = new Map<number, number>()
  // Warm up the JIT so the first deals do not dominate the figures.
  for (let i = 0; i < 20; i++) solveAcesUp(Rng.seeded(`warm-${i}`).shuffle(fullDeck(decks)), k)
  for (let i = 0; i < deals; i++) {
    const deck = Rng.seeded(`${values.seed}-${k}-${i}`).shuffle(fullDeck(decks))
    const t0 = performance.now()
    const r = solveAcesUp(deck, k, { maxNodes })
    ms.push(performance.now() - t0)
    nodes.push(r.nodes)
    if (r.proven === 'all') proven++
    if (r.best === 4 * decks) won++
    if (r.best < r.closedBest) {
      improved++
      improvedBy += r.closedBest - r.best
    }
    bestHist.set(r.best, (bestHist.get(r.best) ?? 0) + 1)
  }
  const hist = [...bestHist.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([b, c]) => `${b}:${c}`)
    .join(' ')
  console.log(
    [
      `${k} piles (${52 * decks} cards):`,
      `  ms per deal: median ${quantile(ms, 0.5).toFixed(1)}, p95 ${quantile(ms, 0.95).toFixed(1)}, max ${quantile(ms, 1).toFixed(1)}`,
      `  nodes: median ${quantile(nodes, 0.5)}, p95 ${quantile(nodes, 0.95)}, max ${quantile(nodes, 1)}`,
      `  proven 'all': ${proven}/${deals} (${pct(proven, deals)}); won (only aces left): ${won}/${deals} (${pct(won, deals)})`,
      `  keeps beat closedBest: ${improved}/${deals} (${pct(improved, deals)}), by ${improvedBy} cards in all`,
      `  cards left (best: deals): ${hist}`,
    ].join('\n'),
  )
}
