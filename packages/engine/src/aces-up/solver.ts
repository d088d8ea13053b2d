/**
 * A-16 "best possible": the fewest cards that could have been left on an Aces Up deal by perfect
 * play with the stock order known.
 *
 * The game searched (docs/rules.md A-3 … A-8, generalised so that short test decks work): the first
 * min(k, n) cards go face up one per pile from the left; the rest is the stock. A deal puts one
 * stock card on each pile from the left, empty piles included, until the stock runs out (so a last
 * deal may be short). A top card may be discarded when the top card of another pile has the same
 * suit and a strictly higher rank (twins of two decks are equal and kill nothing). When a pile is
 * empty, the top card of any other pile may be moved onto it. Once the stock is empty the player
 * may stop; the result is the number of cards on the table.
 *
 * Piles are NOT interchangeable while the stock has cards: pile i always receives the stock cards
 * i, i+k, i+2k, … So moving a lone card to another empty pile matters (it chooses which stock
 * card will cover it); on a sample of 4-pile deals, forbidding it worsens the optimum on two deals
 * in three. Only piles that receive no further card (all of them once the stock is empty; the
 * right-hand ones before a short last deal) are interchangeable; only those are sorted in keys.
 *
 * Two searches run, both an {@link ExactSearch} (see exact.ts for the search itself: phases
 * between deals, a transposition table, branch and bound; its lower bounds are pile-bound.ts's
 * and high-cards.ts's, and real-line.ts turns its line into moves of the game).
 * - The *closed* search makes every discard as soon as it is possible, so every available discard
 *   is made before each deal (within a phase discard opportunities only grow, so making them at
 *   once is confluent and loses nothing among such lines). It runs within `closedMaxNodes` and
 *   gives `closedBest`, the starting incumbent of the second (its proof, not its line, is what
 *   takes long on a hard deal, so the budget rarely costs a better figure).
 * - The *full* search also lets a discardable card be kept through a deal, deciding late whether
 *   it was discarded or kept (exact.ts explains why that is exact). It runs within `maxNodes`; if
 *   it finishes, `best` is proven optimal over every line of play.
 *
 * Undo (A-9, any setting of the duel) is ignored on purpose: an undo puts the table back into a
 * position it has already been in (the card returns where it was, and never across a deal), so it
 * reaches no new position and cannot lower the fewest cards left (solver-engine.test.ts checks
 * this against a brute force that plays the undo move).
 *
 * Pure: no clock, no randomness, no I/O.
 */

import type { Card } from '../cards.ts'
import { ExactSearch } from './exact.ts'
import { realLine, type SolverMove } from './real-line.ts'

export type { SolverMove } from './real-line.ts'

export interface SolveOptions {
  /**
   * Search budget for the search that also considers KEEPING a discardable card under a deal.
   * Counted in nodes, not time (the engine has no clock). Default {@link DEFAULT_MAX_NODES}.
   * 0 = don't try keeps.
   */
  maxNodes?: number
  /**
   * Search budget for the closed search (every discard before each deal), which gives the
   * starting incumbent. Default: the larger of {@link DEFAULT_CLOSED_MAX_NODES} and `maxNodes`,
   * so a long proof has a long closed search too. `Infinity` always proves the closed optimum.
   */
  closedMaxNodes?: number
  /**
   * The lowest rank the full search's high-card bound keeps (high-cards.ts), or null for none.
   * Default: {@link HIGH_CARDS_RANK} when `maxNodes` is at least {@link HIGH_CARDS_FROM_NODES},
   * else none.
   */
  highCards?: number | null
}

/**
 * How far a figure is proven. 'all' = it is optimal over every line of play; 'closed' = it is
 * optimal only over lines that make every available discard before each deal (the full search ran
 * out of budget; `best` may still be below `closedBest` if it found a better line before that);
 * 'none' = both searches ran out of budget, so it is only an upper bound.
 */
export type Proven = 'all' | 'closed' | 'none'

