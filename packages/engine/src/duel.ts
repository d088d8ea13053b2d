/**
 * "Idioten för två": a match of Aces Up games between two players (docs/rules.md A-10 … A-15),
 * or a series of them played alone, scored the same way.
 *
 * Every deal of the match is drawn from the seed at setup, so the cards a player gets never
 * depend on how fast either player plays. The decks stay inside the state and never reach a
 * view until the game that uses them is over.
 */

import type { Proven } from './aces-up/solver.ts'
import {
  ACES_UP_PILES,
  type AcesUpErrorCode,
  type AcesUpMove,
  type AcesUpPiles,
  type AcesUpState,
  type AcesUpView,
  acesUpLegalMoves,
  acesUpLegalMovesFromView,
  acesUpOutcome,
  acesUpView,
  applyAcesUp,
  decksFor,
  startAcesUp,
  UNDO_SETTINGS,
  type UndoSetting,
} from './aces-up.ts'
import { type Card, fullDeck, isCard } from './cards.ts'
import { fairShuffle } from './fair.ts'
import type { Deal, GameDef, Seat, Viewer } from './game.ts'
import { err, ok, type Result, type RuleError } from './result.ts'
import { Rng } from './rng.ts'

export type Scoring = 'kort-kvar' | 'ess' | 'kombinerad'
export const SCORINGS: readonly Scoring[] = ['kort-kvar', 'ess', 'kombinerad']
export type DuelMode = 'simultaneous' | 'alternating'
export const DUEL_MIN_GAMES = 1
export const DUEL_MAX_GAMES = 20

export interface DuelOptions {
  /** Games per player, 1–20; default 5. */
  readonly games?: number
  /** A-11 … A-13; default 'kort-kvar'. */
  readonly scoring?: Scoring
  /** Piles per player (A-14 handicap), e.g. [5, 4]; default [4, 4]. */
  readonly piles?: readonly [AcesUpPiles, AcesUpPiles]
  /** A-10 extension: both players get the identical order in their n-th game. Default false. */
  readonly sameDeal?: boolean
  /** both at once (default) or one after the other ("växelvis"). Alone: simultaneous. */
  readonly mode?: DuelMode
  /** A-9, for every game of the match. Default 'none'. */
  readonly undo?: UndoSetting
}

export interface DuelSettings {
  readonly games: number
  readonly scoring: Scoring
  readonly piles: readonly [AcesUpPiles, AcesUpPiles]
  readonly sameDeal: boolean
  readonly mode: DuelMode
  readonly undo: UndoSetting
}

/** One finished game of one player (public, A-15). */
export interface DuelGameRecord {
  readonly index: number
  readonly piles: AcesUpPiles
  readonly left: number
  readonly won: boolean
  readonly freeAces: number
  readonly points: number
  /** The game's final table. */
  readonly final: readonly (readonly Card[])[]
  /** The deal order, public now that every card has been dealt. */
  readonly deck: readonly Card[]
  /** the fewest cards perfect play could have left, once computed ({@link withBest}). */
  readonly best: DuelBest | null
}

export interface DuelBest {
  readonly best: number
  readonly proven: Proven
  /**
   * On a figure not proven over every line: no proof follows (the background proof ran out of
   * its budget), so the figure stays an upper bound and the sheet says why.
   */
  readonly gaveUp?: true
}

export interface DuelPlayer {
  /** The game being played, or null between turns (alternating) and at the end. */
  readonly current: AcesUpState | null
  readonly results: readonly DuelGameRecord[]
}

/** One player's deal orders, game by game. */
type SeatDecks = readonly (readonly Card[])[]

export interface DuelState {
  readonly game: 'duel'
  readonly settings: DuelSettings
  /** One per seat: two for a match, one for a series played alone. */
  readonly players: readonly [DuelPlayer, ...DuelPlayer[]]
  /** decks[seat][n]: the order of that player's n-th game. Secret. */
  readonly decks: readonly [SeatDecks, ...SeatDecks[]]
  /** In alternating mode, who plays now; null when simultaneous or over. */
  readonly turn: Seat | null
  readonly over: boolean
  readonly moves: number
}

