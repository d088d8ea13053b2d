import {
  addToTally,
  type Card,
  type Deal,
  type DuelMove,
  type DuelState,
  type DuelView,
  duel,
  duelOutcome,
  type HerrarnaMove,
  type HerrarnaState,
  herrarna,
  herrarnaOutcome,
  type IdiotMove,
  type IdiotState,
  idiot,
  idiotOutcome,
  type KlockanMove,
  type KlockanState,
  klockan,
  klockanOutcome,
  nextDealer,
  type Result,
  type RuleError,
  rankOf,
  type Seat,
  type Viewer,
} from '@kortbord/engine'
import {
  AcesUpMoveSchema,
  type DuelTableSettings,
  type GameId,
  type GameView,
  HerrarnaMoveSchema,
  IdiotMoveSchema,
  type IdiotTableSettings,
  KlockanMoveSchema,
  type KlockanTableSettings,
  type TableSettings,
  type TimeoutAction,
} from '@kortbord/protocol'
import type { z } from 'zod'

export type AnyState = IdiotState | DuelState | KlockanState | HerrarnaState
export type AnyMove = IdiotMove | DuelMove | KlockanMove | HerrarnaMove

/** What the table needs of a game beyond the engine's GameDef. */
export interface GameAdapter {
  readonly id: GameId
  readonly moveSchema: z.ZodType<AnyMove>
  seats(settings: TableSettings): number
  /**
   * The engine's options for the next game: the table's settings and, where the rules say so,
   * the previous game at this table (I-5's dealer, K-6's first player). Kept in the game record.
   */
  options(settings: TableSettings, previous: AnyState | null): Record<string, unknown>
  /** Deals a game with those options. */
  setup(options: Record<string, unknown>, settings: TableSettings, deal: Deal): AnyState
  /** The engine's outcome of a finished game (for its record), else undefined. */
  outcome(s: AnyState): unknown
  apply(s: AnyState, seat: Seat, m: AnyMove): Result<AnyState, RuleError>
  legalMoves(s: AnyState, seat: Seat): readonly AnyMove[]
  view(s: AnyState, viewer: Viewer): GameView
  activeSeats(s: AnyState): readonly Seat[]
  isOver(s: AnyState): boolean
  /** The tally after a finished game (I-16). */
  tally(s: AnyState, tally: readonly number[]): number[]
  /**
   * The tally after a game ended with `seat` forfeiting it (away, I-16): in Idiot that seat is
   * the Idiot; in a two-player game the other player wins.
   */
  forfeitTally(tally: readonly number[], seat: Seat): number[]
  /**
   * The seats whose commands made before this move are now stale: those whose legal moves may
   * have changed. Idiot's swap phase and the simultaneous duel leave the others untouched.
   */
  staleAfter(before: AnyState, after: AnyState, seat: Seat): readonly Seat[]
  /** Whether a table with these settings can run a turn timer (someone may wait for someone). */
  timed(settings: TableSettings): boolean
  /**
   * Whether a table with these settings hides some moves from some viewers (A-15: a same-deal
   * duel), so that each viewer gets versions of its own (shown.ts). Absent: never.
   */
  hidesMoves?(settings: TableSettings): boolean
  /** The seats whose game in play a viewer's view hides (their clocks are hidden too). */
  hiddenSeats?(view: GameView): Seat[]
  /** What the server does for a seat whose time ran out (docs/rules.md I-16, issue 3). */
  timeoutMove(s: AnyState, seat: Seat): { move: AnyMove; action: TimeoutAction } | null
}

const all = (n: number): Seat[] => Array.from({ length: n }, (_, i) => i)

/** Two players: the one who did not forfeit wins. */
function otherWins(tally: readonly number[], seat: Seat): number[] {
  const t = tally.slice()
  const other = 1 - seat
  t[other] = (t[other] ?? 0) + 1
  return t
}

