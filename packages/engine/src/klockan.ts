/**
 * Klockan — Clock patience, and its variants (docs/rules.md K-1 … K-8).
 *
 * Layout. Piles are numbered in the order K-1 deals to them:
 * - one deck ('standard', 'rescue'): 13 piles, `piles[h - 1]` is the pile at hour h (1–12: ace,
 *   2–10, jack, queen) and `piles[12]` is the centre (kings);
 * - 'twelve' (K-7): 12 piles, `piles[h - 1]` for hours 1–12, no centre, no kings;
 * - 'twoDecks' (K-8): 26 piles, two per hour side by side: `piles[2 * (h - 1)]` is the left pile
 *   of hour h and `piles[2 * (h - 1) + 1]` the right one; hour 13 (24, 25) is the centre pair.
 * K-1's canonical order, generalised: one card at a time to piles 0, 1, …, P − 1 in that
 * numbering, four rounds (so with two decks: 1, 1′, 2, 2′, …, 12, 12′, centre, centre′); the last
 * card a pile receives is its top card.
 *
 * A move `turn` turns exactly one card (K-3): the top face-down card of the current pile is placed
 * face up at the bottom of the pile of its rank, and that pile becomes the current one. The game
 * ends when the current pile has no face-down card left (K-4, K-7, K-8: in every variant this
 * happens exactly when the last card of the "stop" rank is placed — the fourth king, the fourth
 * queen with twelve piles, the eighth king with two decks — because every other pile still holds
 * a face-down card for each card of its rank not yet placed).
 */
import { type Card, fullDeck, isCard, RANK_ACE, rankOf } from './cards.ts'
import { fairShuffle } from './fair.ts'
import type { Deal, GameDef, Seat, Viewer } from './game.ts'
import { err, ok, type Result, type RuleError } from './result.ts'
import { Rng } from './rng.ts'

/** K-4 (standard), K-5 (med en räddning), K-7 (tolv högar), K-8 (två lekar). */
export type KlockanVariant = 'standard' | 'rescue' | 'twelve' | 'twoDecks'
export const KLOCKAN_VARIANTS: readonly KlockanVariant[] = [
  'standard',
  'rescue',
  'twelve',
  'twoDecks',
]

export interface KlockanOptions {
  /** Default 'standard'. */
  readonly variant?: KlockanVariant
  /** K-6: who turns the first card (default seat 0); a table alternates it game by game. */
  readonly first?: Seat
}

/** The hour of the centre pile (kings). */
export const KLOCKAN_CENTRE_HOUR = 13

export interface KlockanPile {
  /** 1–12 for the ring (ace = 1, jack = 11, queen = 12), 13 for the centre (kings). */
  readonly hour: number
  /** K-8: 0 is the left pile of its hour, 1 the right one; always 0 with one deck. */
  readonly side: 0 | 1
  /** Face-down cards, bottom first: the last one is the top, turned next. Secret from everyone. */
  readonly down: readonly Card[]
  /** Face-up cards in the order they were placed under the pile (K-3). Public. */
  readonly up: readonly Card[]
}

/** `turn`: the current pile's next card; `rescue` only while waiting for the K-5 decision. */
export type KlockanPhase = 'turn' | 'rescue' | 'over'

/** One card turned and placed (K-3). */
export interface KlockanTurn {
  readonly seat: Seat
  readonly card: Card
  /** The pile it was turned from. */
  readonly from: number
  /** The pile it was placed under, which the next card is turned from. */
  readonly to: number
}

/** K-5: the rescue as it was made. Public: everybody saw the king go face down. */
export interface KlockanRescue {
  readonly seat: Seat
  /** The fourth king, now face down in `pile` (until it is turned again). */
  readonly king: Card
  /** The face-down card that was chosen, turned and played in the king's stead. */
  readonly card: Card
  readonly pile: number
  /** The depth chosen: 0 was the top face-down card of the pile. */
  readonly depth: number
  /** Face-down cards under the king: fixes its place while the cards above are turned. */
  readonly below: number
}

export type KlockanEvent =
  | ({ readonly t: 'turn' } & KlockanTurn)
  | {
      readonly t: 'rescue'
      readonly seat: Seat
      readonly king: Card
      readonly pile: number
      readonly depth: number
      readonly card: Card
      readonly to: number
    }
  | { readonly t: 'rescue-offered'; readonly seat: Seat; readonly faceDown: number }
  | { readonly t: 'decline'; readonly seat: Seat }
  | {
      readonly t: 'end'
      readonly won: boolean
      readonly faceDown: number
      readonly loser: Seat | null
    }