export type DuelMove = AcesUpMove
export type DuelErrorCode = AcesUpErrorCode | 'NOT_YOUR_TURN' | 'MATCH_OVER'
export type DuelError = RuleError<DuelErrorCode>

export interface DuelPlayerTotals {
  readonly points: number
  readonly left: number
  readonly games: number
}

export interface DuelOutcome {
  /** One per seat. */
  readonly totals: readonly [DuelPlayerTotals, ...DuelPlayerTotals[]]
  /** The winner, or null for a draw (A-11: equal points and equal cards left) or alone. */
  readonly winner: Seat | null
  /** Alone nobody is beaten: the totals are the result. */
  readonly decidedBy: 'points' | 'cards-left' | 'draw' | 'alone'
}

/** A game of the opponent's that the viewer may not see yet (same deal, A-15). */
export interface DuelHiddenGame {
  readonly hidden: true
  readonly index: number
  /** Deals made so far in a game being played; null for a finished game. */
  readonly deals: number | null
}

export interface DuelPlayerView {
  readonly current: AcesUpView | DuelHiddenGame | null
  readonly results: readonly (DuelGameRecord | DuelHiddenGame)[]
  readonly totals: DuelPlayerTotals
}

export interface DuelView {
  readonly game: 'duel'
  readonly viewer: Viewer
  readonly settings: DuelSettings
  /** One per seat (one alone, A-17). */
  readonly players: readonly [DuelPlayerView, ...DuelPlayerView[]]
  readonly turn: Seat | null
  readonly over: boolean
  // No count of the match's moves (DuelState.moves): with the same deal it would tell a player how
  // many moves the opponent has made in a game they may not see.
  readonly outcome: DuelOutcome | null
}

// ---------------------------------------------------------------------------------------------
// Scoring (A-11 … A-13)

/**
 * A-11 "kort kvar": 4 left (won) → 0, 5–8 → 1, 9–14 → 2, 15+ → 3. With two decks the same table
 * applies to the cards beyond the eight aces: 0 → 0, 1–4 → 1, 5–10 → 2, 11+ → 3.
 */
export function pointsKortKvar(left: number, aces = 4): number {
  const beyond = left - aces
  if (beyond <= 0) return 0
  if (beyond <= 4) return 1
  if (beyond <= 10) return 2
  return 3
}

/** A-12 "ess": one point per free ace. */
export const pointsEss = (free: number): number => free

/**
 * A-13 "kombinerad": +1 per free ace, −1 per card beyond the aces; a won game scores 4 (all its
 * aces), also when the player ended it with one ace still on another.
 */
export const pointsKombinerad = (free: number, left: number, aces = 4): number =>
  left <= aces ? aces : free - (left - aces)

export function gamePoints(scoring: Scoring, left: number, free: number, aces: number): number {
  if (scoring === 'kort-kvar') return pointsKortKvar(left, aces)
  if (scoring === 'ess') return pointsEss(free)
  return pointsKombinerad(free, left, aces)
}

/** Lowest points win with "kort kvar"; highest with "ess" and "kombinerad". */
export const lowerIsBetter = (scoring: Scoring): boolean => scoring === 'kort-kvar'

// ---------------------------------------------------------------------------------------------
// Setup

