/**
 * Dom Åtta Herrarna — the eight lords, a mechanical patience with two decks (docs/rules.md H-1 … H-7).
 *
 * The game has no decisions. A move `step` does the next thing the rules prescribe, one card at a
 * time: a card dealt, a card built onto a foundation, a card turned up from the reserve. A few
 * steps move a packet as the seed does by hand: taking up a pile in round 2 (H-4), putting the
 * cards left in hand and the thirteenth pile onto the reserve (H-4), and turning the waste over
 * as round 3's reserve (H-5). Transitions that move nothing (skipping an empty pile, a build that
 * finds nothing) are not steps.
 *
 * Decided here, where docs/rules.md leaves a point open:
 * - H-2/H-5: the waste pile is a pile in H-2's sense, so its top card is played as soon as it
 *   fits (after a card turned up from the reserve was played). The scan looks at the piles from
 *   the left, then at the waste.
 * - H-4: "in order" — the cards left in hand go onto the reserve as the packet they are, the card
 *   that would have been dealt next on top; a later packet lies on top of an earlier one. The
 *   thirteenth pile is turned over onto it, so its bottom card becomes the top of the reserve.
 */
import { type Card, fullDeck, isCard, RANK_TEN, type Rank, rankOf, suitOf } from './cards.ts'
import { fairShuffle } from './fair.ts'
import type { Deal, GameDef, Seat, Viewer } from './game.ts'
import { err, ok, type Result, type RuleError } from './result.ts'
import { Rng } from './rng.ts'

/** H-1: a foundation from its ten: 10 9 8 7 6 5 4 3 2 A K Q J. */
export const HERRARNA_SEQUENCE: readonly Rank[] = [10, 9, 8, 7, 6, 5, 4, 3, 2, 14, 13, 12, 11]
/** H-3: the semicircle. */
export const HERRARNA_PILES = 13
/** H-6: the places of round 3. */
export const HERRARNA_PLACES = 8
export const HERRARNA_CARDS = 104

/** The game has no options; pass `{}`. */
export type HerrarnaOptions = Readonly<Record<string, never>>

export type HerrarnaRound = 1 | 2 | 3

/** Where a built card came from. */
export type HerrarnaSource =
  | { readonly zone: 'pile'; readonly pile: number }
  | { readonly zone: 'waste' }
  | { readonly zone: 'reserve' }

/** What the next step does (no hidden card in it: a built card is a visible top card). */
export type HerrarnaNext =
  | { readonly t: 'deal'; readonly from: 'stock' | 'hand'; readonly pile: number }
  | {
      readonly t: 'build'
      readonly from: HerrarnaSource
      readonly card: Card
      /** The foundation it goes on; a ten starts foundation number `foundations.length`. */
      readonly foundation: number
    }
  | { readonly t: 'take'; readonly pile: number }
  | { readonly t: 'reserve'; readonly from: 'hand' | 'pile' }
  | { readonly t: 'turn' }
  | { readonly t: 'restock' }

export type HerrarnaEvent =
  /** H-3, H-4, H-6: one card dealt face up onto a pile (round 3: a place). */
  | {
      readonly t: 'deal'
      readonly from: 'stock' | 'hand'
      readonly card: Card
      readonly pile: number
    }
  /** H-2: one card onto a foundation (a ten starts one). */
  | {
      readonly t: 'build'
      readonly from: HerrarnaSource
      readonly card: Card
      readonly foundation: number
    }
  /** H-4: pile `pile` taken up and turned over. */
  | { readonly t: 'take'; readonly pile: number; readonly count: number }
  /** H-4: the cards left in hand, or the thirteenth pile, onto the reserve face down. */
  | { readonly t: 'reserve'; readonly from: 'hand' | 'pile'; readonly count: number }
  /** H-5: a card turned up from the reserve that did not fit, onto the waste. */
  | { readonly t: 'waste'; readonly card: Card }
  /** H-5: the waste turned over as the reserve round 3 deals from. */
  | { readonly t: 'restock'; readonly count: number }
  | { readonly t: 'end'; readonly won: boolean; readonly built: number; readonly left: number }