export interface KlockanState {
  readonly game: 'klockan'
  readonly variant: KlockanVariant
  /** 1, or 2 for "Klockan för två" (K-6). */
  readonly players: 1 | 2
  readonly piles: readonly KlockanPile[]
  /** The pile the next card is turned from; null while a rescue is offered and at the end. */
  readonly current: number | null
  readonly phase: KlockanPhase
  /** Whose turn it is (K-6 alternates, `first` first); null at the end. */
  readonly turn: Seat | null
  /** K-6: the seat that turned the first card. */
  readonly first: Seat
  /** Cards turned so far; a rescue's chosen card counts (so a rescued win turns 53). */
  readonly turned: number
  readonly last: KlockanTurn | null
  readonly rescue: KlockanRescue | null
  /** The deal order; secret (it would tell the face-down cards). */
  readonly deck: readonly Card[]
  readonly moves: number
  /** The events of the last move. */
  readonly recent: readonly KlockanEvent[]
}

/**
 * `turn` turns one card. `rescue` (K-5) chooses the face-down card at `depth` in `pile`
 * (0, the default, is its top face-down card; faceDown − 1 its deepest). `decline` refuses the
 * rescue and ends the game.
 */
export type KlockanMove =
  | { readonly type: 'turn' }
  | { readonly type: 'rescue'; readonly pile: number; readonly depth?: number }
  | { readonly type: 'decline' }

export type KlockanErrorCode =
  | 'BAD_MOVE'
  | 'NOT_A_SEAT'
  | 'NOT_YOUR_TURN'
  | 'GAME_OVER'
  | 'RESCUE_PENDING'
  | 'NO_RESCUE'
  | 'BAD_PILE'
  | 'NO_FACE_DOWN'
  | 'BAD_DEPTH'

export type KlockanError = RuleError<KlockanErrorCode>

export interface KlockanOutcome {
  /** K-4: no face-down card is left. */
  readonly won: boolean
  /** K-4: the result, face-down cards left. */
  readonly faceDown: number
  readonly turned: number
  /** K-5: the rescue was used. */
  readonly rescued: boolean
  /** K-6: who turned the card that ended the game; null with one player. */
  readonly loser: Seat | null
  /** K-6: the other player; null with one player. */
  readonly winner: Seat | null
}

export interface KlockanPileView {
  readonly hour: number
  readonly side: 0 | 1
  /** How many face-down cards the pile holds; which they are is hidden from everyone. */
  readonly faceDown: number
  /** The face-up cards, in the order they were placed. */
  readonly faceUp: readonly Card[]
}

export interface KlockanRescueView extends KlockanRescue {
  /** The king's depth now (0 = it is turned next from its pile); null once it is turned again. */
  readonly kingDepth: number | null
}

/** The same for players and spectators: everything face down is hidden from everyone. */
export interface KlockanView {
  readonly game: 'klockan'
  readonly viewer: Viewer
  readonly variant: KlockanVariant
  readonly players: 1 | 2
  readonly piles: readonly KlockanPileView[]
  readonly current: number | null
  readonly phase: KlockanPhase
  readonly turn: Seat | null
  readonly turned: number
  /** Face-down cards left on the table. */
  readonly faceDown: number
  /** K-5: whether this game has a rescue that is not used yet. */
  readonly rescueAvailable: boolean
  readonly rescue: KlockanRescueView | null
  /** The card just turned. */
  readonly last: KlockanTurn | null
  readonly moves: number
  readonly recent: readonly KlockanEvent[]
  readonly outcome: KlockanOutcome | null
}

// ---------------------------------------------------------------------------------------------
// Layout

/** The hour of a card: ace 1, 2–10 by value, jack 11, queen 12, king 13 (the centre). */
export const klockanHour = (c: Card): number => {
  const r = rankOf(c)
  return r === RANK_ACE ? 1 : r
}

export const klockanPileCount = (v: KlockanVariant): number =>
  v === 'twoDecks' ? 26 : v === 'twelve' ? 12 : 13

export const klockanDecks = (v: KlockanVariant): 1 | 2 => (v === 'twoDecks' ? 2 : 1)

/** K-2, K-7, K-8: the pile the first card is turned from. */
export const klockanStartPile = (v: KlockanVariant): number =>
  v === 'twoDecks' ? 24 : v === 'twelve' ? 11 : 12