export function normalizeDuelOptions(o: DuelOptions): DuelSettings {
  const s: DuelSettings = {
    games: o.games ?? 5,
    scoring: o.scoring ?? 'kort-kvar',
    piles: o.piles ?? [4, 4],
    sameDeal: o.sameDeal ?? false,
    mode: o.mode ?? 'simultaneous',
    undo: o.undo ?? 'none',
  }
  if (!Number.isInteger(s.games) || s.games < DUEL_MIN_GAMES || s.games > DUEL_MAX_GAMES) {
    throw new RangeError('a match is 1–20 games per player (A-10)')
  }
  if (!SCORINGS.includes(s.scoring)) throw new RangeError(`unknown scoring ${String(s.scoring)}`)
  if (s.piles.length !== 2 || !s.piles.every((p) => ACES_UP_PILES.includes(p))) {
    throw new RangeError('piles per player must be 4, 5 or 8 (A-2, A-14)')
  }
  if (s.mode !== 'simultaneous' && s.mode !== 'alternating') throw new RangeError('bad mode')
  if (!UNDO_SETTINGS.includes(s.undo)) throw new RangeError('bad undo setting')
  if (s.sameDeal && decksFor(s.piles[0]) !== decksFor(s.piles[1])) {
    throw new RangeError('the same deal needs the same number of decks on both sides')
  }
  return s
}

/**
 * Deals a match. With a seed, every game's order is shuffled from it; with an explicit deck,
 * every game of both players uses that order (for tests and replays).
 */
export function setupDuel(opts: DuelOptions, seats: number, deal: Deal): DuelState {
  if (seats !== 1 && seats !== 2) throw new RangeError('Idioten is for one or two players (A-17)')
  const settings = normalizeDuelOptions(opts)
  if (seats === 1 && (settings.mode !== 'simultaneous' || settings.sameDeal)) {
    throw new RangeError('alone there is nobody to take turns or share a deal with (A-17)')
  }
  const alone = seats === 1
  const decks: [Card[][], ...Card[][][]] = alone ? [[]] : [[], []]
  if ('seed' in deal || 'fair' in deal) {
    // Each game is shuffled from a stream of its own, so that the orders published after games
    // are not consecutive outputs of one generator (which could hint at the games to come).
    // A fair deal's streams are labelled seat.game: "0.0", "1.0", "0.1", … (docs/fairness.md).
    const shuffled = (seat: number, n: number): Card[] => {
      const cards = fullDeck(decksFor(settings.piles[seat as 0 | 1]))
      return 'seed' in deal
        ? Rng.seeded(`${deal.seed}/${seat}/${n}`).shuffle(cards)
        : fairShuffle(cards, deal.fair, `${seat}.${n}`)
    }
    for (let n = 0; n < settings.games; n++) {
      const first = shuffled(0, n)
      decks[0].push(first)
      if (!alone) decks[1]!.push(settings.sameDeal ? first : shuffled(1, n))
    }
  } else {
    for (const [seat, own] of decks.entries()) {
      const d = decksFor(settings.piles[seat as 0 | 1])
      if (!deal.deck.every((c) => isCard(c, d)) || new Set(deal.deck).size !== deal.deck.length) {
        throw new RangeError('bad deck')
      }
      for (let n = 0; n < settings.games; n++) own.push(deal.deck.slice())
    }
  }
  const start = (seat: 0 | 1): AcesUpState =>
    startAcesUp(decks[seat]![0]!, settings.piles[seat], settings.undo)
  const alternating = settings.mode === 'alternating'
  const p0: DuelPlayer = { current: start(0), results: [] }
  let s: DuelState = {
    game: 'duel',
    settings,
    players: alone ? [p0] : [p0, { current: alternating ? null : start(1), results: [] }],
    decks,
    turn: alternating ? 0 : null,
    over: false,
    moves: 0,
  }
  // A layout can end at once (a deck shorter than the piles): settle before anyone moves.
  s = settle(s, 0)
  if (!alternating && !alone) s = settle(s, 1)
  return s
}

// ---------------------------------------------------------------------------------------------
// Play

