/**
 * A hint for Idioten played alone (docs/rules.md, A-17 hints): which move of an Aces Up game
 * leaves the fewest cards, as far as the player can know.
 *
 * The stock is secret, so the hint guesses it: it deals the unseen cards in many
 * random orders, and on each guess plays every move the player may make now, followed by the
 * greedy player (`acesUpGreedy`) to the end. Every move is played out on the same guesses, so
 * their figures differ by the move, not by luck. The greedy player's own move stands unless
 * another is clearly better: its mean of cards left lower by more than twice the standard error
 * of the differences (a rollout of a plain player is, in expectation, never worse than it).
 *
 * Tried first and measured worse (engine README): asking the A-16 solver on each guess. With
 * the guessed stock shown to it, it favours whatever keeps choices open, such as a lone card
 * moved between gaps, and over 100 deals it left 13.9 cards on average where these playouts
 * leave 13.5 and the greedy player 14.1.
 *
 * It reads only the player's view: the table, the discards and the size of the stock (I-15).
 * Pure: randomness from the Rng given, no clock.
 */
import {
  type AcesUpMove,
  type AcesUpState,
  type AcesUpView,
  acesUpLegalMoves,
  acesUpView,
  applyAcesUp,
  cardsLeft,
} from './aces-up.ts'
import { decksFor } from './aces-up-options.ts'
import { type Card, fullDeck } from './cards.ts'
import type { Rng } from './rng.ts'
import { acesUpGreedy } from './strategies.ts'

/** One candidate move and the cards it left, on average over the playouts. */
export interface AcesUpWeighed {
  readonly move: AcesUpMove
  /** Mean cards left when the greedy player went on after this move. */
  readonly mean: number
  readonly tries: number
  /**
   * How many cards more than the chosen move this one left on the same guesses, if clearly
   * ({@link clearGain}); 0 when not clearly, or not more. A replay's review lists a move made
   * whose figure is above 0 (a move to look at again).
   */
  readonly behind: number
}

export interface AcesUpThought {
  readonly move: AcesUpMove
  /** Every candidate played out, in the order of the legal moves (empty: only one was legal). */
  readonly weighed: readonly AcesUpWeighed[]
}

/** Guesses of the stock a hint plays out at most. */
export const ACES_UP_HINT_TRIES = 200
/** Guesses it plays out at least, whatever the clock says. */
export const ACES_UP_HINT_MIN_TRIES = 20

export interface AcesUpHintOptions {
  /** Guesses of the stock to play out (default {@link ACES_UP_HINT_TRIES}). */
  readonly tries?: number
  /**
   * Stop early once `now()` passes this, after at least {@link ACES_UP_HINT_MIN_TRIES} guesses
   * (a caller's clock: the engine has none). A slow phone gets fewer playouts, not a slow page.
   */
  readonly deadline?: number
  readonly now?: () => number
}

/** The cards the player has not seen: the stock's, in no known order. */
export function unseenCards(v: AcesUpView): Card[] {
  const seen = new Set<Card>([...v.piles.flat(), ...v.discard])
  const out = fullDeck(decksFor(v.pileCount)).filter((c) => !seen.has(c))
  if (out.length !== v.stockCount) throw new RangeError('the view does not add up to a deck')
  return out
}

/**
 * The hint for the player of view `v`, whose legal moves are `moves` (null when none is left).
 * Undo is never a candidate: it only goes back to where the player was.
 */
