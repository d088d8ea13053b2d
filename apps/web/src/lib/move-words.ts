// A recorded move in the reader's words, for the replay's list and step line (issue 14): the
// record's own notation ("discard 0", "play TH") is for machines and numbers piles from 0.
import type { DuelState, RecordGame, RecordMoveOf } from '@kortbord/engine'
import { cardName, cardNames } from './card-names.ts'
import type { Lang } from './i18n.ts'
import type { RecordsDict } from './i18n-records.ts'

/**
 * Move `move` of `seat` in words; `before` is the game's state before it (the duel's cards are
 * named from it), or null when it is not known.
 */
export function moveWords(
  r: RecordsDict,
  lang: Lang,
  game: RecordGame,
  seat: number,
  move: RecordMoveOf,
  before: unknown,
): string {
  switch (move.type) {
    case 'play':
      return r.mvPlay(cardNames(lang, move.cards))
    case 'swap':
      return r.mvSwap(cardName(lang, move.hand), cardName(lang, move.faceUp))
    case 'pickup':
      return r.mvPickup
    case 'ready':
      return r.mvReady
    case 'deal':
      return r.mvDeal
    case 'undo':
      return r.mvUndo
    case 'finish':
      return r.mvFinish
    case 'discard':
    case 'move': {
      const from = move.type === 'discard' ? move.pile : move.from
      const top = game === 'duel' ? duelTop(before, seat, from) : undefined
      const card = top === undefined ? r.mvPileTop(from + 1) : cardName(lang, top)
      return move.type === 'discard' ? r.mvDiscard(card) : r.mvMove(card, move.to + 1)
    }
    case 'turn':
      return r.mvTurn
    case 'decline':
      return r.mvDecline
    case 'rescue':
      return r.mvRescue
    case 'step':
      return r.mvStep
    default:
      return ''
  }
}

/** The top card of `pile` in `seat`'s game in play, in a duel state (undefined: not known). */
function duelTop(before: unknown, seat: number, pile: number): number | undefined {
  const game = (before as DuelState | null)?.players?.[seat]?.current
  return game?.piles[pile]?.at(-1)
}
