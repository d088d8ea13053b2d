/**
 * The A-16 solver against the engine's own rules: a brute force that plays every legal move of
 * `acesUp` (not the solver's model of the game) on short stacked decks, and the solver's line of
 * play replayed through `acesUp.apply`.
 */
import { describe, expect, it } from 'vitest'
import { solveAcesUp } from '../src/aces-up/solver.ts'
import {
  type AcesUpPiles,
  type AcesUpState,
  acesUp,
  type Card,
  fullDeck,
  Rng,
  type UndoSetting,
} from '../src/index.ts'
import { replaySolverLine } from './aces-up-helpers.ts'

/**
 * The fewest cards left over every line of play the engine allows (exhaustive, memoised on the
 * table). With an undo setting the undo move is played too, and the key then also holds
 * what an undo could still take back.
 */
function bruteForce(deck: readonly Card[], piles: AcesUpPiles, undo: UndoSetting = 'none'): number {
  const start = acesUp.setup({ piles, undo }, 1, { deck })
  const seen = new Set<string>()
  let best = Number.POSITIVE_INFINITY
  const stack: AcesUpState[] = [start]
  while (stack.length > 0) {
    const s = stack.pop()!
    const key = `${s.stock.length}|${s.piles.map((p) => p.join(',')).join('|')}|${s.undoUsed}|${JSON.stringify(s.last)}`
    if (seen.has(key)) continue
    seen.add(key)
    if (s.stock.length === 0)
      best = Math.min(
        best,
        s.piles.reduce((n, p) => n + p.length, 0),
      )
    if (s.ended) continue
    for (const m of acesUp.legalMoves(s, 0)) {
      if (m.type === 'finish') continue
      const r = acesUp.apply(s, 0, m)
      if (r.ok) stack.push(r.value)
    }
  }
  return best
}

function shortDeck(rng: Rng, piles: AcesUpPiles): Card[] {
  const suits = rng.shuffle([0, 1, 2, 3]).slice(0, 2 + rng.int(2))
  const pool = fullDeck(piles === 8 ? 2 : 1).filter((c) => suits.includes(Math.floor(c / 13) % 4))
  // 5 piles leave more piles empty, and moves between empty piles multiply the tables
  return rng.shuffle(pool).slice(0, piles === 4 ? 9 + rng.int(4) : 8 + rng.int(2))
}

describe('A-16 solver against the engine', () => {
  // (8 piles: single cards wandering between many empty piles make a plain brute force explode —
  // 3.3 million tables for 9 cards — so two-deck deals are checked by replaying the solver's line.)
  for (const piles of [4, 5] as const) {
    it(`[A-16] agrees with a brute force over the engine's legal moves on short decks (${piles} piles)`, () => {
      const rng = Rng.seeded(`solver-engine-${piles}`)
      for (let i = 0; i < 30; i++) {
        const deck = shortDeck(rng, piles)
        const r = solveAcesUp(deck, piles, { maxNodes: 1_000_000 })
        expect(r.proven).toBe('all')
        expect(r.best).toBe(bruteForce(deck, piles))
        expect(r.best).toBeLessThanOrEqual(r.closedBest)
        expect(replaySolverLine(deck, piles, r.line)).toBe(r.best)
      }
    })
  }

  it("[A-16][A-9] the undo a table allows changes nothing: the best over lines with undo is the solver's", () => {
    // An undo returns the table to a position it has already been in (the card goes back where it
    // was, and only before the next deal), so it reaches no new position and the fewest cards left
    // is the same for every undo setting. The solver therefore ignores undo.
    const rng = Rng.seeded('solver-engine-undo')
    for (let i = 0; i < 8; i++) {
      const deck = shortDeck(rng, 4).slice(0, 10)
      const r = solveAcesUp(deck, 4, { maxNodes: 1_000_000 })
      for (const undo of ['discards', 'moves', 'both'] as const) {
        expect(bruteForce(deck, 4, undo), `${undo} ${JSON.stringify(deck)}`).toBe(r.best)
      }
    }
  })

  it('[A-16] the line of play on full deals replays through the engine to the stated result', () => {
    for (const piles of [4, 5, 8] as const) {
      for (let i = 0; i < 5; i++) {
        const deck = acesUp.setup({ piles }, 1, { seed: `solver-full-${piles}-${i}` }).deck
        const r = solveAcesUp(deck, piles)
        expect(r.best).toBeGreaterThanOrEqual(piles === 8 ? 8 : 4)
        expect(r.best).toBeLessThanOrEqual(r.closedBest)
        expect(replaySolverLine(deck, piles, r.line)).toBe(r.best)
      }
    }
  })
})
