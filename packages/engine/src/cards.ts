/**
 * Cards and their notation (docs/rules.md preamble).
 *
 * A card is a small integer: `deck * 52 + suit * 13 + (rank - 2)`. The id is a function of the
 * card's face (and, with two decks, of which deck it belongs to) and of nothing else, so an id
 * in a view says exactly what a face-up card says and never where a hidden card lies.
 * Notation: rank `2 3 4 5 6 7 8 9 T J Q K A`, suit `C D H S`, e.g. `TH`; a card of the second
 * deck carries a prime: `TH'`.
 */

export const SUITS = ['C', 'D', 'H', 'S'] as const
export const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'] as const

export type SuitChar = (typeof SUITS)[number]
export type RankChar = (typeof RANKS)[number]
/** A card id, 0..51 for the first deck, 52..103 for the second. */
export type Card = number
/** Suit index 0..3 in the order of {@link SUITS}. */
export type Suit = 0 | 1 | 2 | 3
/** Rank value 2..14; ace is 14 (aces high, docs/rules.md I-1 and A-1). */
export type Rank = number

export const RANK_TEN = 10
export const RANK_TWO = 2
export const RANK_ACE = 14

export const rankOf = (c: Card): Rank => (c % 13) + 2
export const suitOf = (c: Card): Suit => (Math.floor(c / 13) % 4) as Suit
export const deckOf = (c: Card): number => Math.floor(c / 52)
export const makeCard = (rank: Rank, suit: Suit, deck = 0): Card =>
  deck * 52 + suit * 13 + (rank - 2)

/** Is `x` a valid card id for a game with `decks` decks? */
export const isCard = (x: unknown, decks = 1): x is Card =>
  typeof x === 'number' && Number.isInteger(x) && x >= 0 && x < 52 * decks

/** The ordered deck(s): every card id once, `0 … 52*decks-1`. */
export function fullDeck(decks = 1): Card[] {
  return Array.from({ length: 52 * decks }, (_, i) => i)
}

/** `TH`, `2C`, `AS'` (second deck). */
export function formatCard(c: Card): string {
  const d = deckOf(c)
  return RANKS[rankOf(c) - 2]! + SUITS[suitOf(c)]! + (d === 0 ? '' : "'".repeat(d))
}

/** Parses one card in notation; also accepts `10` for ten and lower-case letters. */
export function parseCard(text: string): Card | undefined {
  const m = /^(10|[2-9TJQKA])([CDHS])('*)$/i.exec(text.trim())
  if (!m) return undefined
  const r = m[1]!.toUpperCase() === '10' ? 'T' : (m[1]!.toUpperCase() as RankChar)
  const rank = RANKS.indexOf(r as RankChar) + 2
  const suit = SUITS.indexOf(m[2]!.toUpperCase() as SuitChar) as Suit
  const deck = m[3]!.length
  if (deck > 1) return undefined
  return makeCard(rank, suit, deck)
}

/** Parses a list separated by spaces or commas; throws on a bad card (for tests and tools). */
export function parseCards(text: string): Card[] {
  const parts = text.split(/[\s,]+/).filter((p) => p.length > 0)
  return parts.map((p) => {
    const c = parseCard(p)
    if (c === undefined) throw new Error(`not a card: ${JSON.stringify(p)}`)
    return c
  })
}

export const formatCards = (cs: readonly Card[]): string => cs.map(formatCard).join(' ')

/** Sort key for showing a hand: by rank, then suit, then deck. */
export const compareForHand = (a: Card, b: Card): number =>
  rankOf(a) - rankOf(b) || suitOf(a) - suitOf(b) || deckOf(a) - deckOf(b)
