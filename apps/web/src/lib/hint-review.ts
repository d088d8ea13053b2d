// "What would the hint do?" on an Idiot game's replay (docs/rules.md, hints): for a move a player
// made themselves, the move the hard computer player would have made from that player's view at
// that moment (what they could see then, no more: I-15), and whether the two are the same.
import {
  clearlyFewerLosses,
  type HardThought,
  type IdiotMove,
  type IdiotState,
  type IdiotView,
  idiotView,
  rankOf,
  type Weighed,
} from '@kortbord/engine'
import { askHint, chosenOf, hintOdds, hintWords, idiotHintLanes, lostShare } from './hint.ts'
import type { Reviewer, ReviewWords } from './hint-reviews.svelte.ts'
import type { Lang } from './i18n.ts'
import { RECORD_DICTS } from './i18n-records.ts'
import { TABLE_DICTS } from './i18n-table.ts'
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

/** Works out the hint for a player's view (by default in a kept Web Worker). */
export type AskHint = (view: IdiotView) => Promise<HardThought | null>

/** The hint for move `line` (states[line.k - 1] is the position it was made from). */
export async function reviewMove(
  states: readonly IdiotState[],
  line: MoveLine & { move: IdiotMove },
  ask: AskHint,
): Promise<Review> {
  const before = states[line.k - 1]
  if (before === undefined) throw new RangeError(`no position before move ${line.k}`)
  const hint = await ask(idiotView(before, line.seat))
  return {
    hint,
    same: hint !== null && sameMove(hint.move, line.move),
    played: hint?.weighed.find((w) => sameMove(w.move, line.move)) ?? null,
  }
}

/**
 * How many standard errors the move made must lose above the hint's move to be listed: with
 * about a hundred playouts a move, a difference of 10 points is often chance (the hint's move is
 * the best of several noisy figures), so only a difference beyond twice its error counts.
 */
export const LOOK_AGAIN_ERRORS = 2

/** Whether `played` lost clearly more of its playouts than `hint` (beyond chance). */
export const clearlyWorse = (played: Weighed, hint: Weighed): boolean =>
  clearlyFewerLosses(hint, played, LOOK_AGAIN_ERRORS)

/**
 * Idiot's part of a replay's reviews: the hard bot's move from the player's view, and a move to
 * look at again when it lost clearly more of its playouts than the hint's (in percent).
 */
export function idiotReviewer(
  states: () => readonly IdiotState[],
  ask?: AskHint,
): Reviewer<Review> {
  const kept = ask === undefined ? idiotHintLanes() : null
  const asking: AskHint = ask ?? ((view) => askHint(view, kept!))
  return {
    lanes: kept?.size ?? 1,
    reviewable,
    review: (line) => {
      if (!reviewable(line)) throw new RangeError(`move ${line.k} is not reviewed`)
      return reviewMove(states(), line, asking)
    },
    end: () => kept?.end(),
    behind: (a) => {
      if (a.same || a.hint === null || a.played === null) return null
      const chosen = chosenOf(a.hint)
      if (chosen === undefined || !clearlyWorse(a.played, chosen)) return null
      return { played: lostShare(a.played), hint: lostShare(chosen) }
    },
    words: (lang, names) => idiotReviewWords(lang, names),
  }
}

/** How an Idiot review is said. */
function idiotReviewWords(lang: Lang, names: readonly string[]): ReviewWords<Review> {
  const r = RECORD_DICTS[lang]
  const tt = TABLE_DICTS[lang]
  return {
    said: (a, line) => {
      if (a.hint === null) return r.reviewFailed
      const name = names[line.seat] ?? ''
      const verdict = a.same
        ? r.reviewSame(name)
        : a.played !== null
          ? r.reviewOtherLost(name, lostShare(a.played))
          : r.reviewOther(name)
      return `${hintWords(a.hint.move, lang, tt)} ${verdict}`
    },
    odds: (a) => (a.hint === null ? null : hintOdds(a.hint, tt)),
    about: r.reviewAbout,
    lookAgain: r.reviewLookAgain,
    allGood: r.reviewAllGood,
    lookItem: (a) => r.reviewLookItem(a.k, names[a.seat] ?? '', a.played, a.hint),
  }
}
