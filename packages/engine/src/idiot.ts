/**
 * Idiot, the shedding game for 2–4 players (docs/rules.md section I).
 *
 * The state is a plain JSON value. `apply` copies only what a move changes (structural sharing)
 * and never mutates its input.
 */
import { type Card, compareForHand, fullDeck, isCard, RANK_TEN, RANK_TWO, rankOf } from './cards.ts'
import { FairStream } from './fair.ts'
import type { Deal, GameDef, Seat, Viewer } from './game.ts'
import { err, ok, type Result, type RuleError } from './result.ts'
import { Rng } from './rng.ts'

export const IDIOT_MIN_SEATS = 2
export const IDIOT_MAX_SEATS = 4
/** Cards in hand that a player draws up to (I-10). */
export const HAND_TARGET = 3
/** Positions in each player's row (I-3). */
export const ROW = 3

export interface IdiotOptions {
  /**
   * The dealer (I-5). In a table's first game leave it out: with a seeded deal the dealer is
   * drawn with the seed's generator; with an explicit deck it is seat 0. Later games pass the
   * previous loser ({@link nextDealer}).
   */
  readonly dealer?: Seat
}

export type IdiotPhase = 'swap' | 'play' | 'over'

/** One position of a player's row (I-3): a face-down card with a face-up card on top. */
export interface IdiotPosition {
  readonly faceUp: Card | null
  readonly faceDown: Card | null
}

export interface IdiotPlayer {
  /** Hand in the order the cards arrived; views sort it. */
  readonly hand: readonly Card[]
  readonly row: readonly IdiotPosition[]
  readonly ready: boolean
  /** Finishing place, 1-based, once out (I-14); the loser gets the last place. */
  readonly place: number | null
}

/** Everything that happened in public, in order (I-15: the game's log is public). */
export type IdiotEvent =
  | { readonly t: 'swap'; readonly seat: Seat; readonly fromHand: Card; readonly fromRow: Card }
  | { readonly t: 'ready'; readonly seat: Seat }
  | { readonly t: 'start'; readonly seat: Seat }
  | {
      readonly t: 'play'
      readonly seat: Seat
      readonly cards: readonly Card[]
      readonly from: 'hand' | 'row'
    }
  | { readonly t: 'uncover'; readonly seat: Seat; readonly position: number; readonly card: Card }
  | {
      readonly t: 'burn'
      readonly seat: Seat
      readonly reason: 'ten' | 'four'
      readonly count: number
    }
  | { readonly t: 'draw'; readonly seat: Seat; readonly count: number }
  | { readonly t: 'pickup'; readonly seat: Seat; readonly cards: readonly Card[] }
  | { readonly t: 'out'; readonly seat: Seat; readonly place: number }
  | { readonly t: 'over'; readonly loser: Seat }

export interface IdiotState {
  readonly game: 'idiot'
  readonly seats: number
  readonly dealer: Seat
  readonly phase: IdiotPhase
  /** Whose turn it is in the play phase; null in the swap phase and when the game is over. */
  readonly turn: Seat | null
  readonly players: readonly IdiotPlayer[]
  /** The pile, bottom first; its last card is the top. */
  readonly pile: readonly Card[]
  /** The draw pile; `draw[0]` is drawn next (I-3). */
  readonly draw: readonly Card[]
  /** Burned cards in the order they left the game (public, I-15). */
  readonly burned: readonly Card[]
  /** Moves applied so far (a version counter inside the game). */
  readonly moves: number
  /** Turns taken in the play phase (plays and pick-ups), for I-16 caps. */
  readonly turns: number
  /**
   * The public events of the last move (I-15: everything played openly is public). A table that
   * wants the whole log appends these after every move; keeping the log out of the state keeps
   * every move O(1) in the length of the game.
   */
  readonly recent: readonly IdiotEvent[]
}

export type IdiotMove =
  | { readonly type: 'swap'; readonly hand: Card; readonly faceUp: Card }
  | { readonly type: 'ready' }
  | { readonly type: 'play'; readonly cards: readonly Card[] }
  | { readonly type: 'pickup' }

