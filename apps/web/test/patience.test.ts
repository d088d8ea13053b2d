import {
  applyHerrarna,
  applyKlockan,
  fullDeck,
  type HerrarnaView,
  herrarna,
  herrarnaView,
  klockanView,
  startKlockan,
} from '@kortbord/engine'
import { describe, expect, it } from 'vitest'
import { LANGS } from '../src/lib/i18n.ts'
import { DICTS } from '../src/lib/i18n-all.ts'
import {
  archCell,
  clockCell,
  herrarnaNextPile,
  herrarnaNextText,
  herrarnaStepText,
  hourIndex,
  klockanHours,
  klockanNewsText,
  klockanPileName,
  klockanTotal,
  wideClockCell,
} from '../src/lib/patience.ts'

const key = (c: { row: number; col: number }) => `${c.row},${c.col}`

describe('Klockan on the screen', () => {
  it('the clock face: every hour its own cell, clockwise round the centre', () => {
    const cells = Array.from({ length: 13 }, (_, i) => clockCell(i + 1))
    expect(new Set(cells.map(key)).size).toBe(13)
    expect(clockCell(12)).toEqual({ row: 1, col: 2 })
    expect(clockCell(3)).toEqual({ row: 3, col: 3 })
    expect(clockCell(6)).toEqual({ row: 5, col: 2 })
    expect(clockCell(9)).toEqual({ row: 3, col: 1 })
    expect(clockCell(13)).toEqual({ row: 3, col: 2 })
    // Neighbouring hours are neighbouring cells (the ring has no jumps).
    for (let h = 1; h <= 12; h++) {
      const a = clockCell(h)
      const b = clockCell((h % 12) + 1)
      expect(Math.abs(a.row - b.row) + Math.abs(a.col - b.col)).toBe(1)
    }
  })

  it('the clock face sideways: 5 × 3, every hour its own cell, clockwise round the centre', () => {
    const cells = Array.from({ length: 13 }, (_, i) => wideClockCell(i + 1))
    expect(new Set(cells.map(key)).size).toBe(13)
    for (const c of cells) {
      expect(c.row).toBeGreaterThanOrEqual(1)
      expect(c.row).toBeLessThanOrEqual(3)
      expect(c.col).toBeGreaterThanOrEqual(1)
      expect(c.col).toBeLessThanOrEqual(5)
    }
    expect(wideClockCell(12)).toEqual({ row: 1, col: 3 })
    expect(wideClockCell(3)).toEqual({ row: 2, col: 5 })
    expect(wideClockCell(6)).toEqual({ row: 3, col: 3 })
    expect(wideClockCell(9)).toEqual({ row: 2, col: 1 })
    expect(wideClockCell(13)).toEqual({ row: 2, col: 3 })
    // The turned count's cell (row 2, column 4) is left free.
    expect(cells.map(key)).not.toContain('2,4')
    for (let h = 1; h <= 12; h++) {
      const a = wideClockCell(h)
      const b = wideClockCell((h % 12) + 1)
      expect(Math.abs(a.row - b.row) + Math.abs(a.col - b.col)).toBe(1)
    }
  })

  it('the clock face: each hour once with its piles, two of each hour with two decks', () => {
    const one = klockanHours(klockanView(startKlockan(fullDeck(1), 'standard', 1), 0).piles)
    expect(one.map((h) => h.hour)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13])
    expect(one[2]).toEqual({ hour: 3, piles: [2], cell: clockCell(3), wide: wideClockCell(3) })
    const deck = Array.from({ length: 104 }, (_, i) => i)
    const two = klockanHours(klockanView(startKlockan(deck, 'twoDecks', 1), 0).piles)
    expect(two).toHaveLength(13)
    expect(two[12]).toMatchObject({ hour: 13, piles: [24, 25] })
  })

  it('hours read as card indices', () => {
    expect([1, 2, 10, 11, 12, 13].map(hourIndex)).toEqual(['A', '2', '10', 'J', 'Q', 'K'])
  })

  it('piles are named in each language, with the side of two decks', () => {
    const v = klockanView(
      startKlockan(
        Array.from({ length: 104 }, (_, i) => i),
        'twoDecks',
        1,
      ),
      0,
    )
    expect(klockanTotal(v)).toBe(104)
    const five = v.piles.findIndex((p) => p.hour === 5 && p.side === 1)
    expect(klockanPileName(DICTS.sv, 'sv', 'twoDecks', v.piles[five]!)).toBe('femhögen (höger)')
    expect(klockanPileName(DICTS.nb, 'nb', 'standard', { hour: 1, side: 0 })).toBe('essbunken')
    expect(klockanPileName(DICTS.en, 'en', 'standard', { hour: 8, side: 0 })).toBe(
      'the 8 o’clock pile',
    )
    expect(klockanPileName(DICTS.en, 'en', 'twoDecks', { hour: 13, side: 0 })).toBe(
      'the centre pile (left)',
    )
    expect(klockanPileName(DICTS.sv, 'sv', 'standard', { hour: 13, side: 0 })).toBe('kunghögen')
  })

  it('a move in words, for the replay: nothing before the first turn, then where the card went', () => {
    const s0 = startKlockan(fullDeck(1), 'standard', 1)
    expect(klockanNewsText(DICTS.en, 'en', klockanView(s0, 'spectator'))).toBe('')
    const r = applyKlockan(s0, 0, { type: 'turn' })
    if (!r.ok) throw new Error(r.error.message)
    const v = klockanView(r.value, 'spectator')
    const last = v.last!
    for (const lang of LANGS) {
      const t = DICTS[lang]
      const to = klockanPileName(t, lang, 'standard', v.piles[last.to]!)
      expect(klockanNewsText(t, lang, v)).toContain(to)
    }
  })
})

