import { describe, expect, it } from 'vitest'
import { type Card, formatCard, fullDeck, makeCard, parseCards, type Suit } from '../src/cards.ts'
import {
  HERRARNA_SEQUENCE,
  type HerrarnaEvent,
  type HerrarnaMove,
  type HerrarnaState,
  type HerrarnaView,
  herrarna,
  herrarnaDeck,
  herrarnaFast,
  herrarnaFoundationFor,
  herrarnaLegalMovesFromView,
  herrarnaRunToEnd,
} from '../src/herrarna.ts'
import { Rng } from '../src/rng.ts'
import { deepFreeze } from './aces-up-helpers.ts'
import { type PlayoutSpec, type PlayoutStats, permuteWithin, playout } from './playout.ts'

// ---------------------------------------------------------------------------------------------
// Helpers

const C = (t: string): Card[] => parseCards(t)
const one = (t: string): Card => parseCards(t)[0]!

/** A hand-built position: a fresh game with the given fields replaced. */
const position = (p: Partial<HerrarnaState>): HerrarnaState => ({
  ...herrarna.setup({}, 1, { deck: fullDeck(2) }),
  stock: [],
  ...p,
})

/** The piles of a position from text, `|` between piles, bottom card first; `-` is empty. */
const piles = (t: string): Card[][] => t.split('|').map((p) => (p.trim() === '-' ? [] : C(p)))

function step(s: HerrarnaState): HerrarnaState {
  const before = JSON.stringify(s)
  const r = herrarna.apply(deepFreeze(s), 0, { type: 'step' })
  if (!r.ok) throw new Error(`step refused: ${r.error.code}`)
  expect(JSON.stringify(s)).toBe(before)
  return r.value
}

function fmt(e: HerrarnaEvent): string {
  switch (e.t) {
    case 'deal':
      return `${e.from === 'stock' ? 'd' : 'h'}:${formatCard(e.card)}>${e.pile}`
    case 'build': {
      const src = e.from.zone === 'pile' ? `p${e.from.pile}` : e.from.zone === 'waste' ? 'w' : 'r'
      return `b:${formatCard(e.card)}@${src}>f${e.foundation}`
    }
    case 'take':
      return `t:${e.pile}(${e.count})`
    case 'reserve':
      return `r:${e.from}(${e.count})`
    case 'waste':
      return `w:${formatCard(e.card)}`
    case 'restock':
      return `s(${e.count})`
    case 'end':
      return `end:${e.left}`
  }
}

/** Steps up to `n` times (or to the end), returning the new state and the events as text. */
function trace(s: HerrarnaState, n = 10_000): { s: HerrarnaState; log: string[] } {
  let g = s
  const log: string[] = []
  for (let i = 0; i < n && !g.over; i++) {
    g = step(g)
    log.push(...g.recent.map(fmt))
  }
  return { s: g, log }
}

/** Every card a view shows, wherever it is (the ids under card-valued keys). */
function viewCards(x: unknown, key = '', out: Card[] = []): Card[] {
  if (Array.isArray(x)) for (const v of x) viewCards(v, key, out)
  else if (typeof x === 'number') {
    if (CARD_KEYS.has(key)) out.push(x)
  } else if (typeof x === 'object' && x !== null) {
    for (const [k, v] of Object.entries(x)) viewCards(v, k, out)
  }
  return out
}
const CARD_KEYS = new Set(['piles', 'foundations', 'waste', 'card'])

const hidden = (s: HerrarnaState): Card[] => [...s.stock, ...s.hand, ...s.reserve]
const allCards = (s: HerrarnaState): Card[] => [
  ...s.stock,
  ...s.piles.flat(),
  ...s.foundations.flat(),
  ...s.hand,
  ...s.reserve,
  ...s.waste,
]

/** Both decks in foundation order: the eight tens, the eight nines, …, the eight jacks. */
const sortedDeck = (): Card[] =>
  HERRARNA_SEQUENCE.flatMap((rank) =>
    [0, 1].flatMap((d) => [0, 1, 2, 3].map((suit) => makeCard(rank, suit as Suit, d))),
  )

// ---------------------------------------------------------------------------------------------