export type IdiotErrorCode =
  | 'BAD_MOVE'
  | 'NOT_A_SEAT'
  | 'GAME_OVER'
  | 'WRONG_PHASE'
  | 'ALREADY_READY'
  | 'NOT_YOUR_TURN'
  | 'NOT_IN_HAND'
  | 'NOT_FACE_UP'
  | 'NOT_YOUR_CARD'
  | 'DUPLICATE_CARD'
  | 'NO_CARDS'
  | 'NOT_EQUAL_RANKS'
  | 'MIXED_SOURCES'
  | 'HAND_FIRST'
  | 'RANK_TOO_LOW'
  | 'PILE_EMPTY'

export type IdiotError = RuleError<IdiotErrorCode>

export interface IdiotPositionView {
  readonly faceUp: Card | null
  /** Whether a face-down card lies here; which card it is is secret from everyone (I-15). */
  readonly faceDown: boolean
}

export interface IdiotPlayerView {
  readonly handCount: number
  /** The cards in hand, sorted, for the owner only; null for everyone else. */
  readonly hand: readonly Card[] | null
  readonly row: readonly IdiotPositionView[]
  readonly ready: boolean
  readonly place: number | null
}

export interface IdiotView {
  readonly game: 'idiot'
  readonly viewer: Viewer
  readonly seats: number
  readonly dealer: Seat
  readonly phase: IdiotPhase
  readonly turn: Seat | null
  readonly players: readonly IdiotPlayerView[]
  readonly pile: readonly Card[]
  readonly drawCount: number
  readonly burned: readonly Card[]
  readonly moves: number
  readonly turns: number
  /** The public events of the last move. */
  readonly recent: readonly IdiotEvent[]
  readonly outcome: IdiotOutcome | null
}

export interface IdiotOutcome {
  /** Seats in finishing order: places[0] went out first; the last is the loser. */
  readonly places: readonly Seat[]
  /** The Idiot (I-14). */
  readonly loser: Seat
  readonly turns: number
}

// ---------------------------------------------------------------------------------------------
// Setup

/** Deals a game (I-3, I-5). Throws RangeError on a seat count outside 2–4 or a bad deck. */
export function setupIdiot(opts: IdiotOptions, seats: number, deal: Deal): IdiotState {
  if (!Number.isInteger(seats) || seats < IDIOT_MIN_SEATS || seats > IDIOT_MAX_SEATS) {
    throw new RangeError(`Idiot is for 2–4 players, not ${seats} (I-1)`)
  }
  let deck: readonly Card[]
  let dealer: Seat
  if ('seed' in deal || 'fair' in deal) {
    const rng = 'seed' in deal ? Rng.seeded(deal.seed) : new FairStream(deal.fair, 'idiot')
    // I-5: the first game's dealer is drawn at random, before the shuffle.
    const drawn = rng.int(seats)
    dealer = opts.dealer ?? drawn
    deck = rng.shuffle(fullDeck(1))
  } else {
    deck = deal.deck
    checkDeck(deck)
    dealer = opts.dealer ?? 0
  }
  if (!Number.isInteger(dealer) || dealer < 0 || dealer >= seats) {
    throw new RangeError(`dealer ${dealer} is not a seat`)
  }
  // I-3 canonical order: from the dealer's left, clockwise, one card at a time: three rounds of
  // face-down cards, three of face-up cards, three of hand cards.
  const hands: Card[][] = Array.from({ length: seats }, () => [])
  const down: Card[][] = Array.from({ length: seats }, () => [])
  const up: Card[][] = Array.from({ length: seats }, () => [])
  let k = 0
  for (const target of [down, up, hands]) {
    for (let round = 0; round < ROW; round++) {
      for (let i = 1; i <= seats; i++) {
        target[(dealer + i) % seats]!.push(deck[k++]!)
      }
    }
  }
  const players: IdiotPlayer[] = hands.map((hand, s) => ({
    hand,
    row: Array.from({ length: ROW }, (_, p) => ({ faceUp: up[s]![p]!, faceDown: down[s]![p]! })),
    ready: false,
    place: null,
  }))
  return {
    game: 'idiot',
    seats,
    dealer,
    phase: 'swap',
    turn: null,
    players,
    pile: [],
    draw: deck.slice(k),
    burned: [],
    moves: 0,
    turns: 0,
    recent: [],
  }
}