/** Records finished games and starts the next ones, repeatedly, for `seat`. */
function settle(s: DuelState, seat: Seat): DuelState {
  let who = seat as 0 | 1
  for (;;) {
    const p = s.players[who]!
    const g = p.current
    if (g === null || !g.ended) return s
    const o = acesUpOutcome(g)!
    const record: DuelGameRecord = {
      index: p.results.length,
      piles: g.pileCount,
      left: o.left,
      won: o.won,
      freeAces: o.freeAces,
      points: gamePoints(s.settings.scoring, o.left, o.freeAces, o.aces),
      final: g.piles,
      deck: g.deck,
      best: null,
    }
    let players = setPlayer(s.players, who, { current: null, results: p.results.concat([record]) })
    let turn: Seat | null = null
    if (s.settings.mode === 'alternating') {
      // Växelvis: 0 plays game n, then 1 plays game n, then 0 plays game n+1, …
      const [n0, n1] = [players[0]!.results.length, players[1]!.results.length]
      const nextSeat: 0 | 1 = n1 < n0 ? 1 : 0
      who = nextSeat
    }
    const q = players[who]!
    if (q.results.length < s.settings.games) {
      players = setPlayer(players, who, { ...q, current: startGame(s, who, q.results.length) })
      if (s.settings.mode === 'alternating') turn = who
    }
    s = finishIfOver({ ...s, players, turn })
  }
}

const startGame = (s: DuelState, seat: 0 | 1, index: number): AcesUpState =>
  startAcesUp(s.decks[seat]![index]!, s.settings.piles[seat], s.settings.undo)

function finishIfOver(s: DuelState): DuelState {
  const done = s.players.every((p) => p.results.length >= s.settings.games)
  return done ? { ...s, over: true, turn: null } : s
}

type Players = readonly [DuelPlayer, ...DuelPlayer[]]

/** Maps one entry per seat, keeping the first seat's. */
const perSeat = <T, U>(xs: readonly [T, ...T[]], f: (x: T, seat: Seat) => U): [U, ...U[]] =>
  xs.map((x, seat) => f(x, seat)) as [U, ...U[]]

const setPlayer = (players: Players, seat: Seat, p: DuelPlayer): Players =>
  perSeat(players, (q, i) => (i === seat ? p : q))

/** Whether `seat` plays at this table: 0 alone, 0 or 1 in a match. */
const isSeatOf = (s: DuelState, seat: unknown): seat is 0 | 1 =>
  (seat === 0 || seat === 1) && seat < s.players.length

export function duelLegalMoves(s: DuelState, seat: Seat): DuelMove[] {
  if (!isSeatOf(s, seat) || s.over) return []
  if (s.turn !== null && s.turn !== seat) return []
  const g = s.players[seat]!.current
  return g ? acesUpLegalMoves(g, 0) : []
}

/** A seat's legal moves from its own view of the match (for clients). */
export function duelLegalMovesFromView(v: DuelView): DuelMove[] {
  const seat = v.viewer
  if (seat !== 0 && seat !== 1) return []
  if (v.over || (v.turn !== null && v.turn !== seat)) return []
  const g = v.players[seat]?.current ?? null
  if (g === null || 'hidden' in g) return []
  return acesUpLegalMovesFromView(g)
}

export function applyDuel(s: DuelState, seat: Seat, m: DuelMove): Result<DuelState, DuelError> {
  if (!isSeatOf(s, seat)) return err('NOT_A_SEAT', `seat ${String(seat)} is not at this table`)
  if (s.over) return err('MATCH_OVER', 'the match is over')
  if (s.turn !== null && s.turn !== seat)
    return err('NOT_YOUR_TURN', 'the other player is playing (A-10 växelvis)')
  const mine = s.players[seat]!
  if (mine.current === null) return err('MATCH_OVER', 'you have played all your games')
  const r = applyAcesUp(mine.current, 0, m)
  if (!r.ok) return r
  const players = setPlayer(s.players, seat, { ...mine, current: r.value })
  return ok(settle({ ...s, players, moves: s.moves + 1 }, seat))
}

/**
 * attaches the best possible result to a finished game's record (computed outside the
 * move path, e.g. by {@link solveAcesUp} in a worker). Returns the state unchanged if the record
 * does not exist.
 */