describe('Dom Åtta Herrarna: foundations and building', () => {
  it('[H-1] two decks; a foundation is built down in suit from its ten round the corner: 10 … 2, A, K, Q, J', () => {
    const s = herrarna.setup({}, 1, { seed: 'h1' })
    expect(s.deck).toHaveLength(104)
    expect(new Set(s.deck).size).toBe(104)
    const f = [C('TH 9H 8H 7H 6H 5H 4H 3H 2H')]
    expect(herrarnaFoundationFor(one('AH'), f)).toBe(0)
    expect(herrarnaFoundationFor(one("AH'"), f)).toBe(0)
    expect(herrarnaFoundationFor(one('AS'), f)).toBe(-1)
    expect(herrarnaFoundationFor(one('KH'), f)).toBe(-1)
    expect(herrarnaFoundationFor(one('KH'), [C('TH 9H 8H 7H 6H 5H 4H 3H 2H AH')])).toBe(0)
    expect(herrarnaFoundationFor(one('JH'), [C('TH 9H 8H 7H 6H 5H 4H 3H 2H AH KH QH')])).toBe(0)
    // A complete foundation takes nothing more.
    const full = [C('TH 9H 8H 7H 6H 5H 4H 3H 2H AH KH QH JH')]
    for (const c of C("JH' TH' 9H AH"))
      expect(herrarnaFoundationFor(c, full)).toBe(c === one("TH'") ? 1 : -1)
    // A ten always starts a new foundation.
    expect(herrarnaFoundationFor(one('TC'), f)).toBe(1)
  })

  it('[H-1] with two foundations of a suit, a card goes on the one started first', () => {
    expect(herrarnaFoundationFor(one("9C'"), [C('TD'), C("TC'"), C('TC')])).toBe(1)
    expect(herrarnaFoundationFor(one('9C'), [C('TD'), C("TC'"), C('TC')])).toBe(1)
    expect(herrarnaFoundationFor(one('9C'), [C('TD'), C("TC' 9C'"), C('TC')])).toBe(2)
  })

  it('[H-2] building repeats until nothing fits, always playing the first fitting top card from the left; a ten starts a foundation', () => {
    // Round 3 after its last layer: places 1 (8H), 3 (9H) and 4 (TS) all play.
    const s = position({
      round: 3,
      dealt: 8,
      piles: piles('2C | 8H | 3C | 9H | TS | - | - | -'),
      foundations: [C('TH')],
    })
    const v = herrarna.view(s, 0)
    expect(v.next).toEqual({
      t: 'build',
      from: { zone: 'pile', pile: 3 },
      card: one('9H'),
      foundation: 0,
    })
    const { s: end, log } = trace(s)
    expect(log).toEqual(['b:9H@p3>f0', 'b:8H@p1>f0', 'b:TS@p4>f1', 'end:100'])
    expect(end.foundations).toEqual([C('TH 9H 8H'), C('TS')])
    expect(end.piles[0]).toEqual(C('2C'))
  })
})

describe('Dom Åtta Herrarna: round 1 (H-3)', () => {
  it('[H-3] 13 cards are dealt one at a time to piles 0–12, and building waits for the end of the layer', () => {
    const layer1 = C('TH 2C 9S 4C 5C 9H 6C 7C 8C 2D 3D 4D 5D')
    const layer2 = C('6D 7D QD 8D 2S 3S 4S TS 5S 6S 7S 8S QC')
    const used = new Set([...layer1, ...layer2])
    const deck = [...layer1, ...layer2, ...fullDeck(2).filter((c) => !used.has(c))]
    const s0 = herrarna.setup({}, 1, { deck })
    const { s, log } = trace(s0, 13 + 2 + 13 + 1)
    expect(log.slice(0, 13)).toEqual(layer1.map((c, i) => `d:${formatCard(c)}>${i}`))
    // After the layer: TH to the centre, then 9H onto it.
    expect(log.slice(13, 15)).toEqual(['b:TH@p0>f0', 'b:9H@p5>f0'])
    expect(log.slice(15, 28)).toEqual(layer2.map((c, i) => `d:${formatCard(c)}>${i}`))
    // [H-3] 9S became playable when TS came out, but QD of the same layer lies on it: buried.
    expect(log.slice(28)).toEqual(['b:TS@p7>f1'])
    expect(s.piles[2]).toEqual(C('9S QD'))
    expect(herrarna.view(s, 0).next).toEqual({ t: 'deal', from: 'stock', pile: 0 })
    expect(s.round).toBe(1)
    expect(s.stock).toHaveLength(104 - 26)
  })

  it('[H-7] a deck in foundation order is won in round 1: eight foundations with a jack on top, nothing left', () => {
    const { s, log } = trace(herrarna.setup({}, 1, { deck: sortedDeck() }))
    expect(log.filter((l) => l.startsWith('d:'))).toHaveLength(104)
    expect(log.filter((l) => l.startsWith('b:'))).toHaveLength(104)
    expect(log.some((l) => l.startsWith('t:'))).toBe(false)
    expect(log.at(-1)).toBe('end:0')
    expect(s.steps).toBe(208)
    expect(herrarna.outcome(s)).toEqual({ won: true, built: 104, left: 0, foundations: 8 })
    for (const f of s.foundations) {
      expect(f.map((c) => formatCard(c).replace("'", '')[0]).join('')).toBe('T98765432AKQJ')
      expect(new Set(f.map((c) => formatCard(c).replace("'", '')[1])).size).toBe(1)
    }
  })
})

