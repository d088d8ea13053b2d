import { parseCard } from '@kortbord/engine'
import { SERVER_ERROR_CODES } from '@kortbord/protocol/wire'
import { describe, expect, it } from 'vitest'
import { cardName } from '../src/lib/card-names.ts'
import { errorText, LANGS, loadDict, pickLang } from '../src/lib/i18n.ts'
import { DICTS } from '../src/lib/i18n-all.ts'
import { RECORD_DICTS } from '../src/lib/i18n-records.ts'
import { andList, TABLE_DICTS } from '../src/lib/i18n-table.ts'

describe('languages', () => {
  it('card names read naturally in each language', () => {
    const tenOfHearts = parseCard('TH')!
    expect(cardName('sv', tenOfHearts)).toBe('tio i hjärter')
    expect(cardName('nb', tenOfHearts)).toBe('hjerter ti')
    expect(cardName('en', tenOfHearts)).toBe('ten of hearts')
    expect(cardName('sv', parseCard('AS')!)).toBe('ess i spader')
    expect(cardName('en', parseCard('2C')!)).toBe('two of clubs')
  })

  it('an Idiot place reads as a place, not a count (QA: "bot out, 3.")', () => {
    expect([1, 2, 3, 4].map((p) => DICTS.en.out(p))).toEqual([
      'out 1st',
      'out 2nd',
      'out 3rd',
      'out 4th',
    ])
    // Swedish: första 1:a, andra 2:a, but tredje 3:e, fjärde 4:e (QA: "ute, 3:a").
    expect([1, 2, 3, 4].map((p) => DICTS.sv.out(p))).toEqual([
      'ute, 1:a',
      'ute, 2:a',
      'ute, 3:e',
      'ute, 4:e',
    ])
    expect(DICTS.sv.logOut('Bo', 3)).toBe('Bo är ute (3:e)')
    expect(DICTS.en.logOut('Bo', 1)).toBe('Bo is out (1st)')
    expect(DICTS.nb.out(3)).toBe('ute, 3.')
  })

  it('a name ending in s takes no genitive s in Swedish, an apostrophe in Norwegian (QA: "Matss tur")', () => {
    expect(DICTS.sv.theirTurn('Mats')).toBe('Mats tur')
    expect(DICTS.sv.theirTurn('Max')).toBe('Max tur')
    expect(DICTS.sv.theirTurn('Astrid')).toBe('Astrids tur')
    expect(DICTS.sv.timeFor('Lars')).toBe('Lars tid')
    expect(RECORD_DICTS.sv.evBest('Lars', 2, 5)).toMatch(/^Lars giv 2:/)
    expect(RECORD_DICTS.nb.evBest('Lars', 2, 5)).toMatch(/^Lars' runde 2:/)
    expect(RECORD_DICTS.nb.evBest('Astrid', 2, 5)).toMatch(/^Astrids runde 2:/)
  })

  it('who is awaited is one list, joined as the language does it (QA: "dig och Bertil" beside "Astrid, Bertil")', () => {
    expect(TABLE_DICTS.sv.waitingFor(andList('sv', ['Astrid', 'Bertil']))).toBe(
      'Väntar på Astrid och Bertil.',
    )
    expect(TABLE_DICTS.sv.waitingForYou(['Astrid', 'Bertil'])).toBe(
      'Väntar på dig, Astrid och Bertil.',
    )
    expect(TABLE_DICTS.en.waitingForYou(['Astrid'])).toBe('Waiting for you and Astrid.')
    expect(TABLE_DICTS.en.waitingForYou([])).toBe('Waiting for you.')
    expect(TABLE_DICTS.nb.waitingForYou(['Astrid', 'Bertil'])).toBe(
      'Venter på deg, Astrid og Bertil.',
    )
  })

  it('a pick-up says what was picked up, as the history does (QA: "Bot 3 picked up 2")', () => {
    expect(DICTS.en.logPickup('Bo', 1)).toBe('Bo picked up the pile (1 card)')
    expect(DICTS.sv.logPickup('Bo', 5)).toBe('Bo tog upp högen (5 kort)')
    expect(DICTS.sv.logTimeoutAction('Mats', 'ready')).toBe(
      'Tiden tog slut för Mats: markerad som klar',
    )
  })

  it('Swedish Idiot lays its cards (“lägga”, “lade”) wherever a card is put on the pile, as the history does (QA: “spelade” beside “lade”)', () => {
    const sv = DICTS.sv
    const r = RECORD_DICTS.sv
    const laid = [
      sv.play,
      sv.logPlayed('Bo', 'tio i hjärter'),
      sv.youPlayed('tio i hjärter'),
      sv.logTimeoutAction('Bo', 'play'),
      sv.errors.NOT_EQUAL_RANKS!,
      sv.errors.HAND_FIRST!,
      r.evPlayed('Bo', 'tio i hjärter'),
      r.mvPlay('tio i hjärter'),
    ]
    for (const s of laid) expect(s).not.toMatch(/spela/i)
    expect(laid.every((s) => /\b(lägg|lade|lades|läggs)\b/i.test(s))).toBe(true)
    expect(sv.logPlayed('Bo', 'tio i hjärter')).toBe('Bo lade tio i hjärter')
    expect(sv.logTimeoutAction('Bo', 'play')).toBe('Tiden tog slut för Bo: lägsta kortet lades')
    // Norwegian lays its cards too ("legge"), on the button and in the refusals.
    for (const s of [DICTS.nb.play, DICTS.nb.errors.NOT_EQUAL_RANKS!, DICTS.nb.errors.HAND_FIRST!])
      expect(s).toMatch(/\blegg(es)?\b/i)
    // Norwegian's last-move line says what its history says too.
    expect(DICTS.nb.logPlayed('Bo', 'hjerter ti')).toBe(
      RECORD_DICTS.nb.evPlayed('Bo', 'hjerter ti'),
    )
  })

  it('one card is one card (QA: "Place 1: 1 cards")', () => {
    expect(DICTS.en.placeOf(1, 1, 'three of clubs')).toBe('Place 1: 1 card, three of clubs on top')
    expect(DICTS.en.pileOf(2, 3, 'ten of hearts')).toBe('Pile 2: 3 cards, ten of hearts on top')
  })

  it('the browser’s languages choose Swedish, bokmål or English', () => {
    expect(pickLang(['sv-SE', 'en'])).toBe('sv')
    expect(pickLang(['nn-NO'])).toBe('nb')
    expect(pickLang(['de-DE', 'en-GB'])).toBe('en')
    expect(pickLang(['fr'])).toBe('en')
  })

  it('every language has every text, and errors are words, not codes', () => {
    const keys = Object.keys(DICTS.en).sort()
    for (const l of LANGS) {
      expect(Object.keys(DICTS[l]).sort()).toEqual(keys)
      expect(Object.keys(DICTS[l].errors).sort()).toEqual(Object.keys(DICTS.en.errors).sort())
      const t = DICTS[l]
      expect(errorText(t, { code: 'NOT_YOUR_TURN', message: 'x' })).not.toContain('NOT_YOUR_TURN')
      // An unknown code still reads as a sentence, with the server's own message.
      expect(errorText(t, { code: 'SOMETHING_NEW', message: 'the server said so' })).toContain(
        'the server said so',
      )
    }
  })

  it('every refusal the server can send has a sentence in every language', () => {
    for (const l of LANGS) {
      const missing = SERVER_ERROR_CODES.filter((c) => !(c in DICTS[l].errors))
      expect(missing, l).toEqual([])
      for (const c of SERVER_ERROR_CODES) {
        const text = DICTS[l].errors[c]!
        expect(text, `${l} ${c}`).toMatch(/^\p{Lu}.*[.!:)]$/u)
        expect(text).not.toContain(c)
      }
    }
    // The name length is the server's limit, in words.
    expect(errorText(DICTS.en, { code: 'NAME_TOO_LONG', message: '' })).toContain('24')
  })
})

describe('the words of one language at a time', () => {
  it('loads each language on its own, the same words the tests compare (a chunk per language)', async () => {
    for (const lang of LANGS) expect(await loadDict(lang)).toBe(DICTS[lang])
  })
})
