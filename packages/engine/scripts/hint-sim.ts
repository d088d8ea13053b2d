/**
 * `pnpm sim:hint`: how much Idioten alone's hint (src/aces-up-hint.ts, A-17) is worth. On seeded
 * deals it plays each game twice, once following the hint at every move and once as the greedy
 * player alone, and prints the cards left (mean, paired difference with a 95% interval), the
 * rounds that came out and the hint's time per move.
 *
 *   pnpm sim:hint [--deals 300] [--piles 4] [--tries 200]
 */
import {
  type AcesUpMove,
  type AcesUpPiles,
  type AcesUpState,
  acesUp,
  acesUpGreedy,
  acesUpHint,
  acesUpLegalMoves,
  acesUpView,
  cardsLeft,
  Rng,
} from '../src/index.ts'
import { arg, mean, num, pct, proportion, quantile } from './stats.ts'

const deals = arg('deals', 300)
const piles = arg('piles', 4) as AcesUpPiles
const tries = arg('tries', 200)
const aces = piles === 8 ? 8 : 4

/** Plays a deal to its end with `pick`: the cards left. */
function play(seed: string, pick: (s: AcesUpState) => AcesUpMove): number {
  let s = acesUp.setup({ piles }, 1, { seed })
  while (!s.ended) {
    const r = acesUp.apply(s, 0, pick(s))
    if (!r.ok) throw new Error(`${seed}: ${r.error.code}`)
    s = r.value
  }
  return cardsLeft(s.piles)
}

const ms: number[] = []
const hinted: number[] = []
const greedy: number[] = []
const started = performance.now()
for (let i = 0; i < deals; i++) {
  const seed = `hint-sim-${piles}-${i}`
  const rng = Rng.seeded(`${seed}-guesses`)
  hinted.push(
    play(seed, (s) => {
      const a = performance.now()
      const h = acesUpHint(acesUpView(s, 0), acesUpLegalMoves(s), rng, { tries })
      ms.push(performance.now() - a)
      if (h === null) throw new Error(`${seed}: no hint`)
      return h.move
    }),
  )
  greedy.push(play(seed, (s) => acesUpGreedy(acesUpView(s, 0), acesUpLegalMoves(s), rng)))
  if ((i + 1) % 50 === 0) console.error(`${i + 1} deals…`)
}
const diff = greedy.map((g, i) => g - hinted[i]!)
const won = (xs: number[]) => proportion(xs.filter((x) => x === aces).length, xs.length)
console.log(`Idioten alone's hint, ${piles} piles, ${deals} deals, ${tries} guesses a move`)
console.log(`| | cards left (mean) | rounds that came out |`)
console.log(`|---|---|---|`)
console.log(`| hint at every move | ${num(mean(hinted))} | ${pct(won(hinted))} |`)
console.log(`| greedy player | ${num(mean(greedy))} | ${pct(won(greedy))} |`)
console.log(
  `fewer cards with the hint: ${num(mean(diff))} a deal; fewer on ${diff.filter((d) => d > 0).length} deals, more on ${diff.filter((d) => d < 0).length}`,
)
console.log(
  `time per hint: median ${quantile(ms, 0.5).toFixed(1)} ms, p95 ${quantile(ms, 0.95).toFixed(1)}, p99 ${quantile(ms, 0.99).toFixed(1)}, max ${quantile(ms, 1).toFixed(1)} (${ms.length} hints; ${((performance.now() - started) / 1000).toFixed(0)} s in all)`,
)
