import {
  applyKlockan,
  fullDeck,
  type KlockanView,
  klockanView,
  startKlockan,
} from '@kortbord/engine'
import { describe, expect, it } from 'vitest'
import type { Lang } from '../src/lib/i18n.ts'
import { DICTS } from '../src/lib/i18n-all.ts'
import { TABLE_DICTS } from '../src/lib/i18n-table.ts'
import {
  type KlockanHeard,
  type KlockanNow,
  type KlockanSeats,
  klockanResult,
  klockanSaid,
  klockanSayKey,
  klockanStatus,
  klockanSuggested,
} from '../src/lib/klockan-said.ts'
import { klockanNewsText } from '../src/lib/patience.ts'
import { describeTableEvent, type TableEvent } from '../src/lib/table-news.ts'

const names = ['Astrid', 'Bo']
const astrid: KlockanSeats = { me: 0, names }
const bo: KlockanSeats = { me: 1, names }

/** Klockan för två (Astrid first) after `turns` cards of an unshuffled deck. */
function twoAfter(turns: number): KlockanView {
  let s = startKlockan(fullDeck(1), 'standard', 2)
  for (let i = 0; i < turns; i++) {
    const r = applyKlockan(s, s.turn!, { type: 'turn' })
    if (!r.ok) throw new Error(r.error.message)
    s = r.value
  }
  return klockanView(s, 0)
}

/** The same game over: Bo turned the fourth king with `faceDown` cards left. */
function overForBo(faceDown: number, variant: KlockanView['variant'] = 'standard'): KlockanView {
  const v = twoAfter(4)
  return {
    ...v,
    variant,
    phase: 'over',
    turn: null,
    outcome: {
      won: faceDown === 0,
      faceDown,
      turned: 52 - faceDown,
      rescued: false,
      loser: 1,
      winner: 0,
    },
  }
}

/** A timeout of Bo's turn (I-16), as the table logs it. */
const timeout: TableEvent = { t: 'timeout', seq: 9, at: 0, seat: 1, action: 'turn' }

/** The table now, in `lang`, for `seats`: the view's card and turn, and the event if any. */
function now(lang: Lang, v: KlockanView, seats: KlockanSeats, more: Partial<KlockanNow> = {}) {
  const t = DICTS[lang]
  const ended = more.ended ?? false
  return {
    moves: v.moves,
    event: null,
    card: klockanNewsText(t, lang, v),
    running: false,
    ended,
    result: klockanResult(t, v, null, seats),
    status: klockanStatus(t, v, ended, seats),
    waiting: '',
    ...more,
  } satisfies KlockanNow
}
const before: KlockanHeard = { moves: 3, event: null, ended: false }

describe('what Klockan’s live region says (K, I-16)', () => {
  it('one announcement for a card: the timeout, then the card, then whose turn it is', () => {
    const v = twoAfter(4)
    const event = (lang: Lang) => ({
      seq: 9,
      text: describeTableEvent(timeout, names, DICTS[lang]),
    })
    expect(klockanSaid(before, now('en', v, astrid, { event: event('en') }))).toBe(
      'Time ran out for Bo: turned the card. four of spades goes under the 4 o’clock pile. Your turn.',
    )
    expect(klockanSaid(before, now('sv', v, bo, { event: event('sv') }))).toBe(
      'Tiden tog slut för Bo: kortet vändes. fyra i spader läggs under fyrahögen. Astrids tur.',
    )
    // Without a timeout: the card, then the turn; the event once only.
    expect(klockanSaid(before, now('en', v, bo))).toBe(
      "four of spades goes under the 4 o’clock pile. Astrid's turn.",
    )
    const heard = { ...before, event: 9 }
    expect(klockanSaid(heard, now('sv', v, astrid, { event: event('sv') }))).toBe(
      'fyra i spader läggs under fyrahögen. Din tur.',
    )
  })

  it('the cards a run turns are not said one by one, nor what was so before (a reload)', () => {
    const v = twoAfter(4)
    expect(klockanSaid(before, now('en', v, astrid, { running: true }))).toBe('Your turn.')
    expect(klockanSaid({ ...before, moves: 4 }, now('sv', v, astrid))).toBe('Din tur.')
    // Nothing turned yet: no card to say.
    expect(klockanSaid({ ...before, moves: -1 }, now('en', twoAfter(0), bo))).toBe("Astrid's turn.")
  })

  it('the result once, when the game has just ended', () => {
    const v = overForBo(5)
    const ended = { ended: true, card: '' }
    expect(klockanSaid(before, now('en', v, astrid, ended))).toBe(
      'Bo turned the fourth king and loses. You win! 5 cards are still face down.',
    )
    expect(klockanSaid(before, now('sv', v, bo, ended))).toBe(
      'Du vände den fjärde kungen och förlorar. Astrid vinner! 5 kort ligger kvar nedvända.',
    )
    // Said once: not again, nor on a reload of the ended game.
    expect(klockanSaid({ ...before, ended: true }, now('en', v, astrid, ended))).toBe('')
  })

  it('the result: a game alone, the rescue, a forfeit', () => {
    const alone = { ...overForBo(1, 'rescue'), players: 1 as const }
    const o = { ...alone.outcome!, loser: null, winner: null }
    expect(
      klockanResult(DICTS.sv, { ...alone, outcome: o }, null, { me: 0, names: ['A'] }),
    ).toEqual({
      title: 'Ett kort ligger kvar nedvänt.',
      lines: ['Räddningen användes inte.'],
      won: false,
    })
    const forfeit = { seat: 1, name: 'Bo' }
    expect(klockanResult(DICTS.en, twoAfter(4), forfeit, astrid)).toEqual({
      title: 'Bo forfeited',
      lines: ['You win!'],
      won: false,
    })
    expect(klockanResult(DICTS.en, twoAfter(4), null, astrid)).toBeNull()
  })

  it('whose turn it is: never alone nor at the end; another player’s rescue is waited for', () => {
    const v = twoAfter(4)
    expect(klockanStatus(DICTS.sv, v, false, bo)).toBe('Astrids tur')
    expect(klockanStatus(DICTS.en, v, true, bo)).toBe('')
    expect(klockanStatus(DICTS.en, { ...v, players: 1 }, false, astrid)).toBe('')
    const waiting = DICTS.en.rescueWaiting('Bo')
    expect(
      klockanSaid({ ...before, moves: 4 }, now('en', v, bo, { status: "Bo's turn", waiting })),
    ).toBe("Bo's turn. Bo is choosing a rescue.")
  })

  it('what Suggest chose (K-5)', () => {
    expect(klockanSuggested(DICTS.en, TABLE_DICTS.en, 4, 5, 'the 7 o’clock pile')).toBe(
      'Suggested and chosen: card 5 from the top (bottom) in the 7 o’clock pile.',
    )
    expect(klockanSuggested(DICTS.sv, TABLE_DICTS.sv, 0, 3, 'sjuhögen')).toBe(
      'Föreslaget och valt: kort 1 uppifrån (överst) i sjuhögen.',
    )
  })

  it('what makes news: a card, the turn, the end, a table event, a game won', () => {
    const v = twoAfter(4)
    const key = klockanSayKey(v, false, null, [0, 0])
    expect(klockanSayKey(v, false, null, [0, 0])).toBe(key)
    for (const other of [
      klockanSayKey(twoAfter(5), false, null, [0, 0]),
      klockanSayKey(v, true, null, [0, 0]),
      klockanSayKey(v, false, 9, [0, 0]),
      klockanSayKey(v, false, null, [1, 0]),
    ])
      expect(other).not.toBe(key)
  })
})