function checkDeck(deck: readonly Card[]): void {
  if (deck.length !== 52) throw new RangeError(`an Idiot deck has 52 cards, not ${deck.length}`)
  const seen = new Set<Card>()
  for (const c of deck) {
    if (!isCard(c, 1) || seen.has(c)) throw new RangeError(`bad or repeated card in deck: ${c}`)
    seen.add(c)
  }
}

// ---------------------------------------------------------------------------------------------
// Queries

/** The player's cards still in play: hand, face-up and face-down. */
export function cardsHeld(p: IdiotPlayer): number {
  let n = p.hand.length
  for (const pos of p.row) {
    if (pos.faceUp !== null) n++
    if (pos.faceDown !== null) n++
  }
  return n
}

/** The top card's rank, or 0 for an empty pile. */
const topRank = (pile: readonly Card[]): number =>
  pile.length === 0 ? 0 : rankOf(pile[pile.length - 1]!)

/** I-7: may a card of `rank` be laid on a pile whose top rank is `top` (0 = empty)? */
export const canLay = (rank: number, top: number): boolean =>
  top === 0 || rank === RANK_TWO || rank === RANK_TEN || rank >= top

/** I-2: the next seat to the left of `s` that still holds cards. */
function nextActive(players: readonly IdiotPlayer[], s: Seat): Seat {
  const n = players.length
  for (let i = 1; i <= n; i++) {
    const t = (s + i) % n
    if (players[t]!.place === null) return t
  }
  return s
}

/** The minimal facts legal moves depend on; both a state and a player's own view provide them. */
interface MoveContext {
  readonly phase: IdiotPhase
  readonly mine: boolean
  readonly ready: boolean
  readonly hand: readonly Card[]
  readonly faceUps: readonly Card[]
  readonly top: number
  readonly pileSize: number
}

/** Every subset (non-empty) of each group of equal ranks that may be laid on `top`. */
function playsFrom(source: readonly Card[], top: number, out: IdiotMove[]): void {
  const byRank = new Map<number, Card[]>()
  for (const c of source) {
    const r = rankOf(c)
    if (!canLay(r, top)) continue
    const g = byRank.get(r)
    if (g) g.push(c)
    else byRank.set(r, [c])
  }
  for (const g of byRank.values()) {
    const sorted = g.slice().sort((a, b) => a - b)
    const m = sorted.length
    for (let mask = 1; mask < 1 << m; mask++) {
      const cards: Card[] = []
      for (let i = 0; i < m; i++) if (mask & (1 << i)) cards.push(sorted[i]!)
      out.push({ type: 'play', cards })
    }
  }
}

function movesFromContext(ctx: MoveContext): IdiotMove[] {
  const out: IdiotMove[] = []
  if (ctx.phase === 'swap') {
    if (ctx.ready) return out
    for (const h of ctx.hand)
      for (const u of ctx.faceUps) out.push({ type: 'swap', hand: h, faceUp: u })
    out.push({ type: 'ready' })
    return out
  }
  if (ctx.phase !== 'play' || !ctx.mine) return out
  // I-12: the hand while it has cards, else the face-up cards.
  playsFrom(ctx.hand.length > 0 ? ctx.hand : ctx.faceUps, ctx.top, out)
  if (ctx.pileSize > 0) out.push({ type: 'pickup' })
  return out
}

const faceUpsOf = (row: readonly { readonly faceUp: Card | null }[]): Card[] => {
  const out: Card[] = []
  for (const p of row) if (p.faceUp !== null) out.push(p.faceUp)
  return out
}

/** Every legal move of `seat` (I-4, I-6, I-7, I-11, I-12). Plays list every subset of equal cards. */
export function idiotLegalMoves(s: IdiotState, seat: Seat): IdiotMove[] {
  const p = s.players[seat]
  if (!p) return []
  return movesFromContext({
    phase: s.phase,
    mine: s.turn === seat,
    ready: p.ready,
    hand: p.hand,
    faceUps: faceUpsOf(p.row),
    top: topRank(s.pile),
    pileSize: s.pile.length,
  })
}

