import { describe, expect, it } from 'vitest'
import { checkName, distinctName, NAME_MAX, Nickname, parseClientMessage } from '../src/index.ts'

const code = (raw: string) => {
  const r = checkName(raw)
  return r.ok ? r.name : r.code
}

describe('names are what a person sees (issue 13, finding 11)', () => {
  it('are NFC-normalised, trimmed and their inner spaces collapsed', () => {
    // "Åsa" written with a combining ring: the same name as the precomposed one.
    expect(code('A\u030asa')).toBe('\u00c5sa')
    expect(code('  Bo \u00a0 \u3000 Ek  ')).toBe('Bo Ek')
  })

  it('refuse every invisible or format character, each with NAME_INVISIBLE_CHARS', () => {
    const hidden = [
      '\u200b',
      '\u200c',
      '\u200d',
      '\u200e',
      '\u200f', // zero-width, direction marks
      '\u00ad', // soft hyphen
      '\u2060',
      '\u2061',
      '\u2062',
      '\u2063',
      '\u2064',
      '\u2066',
      '\u2069',
      '\u206f',
      '\ufff9',
      '\ufffa',
      '\ufffb', // interlinear annotation
      '\ufe00',
      '\ufe0f',
      '\u{e0100}', // variation selectors not after an emoji
      '\u202e',
      '\ufeff',
      '\u034f',
      '\u3164',
      '\u115f',
      '\u2800',
      '\u{e0041}',
      '\ue000',
    ]
    for (const h of hidden)
      expect(code(`Ad${h}a`), `U+${h.codePointAt(0)!.toString(16)}`).toBe('NAME_INVISIBLE_CHARS')
  })

  it('keep emoji whole: a ZWJ between emoji and a variation selector after one are allowed', () => {
    expect(code('Åsa 👩‍👧')).toBe('Åsa 👩‍👧')
    expect(code('Bo ❤️')).toBe('Bo ❤️')
    expect(code('Bo ❤️‍🔥')).toBe('Bo ❤️‍🔥')
    // …but not a joiner with a letter on either side, nor a stack of selectors.
    expect(code('a\u200d👩')).toBe('NAME_INVISIBLE_CHARS')
    expect(code('❤\ufe0f\ufe0f')).toBe('NAME_INVISIBLE_CHARS')
  })

  it('refuse stacks of combining marks (NAME_TOO_MANY_MARKS) but not real accents', () => {
    expect(code('Z\u0301\u0302\u0303\u0304\u0305algo')).toBe('NAME_TOO_MANY_MARKS')
    expect(code('Nguy\u1ec5n')).toBe('Nguyễn')
    expect(code('Ngô Bảo Châu')).toBe('Ngô Bảo Châu')
    expect(code('สมชาย')).toBe('สมชาย')
    expect(code('देवनागरी')).toBe('देवनागरी')
  })

  it('refuse lone surrogates (NAME_BAD_UNICODE) and control characters (NAME_CONTROL_CHARS)', () => {
    expect(code('a\ud800b')).toBe('NAME_BAD_UNICODE')
    expect(code('a\udc00')).toBe('NAME_BAD_UNICODE')
    expect(code('a\u0007b')).toBe('NAME_CONTROL_CHARS')
    expect(code('a\u2028b')).toBe('NAME_CONTROL_CHARS')
  })

  it(`count length in graphemes (an emoji family is one), ${NAME_MAX} at most`, () => {
    const family = '👨‍👩‍👧‍👦'
    expect(code(`Bo ${family.repeat(8)}`)).toBe(`Bo ${family.repeat(8)}`)
    expect(code('e\u0301'.repeat(NAME_MAX))).toBe('\u00e9'.repeat(NAME_MAX))
    expect(code('x'.repeat(NAME_MAX + 1))).toBe('NAME_TOO_LONG')
    // A bound on storage too, whatever the graphemes.
    expect(code(family.repeat(NAME_MAX))).toBe('NAME_TOO_LONG')
  })

  it('refuse names with nothing to see (NAME_EMPTY)', () => {
    expect(code('   ')).toBe('NAME_EMPTY')
    expect(code('')).toBe('NAME_EMPTY')
  })

  it('the schema answers with the code of the refusal and passes the normalised name on', () => {
    expect(Nickname.parse(' A\u030asa ')).toBe('\u00c5sa')
    const r = parseClientMessage('table:join', { table: 'ABCDEF', name: 'x\u200by' })
    expect(r).toMatchObject({ ok: false, error: { code: 'NAME_INVISIBLE_CHARS' } })
    const ok = parseClientMessage('table:join', { table: 'ABCDEF', name: ' Bo ' })
    expect(ok).toMatchObject({ ok: true, value: { name: 'Bo' } })
  })
})

describe('two players never share a name at a table (QA, stop 32)', () => {
  it('the second of a name gets the lowest free number, within NAME_MAX graphemes', () => {
    expect(distinctName('Bo', ['Astrid', null])).toBe('Bo')
    expect(distinctName('Bo', ['bo', null])).toBe('Bo 2')
    expect(distinctName('Bo', ['Bo', 'Bo 2', null])).toBe('Bo 3')
    const long = 'Wolfeschlegelsteinhausen'
    expect([...long]).toHaveLength(NAME_MAX)
    const second = distinctName(long, [long])
    expect(second).toBe('Wolfeschlegelsteinhaus 2')
    expect(checkName(second)).toEqual({ ok: true, name: second })
    // A grapheme is never cut: an emoji family stays whole.
    const family = `${'a'.repeat(21)}\u{1F468}\u200d\u{1F469}\u200d\u{1F467}x`
    const third = distinctName(family, [family])
    expect(third).toBe(`${'a'.repeat(21)}\u{1F468}\u200d\u{1F469}\u200d\u{1F467} 2`)
    expect(checkName(third).ok).toBe(true)
  })
})