export interface SolveResult {
  /** Fewest cards left that the solver found (and can replay: see line). */
  best: number
  proven: Proven
  /**
   * The fewest cards found over lines that make every available discard before each deal: their
   * optimum if `closedProven`.
   */
  closedBest: number
  /** Whether the closed search finished, proving `closedBest` optimal over those lines. */
  closedProven: boolean
  /** Nodes searched in total (both searches). */
  nodes: number
  /**
   * A sequence of moves that, played from the start, leaves exactly `best` cards (the player
   * then ends the game when the stock is empty).
   */
  line: SolverMove[]
}

/** Default node budget of the full search (keeps included). */
export const DEFAULT_MAX_NODES = 20_000

/**
 * Default node budget of the closed search. Without one the closed search bounds nothing: on
 * 2,000 deals its slowest took 1.2 million nodes, a second here, to prove its optimum; capped
 * at 100,000 it found the same figure on all but 3 (issue 16, packages/engine/README.md).
 */
export const DEFAULT_CLOSED_MAX_NODES = 100_000

/**
 * The high-card bound pays for itself only in long proofs: on 400 deals at the default budget it
 * proves 214 instead of 216 (its own positions count as nodes) and is slower; from two million
 * nodes on it proves more, and faster (issue 16, packages/engine/README.md).
 */
export const HIGH_CARDS_FROM_NODES = 1_000_000
/** Tens and up: lower ranks make the relaxed game dearer than what it saves. */
export const HIGH_CARDS_RANK = 10

/**
 * Solves an Aces Up deal: the fewest cards that perfect play with the stock order known
 * leaves, and a line of play that achieves it. `deck[0]` is dealt first.
 */
export function solveAcesUp(
  deck: readonly Card[],
  piles: 4 | 5 | 8,
  opts: SolveOptions = {},
): SolveResult {
  if (piles !== 4 && piles !== 5 && piles !== 8) throw new RangeError(`piles: ${piles}`)
  if (deck.length > 104) throw new RangeError('deck: more than 104 cards')
  const seen = new Uint8Array(104)
  for (const c of deck) {
    if (!Number.isInteger(c) || c < 0 || c >= 104) throw new RangeError(`not a card: ${c}`)
    if (seen[c] === 1) throw new RangeError(`card twice: ${c}`)
    seen[c] = 1
  }
  const maxNodes = opts.maxNodes ?? DEFAULT_MAX_NODES
  if (!(maxNodes >= 0)) throw new RangeError(`maxNodes: ${maxNodes}`)
  const closedMaxNodes = opts.closedMaxNodes ?? Math.max(DEFAULT_CLOSED_MAX_NODES, maxNodes)
  if (!(closedMaxNodes >= 1)) throw new RangeError(`closedMaxNodes: ${closedMaxNodes}`)

  const closed = new ExactSearch(deck, piles, true)
  closed.maxNodes = closedMaxNodes
  const rootLb = closed.lowerBound()
  closed.phaseSearch()
  const closedBest = closed.incumbent
  // A line down to the lower bound is optimal, finished or not.
  const closedProven = !closed.aborted || closedBest <= rootLb
  let nodes = closed.nodes
  let best = closed
  let proven: Proven = closedBest <= rootLb ? 'all' : closedProven ? 'closed' : 'none'
  if (proven !== 'all' && maxNodes > 0) {
    const full = new ExactSearch(deck, piles, false)
    const high = opts.highCards === undefined ? defaultHighCards(maxNodes) : opts.highCards
    if (high !== null) full.useHighCards(high)
    full.incumbent = closedBest
    full.maxNodes = maxNodes
    full.phaseSearch()
    nodes += full.nodes
    if (full.incumbent < closedBest) best = full
    if (!full.aborted) proven = 'all'
  }
  return {
    best: best.incumbent,
    proven,
    closedBest,
    closedProven,
    nodes,
    line: realLine(deck, piles, best.line()),
  }
}

const defaultHighCards = (maxNodes: number): number | null =>
  maxNodes >= HIGH_CARDS_FROM_NODES ? HIGH_CARDS_RANK : null
