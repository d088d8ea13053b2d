import { describe, expect, it } from 'vitest'
import {
  type AcesUpMove,
  type AcesUpPiles,
  type AcesUpState,
  type AcesUpView,
  acesUp,
  canDiscard,
  dealBuriesDiscard,
  type UndoSetting,
} from '../src/aces-up.ts'
import {
  type Card,
  formatCard,
  formatCards,
  fullDeck,
  parseCards,
  RANKS,
  rankOf,
  SUITS,
  suitOf,
} from '../src/cards.ts'
import { Rng } from '../src/rng.ts'

import { cardsIn, deepFreeze, parseMove } from './aces-up-helpers.ts'

// ---------------------------------------------------------------------------------------------
// Helpers

const setup = (deck: string, piles: AcesUpPiles = 4, undo: UndoSetting = 'none'): AcesUpState =>
  acesUp.setup({ piles, undo }, 1, { deck: parseCards(deck) })

/** Applies a move to a deep-frozen state (so any mutation throws) and expects it to succeed. */
function play(s: AcesUpState, m: AcesUpMove): AcesUpState {
  const before = JSON.stringify(s)
  const r = acesUp.apply(deepFreeze(s), 0, m)
  if (!r.ok) throw new Error(`${JSON.stringify(m)} refused: ${r.error.code} ${r.error.message}`)
  expect(JSON.stringify(s)).toBe(before)
  return r.value
}

const run = (s: AcesUpState, moves: string): AcesUpState =>
  moves
    .split(/\s+/)
    .filter((t) => t.length > 0)
    .reduce((acc, t) => play(acc, parseMove(t)), s)

/** Expects `m` to be refused with `code` and the state to be left exactly as it was. */
function refuse(s: AcesUpState, m: unknown, code: string, seat = 0): void {
  const before = JSON.stringify(s)
  const r = acesUp.apply(deepFreeze(s), seat, m as AcesUpMove)
  expect(r.ok, `${JSON.stringify(m)} should be refused`).toBe(false)
  if (!r.ok) {
    expect(r.error.code).toBe(code)
    expect(r.error.message.length).toBeGreaterThan(0)
    expect(Object.keys(r.error).sort()).toEqual(['code', 'message'])
  }
  expect(JSON.stringify(s)).toBe(before)
}

/** The table as text, pile by pile, bottom card first: `KS 5S | - | 3H`. */
const show = (s: { readonly piles: readonly (readonly Card[])[] }): string =>
  s.piles.map((p) => (p.length === 0 ? '-' : formatCards(p))).join(' | ')

/** A move in the notation of {@link parseMove}. */
const key = (m: AcesUpMove): string => {
  if (m.type === 'discard') return `d${m.pile}`
  if (m.type === 'move') return `m${m.from}>${m.to}`
  return m.type
}

const legal = (s: AcesUpState): string[] => acesUp.legalMoves(s, 0).map(key)

/** Every move that names piles that exist, legal or not. */
function candidates(piles: number): AcesUpMove[] {
  const out: AcesUpMove[] = [{ type: 'deal' }, { type: 'undo' }, { type: 'finish' }]
  for (let i = 0; i < piles; i++) {
    out.push({ type: 'discard', pile: i })
    for (let j = 0; j < piles; j++) out.push({ type: 'move', from: i, to: j })
  }
  return out
}

/** Discards whatever it can (lowest pile first), else deals, else ends: never moves. */
function greedyStep(s: AcesUpState): AcesUpMove {
  const d = s.piles.findIndex((_, i) => canDiscard(s.piles, i))
  if (d >= 0) return { type: 'discard', pile: d }
  return s.stock.length > 0 ? { type: 'deal' } : { type: 'finish' }
}

function playOut(s: AcesUpState, step: (s: AcesUpState) => AcesUpMove): AcesUpState {
  let g = s
  for (let i = 0; i < 1000 && !g.ended; i++) g = play(g, step(g))
  expect(g.ended).toBe(true)
  return g
}

/** Deals until the stock is out, checking that each deal lays the next cards from the left. */
function dealAll(s: AcesUpState): { end: AcesUpState; deals: Card[][] } {
  const deals: Card[][] = []
  let g = s
  while (g.stock.length > 0) {
    const before = g.piles
    const expected = g.stock.slice(0, Math.min(g.pileCount, g.stock.length))
    g = play(g, { type: 'deal' })
    const ev = g.recent[0]
    expect(ev?.t).toBe('deal')
    if (ev?.t === 'deal') {
      expect(ev.cards).toEqual(expected)
      deals.push(ev.cards.slice())
      // One card on each pile from the left; the others untouched.
      g.piles.forEach((p, i) => {
        if (i < ev.cards.length) expect(p).toEqual(before[i]!.concat([ev.cards[i]!]))
        else expect(p).toEqual(before[i])
      })
    }
  }
  return { end: g, deals }
}

/**
 * the stock's order is secret. The view mentions only cards on the table or in the
 * discard heap (the deck only once the game is over), and it does not change when the stock is
 * put in another order.
 */
