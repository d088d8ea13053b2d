/**
 * The A-16 solver on full deals, replayed through the engine's own Aces Up rules (issue 16): on a
 * seeded sample of a few hundred deals per pile setting, the returned line must be legal move by
 * move under `acesUp.apply`, deal the whole stock and leave exactly `best` cards; `best` never
 * exceeds `closedBest` nor goes below the aces; and `proven` is honest.
 *
 * What "honest" can be checked here without a second exact solver: a won deal (only the aces
 * left, which no line can beat) is always proven; a result the default budget calls proven
 * ('all') is not beaten by a search with ten times the budget; and with five or eight piles every
 * sampled deal is proven. With four piles the default budget does NOT prove every deal (issue 16,
 * still open): there the test asserts only that the won deals are proven and that a third or more
 * are; the share proven over 10,000 deals is printed by `pnpm bench`.
 */
import { describe, expect, it } from 'vitest'
import { solveAcesUp } from '../src/aces-up/solver.ts'
import { type AcesUpPiles, acesUp } from '../src/index.ts'
import { replaySolverLine } from './aces-up-helpers.ts'

/** Deals per pile setting: a seeded sample, small enough for CI on two cores. */
const SAMPLE: Record<AcesUpPiles, number> = { 4: 200, 5: 300, 8: 300 }

describe('A-16 solver on full deals, against the engine', () => {
  for (const piles of [4, 5, 8] as const) {
    it(`[A-16] ${SAMPLE[piles]} seeded full deals (${piles} piles): the line replays through the engine to exactly best; proven is honest`, () => {
      const aces = piles === 8 ? 8 : 4
      let proven = 0
      for (let i = 0; i < SAMPLE[piles]; i++) {
        const deck = acesUp.setup({ piles }, 1, { seed: `solver-full-sample-${piles}-${i}` }).deck
        const label = `${piles} piles, seed solver-full-sample-${piles}-${i}`
        const r = solveAcesUp(deck, piles)
        expect(replaySolverLine(deck, piles, r.line), label).toBe(r.best)
        expect(r.best, label).toBeLessThanOrEqual(r.closedBest)
        expect(r.best, label).toBeGreaterThanOrEqual(aces)
        if (r.best === aces) expect(r.proven, label).toBe('all')
        if (r.proven === 'all') {
          proven++
          // A proof at the default budget must survive a larger search.
          if (r.best > aces) {
            const more = solveAcesUp(deck, piles, { maxNodes: 10 * 20_000 })
            expect(more.best, label).toBe(r.best)
            expect(more.proven, label).toBe('all')
          }
        }
      }
      // Five and eight piles: every sampled deal is proven (and, as it happens, won).
      if (piles !== 4) expect(proven).toBe(SAMPLE[piles])
      // Four piles: at least the won deals are proven; the rest is issue 16's open part.
      else expect(proven).toBeGreaterThan(SAMPLE[piles] / 3)
    })
  }

  it('[A-16] a two-deck deal whose win the search once found only after 7.7 million nodes (26 s) is found at once', () => {
    // Seed sim-8-572: dealing before filling a gap sent the search through every line that
    // deals first. Moves from a tall pile into a gap are now tried before the deal.
    const deck = acesUp.setup({ piles: 8 }, 1, { seed: 'sim-8-572' }).deck
    const r = solveAcesUp(deck, 8)
    expect(r).toMatchObject({ best: 8, closedBest: 8, proven: 'all' })
    expect(r.nodes).toBeLessThan(10_000)
    expect(replaySolverLine(deck, 8, r.line)).toBe(8)
  })
})
