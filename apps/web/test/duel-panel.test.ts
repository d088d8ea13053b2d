import { describe, expect, it } from 'vitest'
import { duelPanelNote, hiddenGameNote, matchDecidedBy } from '../src/lib/duel-panel.ts'
import { DICTS } from '../src/lib/i18n-all.ts'
import { TABLE_DICTS } from '../src/lib/i18n-table.ts'

const names = ['Astrid', 'Bo']
const base = { games: 3, turn: null, names }

describe('[A-10] the note under a duel panel', () => {
  it('says "your games" only on the viewer’s own panel; the other player’s names them', () => {
    const en = DICTS.en
    expect(duelPanelNote({ ...base, played: 3, mine: true, seat: 1 }, en)).toBe(
      'All your rounds are played.',
    )
    expect(duelPanelNote({ ...base, played: 3, mine: false, seat: 0 }, en)).toBe(
      'Astrid has played all their rounds.',
    )
    expect(duelPanelNote({ ...base, played: 3, mine: false, seat: 0 }, DICTS.sv)).toBe(
      'Astrid har spelat alla sina givar.',
    )
  })

  it('while games remain: who is playing when they take turns, else nothing', () => {
    const en = DICTS.en
    expect(duelPanelNote({ ...base, played: 1, turn: 1, mine: false, seat: 0 }, en)).toBe(
      'Bo is playing',
    )
    expect(duelPanelNote({ ...base, played: 1, mine: true, seat: 1 }, en)).toBe('')
  })
})

describe('[A-15] a same-deal game the viewer may not see yet', () => {
  it('says why (the player: until they have played the deal; a spectator: until the other has) and how many deals it has had', () => {
    const { en, sv, nb } = DICTS
    expect(hiddenGameNote({ seat: 0, deals: 3, spectator: false }, names, en)).toEqual({
      why: 'hidden until you have played this deal',
      dealt: 'Astrid has dealt 3 times',
    })
    expect(hiddenGameNote({ seat: 0, deals: 1, spectator: true }, names, en)).toEqual({
      why: 'hidden until Bo has played this deal',
      dealt: 'Astrid has dealt once',
    })
    expect(hiddenGameNote({ seat: 1, deals: 0, spectator: true }, names, sv)).toEqual({
      why: 'dolt tills Astrid har spelat samma giv',
      dealt: 'Bo har inte gett än',
    })
    expect(hiddenGameNote({ seat: 1, deals: 2, spectator: false }, names, nb).dealt).toBe(
      'Bo har delt ut 2 ganger',
    )
    // A finished game that is still hidden has no deal count.
    expect(hiddenGameNote({ seat: 0, deals: null, spectator: false }, names, sv).dealt).toBeNull()
  })
})

describe('[A-11] what decided a match', () => {
  const totals = (p0: number, l0: number, p1: number, l1: number) =>
    [
      { points: p0, left: l0, games: 1 },
      { points: p1, left: l1, games: 1 },
    ] as const
  it('at equal points: the fewer cards left, the winner’s first, or a draw on both', () => {
    const won = { totals: totals(3, 28, 3, 27), winner: 1, decidedBy: 'cards-left' } as const
    expect(matchDecidedBy(won, TABLE_DICTS.en)).toBe(
      'Level on points (3 each): fewer cards left decides it, 27 against 28.',
    )
    expect(matchDecidedBy(won, TABLE_DICTS.sv)).toBe(
      'Lika poäng (3 var): färre kort kvar avgör, 27 mot 28.',
    )
    const drawn = { totals: totals(1, 7, 1, 7), winner: null, decidedBy: 'draw' } as const
    expect(matchDecidedBy(drawn, TABLE_DICTS.nb)).toBe(
      'Like mange poeng (1 hver) og like mange kort igjen (7 hver).',
    )
  })
  it('says nothing when the points decided it', () => {
    const o = { totals: totals(0, 4, 3, 27), winner: 0, decidedBy: 'points' } as const
    expect(matchDecidedBy(o, TABLE_DICTS.en)).toBeNull()
  })
  it('[A-17] says nothing alone: nobody was beaten', () => {
    const o = {
      totals: [{ points: 3, left: 27, games: 1 }],
      winner: null,
      decidedBy: 'alone',
    } as const
    expect(matchDecidedBy(o, TABLE_DICTS.en)).toBeNull()
  })
})

describe('[A-17] the result of Idioten alone', () => {
  it('one game: came out, or the cards left; a series: how many came out and the totals', () => {
    expect(TABLE_DICTS.en.aloneResult(1, 1, 4, 0)).toBe('The patience came out!')
    expect(TABLE_DICTS.sv.aloneResult(0, 1, 17, 3)).toBe('17 kort kvar.')
    expect(TABLE_DICTS.nb.aloneResult(2, 5, 40, 6)).toBe(
      '2 av 5 runder gikk opp: 6 poeng, 40 kort igjen i alt.',
    )
    expect(TABLE_DICTS.en.aloneResult(2, 5, 40, 6)).toBe(
      '2 of 5 rounds came out: 6 points, 40 cards left in all.',
    )
  })
})

describe('[A-16] what the best possible means', () => {
  it('mentions the wait for the other player only with the same deal (A-15)', () => {
    for (const lang of ['en', 'sv', 'nb'] as const) {
      const own = TABLE_DICTS[lang].bestExplained(false)
      const shared = TABLE_DICTS[lang].bestExplained(true)
      expect(shared.length, lang).toBeGreaterThan(own.length)
      expect(shared.startsWith(own.slice(0, 40)), lang).toBe(true)
    }
    expect(TABLE_DICTS.en.bestExplained(false)).toContain('(“…” while it is worked out).')
    expect(TABLE_DICTS.en.bestExplained(true)).toContain(
      '(“…” while it is worked out, and until both have played it).',
    )
  })
})
