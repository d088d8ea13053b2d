// A recorded move in the reader's words (the replay's list): cards named, piles counted from 1,
// in all three languages, never the record's notation.
import { parseCard } from '@kortbord/engine'
import { describe, expect, it } from 'vitest'
import { LANGS } from '../src/lib/i18n.ts'
import { RECORD_DICTS } from '../src/lib/i18n-records.ts'
import { moveWords } from '../src/lib/move-words.ts'

const c = (s: string) => parseCard(s)!
/** A duel state as far as the words read it: seat 1's game in play, pile 0 topped by K♥. */
const duelBefore = {
  players: [{ current: null }, { current: { piles: [[c('2C'), c('KH')], [c('5S')], [], []] } }],
}

describe('moves in words (the replay)', () => {
  it('names the duel’s card and counts piles from 1, as the board does', () => {
    const en = RECORD_DICTS.en
    expect(moveWords(en, 'en', 'duel', 1, { type: 'discard', pile: 0 }, duelBefore)).toBe(
      'discarded king of hearts',
    )
    expect(moveWords(en, 'en', 'duel', 1, { type: 'move', from: 1, to: 2 }, duelBefore)).toBe(
      'moved five of spades to pile 3',
    )
    // Without the state before it, the pile by its number.
    expect(moveWords(en, 'en', 'duel', 1, { type: 'discard', pile: 0 }, null)).toBe(
      'discarded the top card of pile 1',
    )
    expect(moveWords(RECORD_DICTS.sv, 'sv', 'duel', 1, { type: 'deal' }, null)).toBe('gav')
  })

  it('says Idiot’s plays with the cards in words', () => {
    const play = { type: 'play', cards: [c('TH'), c('TD')] } as const
    expect(moveWords(RECORD_DICTS.en, 'en', 'idiot', 0, play, null)).toBe(
      'played ten of hearts, ten of diamonds',
    )
    expect(moveWords(RECORD_DICTS.sv, 'sv', 'idiot', 0, play, null)).toBe(
      'lade tio i hjärter, tio i ruter',
    )
  })

  it('has words for every kind of move in every language, and no notation', () => {
    const moves = [
      ['idiot', { type: 'swap', hand: c('KS'), faceUp: c('3H') }],
      ['idiot', { type: 'pickup' }],
      ['idiot', { type: 'ready' }],
      ['duel', { type: 'undo' }],
      ['duel', { type: 'finish' }],
      ['klockan', { type: 'turn' }],
      ['klockan', { type: 'decline' }],
      ['klockan', { type: 'rescue', pile: 3 }],
      ['herrarna', { type: 'step' }],
    ] as const
    for (const lang of LANGS) {
      for (const [game, m] of moves) {
        const w = moveWords(RECORD_DICTS[lang], lang, game, 0, m, null)
        expect(w, `${lang} ${m.type}`).toMatch(/\S/)
        expect(w).not.toMatch(/undefined|NaN|\b(KS|3H)\b/)
      }
    }
  })
})
