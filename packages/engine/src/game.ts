import type { Card } from './cards.ts'
import type { FairDeal } from './fair.ts'
import type { Result, RuleError } from './result.ts'

/** A seat at a table, 0..n-1, clockwise (docs/rules.md I-2). */
export type Seat = number
/** Who is looking: a seated player or a spectator. */
export type Viewer = Seat | 'spectator'

/**
 * How the cards are ordered: a seed for the engine's seeded shuffle (simulations, tests), an
 * explicit order (deck[0] first), or a verifiable deal (fair.ts: the server's committed seed and
 * the players' contributions; what real tables use).
 */
export type Deal =
  | { readonly seed: string }
  | { readonly deck: readonly Card[] }
  | { readonly fair: FairDeal }

/**
 * One game definition; every game of kortbord has this shape (after
 * boardgame.io and chessops). All functions are pure: `apply` never mutates its input and never
 * throws on a bad move; it returns a coded error instead. Exceptions are programmer errors only
 * (e.g. invalid options passed to `setup`).
 */
export interface GameDef<State, Move, View, Options, Outcome, Code extends string = string> {
  readonly id: string
  /** Deals a new game. Throws a RangeError on options the game does not allow. */
  setup(opts: Options, seats: number, deal: Deal): State
  /** Every move `seat` may make now; empty when it is not their turn to act. */
  legalMoves(s: State, seat: Seat): readonly Move[]
  /** Applies a move of `seat`: the new state, or a refusal with a stable code. */
  apply(s: State, seat: Seat, m: Move): Result<State, RuleError<Code>>
  /** What `viewer` may know of the state: the only way state leaves the engine. */
  view(s: State, viewer: Viewer): View
  /** The seats that may act now (all unready players in a swap phase, one otherwise). */
  activeSeats(s: State): readonly Seat[]
  /** The result once the game is over, else undefined. */
  outcome(s: State): Outcome | undefined
}