export function withBest(s: DuelState, seat: Seat, index: number, best: DuelBest): DuelState {
  if (!isSeatOf(s, seat)) return s
  const p = s.players[seat]!
  const r = p.results[index]
  if (!r) return s
  const results = p.results.slice()
  const gaveUp = best.gaveUp === true && best.proven !== 'all'
  results[index] = {
    ...r,
    best: { best: best.best, proven: best.proven, ...(gaveUp ? { gaveUp: true as const } : {}) },
  }
  return { ...s, players: setPlayer(s.players, seat, { ...p, results }) }
}

// ---------------------------------------------------------------------------------------------
// Views and outcome

function totalsOf(p: DuelPlayer): DuelPlayerTotals {
  let points = 0
  let left = 0
  for (const r of p.results) {
    points += r.points
    left += r.left
  }
  return { points, left, games: p.results.length }
}

export function duelOutcome(s: DuelState): DuelOutcome | undefined {
  if (!s.over) return undefined
  const totals = perSeat(s.players, totalsOf)
  const [a, b] = totals as [DuelPlayerTotals, DuelPlayerTotals | undefined]
  // alone, the totals are the result; nobody wins or loses.
  if (b === undefined) return { totals, winner: null, decidedBy: 'alone' }
  if (a.points !== b.points) {
    const zeroWins = lowerIsBetter(s.settings.scoring) ? a.points < b.points : a.points > b.points
    return { totals, winner: zeroWins ? 0 : 1, decidedBy: 'points' }
  }
  // A-11 decided: equal totals are broken by the cards left over all games (fewer wins).
  if (a.left !== b.left) return { totals, winner: a.left < b.left ? 0 : 1, decidedBy: 'cards-left' }
  return { totals, winner: null, decidedBy: 'draw' }
}

/**
 * both tables are public, the stocks are secret. With the same deal, a player may not see
 * the opponent's n-th game until they have finished their own n-th game (it would show them
 * their own stock). Spectators see a game only once the other player has finished theirs of the
 * same index: anyone may watch, so a player could watch their own table from a second tab.
 */
export function duelView(s: DuelState, viewer: Viewer): DuelView {
  const maySee = (owner: Seat, index: number): boolean => {
    if (!s.settings.sameDeal || viewer === owner || s.over) return true
    // A spectator could be a player in a second tab: they see a game of one player only once the
    // other has finished their own game of that index (the trailing player is shown live).
    const other = viewer === 'spectator' ? s.players[1 - owner] : s.players[viewer]
    return other !== undefined && other.results.length > index
  }
  const playerView = (p: DuelPlayer, owner: number): DuelPlayerView => {
    const g = p.current
    let current: AcesUpView | DuelHiddenGame | null = null
    if (g !== null) {
      current = maySee(owner, p.results.length)
        ? acesUpView(g, viewer)
        : { hidden: true, index: p.results.length, deals: g.deals }
    }
    const seen = p.results.filter((r) => maySee(owner, r.index))
    return {
      current,
      results: p.results.map((r) =>
        maySee(owner, r.index) ? r : { hidden: true as const, index: r.index, deals: null },
      ),
      // Totals over the games this viewer may see, so that a hidden result cannot be inferred.
      totals: totalsOf({ current: null, results: seen }),
    }
  }
  return {
    game: 'duel',
    viewer,
    settings: s.settings,
    players: perSeat(s.players, playerView),
    turn: s.turn,
    over: s.over,
    outcome: duelOutcome(s) ?? null,
  }
}

export function duelActiveSeats(s: DuelState): Seat[] {
  if (s.over) return []
  if (s.turn !== null) return [s.turn]
  return s.players.flatMap((p, seat) => (p.current !== null ? [seat] : []))
}

export const duel: GameDef<DuelState, DuelMove, DuelView, DuelOptions, DuelOutcome, DuelErrorCode> =
  {
    id: 'duel',
    setup: setupDuel,
    legalMoves: duelLegalMoves,
    apply: applyDuel,
    view: duelView,
    activeSeats: duelActiveSeats,
    outcome: duelOutcome,
  }