/** The same legal moves computed from the seat's own view, for clients that highlight moves. */
export function idiotLegalMovesFromView(v: IdiotView): IdiotMove[] {
  if (v.viewer === 'spectator') return []
  const p = v.players[v.viewer]
  if (!p || p.hand === null) return []
  return movesFromContext({
    phase: v.phase,
    mine: v.turn === v.viewer,
    ready: p.ready,
    hand: p.hand,
    faceUps: faceUpsOf(p.row),
    top: topRank(v.pile),
    pileSize: v.pile.length,
  })
}

// ---------------------------------------------------------------------------------------------
// Apply

type R = Result<IdiotState, IdiotError>

const isSeat = (s: IdiotState, seat: unknown): seat is Seat =>
  typeof seat === 'number' && Number.isInteger(seat) && seat >= 0 && seat < s.seats

/** Applies a move; returns the new state or a coded refusal, never throws on bad input. */
export function applyIdiot(s: IdiotState, seat: Seat, m: IdiotMove): R {
  if (!isSeat(s, seat)) return err('NOT_A_SEAT', `seat ${String(seat)} is not at this table`)
  if (typeof m !== 'object' || m === null) return err('BAD_MOVE', 'a move must be an object')
  if (s.phase === 'over') return err('GAME_OVER', 'the game is over')
  switch (m.type) {
    case 'swap':
      return applySwap(s, seat, m)
    case 'ready':
      return applyReady(s, seat)
    case 'play':
      return applyPlay(s, seat, m)
    case 'pickup':
      return applyPickup(s, seat)
    default:
      return err('BAD_MOVE', `unknown move type ${JSON.stringify((m as { type?: unknown }).type)}`)
  }
}

function replacePlayer(
  players: readonly IdiotPlayer[],
  seat: Seat,
  p: IdiotPlayer,
): readonly IdiotPlayer[] {
  const out = players.slice()
  out[seat] = p
  return out
}

function withEvents(s: IdiotState, events: IdiotEvent[]): Pick<IdiotState, 'recent' | 'moves'> {
  return { recent: events, moves: s.moves + 1 }
}

/** I-4: exchange a hand card with one of the player's own face-up cards, before the start. */
function applySwap(s: IdiotState, seat: Seat, m: { hand: unknown; faceUp: unknown }): R {
  if (s.phase !== 'swap')
    return err('WRONG_PHASE', 'cards can only be swapped before the first play (I-4)')
  const p = s.players[seat]!
  if (p.ready) return err('ALREADY_READY', 'you declared ready and can swap no more (I-4)')
  if (!isCard(m.hand) || !isCard(m.faceUp))
    return err('BAD_MOVE', 'a swap names a hand card and a face-up card')
  const hi = p.hand.indexOf(m.hand)
  if (hi < 0) return err('NOT_IN_HAND', 'that card is not in your hand')
  const pos = p.row.findIndex((x) => x.faceUp === m.faceUp)
  if (pos < 0) return err('NOT_FACE_UP', 'that card is not one of your face-up cards')
  const hand = p.hand.slice()
  hand[hi] = m.faceUp
  const row = p.row.slice()
  row[pos] = { faceUp: m.hand, faceDown: row[pos]!.faceDown }
  return ok({
    ...s,
    players: replacePlayer(s.players, seat, { ...p, hand, row }),
    ...withEvents(s, [{ t: 'swap', seat, fromHand: m.hand, fromRow: m.faceUp }]),
  })
}

/** I-4: a player ends their swap phase; the first turn (I-5) starts when everyone is ready. */
function applyReady(s: IdiotState, seat: Seat): R {
  if (s.phase !== 'swap') return err('WRONG_PHASE', 'the game has already started')
  const p = s.players[seat]!
  if (p.ready) return err('ALREADY_READY', 'you are already ready')
  const players = replacePlayer(s.players, seat, { ...p, ready: true })
  const events: IdiotEvent[] = [{ t: 'ready', seat }]
  if (players.every((x) => x.ready)) {
    const first = (s.dealer + 1) % s.seats
    events.push({ t: 'start', seat: first })
    return ok({ ...s, players, phase: 'play', turn: first, ...withEvents(s, events) })
  }
  return ok({ ...s, players, ...withEvents(s, events) })
}