describe('Dom Åtta Herrarna: round 2 (H-4, H-5)', () => {
  /** The end of round 1: all 104 dealt, nothing fits. */
  const round1End = (p: Partial<HerrarnaState>): HerrarnaState =>
    position({ round: 1, dealt: 104, ...p })

  it('[H-4] pile k is taken up and turned over, its bottom card dealt first onto k+1, k+2, …, with building after every card', () => {
    const s = round1End({
      foundations: [C('TH')],
      piles: piles('2C 9H 3C | 4D 5S | 6S | 7S | 8S | 2D | 3D | 4S | 5D | 6D | 7D | 8D | 2S'),
    })
    const { s: after, log } = trace(s, 10)
    expect(log).toEqual([
      't:0(3)',
      'h:2C>1',
      'h:9H>2',
      'b:9H@p2>f0',
      'h:3C>3',
      't:1(3)',
      'h:4D>2',
      'h:5S>3',
      'h:2C>4',
      't:2(2)',
    ])
    expect(after.round).toBe(2)
    expect(after.hand).toEqual(C('6S 4D'))
    expect(after.piles[1]).toEqual([])
    expect(herrarna.view(after, 0)).toMatchObject({ handCount: 2, handFrom: 2, round: 2 })
  })

  it('[H-4] an empty pile is skipped in round 2', () => {
    // Pile 1 is empty; the 9H dealt onto it from pile 0 is built at once and it is empty again.
    const s = round1End({
      foundations: [C('TH')],
      piles: piles('9H 3C | - | 6S | 7S | 8S | 2D | 3D | 4S | 5D | 6D | 7D | 8D | 2S'),
    })
    expect(trace(s, 5).log).toEqual(['t:0(2)', 'h:9H>1', 'b:9H@p1>f0', 'h:3C>2', 't:2(2)'])
  })

  it('[H-4] a ten uncovered in round 2 goes to the centre at once', () => {
    const s = round1End({
      foundations: [C('TS 9S')],
      piles: piles("8S 4C | TH' 7S | 6C | 7C | 8C | 2D | 3D | 4D | 5D | 6D | 7D | 8D | 2H"),
    })
    expect(trace(s, 6).log).toEqual([
      't:0(2)',
      'h:8S>1',
      'b:8S@p1>f0',
      'b:7S@p1>f0',
      "b:TH'@p1>f1",
      'h:4C>2',
    ])
  })

  it('[H-4] cards left in hand go face down onto the reserve in order, next card on top; the thirteenth pile is turned over on top of all', () => {
    const s = position({
      round: 2,
      next: 10,
      piles: piles('- | - | - | - | - | - | - | - | - | - | 2C 3C 4C 5C 6C | 7C 8C | 2D 3D'),
      reserve: C('QS'),
    })
    const { s: after, log } = trace(s, 9)
    expect(log).toEqual([
      't:10(5)',
      'h:2C>11',
      'h:3C>12',
      'r:hand(3)',
      't:11(3)',
      'h:7C>12',
      'r:hand(2)',
      'r:pile(4)',
      'w:2D',
    ])
    // Before the first turn: pile 12 (2D 3D 3C 7C, bottom first) lay on 8C 2C, on 4C 5C 6C, on QS.
    expect(s.reserve).toEqual(C('QS'))
    const beforeTurn = trace(s, 8).s
    expect(beforeTurn.reserve).toEqual(C('2D 3D 3C 7C 8C 2C 4C 5C 6C QS'))
    expect(herrarna.view(beforeTurn, 0)).toMatchObject({ reserveCount: 10, handCount: 0 })
    expect(viewCards(herrarna.view(beforeTurn, 0))).toEqual([])
    expect(after.waste).toEqual(C('2D'))
  })

  it('[H-5] the reserve is turned up one card at a time: a fitting card is played, the others go to the waste, whose top plays as soon as it fits', () => {
    const s = position({
      round: 2,
      next: 13,
      foundations: [C('TH')],
      reserve: C('8H 9H 2C 6H 7H 3C'),
    })
    const { s: end, log } = trace(s)
    expect(log).toEqual([
      'w:8H',
      'b:9H@r>f0',
      'b:8H@w>f0',
      'w:2C',
      'w:6H',
      'b:7H@r>f0',
      'b:6H@w>f0',
      'w:3C',
      // [H-5] the waste turned over: round 3 deals in the order the cards were turned up.
      's(2)',
      'd:2C>0',
      'd:3C>1',
      'end:99',
    ])
    expect(end.round).toBe(3)
    expect(end.piles).toHaveLength(8)
  })
})