function expectNoStockLeak(s: AcesUpState): void {
  const v = acesUp.view(s, 0)
  const seen = new Set<Card>([...s.piles.flat(), ...s.discard])
  for (const c of cardsIn(v)) {
    if (!seen.has(c)) {
      expect(s.ended, `view shows ${formatCard(c)}, which is in the stock`).toBe(true)
      expect(v.deck).toContain(c)
    }
  }
  const json = JSON.stringify(v)
  if (!s.ended) {
    expect(v.deck).toBeNull()
    for (const other of [s.stock.slice().reverse(), Rng.seeded(json).shuffle(s.stock)]) {
      const dealt = s.deck.slice(0, s.deck.length - s.stock.length)
      const t: AcesUpState = { ...s, stock: other, deck: dealt.concat(other) }
      expect(JSON.stringify(acesUp.view(t, 0))).toBe(json)
    }
  } else {
    expect(v.deck).toEqual(s.deck)
  }
  // The view is the same for the player and a spectator, but for the viewer field.
  expect(JSON.stringify({ ...acesUp.view(s, 'spectator'), viewer: 0 })).toBe(json)
}

/** A-7, written out again: can anything still happen once the stock is out? */
function canProgress(piles: readonly (readonly Card[])[]): boolean {
  const tops = piles.map((p) => p.at(-1))
  const discard = tops.some(
    (c, i) =>
      c !== undefined &&
      tops.some(
        (o, j) => j !== i && o !== undefined && suitOf(o) === suitOf(c) && rankOf(o) > rankOf(c),
      ),
  )
  return discard || (piles.some((p) => p.length === 0) && piles.some((p) => p.length >= 2))
}

/** Cards are never created or lost: table + stock + discard is the deck. */
function expectConserved(s: AcesUpState): void {
  const all = [...s.piles.flat(), ...s.stock, ...s.discard].sort((a, b) => a - b)
  expect(all.join()).toBe(
    s.deck
      .slice()
      .sort((a, b) => a - b)
      .join(),
  )
}

/** A 52-card order that the greedy player wins: aces first, then four cards of a suit a deal. */
const WIN_52 = [
  'AC AD AH AS',
  '2C 3C 4C 5C',
  '6C 7C 8C 9C',
  'TC JC QC KC',
  '2D 3D 4D 5D',
  '6D 7D 8D 9D',
  'TD JD QD KD',
  '2H 3H 4H 5H',
  '6H 7H 8H 9H',
  'TH JH QH KH',
  // Descending: the highest spade must not lie on the ace of spades.
  'KS QS JS TS',
  '9S 8S 7S 6S',
  '5S 4S 3S 2S',
].join(' ')

/** The same for two decks and eight piles: aces first, then eight cards of a suit a deal. */
const WIN_104 = [
  "AC AD AH AS AC' AD' AH' AS'",
  ...['C', 'D', 'H', 'S'].flatMap((suit) =>
    ['2345', '6789', 'TJQK'].map((ranks) =>
      ranks
        .split('')
        .map((r) => `${r}${suit} ${r}${suit}'`)
        .join(' '),
    ),
  ),
].join(' ')

// ---------------------------------------------------------------------------------------------