/** The piles of an hour: one, or two (left, right) with two decks. */
export function klockanPilesOfHour(v: KlockanVariant, hour: number): number[] {
  return v === 'twoDecks' ? [2 * (hour - 1), 2 * (hour - 1) + 1] : [hour - 1]
}

/** The cards a variant plays with: 52, 48 without the kings (K-7), or 104 (K-8). */
export function klockanCards(v: KlockanVariant): Card[] {
  const all = fullDeck(klockanDecks(v))
  return v === 'twelve' ? all.filter((c) => klockanHour(c) !== KLOCKAN_CENTRE_HOUR) : all
}

/** The deal order a seed gives (what `setup` deals from); for simulations. */
export const klockanDeck = (v: KlockanVariant, seed: string): Card[] =>
  Rng.seeded(seed).shuffle(klockanCards(v))

/**
 * K-3 and K-8: the pile a card goes under. With two decks, the pile of its hour with more
 * face-down cards, the left one on a tie; `downCount(p)` counts after the card was lifted.
 */
function targetPile(v: KlockanVariant, card: Card, downCount: (p: number) => number): number {
  const hour = klockanHour(card)
  if (v !== 'twoDecks') return hour - 1
  const left = 2 * (hour - 1)
  return downCount(left + 1) > downCount(left) ? left + 1 : left
}

// ---------------------------------------------------------------------------------------------
// Setup

/**
 * Deals a game (K-1). `seats` is 1, or 2 for "Klockan för två" (K-6).
 *
 * K-6 **decided here**: för två goes with 'standard', 'twelve' and 'twoDecks' — whoever turns
 * the card that ends the game (the fourth king, the fourth queen with twelve piles, the eighth
 * king with two decks) loses, also when it is the last card of all. It does not go with
 * 'rescue': K-5's rescue is a choice "the player" makes, and in a race it would be a choice over
 * who loses, which the seed does not cover. Throws a RangeError on such options.
 */
export function setupKlockan(opts: KlockanOptions, seats: number, deal: Deal): KlockanState {
  const variant = opts.variant ?? 'standard'
  if (!KLOCKAN_VARIANTS.includes(variant)) {
    throw new RangeError(`unknown Klockan variant ${String(variant)}`)
  }
  if (seats !== 1 && seats !== 2) throw new RangeError('Klockan is for one or two players (K-6)')
  if (seats === 2 && variant === 'rescue') {
    throw new RangeError('Klockan för två is played without the rescue (K-5, K-6)')
  }
  const cards = klockanCards(variant)
  let deck: readonly Card[]
  if ('seed' in deal) {
    deck = klockanDeck(variant, deal.seed)
  } else if ('fair' in deal) {
    deck = fairShuffle(klockanCards(variant), deal.fair, 'klockan')
  } else {
    deck = deal.deck.slice()
    const allowed = new Set(cards)
    const seen = new Set<Card>()
    for (const c of deck) {
      if (!isCard(c, klockanDecks(variant)) || !allowed.has(c) || seen.has(c)) {
        throw new RangeError(`bad or repeated card for ${variant}: ${String(c)}`)
      }
      seen.add(c)
    }
    if (deck.length !== cards.length) {
      throw new RangeError(`${variant} needs all ${cards.length} of its cards`)
    }
  }
  const first = opts.first ?? 0
  if (first !== 0 && (seats !== 2 || first !== 1)) {
    throw new RangeError(`seat ${String(first)} cannot turn the first card`)
  }
  return startKlockan(deck, variant, seats, first)
}

/** K-1: one card at a time to each pile in turn, four rounds. */
export function startKlockan(
  deck: readonly Card[],
  variant: KlockanVariant,
  players: 1 | 2,
  first: Seat = 0,
): KlockanState {
  const n = klockanPileCount(variant)
  const down: Card[][] = Array.from({ length: n }, () => [])
  for (let i = 0; i < deck.length; i++) down[i % n]!.push(deck[i]!)
  const piles = down.map(
    (d, i): KlockanPile => ({
      hour: variant === 'twoDecks' ? Math.floor(i / 2) + 1 : i + 1,
      side: variant === 'twoDecks' ? ((i % 2) as 0 | 1) : 0,
      down: d,
      up: [],
    }),
  )
  return {
    game: 'klockan',
    variant,
    players,
    piles,
    current: klockanStartPile(variant),
    phase: 'turn',
    turn: first,
    first,
    turned: 0,
    last: null,
    rescue: null,
    deck,
    moves: 0,
    recent: [],
  }
}

