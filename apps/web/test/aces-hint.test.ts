// Idioten alone's hint on the page (lib/aces-hint.ts): who is offered it, its words in each
// language, and how much the choice matters.
import {
  type AcesUpState,
  type AcesUpThought,
  acesUpLegalMoves,
  acesUpView,
  applyAcesUp,
  parseCards,
  startAcesUp,
} from '@kortbord/engine'
import { describe, expect, it } from 'vitest'
import {
  acesCompleting,
  acesHintLeft,
  acesHintOffered,
  acesHintWords,
} from '../src/lib/aces-hint.ts'
import { acesHint } from '../src/lib/aces-hint-bot.ts'
import { TABLE_DICTS } from '../src/lib/i18n-table.ts'

// A whole deck; the layout 3D 5S TS 7H: TS discards 5S.
const s0: AcesUpState = startAcesUp(
  parseCards(
    '3D 5S TS 7H 8S 4C QD JD 4S 5H 2H 6D 6H 6S 9H 4D TD QC KH KC 5C 5D 3S KS AC 6C AH 2D QS 8C 3C 2C JH KD 2S TC QH 7C 9D 8H TH 9S AS 9C AD 4H JC 8D 3H JS 7S 7D',
  ),
  4,
  'none',
)

describe('Idioten alone: the hint on the page', () => {
  it('[A-17] is offered to the player of a patience played alone, not in a match, not to a watcher', () => {
    expect(acesHintOffered(true, 0, false)).toBe(true)
    expect(acesHintOffered(false, 0, false)).toBe(false)
    expect(acesHintOffered(true, null, false)).toBe(false)
    // While a computer player plays the seat for an away player, it is not the player's move.
    expect(acesHintOffered(true, 0, true)).toBe(false)
  })

  it('[A-17] puts the focus on what completes the move', () => {
    expect(acesCompleting({ type: 'discard', pile: 2 })).toBe(
      '[data-testid="my-board"] [data-testid="top-2"]',
    )
    expect(acesCompleting({ type: 'move', from: 0, to: 3 })).toBe(
      '[data-testid="my-board"] [data-testid="empty-3"]',
    )
    expect(acesCompleting({ type: 'deal' })).toBe('[data-testid="deal"]')
    expect(acesCompleting({ type: 'finish' })).toBe('[data-testid="finish"]')
  })

  it('[A-17] says the move in words that name the card, in each language', () => {
    const v = acesUpView(s0, 0)
    const discard = { type: 'discard', pile: 1 } as const
    expect(acesHintWords(v, discard, 'en', TABLE_DICTS.en)).toBe(
      'Hint: discard the five of spades.',
    )
    expect(acesHintWords(v, discard, 'sv', TABLE_DICTS.sv)).toMatch(/^Tips: kasta .*spader/)
    expect(acesHintWords(v, discard, 'nb', TABLE_DICTS.nb)).toMatch(/^Tips: kast .*spar/)
    const r = applyAcesUp(s0, 0, discard)
    if (!r.ok) throw new Error(r.error.code)
    const gap = acesUpView(r.value, 0)
    expect(acesHintWords(gap, { type: 'move', from: 3, to: 1 }, 'en', TABLE_DICTS.en)).toBe(
      'Hint: move the seven of hearts to the empty pile 2.',
    )
    expect(acesHintWords(v, { type: 'deal' }, 'en', TABLE_DICTS.en)).toBe(TABLE_DICTS.en.hintDeal)
    expect(acesHintWords(v, { type: 'finish' }, 'sv', TABLE_DICTS.sv)).toBe(
      TABLE_DICTS.sv.hintFinish,
    )
  })

  it('[A-17] says how many cards the move left in the playouts and the others, as the language writes numbers', () => {
    const thought: AcesUpThought = {
      move: { type: 'discard', pile: 1 },
      weighed: [
        { move: { type: 'discard', pile: 1 }, mean: 13.66, tries: 200, behind: 0 },
        { move: { type: 'deal' }, mean: 14.2, tries: 200, behind: 0 },
        { move: { type: 'move', from: 0, to: 2 }, mean: 15.04, tries: 200, behind: 1.38 },
      ],
    }
    expect(acesHintLeft(thought, 'en', TABLE_DICTS.en)).toBe(
      'Played out 200 times on guesses of the stock: the hint’s move left 13.7 cards on average, the other moves 14.2–15.0.',
    )
    expect(acesHintLeft(thought, 'sv', TABLE_DICTS.sv)).toContain(
      '13,7 kort i snitt, de andra dragen 14,2–15,0.',
    )
    const two = { ...thought, weighed: thought.weighed.slice(0, 2) }
    expect(acesHintLeft(two, 'nb', TABLE_DICTS.nb)).toContain(
      '13,7 kort i snitt, det andre trekket 14,2.',
    )
    expect(acesHintLeft({ ...thought, weighed: [] }, 'en', TABLE_DICTS.en)).toBeNull()
    // The discard left fewer, but not clearly: the plain move stands, and the hint says so.
    const close = { ...thought, move: { type: 'deal' } as const }
    expect(acesHintLeft(close, 'en', TABLE_DICTS.en)).toBe(
      'Played out 200 times on guesses of the stock: the hint’s move left 14.2 cards on average, the other moves 13.7–15.0. No other move did clearly better.',
    )
  })

  it('[A-17][I-15] the page’s hint is worked out from the player’s view, the same each time for one position', () => {
    const v = acesUpView(s0, 0)
    const moves = acesUpLegalMoves(s0)
    // A clock that never runs out: the same answer on a slow machine.
    const a = acesHint(v, moves, () => 0)
    expect(a).toEqual(acesHint(v, moves, () => 0))
    expect(moves).toContainEqual(a?.move)
    expect(a?.weighed).toHaveLength(moves.length)
  })
})