describe('Aces Up: deck and piles', () => {
  it('[A-1] within a suit a card is discarded by every higher rank, and aces are high', () => {
    for (const suit of SUITS) {
      for (let lo = 0; lo < RANKS.length; lo++) {
        for (let hi = lo + 1; hi < RANKS.length; hi++) {
          const s = setup(`${RANKS[lo]}${suit} ${RANKS[hi]}${suit}`)
          expect(legal(s).filter((m) => m.startsWith('d'))).toEqual(['d0'])
          refuse(s, { type: 'discard', pile: 1 }, 'NO_HIGHER_CARD')
          const t = play(s, { type: 'discard', pile: 0 })
          expect(formatCards(t.discard)).toBe(`${RANKS[lo]}${suit}`)
        }
      }
    }
  })

  it('[A-1] an ace is never discarded, a two never discards anything', () => {
    const s = setup('AS KS 2S 3D 5C')
    expect(canDiscard(s.piles, 0)).toBe(false)
    expect(canDiscard(s.piles, 1)).toBe(true)
    expect(canDiscard(s.piles, 2)).toBe(true)
    expect(canDiscard(s.piles, 3)).toBe(false)
    refuse(s, { type: 'discard', pile: 0 }, 'NO_HIGHER_CARD')
  })

  it('[A-1] a seeded game uses one 52-card deck with 4 or 5 piles', () => {
    for (const piles of [4, 5] as const) {
      const s = acesUp.setup({ piles }, 1, { seed: `one-deck-${piles}` })
      expect(s.deck.slice().sort((a, b) => a - b)).toEqual(fullDeck(1))
      expect(s.aces).toBe(4)
      expectConserved(s)
    }
  })

  it('[A-2] 4, 5 or 8 piles; 8 piles use two decks; anything else is refused at setup', () => {
    expect(acesUp.setup({}, 1, { seed: 'default' }).pileCount).toBe(4)
    for (const piles of [4, 5, 8] as const) {
      const s = acesUp.setup({ piles }, 1, { seed: `piles-${piles}` })
      expect(s.piles).toHaveLength(piles)
      expect(acesUp.view(s, 0).piles).toHaveLength(piles)
      expect(s.deck).toHaveLength(piles === 8 ? 104 : 52)
      expect(new Set(s.deck).size).toBe(s.deck.length)
      expect(s.aces).toBe(piles === 8 ? 8 : 4)
    }
    const eight = acesUp.setup({ piles: 8 }, 1, { seed: 'two-decks' })
    expect(eight.deck.slice().sort((a, b) => a - b)).toEqual(fullDeck(2))
    for (const piles of [0, 3, 6, 7, 9, 52]) {
      expect(() => acesUp.setup({ piles: piles as AcesUpPiles }, 1, { seed: 'x' })).toThrow(
        RangeError,
      )
    }
    expect(() => acesUp.setup({ undo: 'sometimes' as UndoSetting }, 1, { seed: 'x' })).toThrow(
      RangeError,
    )
    expect(() => acesUp.setup({}, 2, { seed: 'x' })).toThrow(RangeError)
    expect(() => acesUp.setup({}, 0, { seed: 'x' })).toThrow(RangeError)
  })

  it('[A-2] a second-deck card or a repeated card is refused without two decks', () => {
    expect(() => setup("AS TH'", 4)).toThrow(RangeError)
    expect(() => setup("AS TH'", 5)).toThrow(RangeError)
    expect(() => setup('AS TH AS', 4)).toThrow(RangeError)
    expect(() => setup("AS TH' TH'", 8)).toThrow(RangeError)
    expect(() => acesUp.setup({}, 1, { deck: [0, 1, 52.5] })).toThrow(RangeError)
    expect(() => acesUp.setup({}, 1, { deck: [-1] })).toThrow(RangeError)
    expect(show(setup("AS TH' TH", 8))).toBe("AS | TH' | TH | - | - | - | - | -")
  })

  it('[A-3] the first cards are laid out face up, one per pile from the left; the rest is the stock', () => {
    const deck = Rng.seeded('layout').shuffle(fullDeck())
    for (const piles of [4, 5] as const) {
      const s = acesUp.setup({ piles }, 1, { deck })
      expect(s.piles).toEqual(deck.slice(0, piles).map((c) => [c]))
      expect(s.stock).toEqual(deck.slice(piles))
      expect(s.discard).toEqual([])
      expect(s.deals).toBe(0)
      expect(s.ended).toBe(false)
      const v = acesUp.view(s, 0)
      expect(v.stockCount).toBe(52 - piles)
      expect(v.nextDeal).toBe(piles)
      expect(v.deck).toBeNull()
      expect(v.recent).toEqual([{ t: 'deal', cards: deck.slice(0, piles) }])
    }
    const two = Rng.seeded('layout-8').shuffle(fullDeck(2))
    const s8 = acesUp.setup({ piles: 8 }, 1, { deck: two })
    expect(s8.piles).toEqual(two.slice(0, 8).map((c) => [c]))
    expect(acesUp.view(s8, 0).stockCount).toBe(96)
  })

  it('[A-3] the stock order never appears in a view, before or after deals', () => {
    const s = acesUp.setup({ piles: 4 }, 1, { seed: 'secret' })
    expectNoStockLeak(s)
    const v = acesUp.view(s, 0)
    expect(Object.keys(v)).not.toContain('stock')
    expect(cardsIn(v).every((c) => s.piles.flat().includes(c))).toBe(true)
    expectNoStockLeak(run(s, 'deal deal'))
  })
})