// ---------------------------------------------------------------------------------------------
// Queries

export const klockanFaceDown = (piles: readonly { readonly down: readonly Card[] }[]): number =>
  piles.reduce((n, p) => n + p.down.length, 0)

export function klockanLegalMoves(s: KlockanState, seat: Seat): KlockanMove[] {
  if (s.phase === 'over' || seat !== s.turn) return []
  if (s.phase === 'turn') return [{ type: 'turn' }]
  return rescueMoves(s.piles.map((p) => p.down.length))
}

/** The same legal moves from a view, for its viewer (a client highlighting moves). */
export function klockanLegalMovesFromView(v: KlockanView): KlockanMove[] {
  if (v.phase === 'over' || v.viewer !== v.turn) return []
  if (v.phase === 'turn') return [{ type: 'turn' }]
  return rescueMoves(v.piles.map((p) => p.faceDown))
}

function rescueMoves(faceDown: readonly number[]): KlockanMove[] {
  const out: KlockanMove[] = []
  faceDown.forEach((n, pile) => {
    for (let depth = 0; depth < n; depth++) out.push({ type: 'rescue', pile, depth })
  })
  out.push({ type: 'decline' })
  return out
}

export const klockanActiveSeats = (s: KlockanState): Seat[] => (s.turn === null ? [] : [s.turn])

// ---------------------------------------------------------------------------------------------
// Apply

type R = Result<KlockanState, KlockanError>

const isIndex = (x: unknown, n: number): x is number =>
  typeof x === 'number' && Number.isInteger(x) && x >= 0 && x < n

const seatAfter = (s: KlockanState, turned: number): Seat =>
  s.players === 2 ? (s.first + turned) % 2 : 0

/**
 * After a card went under pile `to`: go on from it, or end (K-4, K-7, K-8), or offer the rescue
 * (K-5) when the game would end with face-down cards left.
 */
function settle(
  s: KlockanState,
  piles: readonly KlockanPile[],
  to: number,
  turned: number,
  seat: Seat,
  events: KlockanEvent[],
): KlockanState {
  const next = { ...s, piles, turned }
  if (piles[to]!.down.length > 0) {
    return { ...next, current: to, phase: 'turn', turn: seatAfter(s, turned), recent: events }
  }
  const faceDown = klockanFaceDown(piles)
  if (faceDown > 0 && s.variant === 'rescue' && s.rescue === null) {
    events.push({ t: 'rescue-offered', seat, faceDown })
    return { ...next, current: null, phase: 'rescue', turn: seat, recent: events }
  }
  return endKlockan(next, seat, events)
}

function endKlockan(s: KlockanState, lastSeat: Seat, events: KlockanEvent[]): KlockanState {
  const faceDown = klockanFaceDown(s.piles)
  events.push({
    t: 'end',
    won: faceDown === 0,
    faceDown,
    loser: s.players === 2 ? lastSeat : null,
  })
  return { ...s, current: null, phase: 'over', turn: null, recent: events }
}

function replacePile(
  piles: readonly KlockanPile[],
  i: number,
  p: KlockanPile,
): readonly KlockanPile[] {
  const out = piles.slice()
  out[i] = p
  return out
}

/** Places `card` face up under the pile K-3 (and K-8) chooses; returns the piles and that pile. */
function place(
  v: KlockanVariant,
  piles: readonly KlockanPile[],
  card: Card,
): { piles: readonly KlockanPile[]; to: number } {
  const to = targetPile(v, card, (p) => piles[p]!.down.length)
  const p = piles[to]!
  return { piles: replacePile(piles, to, { ...p, up: p.up.concat([card]) }), to }
}

