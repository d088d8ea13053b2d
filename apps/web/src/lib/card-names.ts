// Cards in words, for screen readers and the game's news: "tio i hjärter", "hjerter ti", "ten of
// hearts". Only the game tables (lazy chunks) need it, so it lives apart from i18n.ts: the first
// page load carries no engine code.
import { type Card, rankOf, suitOf } from '@kortbord/engine'
import type { Lang } from './i18n.ts'

const RANKS: Record<Lang, readonly string[]> = {
  // index = rank - 2
  sv: [
    'två',
    'tre',
    'fyra',
    'fem',
    'sex',
    'sju',
    'åtta',
    'nio',
    'tio',
    'knekt',
    'dam',
    'kung',
    'ess',
  ],
  nb: [
    'to',
    'tre',
    'fire',
    'fem',
    'seks',
    'sju',
    'åtte',
    'ni',
    'ti',
    'knekt',
    'dame',
    'konge',
    'ess',
  ],
  en: [
    'two',
    'three',
    'four',
    'five',
    'six',
    'seven',
    'eight',
    'nine',
    'ten',
    'jack',
    'queen',
    'king',
    'ace',
  ],
}
// Suits in the engine's order: clubs, diamonds, hearts, spades.
const SUITS: Record<Lang, readonly string[]> = {
  sv: ['klöver', 'ruter', 'hjärter', 'spader'],
  nb: ['kløver', 'ruter', 'hjerter', 'spar'],
  en: ['clubs', 'diamonds', 'hearts', 'spades'],
}

/** A card in words, for screen readers: "tio i hjärter", "hjerter ti", "ten of hearts". */
export function cardName(lang: Lang, c: Card): string {
  const r = RANKS[lang][rankOf(c) - 2]!
  const s = SUITS[lang][suitOf(c)]!
  if (lang === 'sv') return `${r} i ${s}`
  if (lang === 'nb') return `${s} ${r}`
  return `${r} of ${s}`
}

/** Cards in words, one after another: "tio i hjärter, tio i ruter". */
export function cardNames(lang: Lang, cards: readonly Card[]): string {
  return cards.map((c) => cardName(lang, c)).join(', ')
}

export function rankName(lang: Lang, rank: number): string {
  return RANKS[lang][rank - 2] ?? String(rank)
}

/** What a card shows in its corner: "10♦", "K♠". */
export function cardIndex(card: Card): string {
  const INDEX = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A']
  return `${INDEX[rankOf(card) - 2]}${['♣', '♦', '♥', '♠'][suitOf(card)]}`
}

/**
 * A card's accessible name: what it shows, then its name in words ("10♦, ten of diamonds"), so
 * that someone who says what they see (voice control) names the card (issue 15).
 */
export function cardLabel(lang: Lang, card: Card): string {
  return `${cardIndex(card)}, ${cardName(lang, card)}`
}