describe('Aces Up: discards', () => {
  it('[A-4] the top card goes to the discard heap when another pile shows a higher card of its suit', () => {
    let s = setup('5D 9C QD 2H 3S 4S 6C 7H')
    expect(legal(s)).toEqual(['d0', 'deal'])
    s = run(s, 'd0')
    expect(show(s)).toBe('- | 9C | QD | 2H')
    expect(formatCards(s.discard)).toBe('5D')
    expect(s.recent).toEqual([{ t: 'discard', pile: 0, card: parseCards('5D')[0] }])
    // The queen itself has nothing higher: no discard; a move to the empty pile now exists.
    expect(legal(s)).toEqual(['m1>0', 'm2>0', 'm3>0', 'deal'])
    expectConserved(s)
  })

  it('[A-4] a higher card of another suit allows no discard', () => {
    const s = setup('2H AS KD QC 3S 4S 5S 6S')
    expect(legal(s)).toEqual(['deal'])
    for (let pile = 0; pile < 4; pile++) refuse(s, { type: 'discard', pile }, 'NO_HIGHER_CARD')
  })

  it('[A-4] only top cards count: a higher card under a top, in its own or another pile, allows no discard', () => {
    const own = run(setup('KS 3H 4D 5C 2S 6H 7D 8C 9C'), 'deal')
    expect(show(own)).toBe('KS 2S | 3H 6H | 4D 7D | 5C 8C')
    refuse(own, { type: 'discard', pile: 0 }, 'NO_HIGHER_CARD')
    expect(legal(own)).toEqual(['deal'])
    const other = run(setup('3H KS 4D 5C 2S 6H 7D 8C 9C'), 'deal')
    expect(show(other)).toBe('3H 2S | KS 6H | 4D 7D | 5C 8C')
    refuse(other, { type: 'discard', pile: 0 }, 'NO_HIGHER_CARD')
  })

  it('[A-4] one card at a time: a discard uncovers the card below, which needs its own discard', () => {
    let s = run(setup('3S 2D 4H 5C 2S 9D KS 8C'), 'deal')
    expect(show(s)).toBe('3S 2S | 2D 9D | 4H KS | 5C 8C')
    s = run(s, 'd0')
    expect(show(s)).toBe('3S | 2D 9D | 4H KS | 5C 8C')
    expect(formatCards(s.discard)).toBe('2S')
    s = run(s, 'd0')
    expect(show(s)).toBe('- | 2D 9D | 4H KS | 5C 8C')
    expect(formatCards(s.discard)).toBe('2S 3S')
  })

  it('[A-4] with two decks an equal card allows no discard', () => {
    const s = setup("TH TH' 2C 3D 4S 5C 6D 7S JC QD", 8)
    expect(canDiscard(s.piles, 0)).toBe(false)
    expect(canDiscard(s.piles, 1)).toBe(false)
    refuse(s, { type: 'discard', pile: 0 }, 'NO_HIGHER_CARD')
    refuse(s, { type: 'discard', pile: 1 }, 'NO_HIGHER_CARD')
    // 2C, 3D and 4S go (by 5C, 6D, 7S); the tens stay.
    expect(legal(s)).toEqual(['d2', 'd3', 'd4', 'deal'])
    // With a higher heart beside them, both tens go.
    const t = setup("TH TH' JH' 2C 3D 4S 5H 6D", 8)
    expect(canDiscard(t.piles, 0)).toBe(true)
    expect(canDiscard(t.piles, 1)).toBe(true)
    expect(formatCards(run(t, 'd0 d1').discard)).toBe("TH TH'")
  })

  it('[A-4] a discard of an empty or unknown pile is refused with its code', () => {
    const s = run(setup('2S KS 3H 4C 5D 6H 7C 8D'), 'd0')
    refuse(s, { type: 'discard', pile: 0 }, 'PILE_EMPTY')
    for (const pile of [-1, 4, 1.5, '1', null, undefined]) {
      refuse(s, { type: 'discard', pile }, 'BAD_PILE')
    }
  })
})

describe('Aces Up: moves', () => {
  it('[A-5] the top card of any other pile may move to an empty pile, one card only', () => {
    let s = run(setup('2S KS 3H AH QD JD 5C 6C 9S'), 'd0 d2 deal d1 d2')
    expect(show(s)).toBe('QD | KS | - | AH 6C')
    expect(legal(s)).toEqual(['m0>2', 'm1>2', 'm3>2', 'deal'])
    s = run(s, 'm3>2')
    expect(show(s)).toBe('QD | KS | 6C | AH')
    expect(s.recent).toEqual([{ t: 'move', from: 3, to: 2, card: parseCards('6C')[0] }])
    expectConserved(s)
  })

  it('[A-5] a card moves only to an empty pile, never to itself or from an empty pile', () => {
    const s = run(setup('2S KS 3H AH QD JD 5C 6C 9S'), 'd0 d2 deal d1 d2')
    refuse(s, { type: 'move', from: 3, to: 0 }, 'NOT_EMPTY')
    refuse(s, { type: 'move', from: 0, to: 1 }, 'NOT_EMPTY')
    refuse(s, { type: 'move', from: 2, to: 2 }, 'SAME_PILE')
    refuse(s, { type: 'move', from: 3, to: 3 }, 'SAME_PILE')
    refuse(s, { type: 'move', from: 2, to: 0 }, 'PILE_EMPTY')
    refuse(s, { type: 'move', from: 4, to: 2 }, 'BAD_PILE')
    refuse(s, { type: 'move', from: 3, to: -1 }, 'BAD_PILE')
    refuse(s, { type: 'move', from: '3', to: 2 }, 'BAD_PILE')
  })

  it('[A-5] moves are never forced: empty piles may stay empty, and a deal fills them', () => {
    let s = run(setup('2S KS 3H AH 4D 5D 6C 7C 8H'), 'd0 d2')
    expect(show(s)).toBe('- | KS | - | AH')
    s = run(s, 'deal')
    expect(show(s)).toBe('4D | KS 5D | 6C | AH 7C')
  })
})