export function applyKlockan(s: KlockanState, seat: Seat, m: KlockanMove): R {
  if (!isIndex(seat, s.players)) return err('NOT_A_SEAT', `this game has ${s.players} seat(s)`)
  if (typeof m !== 'object' || m === null) return err('BAD_MOVE', 'a move must be an object')
  if (s.phase === 'over') return err('GAME_OVER', 'this game is over')
  if (m.type !== 'turn' && m.type !== 'rescue' && m.type !== 'decline') {
    return err('BAD_MOVE', `unknown move type ${JSON.stringify((m as { type?: unknown }).type)}`)
  }
  if (seat !== s.turn) return err('NOT_YOUR_TURN', 'the players turn one card each in turn (K-6)')
  const base = { ...s, moves: s.moves + 1 }
  switch (m.type) {
    case 'turn': {
      if (s.phase === 'rescue') {
        return err('RESCUE_PENDING', 'choose a face-down card for the rescue, or decline (K-5)')
      }
      const from = s.current!
      const src = s.piles[from]!
      const card = src.down[src.down.length - 1]!
      const lifted = replacePile(s.piles, from, { ...src, down: src.down.slice(0, -1) })
      const { piles, to } = place(s.variant, lifted, card)
      const turn: KlockanTurn = { seat, card, from, to }
      return ok(
        settle({ ...base, last: turn }, piles, to, s.turned + 1, seat, [{ t: 'turn', ...turn }]),
      )
    }
    case 'rescue': {
      if (s.phase !== 'rescue') {
        return err(
          'NO_RESCUE',
          'a rescue is offered only when the fourth king stops the game (K-5)',
        )
      }
      if (!isIndex(m.pile, s.piles.length)) return err('BAD_PILE', 'no such pile')
      const src = s.piles[m.pile]!
      if (src.down.length === 0) return err('NO_FACE_DOWN', 'that pile has no face-down card')
      const depth = m.depth === undefined ? 0 : m.depth
      if (!isIndex(depth, src.down.length)) {
        return err('BAD_DEPTH', `depth is 0 (the top) … ${src.down.length - 1} in that pile`)
      }
      // K-5: the king just placed in the centre takes the chosen card's place face down.
      const centre = s.last!.to
      const kings = s.piles[centre]!
      const king = s.last!.card
      const at = src.down.length - 1 - depth
      const card = src.down[at]!
      const down = src.down.slice()
      down[at] = king
      let piles = replacePile(s.piles, centre, { ...kings, up: kings.up.slice(0, -1) })
      piles = replacePile(piles, m.pile, { ...piles[m.pile]!, down })
      const placed = place(s.variant, piles, card)
      const rescue: KlockanRescue = { seat, king, card, pile: m.pile, depth, below: at }
      const turn: KlockanTurn = { seat, card, from: m.pile, to: placed.to }
      const events: KlockanEvent[] = [
        { t: 'rescue', seat, king, pile: m.pile, depth, card, to: placed.to },
      ]
      return ok(
        settle(
          { ...base, rescue, last: turn },
          placed.piles,
          placed.to,
          s.turned + 1,
          seat,
          events,
        ),
      )
    }
    case 'decline': {
      if (s.phase !== 'rescue') return err('NO_RESCUE', 'there is no rescue to decline (K-5)')
      return ok(endKlockan(base, seat, [{ t: 'decline', seat }]))
    }
  }
}

// ---------------------------------------------------------------------------------------------
// View and outcome

export function klockanOutcome(s: KlockanState): KlockanOutcome | undefined {
  if (s.phase !== 'over') return undefined
  const faceDown = klockanFaceDown(s.piles)
  // K-6: the last card turned ended the game; a declined rescue is the same player's.
  const loser = s.players === 2 ? (s.first + s.turned - 1) % 2 : null
  return {
    won: faceDown === 0,
    faceDown,
    turned: s.turned,
    rescued: s.rescue !== null,
    loser,
    winner: loser === null ? null : 1 - loser,
  }
}

/** Where the rescued king lies now, or null once it has been turned again. */
function kingDepth(s: KlockanState): number | null {
  const r = s.rescue
  if (r === null) return null
  const down = s.piles[r.pile]!.down
  return down.length > r.below && down[r.below] === r.king ? down.length - 1 - r.below : null
}

/** Face-down cards become counts; everything else is public, to players and spectators alike. */
export function klockanView(s: KlockanState, viewer: Viewer): KlockanView {
  return {
    game: 'klockan',
    viewer,
    variant: s.variant,
    players: s.players,
    piles: s.piles.map((p) => ({
      hour: p.hour,
      side: p.side,
      faceDown: p.down.length,
      faceUp: p.up,
    })),
    current: s.current,
    phase: s.phase,
    turn: s.turn,
    turned: s.turned,
    faceDown: klockanFaceDown(s.piles),
    rescueAvailable: s.variant === 'rescue' && s.rescue === null && s.phase !== 'over',
    rescue: s.rescue === null ? null : { ...s.rescue, kingDepth: kingDepth(s) },
    last: s.last,
    moves: s.moves,
    recent: s.recent,
    outcome: klockanOutcome(s) ?? null,
  }
}

export const klockan: GameDef<
  KlockanState,
  KlockanMove,
  KlockanView,
  KlockanOptions,
  KlockanOutcome,
  KlockanErrorCode
