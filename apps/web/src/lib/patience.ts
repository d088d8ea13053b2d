// Where the piles of Klockan and Dom Åtta Herrarna go on the screen, and their words. Layout
// and language only: the rules (what happens next, which moves are legal) come from the engine.
import type { HerrarnaView, KlockanVariant, KlockanView } from '@kortbord/engine'
import { cardName, rankName } from './card-names.ts'
import type { Dict, Lang } from './i18n.ts'

/** A cell of a CSS grid, counted from 1. */
export interface Cell {
  readonly row: number
  readonly col: number
}

/**
 * Klockan's clock face on a grid of 3 columns and 5 rows, clockwise: 12 at the top in the
 * middle, 3 on the right, 6 at the bottom, 9 on the left; the centre (hour 13, the kings) in the
 * middle. Narrow enough for a phone held upright.
 */
const CLOCK: Record<number, Cell> = {
  12: { row: 1, col: 2 },
  1: { row: 1, col: 3 },
  2: { row: 2, col: 3 },
  3: { row: 3, col: 3 },
  4: { row: 4, col: 3 },
  5: { row: 5, col: 3 },
  6: { row: 5, col: 2 },
  7: { row: 5, col: 1 },
  8: { row: 4, col: 1 },
  9: { row: 3, col: 1 },
  10: { row: 2, col: 1 },
  11: { row: 1, col: 1 },
  13: { row: 3, col: 2 },
}

export const clockCell = (hour: number): Cell => CLOCK[hour]!

/**
 * The same clock face for a screen wider than it is high (a phone held sideways): 5 columns and
 * 3 rows, clockwise as before, 12 at the top in the middle, 3 on the right, 6 at the bottom, 9 on
 * the left, the kings in the middle. Five rows of piles left a phone on its side too little
 * height for a readable card; three rows leave it three times as much.
 */
const WIDE_CLOCK: Record<number, Cell> = {
  10: { row: 1, col: 1 },
  11: { row: 1, col: 2 },
  12: { row: 1, col: 3 },
  1: { row: 1, col: 4 },
  2: { row: 1, col: 5 },
  3: { row: 2, col: 5 },
  4: { row: 3, col: 5 },
  5: { row: 3, col: 4 },
  6: { row: 3, col: 3 },
  7: { row: 3, col: 2 },
  8: { row: 3, col: 1 },
  9: { row: 2, col: 1 },
  13: { row: 2, col: 3 },
}

export const wideClockCell = (hour: number): Cell => WIDE_CLOCK[hour]!

/**
 * Klockan's clock face: one hour for each cell, in the order of their first piles, each with its
 * piles (two with two decks, K-8) and its cell upright and held sideways.
 */
export function klockanHours(piles: readonly { readonly hour: number }[]) {
  const out = new Map<number, number[]>()
  piles.forEach((p, i) => {
    out.set(p.hour, [...(out.get(p.hour) ?? []), i])
  })
  return [...out.entries()].map(([hour, piles]) => ({
    hour,
    piles,
    cell: clockCell(hour),
    wide: wideClockCell(hour),
  }))
}

/** The card index an hour's pile takes (what its face-up cards show): A, 2 … 10, J, Q, K. */
export const hourIndex = (hour: number): string =>
  hour === 1 ? 'A' : hour <= 10 ? String(hour) : (['J', 'Q', 'K'][hour - 11] ?? '')

/** The rank (2 … 14) of an hour: 1 is the ace. */
export const hourRank = (hour: number): number => (hour === 1 ? 14 : hour)

/** A Klockan pile in words: "femhögen", "the 5 o’clock pile (left)", "kongebunken". */
export function klockanPileName(
  t: Dict,
  lang: Lang,
  variant: KlockanVariant,
  pile: { readonly hour: number; readonly side: 0 | 1 },
): string {
  const side = variant === 'twoDecks' ? (pile.side === 0 ? 'left' : 'right') : null
  return t.klockanPile(rankName(lang, hourRank(pile.hour)), pile.hour, side)
}

/** What the last move of Klockan did, in words ('' before the first card is turned). */
export function klockanNewsText(t: Dict, lang: Lang, v: KlockanView): string {
  const rescue = v.recent.find((e) => e.t === 'rescue')
  if (rescue && rescue.t === 'rescue') {
    return t.klockanRescued(cardName(lang, rescue.king), cardName(lang, rescue.card))
  }
  if (v.last === null) return ''
  return t.klockanLast(
    cardName(lang, v.last.card),
    klockanPileName(t, lang, v.variant, v.piles[v.last.to]!),
  )
}

/** All the cards of a Klockan game: face down and face up, whatever has been turned. */
export const klockanTotal = (v: KlockanView): number =>
  v.piles.reduce((n, p) => n + p.faceDown + p.faceUp.length, 0)

/**
 * Dom Åtta Herrarna's semicircle on a grid of 5 columns and 5 rows: pile 1 at the bottom left,
 * up the left side, along the top, down the right side to pile 13 at the bottom right. The
 * foundations go in the middle (rows 2–5, columns 2–4).
 */
export function archCell(pile: number): Cell {
  if (pile < 4) return { row: 5 - pile, col: 1 }
  if (pile < 9) return { row: 1, col: pile - 3 }
  return { row: pile - 7, col: 5 }
}

/** What the next step of Dom Åtta Herrarna does, in words ("Next: …"; null at the end). */
export function herrarnaNextText(t: Dict, lang: Lang, v: HerrarnaView): string | null {
  const what = herrarnaStepText(t, lang, v)
  return what === null ? null : t.nextStep(what)
}

/** What the next step of Dom Åtta Herrarna does, as a move list says it (null at the end). */
export function herrarnaStepText(t: Dict, lang: Lang, v: HerrarnaView): string | null {
  const n = v.next
  if (n === null) return null
  const spot = (p: number) => (v.round === 3 ? t.placeRef(p + 1) : t.pileRef(p + 1))
  switch (n.t) {
    case 'deal':
      return n.from === 'stock' ? t.stepDeal(spot(n.pile)) : t.stepDealHand(spot(n.pile))
    case 'build': {
      const from =
        n.from.zone === 'pile'
          ? spot(n.from.pile)
          : n.from.zone === 'waste'
            ? t.wasteRef
            : t.reserveRef
      const card = cardName(lang, n.card)
      return n.foundation >= v.foundations.length
        ? t.stepStart(card, from)
        : t.stepBuild(card, from, n.foundation + 1)
    }
    case 'take':
      return t.stepTake(spot(n.pile))
    case 'reserve':
      return n.from === 'hand' ? t.stepReserveHand : t.stepReservePile
    case 'turn':
      return t.stepTurn
    case 'restock':
      return t.stepRestock
  }
}

/** The pile (or round 3 place) the next step takes a card from or puts one on, for a highlight. */
export function herrarnaNextPile(v: HerrarnaView): number | null {
  const n = v.next
  if (n === null) return null
  if (n.t === 'deal' || n.t === 'take') return n.pile
  if (n.t === 'build' && n.from.zone === 'pile') return n.from.pile
  if (n.t === 'reserve' && n.from === 'pile') return v.piles.length - 1
  return null
}