export const idiotAdapter: GameAdapter = {
  id: 'idiot',
  moveSchema: IdiotMoveSchema as z.ZodType<AnyMove>,
  seats: (settings) => (settings as IdiotTableSettings).seats,
  options(_settings, previous) {
    const last = previous ? idiotOutcome(previous as IdiotState) : undefined
    // I-5: the loser of the previous game deals the next one.
    return last ? { dealer: nextDealer(last) } : {}
  },
  setup: (options, settings, deal) =>
    idiot.setup(options, (settings as IdiotTableSettings).seats, deal),
  outcome: (s) => idiotOutcome(s as IdiotState),
  apply: (s, seat, m) => idiot.apply(s as IdiotState, seat, m as IdiotMove),
  legalMoves: (s, seat) => idiot.legalMoves(s as IdiotState, seat),
  view: (s, viewer) => idiot.view(s as IdiotState, viewer),
  activeSeats: (s) => idiot.activeSeats(s as IdiotState),
  isOver: (s) => (s as IdiotState).phase === 'over',
  tally(s, tally) {
    const o = idiotOutcome(s as IdiotState)
    return o ? addToTally(tally, o) : tally.slice()
  },
  forfeitTally(tally, seat) {
    const t = tally.slice()
    t[seat] = (t[seat] ?? 0) + 1
    return t
  },
  staleAfter(before, after, seat) {
    const b = before as IdiotState
    // Swaps and readiness are each player's own business until the play starts.
    if (b.phase === 'swap' && (after as IdiotState).phase === 'swap') return [seat]
    return all(b.seats)
  },
  timed: () => true,
  timeoutMove(s, seat) {
    const st = s as IdiotState
    if (st.phase === 'swap') {
      return st.players[seat]?.ready === false ? { move: { type: 'ready' }, action: 'ready' } : null
    }
    if (st.phase !== 'play' || st.turn !== seat) return null
    const moves = idiot.legalMoves(st, seat)
    if (st.pile.length > 0) {
      const pickup = moves.find((m) => m.type === 'pickup')
      if (pickup) return { move: pickup, action: 'pickup' }
    }
    // The lowest legal card, alone.
    let best: IdiotMove | null = null
    let bestCard: Card = 0
    for (const m of moves) {
      if (m.type !== 'play' || m.cards.length !== 1) continue
      const c = m.cards[0]!
      if (
        best === null ||
        rankOf(c) < rankOf(bestCard) ||
        (rankOf(c) === rankOf(bestCard) && c < bestCard)
      ) {
        best = m
        bestCard = c
      }
    }
    return best ? { move: best, action: 'play' } : null
  },
}

export const duelAdapter: GameAdapter = {
  id: 'duel',
  moveSchema: AcesUpMoveSchema as z.ZodType<AnyMove>,
  // A table stored before A-17 has no seats setting: it was a match for two.
  seats: (settings) => (settings as DuelTableSettings).seats ?? 2,
  options(settings) {
    const { turnSeconds: _clock, seats: _seats, ...o } = settings as DuelTableSettings
    return o
  },
  setup: (options, settings, deal) =>
    duel.setup(options as DuelTableSettings, duelAdapter.seats(settings), deal),
  outcome: (s) => duelOutcome(s as DuelState),
  apply: (s, seat, m) => duel.apply(s as DuelState, seat, m as DuelMove),
  legalMoves: (s, seat) => duel.legalMoves(s as DuelState, seat),
  view: (s, viewer) => duel.view(s as DuelState, viewer),
  activeSeats: (s) => duel.activeSeats(s as DuelState),
  isOver: (s) => (s as DuelState).over,
  tally(s, tally) {
    const o = duelOutcome(s as DuelState)
    const t = tally.slice()
    if (o && o.winner !== null) t[o.winner] = (t[o.winner] ?? 0) + 1
    // alone the table counts the games that came out, as a patience's table does.
    if (o?.decidedBy === 'alone') {
      t[0] = (t[0] ?? 0) + (s as DuelState).players[0].results.filter((r) => r.won).length
    }
    return t
  },
  forfeitTally: otherWins,
  staleAfter(before, after, seat) {
    const b = before as DuelState
    const a = after as DuelState
    // Each player's games are their own: only a change of turn concerns the other.
    if (b.turn === null && a.turn === null && !a.over) return [seat]
    return all(a.players.length)
  },
  // alone nobody waits for anyone.
  timed: (settings) => duelAdapter.seats(settings) === 2,
  hidesMoves: (settings) => (settings as DuelTableSettings).sameDeal === true,
  hiddenSeats: (view) =>
    (view as DuelView).players.flatMap(({ current: g }, seat) =>
      g !== null && 'hidden' in g ? [seat] : [],
    ),
  timeoutMove(s, seat) {
    // A staller's game goes on without them: the next deal, or the end once the stock is out.
    const moves = duel.legalMoves(s as DuelState, seat)
    const deal = moves.find((m) => m.type === 'deal')
    if (deal) return { move: deal, action: 'deal' }
    const finish = moves.find((m) => m.type === 'finish')
    return finish ? { move: finish, action: 'finish' } : null
  },
}