describe('Aces Up: deals', () => {
  it('[A-6] with 4 piles the stock gives 12 deals of 4', () => {
    const s = acesUp.setup({ piles: 4 }, 1, { seed: 'deals-4' })
    const { end, deals } = dealAll(s)
    expect(deals.map((d) => d.length)).toEqual(new Array(12).fill(4))
    expect(end.deals).toBe(12)
    expect(end.piles.map((p) => p.length)).toEqual([13, 13, 13, 13])
    refuse(end, { type: 'deal' }, end.ended ? 'GAME_OVER' : 'STOCK_EMPTY')
  })

  it('[A-6] with 5 piles a 52-card stock gives 9 deals of 5 and then 2 cards onto piles 0 and 1', () => {
    const deck = Rng.seeded('deals-5').shuffle(fullDeck())
    const s = acesUp.setup({ piles: 5 }, 1, { deck })
    const { end, deals } = dealAll(s)
    expect(deals.map((d) => d.length)).toEqual([5, 5, 5, 5, 5, 5, 5, 5, 5, 2])
    expect(deals[9]).toEqual(deck.slice(50))
    expect(end.piles.map((p) => p.length)).toEqual([11, 11, 10, 10, 10])
    expect(end.piles[0]![10]).toBe(deck[50])
    expect(end.piles[1]![10]).toBe(deck[51])
    expect(end.deals).toBe(10)
  })

  it('[A-6] the view announces the short last deal of the 5-pile game', () => {
    let s = acesUp.setup({ piles: 5 }, 1, { seed: 'next-deal' })
    const sizes: number[] = []
    while (s.stock.length > 0) {
      sizes.push(acesUp.view(s, 0).nextDeal)
      s = play(s, { type: 'deal' })
    }
    expect(sizes).toEqual([5, 5, 5, 5, 5, 5, 5, 5, 5, 2])
    expect(acesUp.view(s, 0).nextDeal).toBe(0)
  })

  it('[A-6] with 8 piles and two decks the stock gives 12 deals of 8', () => {
    const s = acesUp.setup({ piles: 8 }, 1, { seed: 'deals-8' })
    const { end, deals } = dealAll(s)
    expect(deals.map((d) => d.length)).toEqual(new Array(12).fill(8))
    expect(end.piles.map((p) => p.length)).toEqual(new Array(8).fill(13))
  })

  it('[A-6] a short stock deals one card per pile from the left until it runs out', () => {
    let s = setup('2S KS 3H AH 4D 5D')
    s = run(s, 'd0')
    expect(show(s)).toBe('- | KS | 3H | AH')
    s = run(s, 'deal')
    expect(show(s)).toBe('4D | KS 5D | 3H | AH')
    expect(s.stock).toEqual([])
  })

  it('[A-6] the player may deal over a discardable card, burying it; dealBuriesDiscard warns', () => {
    const s = setup('5S KS 2H 9D 3D 4C 6H 7S 8S')
    expect(canDiscard(s.piles, 0)).toBe(true)
    expect(dealBuriesDiscard(s)).toBe(true)
    expect(legal(s)).toContain('deal')
    const t = run(s, 'deal')
    expect(show(t)).toBe('5S 3D | KS 4C | 2H 6H | 9D 7S')
    expect(canDiscard(t.piles, 0)).toBe(false)
    expect(dealBuriesDiscard(t)).toBe(false)
    // Once discarded, nothing is buried by the deal.
    expect(dealBuriesDiscard(run(s, 'd0'))).toBe(false)
    // Nothing to deal, nothing to warn about.
    const u = run(t, 'deal')
    expect(u.stock).toHaveLength(0)
    expect(dealBuriesDiscard(u)).toBe(false)
  })

  it('[A-6] dealBuriesDiscard also warns when the deal covers the only higher card of a discardable card', () => {
    // 5 piles, the last deal covers piles 0 and 1: the KH on pile 0 is the only killer of 5H on pile 3.
    const s = setup('KH 2C 3D 5H 9S 4C 6D', 5)
    expect(canDiscard(s.piles, 3)).toBe(true)
    expect(dealBuriesDiscard(s)).toBe(true)
    expect(canDiscard(run(s, 'deal').piles, 3)).toBe(false)
  })

  it('[A-6] dealBuriesDiscard only warns for piles the next deal reaches', () => {
    // 5 piles, two cards in the stock: the last deal reaches piles 0 and 1 only.
    const safe = setup('2C 3D 4H 5S 9S 6C 7D', 5)
    expect(canDiscard(safe.piles, 3)).toBe(true)
    expect(dealBuriesDiscard(safe)).toBe(false)
    const buried = setup('5S 3D 4H 2C 9S 6C 7D', 5)
    expect(dealBuriesDiscard(buried)).toBe(true)
  })

  it('[A-6] no deal once the stock is empty', () => {
    const s = run(setup('2S KS 3H AH QD'), 'deal')
    expect(s.stock).toEqual([])
    expect(s.ended).toBe(false)
    expect(legal(s)).not.toContain('deal')
    refuse(s, { type: 'deal' }, 'STOCK_EMPTY')
  })
})