describe('Dom Åtta Herrarna: round 3 (H-6) and the end (H-7)', () => {
  it('[H-6] eight places, two rows of four, dealt a layer at a time with building after each layer; the last layer may be short', () => {
    const stock = C('2C 8D 3C 4C 5C 6C 7C QC KC 6D 3S 4S 5S 6S 7S 7D 5D AS 9S')
    const s = position({
      round: 3,
      dealt: 0,
      stock,
      foundations: [C('TD 9D')],
      piles: piles('-|-|-|-|-|-|-|-'),
    })
    const { s: end, log } = trace(s)
    const deals = (cs: Card[]) => cs.map((c, i) => `d:${formatCard(c)}>${i}`)
    expect(log).toEqual([
      ...deals(stock.slice(0, 8)),
      'b:8D@p1>f0',
      ...deals(stock.slice(8, 16)),
      'b:7D@p7>f0',
      'b:6D@p1>f0',
      ...deals(stock.slice(16)),
      'b:5D@p0>f0',
      'end:98',
    ])
    expect(end.piles).toEqual(piles('2C KC | AS | 3C 3S 9S | 4C 4S | 5C 5S | 6C 6S | 7C 7S | QC'))
    expect(herrarna.outcome(end)).toEqual({ won: false, built: 6, left: 98, foundations: 1 })
  })

  it('[H-7] the game ends when the cards run out; the result is the cards not built, and nothing more is accepted', () => {
    for (let g = 0; g < 20; g++) {
      const end = herrarnaRunToEnd(herrarna.setup({}, 1, { seed: `h7-${g}` }))
      const o = herrarna.outcome(end)!
      expect(end.over).toBe(true)
      expect(end.stock.length + end.hand.length + end.reserve.length + end.waste.length).toBe(0)
      expect(o.left).toBe(104 - o.built)
      expect(o.left).toBe(end.piles.flat().length)
      expect(o.won).toBe(o.left === 0)
      expect(end.recent.at(-1)).toEqual({ t: 'end', won: o.won, built: o.built, left: o.left })
      expect(herrarna.legalMoves(end, 0)).toEqual([])
      expect(herrarna.activeSeats(end)).toEqual([])
      const r = herrarna.apply(end, 0, { type: 'step' })
      expect(r.ok ? null : r.error.code).toBe('GAME_OVER')
    }
  })

  it('[H-7] setup refuses bad decks and seats; apply never throws and refuses nonsense with a code', () => {
    expect(() => herrarna.setup({}, 1, { deck: fullDeck(1) })).toThrow(RangeError)
    expect(() => herrarna.setup({}, 1, { deck: [...fullDeck(2).slice(1), 1] })).toThrow(RangeError)
    expect(() => herrarna.setup({}, 1, { deck: [...fullDeck(2).slice(1), 104] })).toThrow(
      RangeError,
    )
    expect(() => herrarna.setup({}, 2, { seed: 'x' })).toThrow(RangeError)
    expect(herrarna.setup({}, 1, { seed: 'same' }).deck).toEqual(herrarnaDeck('same'))
    const s = herrarna.setup({}, 1, { seed: 'junk' })
    const before = JSON.stringify(s)
    for (const [seat, m, code] of [
      [0, null, 'BAD_MOVE'],
      [0, 5, 'BAD_MOVE'],
      [0, { type: 'run' }, 'BAD_MOVE'],
      [0, {}, 'BAD_MOVE'],
      [1, { type: 'step' }, 'NOT_A_SEAT'],
      ['spectator', { type: 'step' }, 'NOT_A_SEAT'],
    ] as const) {
      const r = herrarna.apply(s, seat as number, m as unknown as HerrarnaMove)
      expect(r.ok ? null : r.error.code).toBe(code)
    }
    expect(JSON.stringify(s)).toBe(before)
  })
})

