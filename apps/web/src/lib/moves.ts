// What the player may tap, computed from the engine's legal moves on their own view: no rules
// are written here, only which taps lead to which legal move.
import {
  type AcesUpMove,
  type AcesUpView,
  acesUpLegalMovesFromView,
  canDiscard,
  type IdiotMove,
  rankOf,
  suitOf,
} from '@kortbord/engine'

type Play = Extract<IdiotMove, { type: 'play' }>
const plays = (moves: readonly IdiotMove[]): Play[] =>
  moves.filter((m): m is Play => m.type === 'play')

/** Whether tapping `card` keeps the selection part of some legal play (or deselects it). */
export function canSelect(
  moves: readonly IdiotMove[],
  selected: readonly number[],
  card: number,
): boolean {
  if (selected.includes(card)) return true
  const want = [...selected, card]
  return plays(moves).some((m) => want.every((c) => m.cards.includes(c)))
}

/** The legal play made of exactly the selected cards, or null. */
export function playOf(moves: readonly IdiotMove[], selected: readonly number[]): Play | null {
  if (selected.length === 0) return null
  return (
    plays(moves).find(
      (m) => m.cards.length === selected.length && selected.every((c) => m.cards.includes(c)),
    ) ?? null
  )
}

/** Taps a card: adds it to the selection, removes it, or starts a new selection of its rank. */
export function toggle(
  moves: readonly IdiotMove[],
  selected: readonly number[],
  card: number,
): number[] {
  if (selected.includes(card)) return selected.filter((c) => c !== card)
  if (canSelect(moves, selected, card)) return [...selected, card]
  return canSelect(moves, [], card) ? [card] : selected.slice()
}

/** Every card of some legal play (for highlighting). */
export function playable(moves: readonly IdiotMove[]): Set<number> {
  return new Set(plays(moves).flatMap((m) => m.cards))
}

/** The legal swap of a hand card and a face-up card, or null (I-4). */
export function swapOf(
  moves: readonly IdiotMove[],
  hand: number,
  faceUp: number,
): Extract<IdiotMove, { type: 'swap' }> | null {
  return (
    (moves.find((m) => m.type === 'swap' && m.hand === hand && m.faceUp === faceUp) as
      | Extract<IdiotMove, { type: 'swap' }>
      | undefined) ?? null
  )
}

// ---------------------------------------------------------------------------------------------
// Aces Up

export function acesUpMoves(v: AcesUpView): AcesUpMove[] {
  return acesUpLegalMovesFromView(v)
}

/** What tapping pile i's top card does: discard it if legal, else pick it up to move. */
export function tapPile(
  v: AcesUpView,
  moves: readonly AcesUpMove[],
  picked: number | null,
  pile: number,
): { move: AcesUpMove | null; picked: number | null } {
  const empty = (v.piles[pile]?.length ?? 0) === 0
  if (picked !== null) {
    if (picked === pile) return { move: null, picked: null }
    const m = moves.find((x) => x.type === 'move' && x.from === picked && x.to === pile)
    if (m) return { move: m, picked: null }
    if (empty) return { move: null, picked: null }
  }
  if (empty) return { move: null, picked: null }
  const discard = moves.find((x) => x.type === 'discard' && x.pile === pile)
  if (discard) return { move: discard, picked: null }
  const movable = moves.some((x) => x.type === 'move' && x.from === pile)
  return { move: null, picked: movable ? pile : null }
}

/**
 * would dealing now lose a discard that is possible now? The next deal covers piles
 * 0 … nextDeal−1: a discardable card there is covered, and a discard elsewhere is lost when
 * every higher card of its suit is covered. (The new cards are unknown, so this is the warning
 * a careful player would give themselves.)
 */
export function dealLosesDiscard(v: AcesUpView): boolean {
  if (v.stockCount === 0) return false
  const k = v.nextDeal
  for (let i = 0; i < v.piles.length; i++) {
    if (!canDiscard(v.piles, i)) continue
    if (i < k) return true
    const top = v.piles[i]![v.piles[i]!.length - 1]!
    const higher = v.piles
      .map((p, j) => ({ j, c: p[p.length - 1] }))
      .filter(
        ({ j, c }) =>
          j !== i && c !== undefined && suitOf(c) === suitOf(top) && rankOf(c) > rankOf(top),
      )
    if (higher.every(({ j }) => j < k)) return true
  }
  return false
}