function applyPlay(s: IdiotState, seat: Seat, m: { cards: unknown }): R {
  if (s.phase !== 'play') return err('WRONG_PHASE', 'wait until every player is ready (I-4)')
  if (s.turn !== seat) return err('NOT_YOUR_TURN', 'it is not your turn')
  const cards = m.cards
  if (!Array.isArray(cards) || cards.length === 0)
    return err('NO_CARDS', 'a play needs at least one card (I-7)')
  if (cards.length > 52 || !cards.every((c) => isCard(c)))
    return err('BAD_MOVE', 'cards must be card ids')
  if (new Set(cards).size !== cards.length) return err('DUPLICATE_CARD', 'a card is named twice')
  const p = s.players[seat]!
  const inHand = cards.filter((c) => p.hand.includes(c)).length
  const onRow = cards.filter((c) => p.row.some((x) => x.faceUp === c)).length
  if (inHand + onRow < cards.length) {
    return err('NOT_YOUR_CARD', 'you can only play cards from your hand or your face-up cards')
  }
  if (inHand > 0 && onRow > 0)
    return err('MIXED_SOURCES', 'a play never mixes hand and face-up cards (I-12)')
  if (onRow > 0 && p.hand.length > 0)
    return err('HAND_FIRST', 'play from your hand while it has cards (I-12)')
  const rank = rankOf(cards[0]!)
  if (!cards.every((c) => rankOf(c) === rank)) {
    return err(
      'NOT_EQUAL_RANKS',
      'several cards can be played together only if they have one rank (I-7)',
    )
  }
  if (!canLay(rank, topRank(s.pile))) {
    return err(
      'RANK_TOO_LOW',
      'play a card equal to or higher than the top card, a 2 or a 10 (I-7)',
    )
  }

  const fromHand = inHand > 0
  const events: IdiotEvent[] = [
    { t: 'play', seat, cards: cards.slice(), from: fromHand ? 'hand' : 'row' },
  ]
  let hand = p.hand
  let row = p.row
  if (fromHand) {
    hand = p.hand.filter((c) => !cards.includes(c))
  } else {
    // I-12: the face-down card under a played face-up card is turned up at once; it cannot join
    // this play (the play was chosen from the cards that were face up before it).
    const r = p.row.slice()
    for (let i = 0; i < r.length; i++) {
      const pos = r[i]!
      if (pos.faceUp === null || !cards.includes(pos.faceUp)) continue
      r[i] = { faceUp: pos.faceDown, faceDown: null }
      if (pos.faceDown !== null)
        events.push({ t: 'uncover', seat, position: i, card: pos.faceDown })
    }
    row = r
  }

  let pile: readonly Card[] = s.pile.concat(cards)
  let burned = s.burned
  // I-8 a ten burns; I-9 four of one rank on top burns.
  let burn: 'ten' | 'four' | null = null
  if (rank === RANK_TEN) burn = 'ten'
  else if (pile.length >= 4) {
    const n = pile.length
    if (
      rankOf(pile[n - 2]!) === rank &&
      rankOf(pile[n - 3]!) === rank &&
      rankOf(pile[n - 4]!) === rank
    ) {
      burn = 'four'
    }
  }
  if (burn) {
    events.push({ t: 'burn', seat, reason: burn, count: pile.length })
    burned = burned.concat(pile)
    pile = []
  }

  // I-10: after a play from the hand, draw up to three, before any extra play.
  let draw = s.draw
  if (fromHand && hand.length < HAND_TARGET && draw.length > 0) {
    const k = Math.min(HAND_TARGET - hand.length, draw.length)
    hand = hand.concat(draw.slice(0, k))
    draw = draw.slice(k)
    events.push({ t: 'draw', seat, count: k })
  }

  let np: IdiotPlayer = { ...p, hand, row }
  let players = replacePlayer(s.players, seat, np)
  let phase: IdiotPhase = 'play'
  let turn: Seat | null
  // I-14: a player with no cards left is out and takes the next place.
  if (cardsHeld(np) === 0) {
    const place = s.players.filter((x) => x.place !== null).length + 1
    np = { ...np, place }
    players = replacePlayer(players, seat, np)
    events.push({ t: 'out', seat, place })
  }
  const left = players.filter((x) => x.place === null)
  if (left.length <= 1) {
    const loser = left[0] ? players.indexOf(left[0]) : seat
    if (left[0]) players = replacePlayer(players, loser, { ...left[0], place: s.seats })
    events.push({ t: 'over', loser })
    phase = 'over'
    turn = null
  } else if (burn && np.place === null) {
    turn = seat // I-8, I-9: the same player plays again on the empty pile
  } else {
    turn = nextActive(players, seat)
  }
  return ok({
    ...s,
    phase,
    turn,
    players,
    pile,
    draw,
    burned,
    turns: s.turns + 1,
    ...withEvents(s, events),
  })
}