describe('Aces Up: end of a game', () => {
  it('[A-7] ends by itself when the stock is empty and nothing can be discarded or moved', () => {
    let s = setup('2S KS 3H 4C 5D 6H 7C 8D 9S')
    s = run(s, 'd0 deal')
    expect(show(s)).toBe('5D | KS 6H | 3H 7C | 4C 8D')
    expect(s.ended).toBe(false)
    s = run(s, 'deal')
    expect(show(s)).toBe('5D 9S | KS 6H | 3H 7C | 4C 8D')
    expect(s.ended).toBe(true)
    expect(s.recent).toEqual([
      { t: 'deal', cards: parseCards('9S') },
      { t: 'end', left: 8, won: false, by: 'rule' },
    ])
    expect(acesUp.legalMoves(s, 0)).toEqual([])
    expect(acesUp.activeSeats(s)).toEqual([])
    expect(acesUp.outcome(s)).toEqual({ left: 8, won: false, freeAces: 0, aces: 0, decks: 1 })
  })

  it('[A-7] waits while a card can move from a pile of two or more cards to an empty pile', () => {
    let s = run(setup('2S KS 3H 4C 5D 6H 7C 8D'), 'd0 deal')
    expect(show(s)).toBe('5D | KS 6H | 3H 7C | 4C 8D')
    s = run(s, 'd0')
    expect(show(s)).toBe('- | KS 6H | 3H 7C | 4C 8D')
    expect(s.stock).toEqual([])
    expect(s.ended).toBe(false)
    expect(legal(s)).toEqual(['m1>0', 'm2>0', 'm3>0', 'finish'])
    s = run(s, 'm1>0')
    expect(show(s)).toBe('6H | KS | 3H 7C | 4C 8D')
    expect(s.ended).toBe(true)
    expect(acesUp.outcome(s)?.left).toBe(6)
  })

  it('[A-7] a move from a one-card pile does not keep the game alive', () => {
    const s = run(setup('2S KS 3H 4C'), 'd0')
    expect(show(s)).toBe('- | KS | 3H | 4C')
    expect(s.ended).toBe(true)
    expect(s.recent.at(-1)).toEqual({ t: 'end', left: 3, won: false, by: 'rule' })
  })

  it('[A-7] a layout that is the whole deck and has no discard is over at once', () => {
    const s = setup('2C 3D 4H 5S')
    expect(s.ended).toBe(true)
    expect(acesUp.outcome(s)).toMatchObject({ left: 4, won: false })
    refuse(s, { type: 'finish' }, 'GAME_OVER')
  })

  it('[A-7] never ends by itself while the stock has cards, even when nothing else is possible', () => {
    let s = acesUp.setup({ piles: 4 }, 1, { seed: 'locked' })
    while (s.stock.length > 0) {
      expect(s.ended).toBe(false)
      expect(legal(s)).toContain('deal')
      expect(legal(s)).not.toContain('finish')
      refuse(s, { type: 'finish' }, 'STOCK_NOT_EMPTY')
      s = play(s, { type: 'deal' })
    }
  })

  it('[A-7] the player may end the game once the stock is empty, even with discards left', () => {
    let s = run(setup('2S KS 3H AH QD'), 'deal')
    expect(show(s)).toBe('2S QD | KS | 3H | AH')
    expect(legal(s)).toEqual(['d2', 'finish'])
    s = run(s, 'finish')
    expect(s.ended).toBe(true)
    expect(s.recent).toEqual([{ t: 'end', left: 5, won: false, by: 'player' }])
    expect(acesUp.outcome(s)).toEqual({ left: 5, won: false, freeAces: 1, aces: 1, decks: 1 })
    for (const m of ['d2', 'deal', 'undo', 'finish', 'm0>1']) {
      refuse(s, parseMove(m), 'GAME_OVER')
    }
  })
})

describe('Aces Up: result', () => {
  it('[A-8] the result is the number of cards left on the table', () => {
    const s = run(setup('2S KS 3H AH QD'), 'deal d2 finish')
    expect(show(s)).toBe('2S QD | KS | - | AH')
    expect(acesUp.outcome(s)).toEqual({ left: 4, won: false, freeAces: 1, aces: 1, decks: 1 })
    expect(acesUp.view(s, 0).outcome).toEqual(acesUp.outcome(s))
    expect(acesUp.outcome(setup('2S KS 3H AH QD'))).toBeUndefined()
  })

  it('[A-8] a game is won when only the four aces remain', () => {
    const s = playOut(setup(WIN_52), greedyStep)
    expect(show(s)).toBe('AC | AD | AH | AS')
    expect(s.discard).toHaveLength(48)
    expect(acesUp.outcome(s)).toEqual({ left: 4, won: true, freeAces: 4, aces: 4, decks: 1 })
    expect(s.recent.at(-1)).toEqual({ t: 'end', left: 4, won: true, by: 'rule' })
    expect(s.deals).toBe(12)
  })

  it('[A-8] with five piles the same deck is won with four aces on five places', () => {
    const s = playOut(setup(WIN_52, 5), greedyStep)
    const o = acesUp.outcome(s)!
    expect(o.left).toBe(s.piles.flat().length)
    expect(o.won).toBe(o.left === 4)
    expect(o.aces).toBe(4)
  })

  it('[A-8] with two decks a game is won when the eight aces remain', () => {
    const s = playOut(setup(WIN_104, 8), greedyStep)
    expect(show(s)).toBe("AC | AD | AH | AS | AC' | AD' | AH' | AS'")
    expect(acesUp.outcome(s)).toEqual({ left: 8, won: true, freeAces: 8, aces: 8, decks: 2 })
  })

  it('[A-8] a game with a buried ace is lost, and freeAces counts only aces on top', () => {
    // Dealing over the layout buries all four aces; discarding the clubs frees only the ace of clubs.
    const s = run(setup(WIN_52.split(' ').slice(0, 8).join(' ')), 'deal d0 d1 d2 finish')
    expect(show(s)).toBe('AC | AD | AH | AS 5C')
    expect(acesUp.outcome(s)).toEqual({ left: 5, won: false, freeAces: 3, aces: 4, decks: 1 })
    const buried = run(setup(WIN_52.split(' ').slice(0, 8).join(' ')), 'deal finish')
    expect(acesUp.outcome(buried)).toMatchObject({ left: 8, won: false, freeAces: 0 })
  })
})