export interface HerrarnaState {
  readonly game: 'herrarna'
  /** 1 (H-3), 2 (H-4 and H-5), 3 (H-6). */
  readonly round: HerrarnaRound
  /** Round 1: the deck not dealt yet; round 3: the reserve it deals from. `stock[0]` is next. */
  readonly stock: readonly Card[]
  /** Cards dealt from the stock in this round (its layers: 13 in round 1, 8 in round 3). */
  readonly dealt: number
  /** The 13 piles of the semicircle (rounds 1–2) or the 8 places (round 3); bottom first, face up. */
  readonly piles: readonly (readonly Card[])[]
  /** Foundations in the order they were started, each from its ten. */
  readonly foundations: readonly (readonly Card[])[]
  /** H-4: the pile taken up, turned over; `hand[0]` is dealt next. Face down. */
  readonly hand: readonly Card[]
  /** H-4: the pile the hand came from. */
  readonly handFrom: number | null
  /** H-4: the pile the next card of the hand goes onto. */
  readonly to: number
  /** H-4: the next pile to take up (k). */
  readonly next: number
  /** H-4, H-5: face down; `reserve[0]` is the top, turned up next. */
  readonly reserve: readonly Card[]
  /** H-5: face up; the last card is the top. */
  readonly waste: readonly Card[]
  readonly over: boolean
  readonly steps: number
  /** The deal order; secret. */
  readonly deck: readonly Card[]
  /** The events of the last step. */
  readonly recent: readonly HerrarnaEvent[]
}

export type HerrarnaMove = { readonly type: 'step' }

export type HerrarnaErrorCode = 'BAD_MOVE' | 'NOT_A_SEAT' | 'GAME_OVER'
export type HerrarnaError = RuleError<HerrarnaErrorCode>

export interface HerrarnaOutcome {
  /** H-7: all eight foundations complete. */
  readonly won: boolean
  /** Cards on the foundations. */
  readonly built: number
  /** H-7: the result, cards not built. */
  readonly left: number
  /** Foundations started (a ten that never came out starts none). */
  readonly foundations: number
}

/** Face-down cards and the order of the stock, hand and reserve are hidden: counts only. */
export interface HerrarnaView {
  readonly game: 'herrarna'
  readonly viewer: Viewer
  readonly round: HerrarnaRound
  readonly piles: readonly (readonly Card[])[]
  readonly foundations: readonly (readonly Card[])[]
  readonly stockCount: number
  readonly handCount: number
  readonly handFrom: number | null
  readonly reserveCount: number
  readonly waste: readonly Card[]
  readonly built: number
  /** What the next step will do; null at the end. */
  readonly next: HerrarnaNext | null
  readonly over: boolean
  readonly steps: number
  readonly recent: readonly HerrarnaEvent[]
  readonly outcome: HerrarnaOutcome | null
}

// ---------------------------------------------------------------------------------------------
// Building (H-1, H-2)

/**
 * H-1, H-2: the foundation `card` goes on: a ten starts a new one (index `foundations.length`);
 * another card goes on the first-started foundation of its suit that needs its rank; -1 if none.
 */
export function herrarnaFoundationFor(
  card: Card,
  foundations: readonly (readonly Card[])[],
): number {
  const r = rankOf(card)
  if (r === RANK_TEN) return foundations.length
  const suit = suitOf(card)
  for (let f = 0; f < foundations.length; f++) {
    const fd = foundations[f]!
    if (suitOf(fd[0]!) === suit && HERRARNA_SEQUENCE[fd.length] === r) return f
  }
  return -1
}

/** H-2: scan the piles from the left, then the waste; the first top card that fits. */
function findBuild(s: HerrarnaState): HerrarnaNext | null {
  for (let i = 0; i < s.piles.length; i++) {
    const p = s.piles[i]!
    const card = p[p.length - 1]
    if (card === undefined) continue
    const foundation = herrarnaFoundationFor(card, s.foundations)
    if (foundation >= 0) return { t: 'build', from: { zone: 'pile', pile: i }, card, foundation }
  }
  const card = s.waste[s.waste.length - 1]
  if (card !== undefined) {
    const foundation = herrarnaFoundationFor(card, s.foundations)
    if (foundation >= 0) return { t: 'build', from: { zone: 'waste' }, card, foundation }
  }
  return null
}

