import { expect } from 'vitest'
import {
  type Card,
  fullDeck,
  type IdiotMove,
  type IdiotState,
  idiot,
  parseCards,
  type Seat,
} from '../src/index.ts'

export interface SeatSpec {
  /** Face-down cards of positions 0, 1, 2. */
  down: string
  /** Face-up cards of positions 0, 1, 2. */
  up: string
  hand: string
}

/**
 * Builds the 52-card deck that deals exactly these cards (inverting I-3's canonical order).
 * `draw` lists the first cards of the draw pile; every card not named follows in id order.
 */
export function idiotDeck(dealer: Seat, seats: SeatSpec[], draw = ''): Card[] {
  const n = seats.length
  const deck: Card[] = []
  for (const key of ['down', 'up', 'hand'] as const) {
    const cards = seats.map((s) => parseCards(s[key]))
    for (const [i, c] of cards.entries()) {
      if (c.length !== 3) throw new Error(`seat ${i} ${key} must have 3 cards`)
    }
    for (let round = 0; round < 3; round++) {
      for (let i = 1; i <= n; i++) deck.push(cards[(dealer + i) % n]![round]!)
    }
  }
  deck.push(...parseCards(draw))
  const used = new Set(deck)
  if (used.size !== deck.length) throw new Error('a card is named twice')
  for (const c of fullDeck()) if (!used.has(c)) deck.push(c)
  return deck
}

/** Deals from an explicit deck and lets every seat declare ready (no swaps). */
export function started(dealer: Seat, seats: SeatSpec[], draw = ''): IdiotState {
  let s = idiot.setup({ dealer }, seats.length, { deck: idiotDeck(dealer, seats, draw) })
  for (let i = 0; i < seats.length; i++) s = must(s, i, { type: 'ready' })
  return s
}

/** Applies a move that must succeed. */
export function must(s: IdiotState, seat: Seat, m: IdiotMove): IdiotState {
  const r = idiot.apply(s, seat, m)
  if (!r.ok) throw new Error(`move refused: ${r.error.code} ${r.error.message}`)
  return r.value
}

/** Plays the named cards (in notation). */
export const play = (s: IdiotState, seat: Seat, cards: string): IdiotState =>
  must(s, seat, { type: 'play', cards: parseCards(cards) })

/** Expects a move to be refused with `code` and the state to be untouched. */
export function refused(s: IdiotState, seat: Seat, m: IdiotMove, code: string): void {
  const before = JSON.stringify(s)
  const r = idiot.apply(s, seat, m)
  expect(r.ok).toBe(false)
  if (!r.ok) expect(r.error.code).toBe(code)
  expect(JSON.stringify(s)).toBe(before)
}

export const cards = (text: string): Card[] => parseCards(text)
export const sorted = (cs: readonly Card[]): Card[] => cs.slice().sort((a, b) => a - b)

/** Every card of the state, wherever it is: each must occur exactly once (card conservation). */
export function allCards(s: IdiotState): Card[] {
  const out: Card[] = [...s.pile, ...s.draw, ...s.burned]
  for (const p of s.players) {
    out.push(...p.hand)
    for (const pos of p.row) {
      if (pos.faceUp !== null) out.push(pos.faceUp)
      if (pos.faceDown !== null) out.push(pos.faceDown)
    }
  }
  return out
}

export interface PlayerSpec {
  hand?: string
  /** Up to three positions: `'7H/2C'` is a face-up 7H over a face-down 2C; `'7H/'` or `'/2C'` alone; `''` empty. */
  row?: string[]
  place?: number | null
}

/**
 * A play-phase position built directly: every card not named is in the burned heap, so the
 * position conserves all 52 cards. For tests of late-game rules (rows, going out).
 */
export function position(spec: {
  players: PlayerSpec[]
  turn: Seat
  pile?: string
  draw?: string
  dealer?: Seat
}): IdiotState {
  const named = new Set<Card>()
  const take = (text: string): Card[] => {
    const cs = parseCards(text)
    for (const c of cs) {
      if (named.has(c)) throw new Error(`card named twice: ${c}`)
      named.add(c)
    }
    return cs
  }
  const players = spec.players.map((p) => ({
    hand: take(p.hand ?? ''),
    row: [0, 1, 2].map((i) => {
      const [up = '', down = ''] = (p.row?.[i] ?? '').split('/')
      const u = take(up)
      const d = take(down)
      return { faceUp: u[0] ?? null, faceDown: d[0] ?? null }
    }),
    ready: true,
    place: p.place ?? null,
  }))
  const pile = take(spec.pile ?? '')
  const draw = take(spec.draw ?? '')
  const burned = fullDeck().filter((c) => !named.has(c))
  return {
    game: 'idiot',
    seats: players.length,
    dealer: spec.dealer ?? (spec.turn + players.length - 1) % players.length,
    phase: 'play',
    turn: spec.turn,
    players,
    pile,
    draw,
    burned,
    moves: 0,
    turns: 0,
    recent: [],
  }
}