describe('Aces Up: undo', () => {
  const POS = 'KS 2D 3H 4C 5S 6S 7D 8H 9C TC JC QC'

  it("[A-9] with undo 'none' nothing can be taken back", () => {
    const s = run(setup(POS, 4, 'none'), 'deal d0')
    expect(legal(s)).not.toContain('undo')
    expect(acesUp.view(s, 0).canUndo).toBe(false)
    refuse(s, { type: 'undo' }, 'UNDO_NOT_ALLOWED')
  })

  it('[A-9] a discard taken back returns exactly where it was', () => {
    const s = run(setup(POS, 4, 'discards'), 'deal')
    expect(show(s)).toBe('KS 5S | 2D 6S | 3H 7D | 4C 8H')
    const d = run(s, 'd0')
    expect(show(d)).toBe('KS | 2D 6S | 3H 7D | 4C 8H')
    expect(legal(d)).toContain('undo')
    expect(acesUp.view(d, 0).canUndo).toBe(true)
    const u = run(d, 'undo')
    expect(u.piles).toEqual(s.piles)
    expect(u.discard).toEqual(s.discard)
    expect(u.stock).toEqual(s.stock)
    expect(u.undoUsed).toBe(true)
    expect(u.recent).toEqual([
      { t: 'undo', of: { type: 'discard', pile: 0, card: parseCards('5S')[0] } },
    ])
    expect(acesUp.view(u, 0).canUndo).toBe(false)
    expectConserved(u)
  })

  it('[A-9] only the most recent discard is taken back', () => {
    const s = run(setup(POS, 4, 'both'), 'deal d0 d1')
    expect(show(s)).toBe('KS | 2D | 3H 7D | 4C 8H')
    expect(formatCards(s.discard)).toBe('5S 6S')
    const u = run(s, 'undo')
    expect(show(u)).toBe('KS | 2D 6S | 3H 7D | 4C 8H')
    expect(formatCards(u.discard)).toBe('5S')
  })

  it('[A-9] once per game: a second undo is refused', () => {
    for (const undo of ['discards', 'both'] as const) {
      const s = run(setup(POS, 4, undo), 'deal d0 undo d0')
      expect(legal(s)).not.toContain('undo')
      refuse(s, { type: 'undo' }, 'UNDO_USED')
      refuse(run(s, 'deal'), { type: 'undo' }, 'UNDO_USED')
    }
  })

  it('[A-9] no undo across a deal', () => {
    const s = run(setup(POS, 4, 'both'), 'deal d0 deal')
    expect(s.last).toBeNull()
    expect(legal(s)).not.toContain('undo')
    refuse(s, { type: 'undo' }, 'NOTHING_TO_UNDO')
    refuse(setup(POS, 4, 'both'), { type: 'undo' }, 'NOTHING_TO_UNDO')
    // A discard after the deal can be taken back again: the one undo is still unused.
    expect(formatCards(run(s, 'd0 undo').discard)).toBe('5S')
  })

  it("[A-9] undo 'discards' takes back discards, not moves", () => {
    const s = run(setup('2S KS 3H AH QD JD 5C 6C 9S', 4, 'discards'), 'd0 d2 deal d1 d2 m3>2')
    expect(show(s)).toBe('QD | KS | 6C | AH')
    expect(legal(s)).not.toContain('undo')
    refuse(s, { type: 'undo' }, 'UNDO_NOT_ALLOWED')
  })

  it("[A-9] undo 'moves' takes back a move, which returns exactly where it was", () => {
    const before = run(setup('2S KS 3H AH QD JD 5C 6C 9S', 4, 'moves'), 'd0 d2 deal d1 d2')
    expect(show(before)).toBe('QD | KS | - | AH 6C')
    refuse(run(setup(POS, 4, 'moves'), 'deal d0'), { type: 'undo' }, 'UNDO_NOT_ALLOWED')
    const moved = run(before, 'm3>2')
    expect(show(moved)).toBe('QD | KS | 6C | AH')
    const u = run(moved, 'undo')
    expect(u.piles).toEqual(before.piles)
    expect(u.discard).toEqual(before.discard)
    expect(u.recent).toEqual([
      { t: 'undo', of: { type: 'move', from: 3, to: 2, card: parseCards('6C')[0] } },
    ])
    refuse(run(u, 'm3>2'), { type: 'undo' }, 'UNDO_USED')
  })

  it("[A-9] undo 'both' takes back either kind", () => {
    const base = run(setup('2S KS 3H AH QD JD 5C 6C 9S', 4, 'both'), 'd0 d2 deal d1')
    expect(show(base)).toBe('QD | KS | 5C | AH 6C')
    const afterDiscard = run(base, 'd2')
    expect(show(run(afterDiscard, 'undo'))).toBe(show(base))
    const afterMove = run(afterDiscard, 'm3>2')
    expect(show(run(afterMove, 'undo'))).toBe(show(afterDiscard))
  })

  it('[A-9] the game does not end by itself while its last action can still be taken back', () => {
    // Stock empty, and the last discard leaves nothing to do: the player may still take it back.
    const pos = '2S KS 3H 4C'
    const ended = run(setup(pos, 4, 'none'), 'd0')
    expect(ended.ended).toBe(true)
    const waiting = run(setup(pos, 4, 'discards'), 'd0')
    expect(waiting.ended).toBe(false)
    expect(legal(waiting)).toEqual(['m1>0', 'm2>0', 'm3>0', 'finish', 'undo'])
    expect(acesUp.view(waiting, 0).canUndo).toBe(true)
    // Taking it back: the card returns and the game goes on.
    const back = run(waiting, 'undo')
    expect(show(back)).toBe('2S | KS | 3H | 4C')
    expect(back.ended).toBe(false)
    // Discarding again ends the game: the one undo is used.
    expect(run(back, 'd0').recent.at(-1)).toEqual({ t: 'end', left: 3, won: false, by: 'rule' })
    // Or the player ends it.
    expect(run(waiting, 'finish').recent).toEqual([{ t: 'end', left: 3, won: false, by: 'player' }])
    // An undo that does not cover the last action does not hold the game open.
    expect(run(setup(pos, 4, 'moves'), 'd0').ended).toBe(true)
  })
})