/** What the rules prescribe next (H-3 … H-6); null when the cards have run out (H-7). */
export function herrarnaNext(s: HerrarnaState): HerrarnaNext | null {
  if (s.round === 3) {
    // H-6: build after each layer of eight (the last may be short).
    if (s.dealt % HERRARNA_PLACES === 0 || s.stock.length === 0) {
      const b = findBuild(s)
      if (b) return b
    }
    return s.stock.length > 0 ? { t: 'deal', from: 'stock', pile: s.dealt % HERRARNA_PLACES } : null
  }
  if (s.round === 1) {
    // H-3: build after each layer of thirteen.
    if (s.dealt % HERRARNA_PILES === 0) {
      const b = findBuild(s)
      if (b) return b
    }
    if (s.stock.length > 0) return { t: 'deal', from: 'stock', pile: s.dealt % HERRARNA_PILES }
  } else {
    // H-4, H-5: build after every card.
    const b = findBuild(s)
    if (b) return b
  }
  // H-4
  if (s.hand.length > 0) {
    return s.to < HERRARNA_PILES
      ? { t: 'deal', from: 'hand', pile: s.to }
      : { t: 'reserve', from: 'hand' }
  }
  for (let k = s.next; k < HERRARNA_PILES - 1; k++) {
    if (s.piles[k]!.length > 0) return { t: 'take', pile: k }
  }
  if (s.piles[HERRARNA_PILES - 1]!.length > 0) return { t: 'reserve', from: 'pile' }
  // H-5
  if (s.reserve.length > 0) return { t: 'turn' }
  if (s.waste.length > 0) return { t: 'restock' }
  return null
}

const builtCount = (s: { readonly foundations: readonly (readonly Card[])[] }): number =>
  s.foundations.reduce((n, f) => n + f.length, 0)

function addToFoundation(
  foundations: readonly (readonly Card[])[],
  f: number,
  card: Card,
): (readonly Card[])[] {
  const out = foundations.slice()
  out[f] = (foundations[f] ?? []).concat([card])
  return out
}

function withPile(
  piles: readonly (readonly Card[])[],
  i: number,
  p: readonly Card[],
): (readonly Card[])[] {
  const out = piles.slice()
  out[i] = p
  return out
}

/** Does the step `a`; returns the new state (not yet checked for the end) and its event. */
function perform(s: HerrarnaState, a: HerrarnaNext): { s: HerrarnaState; e: HerrarnaEvent } {
  switch (a.t) {
    case 'deal': {
      if (a.from === 'stock') {
        const card = s.stock[0]!
        return {
          s: {
            ...s,
            stock: s.stock.slice(1),
            dealt: s.dealt + 1,
            piles: withPile(s.piles, a.pile, s.piles[a.pile]!.concat([card])),
          },
          e: { t: 'deal', from: 'stock', card, pile: a.pile },
        }
      }
      const card = s.hand[0]!
      return {
        s: {
          ...s,
          hand: s.hand.slice(1),
          to: s.to + 1,
          piles: withPile(s.piles, a.pile, s.piles[a.pile]!.concat([card])),
        },
        e: { t: 'deal', from: 'hand', card, pile: a.pile },
      }
    }
    case 'build': {
      const foundations = addToFoundation(s.foundations, a.foundation, a.card)
      const e: HerrarnaEvent = { t: 'build', from: a.from, card: a.card, foundation: a.foundation }
      if (a.from.zone === 'pile') {
        const p = s.piles[a.from.pile]!
        return {
          s: { ...s, foundations, piles: withPile(s.piles, a.from.pile, p.slice(0, -1)) },
          e,
        }
      }
      return { s: { ...s, foundations, waste: s.waste.slice(0, -1) }, e }
    }
    case 'take': {
      // H-4: turned over, the pile's bottom card comes first.
      const hand = s.piles[a.pile]!
      return {
        s: {
          ...s,
          round: 2,
          hand,
          handFrom: a.pile,
          to: a.pile + 1,
          next: a.pile + 1,
          piles: withPile(s.piles, a.pile, []),
        },
        e: { t: 'take', pile: a.pile, count: hand.length },
      }
    }
    case 'reserve': {
      if (a.from === 'hand') {
        return {
          s: { ...s, reserve: s.hand.concat(s.reserve), hand: [], handFrom: null },
          e: { t: 'reserve', from: 'hand', count: s.hand.length },
        }
      }
      const last = HERRARNA_PILES - 1
      const p = s.piles[last]!
      return {
        s: {
          ...s,
          round: 2,
          next: HERRARNA_PILES,
          reserve: p.concat(s.reserve),
          piles: withPile(s.piles, last, []),
        },
        e: { t: 'reserve', from: 'pile', count: p.length },
      }
    }
    case 'turn': {
      const card = s.reserve[0]!
      const rest = { ...s, round: 2 as const, reserve: s.reserve.slice(1) }
      const f = herrarnaFoundationFor(card, s.foundations)
      if (f >= 0) {
        return {
          s: { ...rest, foundations: addToFoundation(s.foundations, f, card) },
          e: { t: 'build', from: { zone: 'reserve' }, card, foundation: f },
        }
      }
      return { s: { ...rest, waste: s.waste.concat([card]) }, e: { t: 'waste', card } }
    }
    case 'restock':
      // H-5: turned over, the first card turned up comes first.
      return {
        s: {
          ...s,
          round: 3,
          stock: s.waste,
          dealt: 0,
          waste: [],
          piles: Array.from({ length: HERRARNA_PLACES }, () => []),
        },
        e: { t: 'restock', count: s.waste.length },
      }
  }
}