describe('Dom Åtta Herrarna on the screen', () => {
  it('the semicircle: pile 1 bottom left, up, across the top, down to pile 13 bottom right', () => {
    const cells = Array.from({ length: 13 }, (_, i) => archCell(i))
    expect(new Set(cells.map(key)).size).toBe(13)
    expect(archCell(0)).toEqual({ row: 5, col: 1 })
    expect(archCell(4)).toEqual({ row: 1, col: 1 })
    expect(archCell(6)).toEqual({ row: 1, col: 3 })
    expect(archCell(8)).toEqual({ row: 1, col: 5 })
    expect(archCell(12)).toEqual({ row: 5, col: 5 })
    // Nothing in the middle, where the foundations go.
    for (const c of cells) expect(c.row === 1 || c.col === 1 || c.col === 5).toBe(true)
    for (let i = 0; i < 12; i++) {
      const a = archCell(i)
      const b = archCell(i + 1)
      expect(Math.abs(a.row - b.row) + Math.abs(a.col - b.col)).toBe(1)
    }
  })

  it('every kind of next step is put into words in every language, and points at its pile', () => {
    let s = herrarna.setup({}, 1, { seed: 'words' })
    const seen = new Map<string, HerrarnaView>()
    while (!s.over) {
      const v = herrarnaView(s, 0)
      const n = v.next!
      const kind =
        n.t === 'build'
          ? `build-${n.from.zone}-${n.foundation >= v.foundations.length ? 'new' : 'on'}`
          : n.t === 'deal' || n.t === 'reserve'
            ? `${n.t}-${n.from}-r${v.round}`
            : n.t
      if (!seen.has(kind)) seen.set(kind, v)
      const r = applyHerrarna(s, 0, { type: 'step' })
      if (!r.ok) throw new Error(r.error.code)
      s = r.value
    }
    expect([...seen.keys()].sort()).toEqual(
      expect.arrayContaining([
        'build-pile-new',
        'build-pile-on',
        'deal-hand-r2',
        'deal-stock-r1',
        'deal-stock-r3',
        'reserve-hand-r2',
        'reserve-pile-r2',
        'restock',
        'take',
        'turn',
      ]),
    )
    for (const lang of LANGS) {
      const t = DICTS[lang]
      const texts = [...seen.values()].map((v) => herrarnaNextText(t, lang, v))
      for (const x of texts) expect(x).toMatch(/\S/)
      expect(new Set(texts).size).toBe(texts.length)
    }
    expect(herrarnaNextText(DICTS.sv, 'sv', herrarnaView(s, 0))).toBeNull()

    const sv = DICTS.sv
    const first = seen.get('deal-stock-r1')!
    expect(herrarnaNextText(sv, 'sv', first)).toBe('Nästa: lägg ut ett kort på hög 1')
    expect(herrarnaNextPile(first)).toBe(0)
    const r3 = seen.get('deal-stock-r3')!
    expect(herrarnaNextText(sv, 'sv', r3)).toBe('Nästa: lägg ut ett kort på plats 1')
    const ten = seen.get('build-pile-new')!
    const n = ten.next as Extract<HerrarnaView['next'], { t: 'build' }>
    expect(herrarnaNextText(DICTS.en, 'en', ten)).toContain('starts a new foundation')
    expect(herrarnaNextPile(ten)).toBe(n.from.zone === 'pile' ? n.from.pile : null)
    expect(herrarnaNextPile(seen.get('turn')!)).toBeNull()
    expect(herrarnaNextPile(seen.get('reserve-pile-r2')!)).toBe(12)
    // The replay's move list says what each step did: the same words without "Next: ".
    expect(herrarnaStepText(sv, 'sv', first)).toBe('lägg ut ett kort på hög 1')
    for (const lang of LANGS) {
      const t = DICTS[lang]
      for (const v of seen.values()) {
        const what = herrarnaStepText(t, lang, v)!
        expect(herrarnaNextText(t, lang, v)).toBe(t.nextStep(what))
        expect(what).not.toBe(t.nextStep(what))
      }
    }
    expect(herrarnaStepText(DICTS.en, 'en', herrarnaView(s, 0))).toBeNull()
  })
})