describe('Aces Up: pure moves and views', () => {
  it('[A-4] [A-5] [A-6] [A-9] random playouts: exactly the legal moves apply, nothing mutates, cards are conserved', () => {
    const undos: UndoSetting[] = ['none', 'discards', 'moves', 'both']
    // 12 games: every pile count with every undo setting.
    for (let game = 0; game < 12; game++) {
      const piles = ([4, 5, 8] as const)[game % 3]!
      const undo = undos[game % 4]!
      const rng = Rng.seeded(`playout-${game}`)
      let s = acesUp.setup({ piles, undo }, 1, { seed: `game-${game}` })
      for (let step = 0; step < 500 && !s.ended; step++) {
        expectConserved(s)
        expectNoStockLeak(s)
        // a game still open has a stock, something to do, or an undo waiting.
        if (s.stock.length === 0 && !canProgress(s.piles)) expect(legal(s)).toContain('undo')
        const moves = acesUp.legalMoves(s, 0)
        expect(moves.length).toBeGreaterThan(0)
        expect(acesUp.activeSeats(s)).toEqual([0])
        // Exactly the legal moves apply to the frozen state (a mutation would throw).
        deepFreeze(s)
        const applies = candidates(s.pileCount).filter((m) => acesUp.apply(s, 0, m).ok)
        expect(applies.map(key).sort()).toEqual(moves.map(key).sort())
        // Pick one, preferring discards, moves and undos to deals.
        // Moves from a one-card pile are left out: they could go back and forth for ever.
        const nonDeal = moves.filter(
          (m) =>
            (m.type === 'discard' || m.type === 'undo' || m.type === 'move') &&
            (m.type !== 'move' || s.piles[m.from]!.length > 1),
        )
        const pool = nonDeal.length > 0 && rng.float() < 0.8 ? nonDeal : moves
        s = play(s, rng.pick(pool))
      }
      expect(s.ended).toBe(true)
      expect(candidates(s.pileCount).filter((m) => acesUp.apply(s, 0, m).ok)).toEqual([])
      expectConserved(s)
      expectNoStockLeak(s)
      expect(acesUp.outcome(s)!.left).toBe(s.piles.flat().length)
    }
  })

  it('refuses bad seats and malformed moves without changing the state', () => {
    const s = setup('5S KS 2H 9D 3C')
    refuse(s, { type: 'deal' }, 'NOT_A_SEAT', 1)
    refuse(s, { type: 'deal' }, 'NOT_A_SEAT', -1)
    expect(acesUp.legalMoves(s, 1)).toEqual([])
    refuse(s, null, 'BAD_MOVE')
    refuse(s, 'deal', 'BAD_MOVE')
    refuse(s, { type: 'shuffle' }, 'BAD_MOVE')
    refuse(s, {}, 'BAD_MOVE')
  })

  it('[A-8] the deck appears in the view only once the game is over', () => {
    let s = acesUp.setup({ piles: 5 }, 1, { seed: 'deck-late' })
    while (!s.ended) {
      expect(acesUp.view(s, 'spectator').deck).toBeNull()
      s = play(s, greedyStep(s))
    }
    const v: AcesUpView = acesUp.view(s, 'spectator')
    expect(v.deck).toEqual(s.deck)
    expect(v.ended).toBe(true)
  })
})