// ---------------------------------------------------------------------------------------------
// Seeded playouts and the fast path

function herrarnaSpec(): PlayoutSpec<HerrarnaState, HerrarnaMove, HerrarnaView> {
  return {
    game: herrarna as never,
    seats: 1,
    viewers: [0, 'spectator'],
    setup: (seed) => herrarna.setup({}, 1, { seed }),
    choose: (s) => {
      // The direct check besides the harness's: no hidden card's id in any view.
      const h = hidden(s)
      for (const v of [0, 'spectator'] as const) {
        const shown = new Set(viewCards(herrarna.view(s, v)))
        for (const c of h) if (shown.has(c)) throw new Error(`card ${formatCard(c)} leaked`)
      }
      const moves = herrarna.legalMoves(s, 0)
      if (herrarnaLegalMovesFromView(herrarna.view(s, 0)).length !== moves.length) {
        throw new Error('the view gives other legal moves')
      }
      return moves.length === 0 ? null : { seat: 0, move: moves[0]! }
    },
    cards: allCards,
    deckSize: 104,
    known: (s) => [...s.piles.flat(), ...s.foundations.flat(), ...s.waste],
    // The stock was never seen; the hand and the reserve were, but their order is hidden too.
    rearrange: (s, _v, movable, shuffle) => ({
      ...s,
      stock: permuteWithin(s.stock.slice(), movable, shuffle),
      hand: shuffle(s.hand.slice()),
      reserve: shuffle(s.reserve.slice()),
    }),
    junk: (_s, rng) => [
      { seat: rng.int(2), move: { type: 'step' } },
      { seat: 0, move: rng.pick([null, 1, { type: 'turn' }, { type: 'run' }, []]) },
    ],
    key: (m) => (m && typeof m === 'object' ? String(m.type) : 'bad'),
    maxMoves: 1000,
  }
}

describe('Dom Åtta Herrarna playouts and the fast path', () => {
  it('[H-2][H-7] 20 seeded games: cards conserved after every step, no hidden card in any view, bad moves refused', () => {
    const stats: PlayoutStats = { games: 0, moves: 0, capped: 0, junkTried: 0 }
    const spec = herrarnaSpec()
    for (let g = 0; g < 20; g++) {
      const seed = `herrarna-${g}`
      const end = playout(spec, seed, stats)
      const o = herrarna.outcome(end)!
      expect(herrarnaFast(herrarnaDeck(seed))).toEqual({ won: o.won, built: o.built, left: o.left })
    }
    expect(stats.capped).toBe(0)
    expect(stats.moves).toBeGreaterThan(20 * 250)
  })

  it('[H-3][H-4][H-5][H-6] the fast path gives the same result as the step-by-step engine on 300 seeds', () => {
    const rng = Rng.seeded('herrarna-fast')
    for (let g = 0; g < 300; g++) {
      const seed = `hfast-${g}`
      const o = herrarna.outcome(herrarnaRunToEnd(herrarna.setup({}, 1, { seed })))!
      expect(herrarnaFast(herrarnaDeck(seed)), seed).toEqual({
        won: o.won,
        built: o.built,
        left: o.left,
      })
    }
    // And on decks stacked to go far: every other card from a deck in foundation order.
    for (let g = 0; g < 50; g++) {
      const sorted = sortedDeck()
      const deck = sorted.map((c, i) => (i % 2 === 0 && rng.float() < 0.9 ? c : -1))
      const rest = rng.shuffle(sorted.filter((c) => !deck.includes(c)))
      const full = deck.map((c) => (c === -1 ? rest.pop()! : c))
      const o = herrarna.outcome(herrarnaRunToEnd(herrarna.setup({}, 1, { deck: full })))!
      expect(herrarnaFast(full)).toEqual({ won: o.won, built: o.built, left: o.left })
    }
  })
})