export const klockanAdapter: GameAdapter = {
  id: 'klockan',
  moveSchema: KlockanMoveSchema as z.ZodType<AnyMove>,
  seats: (settings) => (settings as KlockanTableSettings).seats,
  options(settings, previous) {
    const { variant, seats } = settings as KlockanTableSettings
    // K-6 favours neither player only when they take turns to start: alternate, game by game.
    const first = seats === 2 && previous ? 1 - (previous as KlockanState).first : 0
    return { variant, first }
  },
  setup: (options, settings, deal) =>
    klockan.setup(
      options as { variant: KlockanTableSettings['variant'] },
      (settings as KlockanTableSettings).seats,
      deal,
    ),
  outcome: (s) => klockanOutcome(s as KlockanState),
  apply: (s, seat, m) => klockan.apply(s as KlockanState, seat, m as KlockanMove),
  legalMoves: (s, seat) => klockan.legalMoves(s as KlockanState, seat),
  view: (s, viewer) => klockan.view(s as KlockanState, viewer),
  activeSeats: (s) => klockan.activeSeats(s as KlockanState),
  isOver: (s) => (s as KlockanState).phase === 'over',
  tally(s, tally) {
    // Games won: the patience going out alone, or the other player turning the last king (K-6).
    const o = klockanOutcome(s as KlockanState)
    const t = tally.slice()
    const winner = o === undefined ? null : (o.winner ?? (o.won ? 0 : null))
    if (winner !== null) t[winner] = (t[winner] ?? 0) + 1
    return t
  },
  forfeitTally: otherWins,
  staleAfter: (before) => all((before as KlockanState).players),
  // För två only: alone nobody waits for anyone.
  timed: (settings) => (settings as KlockanTableSettings).seats === 2,
  timeoutMove(s, seat) {
    const moves = klockan.legalMoves(s as KlockanState, seat)
    const turn = moves.find((m) => m.type === 'turn')
    if (turn) return { move: turn, action: 'turn' }
    const decline = moves.find((m) => m.type === 'decline')
    return decline ? { move: decline, action: 'turn' } : null
  },
}

export const herrarnaAdapter: GameAdapter = {
  id: 'herrarna',
  moveSchema: HerrarnaMoveSchema as z.ZodType<AnyMove>,
  seats: () => 1,
  options: () => ({}),
  setup: (_options, _settings, deal) => herrarna.setup({}, 1, deal),
  outcome: (s) => herrarnaOutcome(s as HerrarnaState),
  apply: (s, seat, m) => herrarna.apply(s as HerrarnaState, seat, m as HerrarnaMove),
  legalMoves: (s, seat) => herrarna.legalMoves(s as HerrarnaState, seat),
  view: (s, viewer) => herrarna.view(s as HerrarnaState, viewer),
  activeSeats: (s) => herrarna.activeSeats(s as HerrarnaState),
  isOver: (s) => herrarnaOutcome(s as HerrarnaState) !== undefined,
  tally(s, tally) {
    const t = tally.slice()
    if (herrarnaOutcome(s as HerrarnaState)?.won) t[0] = (t[0] ?? 0) + 1
    return t
  },
  // One player: nobody to forfeit to (the table refuses NOT_FOR_SOLO first).
  forfeitTally: (tally) => tally.slice(),
  staleAfter: () => [0],
  timed: () => false,
  timeoutMove: () => null,
}

export const ADAPTERS: Record<GameId, GameAdapter> = {
  idiot: idiotAdapter,
  duel: duelAdapter,
  klockan: klockanAdapter,
  herrarna: herrarnaAdapter,
}
