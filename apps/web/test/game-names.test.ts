import { describe, expect, it } from 'vitest'
import { gameLabel, gameNameParts, gameNamesOf, tableGameName } from '../src/lib/game-names.ts'
import { DICTS } from '../src/lib/i18n-all.ts'

describe('game names marked as Swedish', () => {
  it('a name alone is one Swedish part, except on a Swedish page', () => {
    expect(gameNameParts('en', 'Dom Åtta Herrarna')).toEqual([
      { text: 'Dom Åtta Herrarna', sv: true },
    ])
    expect(gameNameParts('nb', 'Klockan')).toEqual([{ text: 'Klockan', sv: true }])
    expect(gameNameParts('sv', 'Klockan')).toEqual([{ text: 'Klockan', sv: false }])
  })

  it('a name inside a sentence is cut out of it, the sentence around it stays the page’s', () => {
    const t = DICTS.en
    expect(gameNameParts('en', t.howToPlayGame(t.duel), [t.duel])).toEqual([
      { text: 'How to play ', sv: false },
      { text: 'Idioten för två', sv: true },
    ])
    expect(gameNameParts('en', t.practiseBlurb, [t.idiot])).toEqual([
      { text: 'A game of ', sv: false },
      { text: 'Idiot', sv: true },
      { text: ' against three computer players, at once.', sv: false },
    ])
    expect(gameNameParts('sv', DICTS.sv.howToPlayGame('Klockan'), ['Klockan'])).toEqual([
      { text: 'Så spelar du Klockan', sv: false },
    ])
  })

  it('the longest name first, and only whole words', () => {
    expect(
      gameNameParts('en', 'Klockan för två · Standard', [DICTS.en.klockan, DICTS.en.klockanForTwo]),
    ).toEqual([
      { text: 'Klockan för två', sv: true },
      { text: ' · Standard', sv: false },
    ])
    // "Idiot" is not found in "Idioten" (the Norwegian blurb's word) nor in "Idiotic".
    expect(gameNameParts('nb', 'kabalen Idioten, Idiotic', ['Idiot'])).toEqual([
      { text: 'kabalen Idioten, Idiotic', sv: false },
    ])
    expect(gameNameParts('en', 'Replay: Klockan', ['Klockan'])).toEqual([
      { text: 'Replay: ', sv: false },
      { text: 'Klockan', sv: true },
    ])
  })
})

describe('a table named by how it is played', () => {
  it('[A-17] Idioten för två for one seat is Idioten; a duel stored without seats is for two', () => {
    const t = DICTS.en
    const duel = (seats?: 1 | 2) => ({ games: 1, ...(seats ? { seats } : {}) }) as never
    expect(tableGameName('duel', duel(1))).toBe('Idioten')
    expect(tableGameName('duel', duel(2))).toBe('Idioten för två')
    expect(tableGameName('duel', duel())).toBe('Idioten för två')
    expect(gameLabel(t, 'duel', duel(1))).toBe('Idioten')
    expect(tableGameName('klockan', { variant: 'standard', seats: 2 } as never)).toBe(
      'Klockan för två',
    )
    // Marked as Swedish on an English page, and "Idioten" inside "Idioten för två" is not cut.
    expect(gameNameParts('en', 'Replay: Idioten', gameNamesOf(t))).toEqual([
      { text: 'Replay: ', sv: false },
      { text: 'Idioten', sv: true },
    ])
    expect(gameNameParts('en', 'Idioten för två', gameNamesOf(t))).toEqual([
      { text: 'Idioten för två', sv: true },
    ])
  })
})