export function acesUpHint(
  v: AcesUpView,
  moves: readonly AcesUpMove[],
  rng: Rng,
  opts: AcesUpHintOptions = {},
): AcesUpThought | null {
  const candidates = distinct(moves.filter((m) => m.type !== 'undo'))
  if (v.ended || candidates.length === 0) return null
  const plain = acesUpGreedy(v, candidates, rng)
  if (candidates.length === 1) return { move: plain, weighed: [] }
  // Once the stock is out nothing is hidden: one playout says it all.
  const most = v.stockCount === 0 ? 1 : (opts.tries ?? ACES_UP_HINT_TRIES)
  const unseen = unseenCards(v)
  const left: number[][] = candidates.map(() => [])
  let n = 0
  while (n < most && !pastDeadline(opts, n)) {
    const s = stateOf(v, rng.shuffle(unseen))
    candidates.forEach((m, j) => {
      left[j]!.push(playOut(s, m, rng))
    })
    n++
  }
  const base = Math.max(
    0,
    candidates.findIndex((m) => sameAcesUpMove(m, plain)),
  )
  let chosen = base
  let gained = 0
  left.forEach((row, j) => {
    const gain = clearGain(row, left[base]!)
    if (gain > gained) {
      gained = gain
      chosen = j
    }
  })
  const weighed = candidates.map((move, j) => ({
    move,
    mean: meanOf(left[j]!),
    tries: n,
    behind: clearGain(left[chosen]!, left[j]!),
  }))
  return { move: candidates[chosen]!, weighed }
}

const pastDeadline = (o: AcesUpHintOptions, n: number): boolean =>
  o.now !== undefined &&
  o.deadline !== undefined &&
  n >= ACES_UP_HINT_MIN_TRIES &&
  o.now() > o.deadline

/** The game of view `v` with `stock` as its stock (a guess). */
function stateOf(v: AcesUpView, stock: readonly Card[]): AcesUpState {
  return {
    game: 'aces-up',
    pileCount: v.pileCount,
    undo: 'none',
    piles: v.piles,
    stock,
    discard: v.discard,
    deck: [],
    aces: 4 * decksFor(v.pileCount),
    undoUsed: false,
    last: null,
    ended: false,
    deals: v.deals,
    moves: v.moves,
    recent: [],
  }
}

/** Plays `m`, then the greedy player to the end: the cards left. */
function playOut(start: AcesUpState, m: AcesUpMove, rng: Rng): number {
  let s = start
  let next = m
  for (;;) {
    const r = applyAcesUp(s, 0, next)
    if (!r.ok) throw new Error(`hint playout: ${r.error.message}`)
    s = r.value
    if (s.ended) return cardsLeft(s.piles)
    next = acesUpGreedy(acesUpView(s, 0), acesUpLegalMoves(s), rng)
  }
}

/**
 * Whether two moves come to the same: the same card discarded or moved. Which gap a card goes to
 * changes nothing: the rules never tell piles apart, and every pile gets a card at each deal.
 */
export function sameAcesUpMove(a: AcesUpMove, b: AcesUpMove): boolean {
  if (a.type === 'discard' && b.type === 'discard') return a.pile === b.pile
  if (a.type === 'move' && b.type === 'move') return a.from === b.from
  return a.type === b.type
}

/** `moves` with one move per card into a gap (the first gap): the others come to the same. */
const distinct = (moves: readonly AcesUpMove[]): AcesUpMove[] =>
  moves.filter((m, i) => moves.findIndex((o) => sameAcesUpMove(o, m)) === i)

const meanOf = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length

/**
 * The playouts of the move the hint chose (undefined when nothing was weighed). The candidates
 * are distinct under sameAcesUpMove, so it finds the chosen one and no other.
 */
export const acesUpChosen = (thought: AcesUpThought): AcesUpWeighed | undefined =>
  thought.weighed.find((w) => sameAcesUpMove(w.move, thought.move))

/**
 * How many cards fewer `row` left than `base` on the same guesses, if clearly (the mean of the
 * differences beyond twice its standard error; with one playout, any), else 0.
 */
export function clearGain(row: readonly number[], base: readonly number[]): number {
  const n = row.length
  const d = row.map((x, i) => base[i]! - x)
  const mean = meanOf(d)
  if (mean <= 0) return 0
  if (n === 1) return mean
  const variance = d.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1)
  return mean > 2 * Math.sqrt(variance / n) ? mean : 0
}
