import { parseCard } from '@kortbord/engine'
import { SERVER_ERROR_CODES } from '@kortbord/protocol/wire'
import { describe, expect, it } from 'vitest'
import { cardName } from '../src/lib/card-names.ts'
import { DICTS, errorText, LANGS, pickLang } from '../src/lib/i18n.ts'

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
    expect(DICTS.sv.out(3)).toBe('ute, 3:a')
    expect(DICTS.nb.out(3)).toBe('ute, 3.')
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