// ---------------------------------------------------------------------------------------------
// Setup, apply, view

export const herrarnaDeck = (seed: string): Card[] => Rng.seeded(seed).shuffle(fullDeck(2))

/** Deals a game (H-1): one player, two decks. Throws a RangeError on a bad deck or seat count. */
export function setupHerrarna(_opts: HerrarnaOptions, seats: number, deal: Deal): HerrarnaState {
  if (seats !== 1) throw new RangeError('Dom Åtta Herrarna is a game for one player')
  let deck: readonly Card[]
  if ('seed' in deal) {
    deck = herrarnaDeck(deal.seed)
  } else if ('fair' in deal) {
    deck = fairShuffle(fullDeck(2), deal.fair, 'herrarna')
  } else {
    deck = deal.deck.slice()
    const seen = new Set<Card>()
    for (const c of deck) {
      if (!isCard(c, 2) || seen.has(c)) throw new RangeError(`bad or repeated card: ${String(c)}`)
      seen.add(c)
    }
    if (deck.length !== HERRARNA_CARDS) throw new RangeError('the game needs both decks, 104 cards')
  }
  return {
    game: 'herrarna',
    round: 1,
    stock: deck,
    dealt: 0,
    piles: Array.from({ length: HERRARNA_PILES }, () => []),
    foundations: [],
    hand: [],
    handFrom: null,
    to: 0,
    next: 0,
    reserve: [],
    waste: [],
    over: false,
    steps: 0,
    deck,
    recent: [],
  }
}

export const herrarnaLegalMoves = (s: HerrarnaState, seat: Seat): HerrarnaMove[] =>
  s.over || seat !== 0 ? [] : [{ type: 'step' }]

export const herrarnaLegalMovesFromView = (v: HerrarnaView): HerrarnaMove[] =>
  v.over || v.viewer !== 0 ? [] : [{ type: 'step' }]

export const herrarnaActiveSeats = (s: HerrarnaState): Seat[] => (s.over ? [] : [0])

export function applyHerrarna(
  s: HerrarnaState,
  seat: Seat,
  m: HerrarnaMove,
): Result<HerrarnaState, HerrarnaError> {
  if (seat !== 0) return err('NOT_A_SEAT', 'Dom Åtta Herrarna has one seat')
  if (typeof m !== 'object' || m === null) return err('BAD_MOVE', 'a move must be an object')
  if (s.over) return err('GAME_OVER', 'this game is over')
  if (m.type !== 'step') {
    return err('BAD_MOVE', `unknown move type ${JSON.stringify((m as { type?: unknown }).type)}`)
  }
  const a = herrarnaNext(s)
  if (a === null) return err('GAME_OVER', 'this game is over') // not reached: `over` is kept
  const done = perform(s, a)
  const next = { ...done.s, steps: s.steps + 1 }
  const recent: HerrarnaEvent[] = [done.e]
  // H-7: the game ends when the cards run out.
  if (herrarnaNext(next) !== null) return ok({ ...next, recent })
  const built = builtCount(next)
  recent.push({ t: 'end', won: built === HERRARNA_CARDS, built, left: HERRARNA_CARDS - built })
  return ok({ ...next, over: true, recent })
}

export function herrarnaOutcome(s: HerrarnaState): HerrarnaOutcome | undefined {
  if (!s.over) return undefined
  const built = builtCount(s)
  return {
    won: built === HERRARNA_CARDS,
    built,
    left: HERRARNA_CARDS - built,
    foundations: s.foundations.length,
  }
}

export function herrarnaView(s: HerrarnaState, viewer: Viewer): HerrarnaView {
  return {
    game: 'herrarna',
    viewer,
    round: s.round,
    piles: s.piles,
    foundations: s.foundations,
    stockCount: s.stock.length,
    handCount: s.hand.length,
    handFrom: s.handFrom,
    reserveCount: s.reserve.length,
    waste: s.waste,
    built: builtCount(s),
    next: s.over ? null : herrarnaNext(s),
    over: s.over,
    steps: s.steps,
    recent: s.recent,
    outcome: herrarnaOutcome(s) ?? null,
  }
}

