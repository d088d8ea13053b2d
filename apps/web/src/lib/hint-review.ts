// "What would the hint do?" on an Idiot game's replay (docs/rules.md, hints): for a move a player
// made themselves, the move the hard computer player would have made from that player's view at
// that moment (what they could see then, no more: I-15), and whether the two are the same.
import {
  type HardThought,
  type IdiotMove,
  type IdiotState,
  idiotView,
  rankOf,
  type Weighed,
} from '@kortbord/engine'
import { askHint } from './hint.ts'
import type { MoveLine } from './replay.ts'

/** Whether `line`'s move can be compared with a hint: a move of Idiot made by its player. */
export function reviewable(line: MoveLine | null): line is MoveLine & { move: IdiotMove } {
  if (line === null || line.by !== null || line.move === null) return false
  const type = (line.move as { type?: unknown }).type
  return type === 'play' || type === 'pickup' || type === 'swap' || type === 'ready'
}

const ranks = (cards: readonly number[]) =>
  cards
    .map(rankOf)
    .sort((a, b) => a - b)
    .join(',')

/**
 * Whether two moves come to the same: the same ranks laid (which suits changes nothing in Idiot),
 * the same ranks swapped, or both a pick-up or both Ready.
 */
export function sameMove(a: IdiotMove, b: IdiotMove): boolean {
  if (a.type === 'play' && b.type === 'play') return ranks(a.cards) === ranks(b.cards)
  if (a.type === 'swap' && b.type === 'swap') {
    return rankOf(a.hand) === rankOf(b.hand) && rankOf(a.faceUp) === rankOf(b.faceUp)
  }
  return a.type === b.type
}

export interface Review {
  /** The hint's move and playouts (null: the bot had nothing to do, which a made move rules out). */
  readonly hint: HardThought | null
  readonly same: boolean
  /** The playouts of the move made, where the bot played it out (not in the swap); else null. */
  readonly played: Weighed | null
}

/**
 * The hint for move `line` (states[line.k - 1] is the position it was made from); `now` as for
 * askHint.
 */
export async function reviewMove(
  states: readonly IdiotState[],
  line: MoveLine & { move: IdiotMove },
  now?: () => number,
): Promise<Review> {
  const before = states[line.k - 1]
  if (before === undefined) throw new RangeError(`no position before move ${line.k}`)
  const hint = await askHint(idiotView(before, line.seat), now)
  return {
    hint,
    same: hint !== null && sameMove(hint.move, line.move),
    played: hint?.weighed.find((w) => sameMove(w.move, line.move)) ?? null,
  }
}
