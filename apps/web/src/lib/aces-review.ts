// "What would the hint do?" on an Idioten replay (docs/rules.md, A-17 hints): for a move a player
// made themselves, the move Idioten alone's hint would have chosen from that player's view at
// that moment (the table, the discards and the size of the stock: I-15), whether the two come to
// the same, and a move to look at again when it left clearly more cards in the playouts. A match
// for two is reviewed too: once it is over, a hint helps nobody at the table.
import {
  type AcesUpMove,
  type AcesUpThought,
  type AcesUpView,
  type AcesUpWeighed,
  acesUpChosen,
  acesUpLegalMoves,
  acesUpView,
  type DuelState,
  sameAcesUpMove,
} from '@kortbord/engine'
import { acesHintLeft, acesHintWords, askAcesHint, hintLanes } from './aces-hint.ts'
import type { Reviewer, ReviewWords } from './hint-reviews.svelte.ts'
import type { Lang } from './i18n.ts'
import { RECORD_DICTS } from './i18n-records.ts'
import { TABLE_DICTS } from './i18n-table.ts'
import type { MoveLine } from './replay.ts'

export interface AcesReview {
  /** What the player saw when they moved (the hint's words name its cards). */
  readonly view: AcesUpView
  /** The hint's move and playouts (null: nothing to do, which a move made rules out). */
  readonly hint: AcesUpThought | null
  readonly same: boolean
  /** The playouts of the move made (null: the hint weighed nothing, a single legal move). */
  readonly played: AcesUpWeighed | null
}

/** Works out the hint for a view and its legal moves (by default in a kept Web Worker). */
export type AskAcesHint = (
  view: AcesUpView,
  moves: readonly AcesUpMove[],
) => Promise<AcesUpThought | null>

const moveType = (m: unknown): unknown => (m as { type?: unknown } | null)?.type

/** Whether `line`'s move can be compared with the hint: a move of the game its player made. */
export function acesReviewable(line: MoveLine | null): line is MoveLine & { move: AcesUpMove } {
  if (line === null || line.by !== null || line.move === null) return false
  const type = moveType(line.move)
  return type === 'discard' || type === 'move' || type === 'deal' || type === 'finish'
}

/** The position `line`'s move was made from: its player's game then, and their legal moves. */
export function positionOf(
  states: readonly DuelState[],
  line: MoveLine,
): { view: AcesUpView; moves: AcesUpMove[] } {
  const game = states[line.k - 1]?.players[line.seat]?.current
  if (!game) throw new RangeError(`no game of seat ${line.seat} before move ${line.k}`)
  return { view: acesUpView(game, 0), moves: acesUpLegalMoves(game, 0) }
}

/** The hint for `line`'s move, beside the move made. */
export async function reviewAcesMove(
  states: readonly DuelState[],
  line: MoveLine & { move: AcesUpMove },
  ask: AskAcesHint,
): Promise<AcesReview> {
  const { view, moves } = positionOf(states, line)
  const hint = await ask(view, moves)
  const made = line.move
  return {
    view,
    hint,
    same: hint !== null && sameAcesUpMove(hint.move, made),
    // The hint weighs one move per card into a gap, whichever gap the player chose.
    played: hint?.weighed.find((w) => sameAcesUpMove(w.move, made)) ?? null,
  }
}

/**
 * Idioten's part of a replay's reviews (lib/hint-reviews.svelte.ts); `ask` works out a hint (by
 * default in one Web Worker kept for every move, ended when the page goes).
 */
export function acesReviewer(
  states: () => readonly DuelState[],
  ask?: AskAcesHint,
): Reviewer<AcesReview> {
  const kept = ask === undefined ? hintLanes() : null
  const asking: AskAcesHint = ask ?? ((view, moves) => askAcesHint(view, moves, kept!))
  return {
    lanes: kept?.size ?? 1,
    reviewable: acesReviewable,
    review: (line) => {
      if (!acesReviewable(line)) throw new RangeError(`move ${line.k} is not reviewed`)
      return reviewAcesMove(states(), line, asking)
    },
    behind: (a) => {
      const chosen = a.hint === null ? undefined : acesUpChosen(a.hint)
      if (a.same || chosen === undefined || a.played === null || a.played.behind <= 0) return null
      return { played: a.played.mean, hint: chosen.mean }
    },
    end: () => kept?.end(),
    words: acesReviewWords,
  }
}

/** How an Idioten review is said: the cards left on average, to one decimal. */
function acesReviewWords(lang: Lang, names: readonly string[]): ReviewWords<AcesReview> {
  const r = RECORD_DICTS[lang]
  const tt = TABLE_DICTS[lang]
  const f = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 })
  return {
    said: (a, line) => {
      if (a.hint === null) return r.reviewFailed
      const name = names[line.seat] ?? ''
      // The same move says the player's own gap, not another the hint happened to name.
      const move = a.same && acesReviewable(line) ? line.move : a.hint.move
      const verdict = a.same
        ? r.reviewSame(name)
        : a.played !== null
          ? r.reviewOtherLeft(name, f.format(a.played.mean))
          : r.reviewOther(name)
      return `${acesHintWords(a.view, move, lang, tt)} ${verdict}`
    },
    odds: (a) => (a.hint === null ? null : acesHintLeft(a.hint, lang, tt)),
    about: r.reviewAboutCards,
    lookAgain: r.reviewLookAgainCards,
    allGood: r.reviewAllGoodCards,
    lookItem: (a) =>
      r.reviewLookItemCards(a.k, names[a.seat] ?? '', f.format(a.played), f.format(a.hint)),
  }
}