> = {
  id: 'klockan',
  setup: setupKlockan,
  legalMoves: klockanLegalMoves,
  apply: applyKlockan,
  view: klockanView,
  activeSeats: klockanActiveSeats,
  outcome: klockanOutcome,
}

// ---------------------------------------------------------------------------------------------
// Rescue choice, running, and the fast path for simulations

/**
 * Simple rules for choosing the K-5 rescue card from what a player sees (face-down counts only):
 * - 'deepest-of-fullest': the deepest face-down card of the pile with the most face-down cards
 *   (the lowest-numbered such pile), so that the king is turned as late as that pile allows;
 * - 'top-of-fullest': the top face-down card of that pile;
 * - 'decline': no rescue.
 */
export type KlockanRescueRule = 'deepest-of-fullest' | 'top-of-fullest' | 'decline'
export const KLOCKAN_RESCUE_RULES: readonly KlockanRescueRule[] = [
  'deepest-of-fullest',
  'top-of-fullest',
  'decline',
]

function rescueChoice(
  faceDown: ArrayLike<number>,
  rule: KlockanRescueRule,
): { pile: number; depth: number } | null {
  if (rule === 'decline') return null
  let best = -1
  for (let i = 0; i < faceDown.length; i++) {
    if (faceDown[i]! > 0 && (best < 0 || faceDown[i]! > faceDown[best]!)) best = i
  }
  if (best < 0) return null
  return { pile: best, depth: rule === 'top-of-fullest' ? 0 : faceDown[best]! - 1 }
}

/** The move `rule` makes when a rescue is offered (from the view: no hidden card is used). */
export function klockanRescueMove(v: KlockanView, rule: KlockanRescueRule): KlockanMove {
  const c = rescueChoice(
    v.piles.map((p) => p.faceDown),
    rule,
  )
  return c === null ? { type: 'decline' } : { type: 'rescue', pile: c.pile, depth: c.depth }
}

/**
 * Plays a game to its end through `apply`, one card at a time (what a client's "run" does by
 * repeating `turn`); a rescue is decided by `rule`.
 */
export function klockanRunToEnd(
  s: KlockanState,
  rule: KlockanRescueRule = 'decline',
): KlockanState {
  let g = s
  while (g.phase !== 'over') {
    const seat = g.turn!
    const m: KlockanMove =
      g.phase === 'rescue' ? klockanRescueMove(klockanView(g, seat), rule) : { type: 'turn' }
    const r = applyKlockan(g, seat, m)
    if (!r.ok) throw new Error(`klockanRunToEnd: ${r.error.code}`)
    g = r.value
  }
  return g
}

export interface KlockanResult {
  readonly won: boolean
  readonly faceDown: number
  readonly turned: number
  readonly rescued: boolean
}

/**
 * The same game as {@link klockanRunToEnd} on mutable arrays, for simulations (tests check that
 * both agree). `deck` must be a full deck of the variant.
 */
export function klockanFast(
  deck: readonly Card[],
  variant: KlockanVariant,
  rule: KlockanRescueRule = 'decline',
): KlockanResult {
  const n = klockanPileCount(variant)
  const two = variant === 'twoDecks'
  // down[p] holds pile p's face-down cards bottom first; len[p] how many are left.
  const down: Card[][] = Array.from({ length: n }, () => [])
  for (let i = 0; i < deck.length; i++) down[i % n]!.push(deck[i]!)
  const len = new Int32Array(n).fill(deck.length / n)
  let faceDown = deck.length
  let cur = klockanStartPile(variant)
  let turned = 0
  let rescued = false
  for (;;) {
    let card = down[cur]![--len[cur]!]!
    faceDown--
    for (;;) {
      turned++
      const hour = klockanHour(card)
      let to = hour - 1
      if (two) {
        to = 2 * (hour - 1)
        if (len[to + 1]! > len[to]!) to++
      }
      cur = to
      if (len[cur]! > 0) break
      // K-4: the stop card was placed. K-5: the rescue, once, with face-down cards left.
      if (faceDown === 0 || variant !== 'rescue' || rescued) {
        return { won: faceDown === 0, faceDown, turned, rescued }
      }
      const c = rescueChoice(len, rule)
      if (c === null) return { won: false, faceDown, turned, rescued }
      rescued = true
      const at = len[c.pile]! - 1 - c.depth
      const chosen = down[c.pile]![at]!
      down[c.pile]![at] = card
      card = chosen
    }
  }
}