/** I-11, I-13: take the whole pile into the hand; the turn passes to the left. */
function applyPickup(s: IdiotState, seat: Seat): R {
  if (s.phase !== 'play') return err('WRONG_PHASE', 'wait until every player is ready (I-4)')
  if (s.turn !== seat) return err('NOT_YOUR_TURN', 'it is not your turn')
  if (s.pile.length === 0) return err('PILE_EMPTY', 'an empty pile cannot be picked up (I-11)')
  const p = s.players[seat]!
  const players = replacePlayer(s.players, seat, { ...p, hand: p.hand.concat(s.pile) })
  return ok({
    ...s,
    players,
    pile: [],
    turn: nextActive(players, seat),
    turns: s.turns + 1,
    ...withEvents(s, [{ t: 'pickup', seat, cards: s.pile.slice() }]),
  })
}

// ---------------------------------------------------------------------------------------------
// Views and outcome

/** I-15: what `viewer` may know. Hands of others become counts, face-down cards become flags. */
export function idiotView(s: IdiotState, viewer: Viewer): IdiotView {
  const players = s.players.map(
    (p, seat): IdiotPlayerView => ({
      handCount: p.hand.length,
      hand: seat === viewer ? p.hand.slice().sort(compareForHand) : null,
      row: p.row.map((pos) => ({ faceUp: pos.faceUp, faceDown: pos.faceDown !== null })),
      ready: p.ready,
      place: p.place,
    }),
  )
  return {
    game: 'idiot',
    viewer,
    seats: s.seats,
    dealer: s.dealer,
    phase: s.phase,
    turn: s.turn,
    players,
    pile: s.pile,
    drawCount: s.draw.length,
    burned: s.burned,
    moves: s.moves,
    turns: s.turns,
    recent: s.recent,
    outcome: idiotOutcome(s) ?? null,
  }
}

export function idiotOutcome(s: IdiotState): IdiotOutcome | undefined {
  if (s.phase !== 'over') return undefined
  const places = s.players
    .map((p, seat) => ({ seat, place: p.place ?? s.seats }))
    .sort((a, b) => a.place - b.place)
    .map((x) => x.seat)
  return { places, loser: places[places.length - 1]!, turns: s.turns }
}

export function idiotActiveSeats(s: IdiotState): Seat[] {
  if (s.phase === 'swap') return s.players.flatMap((p, i) => (p.ready ? [] : [i]))
  if (s.phase === 'play' && s.turn !== null) return [s.turn]
  return []
}

/** I-5: the loser of a game deals the next one at the same table. */
export const nextDealer = (o: IdiotOutcome): Seat => o.loser

/**
 * I-16: a table's running tally of how often each seat has been the Idiot. Returns a new array.
 */
export function addToTally(tally: readonly number[], o: IdiotOutcome): number[] {
  const t = tally.slice()
  t[o.loser] = (t[o.loser] ?? 0) + 1
  return t
}

export const idiot: GameDef<
  IdiotState,
  IdiotMove,
  IdiotView,
  IdiotOptions,
  IdiotOutcome,
  IdiotErrorCode
> = {
  id: 'idiot',
  setup: setupIdiot,
  legalMoves: idiotLegalMoves,
  apply: applyIdiot,
  view: idiotView,
  activeSeats: idiotActiveSeats,
  outcome: idiotOutcome,
}