export const herrarna: GameDef<
  HerrarnaState,
  HerrarnaMove,
  HerrarnaView,
  HerrarnaOptions,
  HerrarnaOutcome,
  HerrarnaErrorCode
> = {
  id: 'herrarna',
  setup: setupHerrarna,
  legalMoves: herrarnaLegalMoves,
  apply: applyHerrarna,
  view: herrarnaView,
  activeSeats: herrarnaActiveSeats,
  outcome: herrarnaOutcome,
}

/** Plays a game to its end through `apply`, one step at a time. */
export function herrarnaRunToEnd(s: HerrarnaState): HerrarnaState {
  let g = s
  while (!g.over) {
    const r = applyHerrarna(g, 0, { type: 'step' })
    if (!r.ok) throw new Error(`herrarnaRunToEnd: ${r.error.code}`)
    g = r.value
  }
  return g
}

// ---------------------------------------------------------------------------------------------
// Fast path for simulations: the rules written out as plain loops on mutable arrays, apart from
// the step machine above (tests check that both agree on every seed they try).

export interface HerrarnaResult {
  readonly won: boolean
  readonly built: number
  readonly left: number
}

/**
 * Other readings of the open points, for measuring what the decisions change (the engine plays
 * the decided reading, the default): `wasteTopPlays: false` leaves the waste dead until round 3
 * (H-5); `leftoversReversed: true` lays the cards left in hand onto the reserve one at a time, so
 * the last of them ends on top (H-4).
 */
export interface HerrarnaReading {
  readonly wasteTopPlays?: boolean
  readonly leftoversReversed?: boolean
}

export function herrarnaFast(deck: readonly Card[], reading: HerrarnaReading = {}): HerrarnaResult {
  const wasteTopPlays = reading.wasteTopPlays ?? true
  const reversed = reading.leftoversReversed ?? false
  // Foundations: suit and cards built so far, in the order started.
  const fSuit: number[] = []
  const fLen: number[] = []
  let built = 0
  const play = (card: Card): boolean => {
    const r = rankOf(card)
    if (r === RANK_TEN) {
      fSuit.push(suitOf(card))
      fLen.push(1)
      built++
      return true
    }
    const suit = suitOf(card)
    for (let f = 0; f < fSuit.length; f++) {
      if (fSuit[f] === suit && HERRARNA_SEQUENCE[fLen[f]!] === r) {
        fLen[f]!++
        built++
        return true
      }
    }
    return false
  }
  // H-2: until nothing fits, play the first top card (from the left) that fits.
  const build = (piles: Card[][]): void => {
    for (let i = 0; i < piles.length; ) {
      const p = piles[i]!
      if (p.length > 0 && play(p[p.length - 1]!)) {
        p.pop()
        i = 0
      } else i++
    }
  }
  // H-3: eight layers of thirteen, building after each.
  const piles: Card[][] = Array.from({ length: HERRARNA_PILES }, () => [])
  for (let i = 0; i < deck.length; i++) {
    piles[i % HERRARNA_PILES]!.push(deck[i]!)
    if (i % HERRARNA_PILES === HERRARNA_PILES - 1 || i === deck.length - 1) build(piles)
  }
  // H-4: piles 0–11 taken up in turn and dealt onto the piles after them.
  let reserve: Card[] = [] // top first
  for (let k = 0; k < HERRARNA_PILES - 1; k++) {
    const hand = piles[k]!
    piles[k] = []
    let i = 0
    for (let to = k + 1; to < HERRARNA_PILES && i < hand.length; to++, i++) {
      piles[to]!.push(hand[i]!)
      build(piles)
    }
    const left = hand.slice(i)
    reserve = (reversed ? left.reverse() : left).concat(reserve)
  }
  reserve = piles[HERRARNA_PILES - 1]!.concat(reserve)
  // H-5: the reserve turned up; what does not fit goes to the waste, whose top may be played.
  const waste: Card[] = []
  for (const card of reserve) {
    if (play(card)) {
      if (wasteTopPlays) build([waste])
    } else waste.push(card)
  }
  // H-6: layers of eight from the waste, in the order it was turned up.
  const places: Card[][] = Array.from({ length: HERRARNA_PLACES }, () => [])
  for (let i = 0; i < waste.length; i++) {
    places[i % HERRARNA_PLACES]!.push(waste[i]!)
    if (i % HERRARNA_PLACES === HERRARNA_PLACES - 1 || i === waste.length - 1) build(places)
  }
  return { won: built === HERRARNA_CARDS, built, left: HERRARNA_CARDS - built }
}
