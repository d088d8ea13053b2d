import { describe, expect, it } from 'vitest'
import type { AcesUpMove, AcesUpPiles, AcesUpView } from '../src/aces-up.ts'
import { fullDeck, parseCards } from '../src/cards.ts'
import {
  type DuelHiddenGame,
  type DuelOptions,
  type DuelPlayer,
  type DuelState,
  type DuelView,
  duel,
  gamePoints,
  pointsKombinerad,
  pointsKortKvar,
  type Scoring,
  withBest,
} from '../src/duel.ts'
import type { Seat } from '../src/game.ts'
import { Rng } from '../src/rng.ts'

import { cardsIn, deepFreeze, parseMove } from './aces-up-helpers.ts'

// ---------------------------------------------------------------------------------------------
// Helpers

const withDeck = (opts: DuelOptions, deck: string): DuelState =>
  duel.setup(opts, 2, { deck: parseCards(deck) })
const withDeckAlone = (deck: string, opts: DuelOptions = {}): DuelState =>
  duel.setup(opts, 1, { deck: parseCards(deck) })

/** Applies a move to a deep-frozen state (a mutation would throw) and expects it to succeed. */
function play(s: DuelState, seat: Seat, m: AcesUpMove): DuelState {
  const before = JSON.stringify(s)
  const r = duel.apply(deepFreeze(s), seat, m)
  if (!r.ok) throw new Error(`${seat}: ${JSON.stringify(m)} refused: ${r.error.code}`)
  expect(JSON.stringify(s)).toBe(before)
  return r.value
}

const run = (s: DuelState, seat: Seat, moves: string): DuelState =>
  moves
    .split(/\s+/)
    .filter((t) => t.length > 0)
    .reduce((acc, t) => play(acc, seat, parseMove(t)), s)

function refuse(s: DuelState, seat: Seat, m: unknown, code: string): void {
  const before = JSON.stringify(s)
  const r = duel.apply(deepFreeze(s), seat, m as AcesUpMove)
  expect(r.ok, `${JSON.stringify(m)} by ${seat} should be refused`).toBe(false)
  if (!r.ok) {
    expect(r.error.code).toBe(code)
    expect(r.error.message.length).toBeGreaterThan(0)
  }
  expect(JSON.stringify(s)).toBe(before)
}

/** Plays `seat`'s current game to its end: discards first ('greedy') or only deals ('deal'). */
function finishGame(s: DuelState, seat: 0 | 1, policy: 'greedy' | 'deal' = 'greedy'): DuelState {
  const n = s.players[seat]!.results.length
  let g = s
  for (let i = 0; i < 1000 && g.players[seat]!.results.length === n; i++) {
    const moves = duel.legalMoves(g, seat)
    const m =
      (policy === 'greedy' ? moves.find((x) => x.type === 'discard') : undefined) ??
      moves.find((x) => x.type === 'deal') ??
      moves.find((x) => x.type === 'finish')
    g = play(g, seat, m!)
  }
  expect(g.players[seat]!.results).toHaveLength(n + 1)
  return g
}

const strip = (x: unknown): unknown =>
  JSON.parse(JSON.stringify(x, (k, v: unknown) => (k === 'viewer' ? undefined : v)))

const isHidden = (x: unknown): x is DuelHiddenGame =>
  typeof x === 'object' && x !== null && 'hidden' in x

const currentView = (v: DuelView, owner: 0 | 1): AcesUpView => {
  const c = v.players[owner]!.current
  if (c === null || isHidden(c)) throw new Error(`player ${owner}'s game is not visible`)
  return c
}

/** The same match with every order nobody has seen yet reversed: current stocks, later decks. */
function reverseHidden(s: DuelState): DuelState {
  const decks = s.decks.map((ds) => ds.slice())
  const players = s.players.map((p, seat): DuelPlayer => {
    const n = p.results.length
    for (let i = p.current ? n + 1 : n; i < decks[seat]!.length; i++) {
      decks[seat]![i] = decks[seat]![i]!.slice().reverse()
    }
    const g = p.current
    if (!g) return p
    const stock = g.stock.slice().reverse()
    const deck = g.deck.slice(0, g.deck.length - g.stock.length).concat(stock)
    decks[seat]![n] = deck
    return { ...p, current: { ...g, stock, deck } }
  })
  return {
    ...s,
    players: players as unknown as DuelState['players'],
    decks: decks as unknown as DuelState['decks'],
  }
}

/**
 * a view shows nothing of an order nobody has seen: each visible current game mentions
 * only its table and discard heap, and the view stays the same when every unseen order changes.
 */
function expectNoStockLeak(s: DuelState): void {
  const other = reverseHidden(s)
  for (const viewer of [0, 1, 'spectator'] as const) {
    const v = duel.view(s, viewer)
    for (const owner of [0, 1] as const) {
      const c = v.players[owner]!.current
      const g = s.players[owner]!.current
      if (c === null || isHidden(c) || g === null) continue
      const seen = new Set([...g.piles.flat(), ...g.discard])
      expect(cardsIn(c).filter((card) => !seen.has(card))).toEqual([])
      expect(c.deck).toBeNull()
    }
    expect(JSON.stringify(duel.view(other, viewer))).toBe(JSON.stringify(v))
  }
}

/** 4 aces and the 12 other clubs: each line of play below gives a known result. */
const CLUBS = 'AC AD AH AS 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC'
const GREEDY = 'deal d0 d1 d2 d3 '
const LINES = {
  /** Won: 4 left, 4 free aces. */
  won: `${GREEDY}${GREEDY}${GREEDY}`,
  /** 5 left (the king of clubs on the ace of spades), 3 free aces. */
  five: `${GREEDY}${GREEDY}deal d0 d1 d2 finish`,
  /** 8 left, no free ace. */
  eight: `${GREEDY}${GREEDY}deal finish`,
  /** 12 left, no free ace. */
  twelve: `${GREEDY}deal deal finish`,
  /** 16 left, no free ace. */
  sixteen: 'deal deal deal finish',
} as const
type Line = keyof typeof LINES
/** left, free aces, and the points of each scoring. */
const RESULTS: Record<Line, [number, number, Record<Scoring, number>]> = {
  won: [4, 4, { 'kort-kvar': 0, ess: 4, kombinerad: 4 }],
  five: [5, 3, { 'kort-kvar': 1, ess: 3, kombinerad: 2 }],
  eight: [8, 0, { 'kort-kvar': 1, ess: 0, kombinerad: -4 }],
  twelve: [12, 0, { 'kort-kvar': 2, ess: 0, kombinerad: -8 }],
  sixteen: [16, 0, { 'kort-kvar': 3, ess: 0, kombinerad: -12 }],
}

/** A simultaneous match on CLUBS in which each player plays the given lines, in turn. */
function match(scoring: Scoring, lines: readonly [readonly Line[], readonly Line[]]): DuelState {
  let s = withDeck({ games: lines[0].length, scoring }, CLUBS)
  for (let n = 0; n < lines[0].length; n++) {
    for (const seat of [0, 1] as const) {
      s = run(s, seat, LINES[lines[seat][n]!])
      expect(s.players[seat]!.results).toHaveLength(n + 1)
    }
  }
  expect(s.over).toBe(true)
  return s
}

// ---------------------------------------------------------------------------------------------

describe('Idioten för två: the match', () => {
  it('[A-10] a match is 1–20 games per player; anything else is refused at setup', () => {
    for (const games of [1, 5, 10, 20]) {
      const s = duel.setup({ games }, 2, { seed: `games-${games}` })
      expect(s.settings.games).toBe(games)
      expect(s.decks[0]).toHaveLength(games)
      expect(s.decks[1]).toHaveLength(games)
    }
    expect(duel.setup({}, 2, { seed: 'default' }).settings).toEqual({
      games: 5,
      scoring: 'kort-kvar',
      piles: [4, 4],
      sameDeal: false,
      mode: 'simultaneous',
      undo: 'none',
    })
    for (const games of [0, 21, -1, 2.5, Number.NaN, 100]) {
      expect(() => duel.setup({ games }, 2, { seed: 'x' }), String(games)).toThrow(RangeError)
    }
    // One seat is Idioten alone; zero or three are no table of this game.
    expect(() => duel.setup({}, 0, { seed: 'x' })).toThrow(RangeError)
    expect(() => duel.setup({}, 3, { seed: 'x' })).toThrow(RangeError)
    const bad: DuelOptions[] = [
      { scoring: 'most' as Scoring },
      { mode: 'turns' as DuelOptions['mode'] },
      { undo: 'always' as DuelOptions['undo'] },
      { piles: [3, 4] as unknown as [AcesUpPiles, AcesUpPiles] },
      { piles: [4] as unknown as [AcesUpPiles, AcesUpPiles] },
      { piles: [8, 4], sameDeal: true },
    ]
    for (const opts of bad) {
      expect(() => duel.setup(opts, 2, { seed: 'x' }), JSON.stringify(opts)).toThrow(RangeError)
    }
    expect(() => duel.setup({}, 2, { deck: [0, 0] })).toThrow(RangeError)
    expect(() => duel.setup({}, 2, { deck: parseCards("AS TH'") })).toThrow(RangeError)
  })

  it('[A-10] every game is a fresh shuffle, different for the two players', () => {
    const s = duel.setup({ games: 10 }, 2, { seed: 'fresh' })
    const orders = new Set([...s.decks[0], ...s.decks[1]!].map((d) => d.join()))
    expect(orders.size).toBe(20)
    for (const d of [...s.decks[0], ...s.decks[1]!]) {
      expect(d.slice().sort((a, b) => a - b)).toEqual(fullDeck())
    }
    // The same seed deals the same match.
    expect(duel.setup({ games: 10 }, 2, { seed: 'fresh' }).decks).toEqual(s.decks)
    expect(duel.setup({ games: 10 }, 2, { seed: 'other' }).decks).not.toEqual(s.decks)
    expect(s.players[0].current!.deck).toEqual(s.decks[0][0])
    expect(s.players[1]!.current!.deck).toEqual(s.decks[1]![0])
  })

  it('[A-10] simultaneous: both play at once, in any order, and neither affects the other', () => {
    let s = duel.setup({ games: 2 }, 2, { seed: 'both' })
    expect(s.turn).toBeNull()
    expect(duel.activeSeats(s)).toEqual([0, 1])
    expect(duel.legalMoves(s, 0).length).toBeGreaterThan(0)
    expect(duel.legalMoves(s, 1).length).toBeGreaterThan(0)
    const p0 = s.players[0]
    s = play(s, 1, { type: 'deal' })
    expect(s.players[0]).toBe(p0)
    expect(s.players[1]!.current!.deals).toBe(1)
    const p1 = s.players[1]
    s = play(s, 0, { type: 'deal' })
    expect(s.players[1]).toBe(p1)
    expect(s.moves).toBe(2)
    // Player 0 plays both games while player 1 is still in the first.
    s = finishGame(finishGame(s, 0), 0)
    expect(s.players[0].current).toBeNull()
    expect(s.over).toBe(false)
    expect(duel.activeSeats(s)).toEqual([1])
    expect(duel.legalMoves(s, 0)).toEqual([])
    refuse(s, 0, { type: 'deal' }, 'MATCH_OVER')
    s = finishGame(finishGame(s, 1), 1)
    expect(s.over).toBe(true)
    expect(duel.activeSeats(s)).toEqual([])
    refuse(s, 0, { type: 'deal' }, 'MATCH_OVER')
    refuse(s, 1, { type: 'finish' }, 'MATCH_OVER')
    expect(s.players[0].results.map((r) => r.index)).toEqual([0, 1])
    expect(s.players[0].results.map((r) => r.deck)).toEqual(s.decks[0])
    expect(s.players[1]!.results.map((r) => r.deck)).toEqual(s.decks[1])
  })

  it('[A-10] alternating ("växelvis"): 0 plays game n, then 1 plays game n, then 0 plays game n+1', () => {
    // Each game: pile 0's king goes by the ace of spades, pile 2's two by the ace of hearts.
    let s = withDeck({ games: 2, mode: 'alternating' }, 'KS AS 2H AH')
    const expectTurn = (seat: 0 | 1, game: number): void => {
      const other = (1 - seat) as 0 | 1
      expect(s.turn).toBe(seat)
      expect(duel.activeSeats(s)).toEqual([seat])
      expect(s.players[seat]!.results).toHaveLength(game)
      expect(s.players[seat]!.current).not.toBeNull()
      expect(s.players[other]!.current).toBeNull()
      expect(duel.legalMoves(s, other)).toEqual([])
      refuse(s, other, { type: 'finish' }, 'NOT_YOUR_TURN')
      refuse(s, other, { type: 'discard', pile: 0 }, 'NOT_YOUR_TURN')
    }
    expectTurn(0, 0)
    s = run(s, 0, 'd0')
    expectTurn(0, 0)
    s = run(s, 0, 'd2')
    expect(s.players[0].results[0]).toMatchObject({ index: 0, left: 2, won: true })
    expectTurn(1, 0)
    s = run(s, 1, 'finish')
    expect(s.players[1]!.results[0]).toMatchObject({ index: 0, left: 4, won: false })
    expectTurn(0, 1)
    s = run(s, 0, 'finish')
    expectTurn(1, 1)
    s = run(s, 1, 'd2 d0')
    expect(s.over).toBe(true)
    expect(s.turn).toBeNull()
    expect(duel.activeSeats(s)).toEqual([])
    refuse(s, 0, { type: 'finish' }, 'MATCH_OVER')
    refuse(s, 1, { type: 'finish' }, 'MATCH_OVER')
  })

  it('[A-10] refuses bad seats and malformed moves without changing the state', () => {
    const s = duel.setup({ games: 1 }, 2, { seed: 'bad' })
    refuse(s, 2, { type: 'deal' }, 'NOT_A_SEAT')
    refuse(s, -1, { type: 'deal' }, 'NOT_A_SEAT')
    expect(duel.legalMoves(s, 2)).toEqual([])
    refuse(s, 0, null, 'BAD_MOVE')
    refuse(s, 0, { type: 'shuffle' }, 'BAD_MOVE')
    refuse(s, 1, { type: 'finish' }, 'STOCK_NOT_EMPTY')
    refuse(s, 1, { type: 'discard', pile: 9 }, 'BAD_PILE')
  })

  it('[A-10] a layout that ends at once is recorded at setup, up to the end of the match', () => {
    const s = withDeck({ games: 3 }, '2C 3D 4H 5S')
    expect(s.over).toBe(true)
    expect(s.players[0].results.map((r) => r.left)).toEqual([4, 4, 4])
    expect(duel.outcome(s)).toMatchObject({ winner: null, decidedBy: 'draw' })
    const alt = withDeck({ games: 3, mode: 'alternating' }, '2C 3D 4H 5S')
    expect(alt.over).toBe(true)
    expect(alt.players[1]!.results).toHaveLength(3)
  })

  it('[A-10] seeded random matches: legal moves apply without mutating the state', () => {
    const opts: DuelOptions[] = [
      { games: 2 },
      { games: 2, mode: 'alternating', sameDeal: true },
      { games: 2, piles: [5, 4], undo: 'both', scoring: 'kombinerad' },
      { games: 1, piles: [8, 8], sameDeal: true, scoring: 'ess' },
    ]
    opts.forEach((o, k) => {
      const rng = Rng.seeded(`duel-playout-${k}`)
      let s = duel.setup(o, 2, { seed: `duel-${k}` })
      for (let step = 0; step < 2000 && !s.over; step++) {
        deepFreeze(s)
        const seats = duel.activeSeats(s)
        expect(seats.length).toBeGreaterThan(0)
        for (const seat of [0, 1] as const) {
          const moves = duel.legalMoves(s, seat)
          expect(moves.length > 0).toBe(seats.includes(seat))
          expect(moves.filter((m) => !duel.apply(s, seat, m).ok)).toEqual([])
        }
        if (step % 25 === 0) expectNoStockLeak(s)
        const seat = rng.pick(seats) as 0 | 1
        const moves = duel.legalMoves(s, seat)
        const useful = moves.filter(
          (m) =>
            m.type === 'discard' ||
            (m.type === 'move' && s.players[seat]!.current!.piles[m.from]!.length > 1),
        )
        s = play(s, seat, rng.pick(useful.length > 0 && rng.float() < 0.7 ? useful : moves))
      }
      expect(s.over).toBe(true)
      expect(s.players[0].results).toHaveLength(o.games!)
      expect(s.players[1]!.results).toHaveLength(o.games!)
    })
  })
})

describe('Idioten alone (A-17)', () => {
  it('[A-17] a table for one: one player, own decks, no turns; three seats or a shared deal are refused', () => {
    const s = duel.setup({ games: 3, piles: [5, 4] }, 1, { seed: 'alone' })
    expect(s.players).toHaveLength(1)
    expect(s.decks).toHaveLength(1)
    expect(s.decks[0]).toHaveLength(3)
    expect(s.turn).toBeNull()
    expect(s.players[0].current!.pileCount).toBe(5)
    expect(duel.activeSeats(s)).toEqual([0])
    // The same seed deals seat 0 the same games alone as in a match.
    expect(s.decks[0]).toEqual(
      duel.setup({ games: 3, piles: [5, 4] }, 2, { seed: 'alone' }).decks[0],
    )
    expect(() => duel.setup({}, 3, { seed: 'x' })).toThrow(RangeError)
    expect(() => duel.setup({}, 0, { seed: 'x' })).toThrow(RangeError)
    expect(() => duel.setup({ mode: 'alternating' }, 1, { seed: 'x' })).toThrow(RangeError)
    expect(() => duel.setup({ sameDeal: true }, 1, { seed: 'x' })).toThrow(RangeError)
  })

  it('[A-17] only seat 0 plays; a second seat is refused and has no moves', () => {
    const s = duel.setup({ games: 1 }, 1, { seed: 'alone-seat' })
    refuse(s, 1, { type: 'deal' }, 'NOT_A_SEAT')
    expect(duel.legalMoves(s, 1)).toEqual([])
    expect(duel.legalMoves(s, 0).length).toBeGreaterThan(0)
  })

  it('[A-17] the series ends after its games with totals and no winner', () => {
    let s = duel.setup({ games: 2, scoring: 'kombinerad' }, 1, { seed: 'alone-end' })
    s = finishGame(s, 0)
    expect(s.over).toBe(false)
    expect(s.players[0].current).not.toBeNull()
    expect(duel.outcome(s)).toBeUndefined()
    s = finishGame(s, 0)
    expect(s.over).toBe(true)
    expect(duel.activeSeats(s)).toEqual([])
    const [a, b] = s.players[0].results
    const o = duel.outcome(s)!
    expect(o.winner).toBeNull()
    expect(o.decidedBy).toBe('alone')
    expect(o.totals).toEqual([{ points: a!.points + b!.points, left: a!.left + b!.left, games: 2 }])
    refuse(s, 0, { type: 'deal' }, 'MATCH_OVER')
  })

  it('[A-17] [A-15] a spectator sees the one table as the player does, without the stock', () => {
    const s = run(withDeckAlone('2C 3C 4D 5H 6S 7C'), 0, 'd0')
    const mine = duel.view(s, 0)
    const theirs = duel.view(s, 'spectator')
    expect(theirs.players).toHaveLength(1)
    expect(strip(theirs)).toEqual(strip(mine))
    for (const c of parseCards('6S 7C')) expect(cardsIn(theirs)).not.toContain(c)
    expect(theirs.players[0].current).toMatchObject({ stockCount: 2, discard: parseCards('2C') })
  })
})

describe('Idioten för två: scoring', () => {
  it('[A-11] "kort kvar": 4 left → 0, 5–8 → 1, 9–14 → 2, 15 or more → 3', () => {
    const expected = (left: number): number => (left <= 4 ? 0 : left <= 8 ? 1 : left <= 14 ? 2 : 3)
    for (let left = 4; left <= 52; left++) {
      expect(pointsKortKvar(left), String(left)).toBe(expected(left))
      expect(gamePoints('kort-kvar', left, 0, 4)).toBe(expected(left))
    }
    expect([4, 5, 8, 9, 14, 15, 52].map((l) => pointsKortKvar(l))).toEqual([0, 1, 1, 2, 2, 3, 3])
  })

  it('[A-11] with two decks the table counts the cards beyond the eight aces: 0, 1–4, 5–10, 11+', () => {
    const expected = (beyond: number): number =>
      beyond <= 0 ? 0 : beyond <= 4 ? 1 : beyond <= 10 ? 2 : 3
    for (let left = 8; left <= 104; left++) {
      expect(pointsKortKvar(left, 8), String(left)).toBe(expected(left - 8))
    }
    expect([8, 9, 12, 13, 18, 19].map((l) => pointsKortKvar(l, 8))).toEqual([0, 1, 1, 2, 2, 3])
  })

  it('[A-11] a two-deck match scores with the shifted table', () => {
    const deck = "AC AD AH AS AC' AD' AH' AS' 2C 3D 4H 5S 6C' 7D' 8H' 9S'"
    let s = withDeck({ games: 1, piles: [8, 8] }, deck)
    s = run(s, 0, 'deal finish')
    s = run(s, 1, 'deal d0 d1 d2 d3 finish')
    expect(s.players[0].results[0]).toMatchObject({ piles: 8, left: 16, freeAces: 0, points: 2 })
    expect(s.players[1]!.results[0]).toMatchObject({ piles: 8, left: 12, freeAces: 4, points: 1 })
    expect(duel.outcome(s)).toMatchObject({ winner: 1, decidedBy: 'points' })
    const k = run(
      run(withDeck({ games: 1, piles: [8, 8], scoring: 'kombinerad' }, deck), 0, 'deal finish'),
      1,
      'deal d0 d1 d2 d3 finish',
    )
    expect(k.players.map((p) => p.results[0]!.points)).toEqual([-8, 0])
  })

  it('[A-11] [A-12] [A-13] the three scorings on the same results', () => {
    for (const line of Object.keys(LINES) as Line[]) {
      const [left, free, points] = RESULTS[line]
      for (const scoring of ['kort-kvar', 'ess', 'kombinerad'] as const) {
        const s = match(scoring, [[line], ['won']])
        const r = s.players[0].results[0]!
        expect(r.left, line).toBe(left)
        expect(r.freeAces, line).toBe(free)
        expect(r.won, line).toBe(line === 'won')
        expect(r.points, `${line} ${scoring}`).toBe(points[scoring])
        expect(r.final.flat()).toHaveLength(left)
      }
    }
  })

  it('[A-11] "kort kvar": lowest total wins; equal totals go to fewer cards left, else a draw', () => {
    const byPoints = duel.outcome(
      match('kort-kvar', [
        ['won', 'five'],
        ['eight', 'eight'],
      ]),
    )
    expect(byPoints).toEqual({
      totals: [
        { points: 1, left: 9, games: 2 },
        { points: 2, left: 16, games: 2 },
      ],
      winner: 0,
      decidedBy: 'points',
    })
    const byCards = duel.outcome(
      match('kort-kvar', [
        ['won', 'sixteen'],
        ['five', 'twelve'],
      ]),
    )
    expect(byCards).toMatchObject({ winner: 1, decidedBy: 'cards-left' })
    expect(byCards!.totals.map((t) => [t.points, t.left])).toEqual([
      [3, 20],
      [3, 17],
    ])
    const draw = duel.outcome(
      match('kort-kvar', [
        ['won', 'sixteen'],
        ['twelve', 'eight'],
      ]),
    )
    expect(draw).toMatchObject({ winner: null, decidedBy: 'draw' })
    expect(draw!.totals.map((t) => [t.points, t.left])).toEqual([
      [3, 20],
      [3, 20],
    ])
  })

  it('[A-12] "ess": one point per free ace, highest total wins', () => {
    const s = match('ess', [
      ['won', 'sixteen'],
      ['five', 'twelve'],
    ])
    expect(s.players[0].results.map((r) => r.points)).toEqual([4, 0])
    expect(s.players[1]!.results.map((r) => r.points)).toEqual([3, 0])
    expect(duel.outcome(s)).toMatchObject({ winner: 0, decidedBy: 'points' })
    // Equal aces: the cards left decide.
    const tie = duel.outcome(
      match('ess', [
        ['eight', 'sixteen'],
        ['twelve', 'eight'],
      ]),
    )
    expect(tie).toMatchObject({ winner: 1, decidedBy: 'cards-left' })
  })

  it('[A-13] "kombinerad": +1 per free ace, −1 per card beyond the aces, a won game scores 4', () => {
    expect(pointsKombinerad(4, 4)).toBe(4)
    expect(pointsKombinerad(3, 5)).toBe(2)
    expect(pointsKombinerad(0, 16)).toBe(-12)
    expect(pointsKombinerad(8, 8, 8)).toBe(8)
    expect(gamePoints('kombinerad', 4, 4, 4)).toBe(4)
    const s = match('kombinerad', [
      ['won', 'sixteen'],
      ['five', 'twelve'],
    ])
    expect(s.players.map((p) => p.results.map((r) => r.points))).toEqual([
      [4, -12],
      [2, -8],
    ])
    expect(duel.outcome(s)).toMatchObject({ winner: 1, decidedBy: 'points' })
  })

  it('[A-13] a game won with two aces in one pile still scores 4', () => {
    // The game is won (only the aces remain) when the player ends it before moving the ace.
    let s = withDeck({ games: 1, scoring: 'kombinerad' }, 'AC AD AH 2S AS')
    s = run(s, 0, 'deal d3 finish')
    s = run(s, 1, 'deal d3 m0>3')
    const [stacked, spread] = [s.players[0].results[0]!, s.players[1]!.results[0]!]
    expect(stacked).toMatchObject({ left: 4, won: true, freeAces: 3 })
    expect(spread).toMatchObject({ left: 4, won: true, freeAces: 4 })
    expect(stacked.points).toBe(4)
    expect(spread.points).toBe(4)
  })

  it('[A-11] running totals grow with every finished game', () => {
    let s = withDeck({ games: 3 }, CLUBS)
    const lines: Line[] = ['five', 'won', 'sixteen']
    let points = 0
    let left = 0
    lines.forEach((line, n) => {
      s = run(s, 0, LINES[line])
      points += RESULTS[line][2]['kort-kvar']
      left += RESULTS[line][0]
      for (const viewer of [0, 1, 'spectator'] as const) {
        expect(duel.view(s, viewer).players[0].totals).toEqual({ points, left, games: n + 1 })
        expect(duel.view(s, viewer).players[1]!.totals).toEqual({ points: 0, left: 0, games: 0 })
      }
      expect(duel.view(s, 'spectator').outcome).toBeNull()
    })
    expect(s.over).toBe(false)
  })

  it('[A-16] withBest attaches the best possible result to a finished game', () => {
    const s = deepFreeze(run(withDeck({ games: 2 }, CLUBS), 0, LINES.eight))
    expect(s.players[0].results[0]!.best).toBeNull()
    const t = withBest(s, 0, 0, { best: 4, proven: 'all' })
    expect(t.players[0].results[0]!.best).toEqual({ best: 4, proven: 'all' })
    expect(t.players[0].results[0]!.left).toBe(8)
    expect(t.players[1]).toBe(s.players[1])
    expect(s.players[0].results[0]!.best).toBeNull()
    const r = duel.view(t, 'spectator').players[0].results[0]
    expect(r).toMatchObject({ index: 0, best: { best: 4, proven: 'all' } })
    expect(withBest(s, 0, 1, { best: 4, proven: 'closed' })).toBe(s)
    expect(withBest(s, 1, 0, { best: 4, proven: 'closed' })).toBe(s)
    expect(withBest(s, 2, 0, { best: 4, proven: 'closed' })).toBe(s)
    // "No proof follows" is kept on an upper bound, and dropped from a proven figure.
    const bound = { best: 6, proven: 'closed', gaveUp: true } as const
    expect(withBest(s, 0, 0, bound).players[0].results[0]!.best).toEqual(bound)
    const exact = withBest(s, 0, 0, { best: 5, proven: 'all', gaveUp: true })
    expect(exact.players[0].results[0]!.best).toEqual({ best: 5, proven: 'all' })
  })
})

describe('Idioten för två: handicap and information', () => {
  it('[A-14] the number of piles is set per player', () => {
    let s = duel.setup({ games: 1, piles: [5, 4] }, 2, { seed: 'handicap' })
    expect(s.players[0].current!.piles).toHaveLength(5)
    expect(s.players[1]!.current!.piles).toHaveLength(4)
    expect(s.players[0].current!.stock).toHaveLength(47)
    const v = duel.view(s, 'spectator')
    expect(currentView(v, 0).pileCount).toBe(5)
    expect(currentView(v, 1).pileCount).toBe(4)
    s = finishGame(finishGame(s, 0, 'deal'), 1, 'deal')
    expect(s.players[0].results[0]!.piles).toBe(5)
    expect(s.players[1]!.results[0]!.piles).toBe(4)
    expect(s.players[0].results[0]!.final.map((p) => p.length)).toEqual([11, 11, 10, 10, 10])
    const t = duel.setup({ games: 1, piles: [4, 5], sameDeal: true }, 2, { seed: 'handicap' })
    expect(t.decks[0][0]).toEqual(t.decks[1]![0])
    expect(t.players[1]!.current!.piles).toHaveLength(5)
  })

  it('[A-15] same deal: both players get the identical order in their n-th game', () => {
    const s = duel.setup({ games: 5, sameDeal: true }, 2, { seed: 'same' })
    for (let n = 0; n < 5; n++) expect(s.decks[1]![n]).toEqual(s.decks[0][n])
    expect(new Set(s.decks[0].map((d) => d.join())).size).toBe(5)
    expect(s.players[1]!.current!.piles).toEqual(s.players[0].current!.piles)
    const t = finishGame(finishGame(s, 0), 1)
    expect(t.players[0].results[0]!.deck).toEqual(t.players[1]!.results[0]!.deck)
    expect(t.players[0].current!.deck).toEqual(t.players[1]!.current!.deck)
  })

  it("[A-15] same deal: a player cannot see the opponent's n-th game before finishing their own, nor can a spectator", () => {
    let s = duel.setup({ games: 2, sameDeal: true }, 2, { seed: 'hidden' })
    s = run(s, 0, 'deal deal')
    let v1 = duel.view(s, 1)
    expect(v1.players[0].current).toEqual({ hidden: true, index: 0, deals: 2 })
    expect(JSON.stringify(v1.players[0])).not.toContain('piles')
    // Player 0 has not finished game 0 either: player 1's game is hidden from them too.
    expect(duel.view(s, 0).players[1]!.current).toEqual({ hidden: true, index: 0, deals: 0 })
    // Moves in the hidden game change only its deal count in the opponent's view.
    const next = run(s, 0, 'deal')
    const without = (v: DuelView): unknown => strip({ ...v, players: [null, v.players[1]] })
    expect(without(duel.view(next, 1))).toEqual(without(v1))
    // Player 0 finishes game 0 and is on game 1: record, totals and current game stay hidden.
    s = finishGame(s, 0)
    v1 = duel.view(s, 1)
    expect(v1.players[0].results).toEqual([{ hidden: true, index: 0, deals: null }])
    expect(v1.players[0].totals).toEqual({ points: 0, left: 0, games: 0 })
    expect(v1.players[0].current).toMatchObject({ hidden: true, index: 1 })
    // Player 0, having finished game 0, sees player 1's game 0 live.
    const v0 = duel.view(s, 0)
    expect(currentView(v0, 1).piles).toEqual(s.players[1]!.current!.piles)
    // A spectator (who could be player 1 in a second tab) sees no more than player 1 …
    let vs = duel.view(s, 'spectator')
    expect(vs.players[0].results[0]).toEqual({ hidden: true, index: 0, deals: null })
    expect(vs.players[0].current).toMatchObject({ hidden: true, index: 1 })
    // … and no more than player 0: player 1's game 0, which player 0 has finished, is live.
    expect(currentView(vs, 1).piles).toEqual(s.players[1]!.current!.piles)
    // Player 1 finishes game 0: player 0's game 0 becomes visible, game 1 stays hidden.
    s = finishGame(s, 1)
    v1 = duel.view(s, 1)
    expect(v1.players[0].results[0]).toEqual(s.players[0].results[0])
    vs = duel.view(s, 'spectator')
    expect(vs.players[0].results[0]).toEqual(s.players[0].results[0])
    expect(vs.players[0].totals.games).toBe(1)
    expect(v1.players[0].totals).toEqual(vs.players[0].totals)
    expect(v1.players[0].current).toMatchObject({ hidden: true, index: 1 })
    // The end of the match shows everything to everyone.
    s = finishGame(finishGame(s, 0), 1)
    expect(s.over).toBe(true)
    expect(strip(duel.view(s, 0))).toEqual(strip(duel.view(s, 'spectator')))
    expect(strip(duel.view(s, 1))).toEqual(strip(duel.view(s, 'spectator')))
  })

  it('[A-15] same deal: a move other than a deal in a hidden game changes nothing the opponent or a spectator sees, not even a count', () => {
    for (const mode of ['simultaneous', 'alternating'] as const) {
      let s = duel.setup({ games: 2, sameDeal: true, mode }, 2, { seed: `quiet-${mode}` })
      let quiet = 0
      for (let i = 0; i < 200 && s.players[0].results.length === 0; i++) {
        const moves = duel.legalMoves(s, 0)
        const m =
          moves.find((x) => x.type === 'discard' || x.type === 'move') ??
          moves.find((x) => x.type === 'deal') ??
          moves.find((x) => x.type === 'finish')!
        const next = play(s, 0, m)
        if (m.type === 'discard' || m.type === 'move') {
          // The game is hidden from seat 1 and spectators: their views are the same as before.
          expect(duel.view(next, 1), `${mode} ${JSON.stringify(m)}`).toEqual(duel.view(s, 1))
          expect(duel.view(next, 'spectator')).toEqual(duel.view(s, 'spectator'))
          quiet++
        }
        s = next
      }
      expect(quiet).toBeGreaterThan(10)
    }
  })

  it('[A-15] same deal, alternating: the watcher sees the game only once they have played it', () => {
    let s = duel.setup({ games: 2, sameDeal: true, mode: 'alternating' }, 2, { seed: 'alt' })
    s = run(s, 0, 'deal')
    expect(duel.view(s, 1).players[0].current).toEqual({ hidden: true, index: 0, deals: 1 })
    expect(duel.view(s, 'spectator').players[0].current).toEqual({
      hidden: true,
      index: 0,
      deals: 1,
    })
    s = finishGame(s, 0)
    expect(currentView(duel.view(s, 'spectator'), 1).piles).toEqual(s.players[1]!.current!.piles)
    // Player 1 now plays game 0, which player 0 has finished and may watch.
    expect(currentView(duel.view(s, 0), 1).piles).toEqual(s.players[1]!.current!.piles)
    expect(duel.view(s, 1).players[0].results[0]).toMatchObject({ hidden: true })
  })

  it('[A-15] without same deal both tables are public: every viewer gets the same view', () => {
    let s = duel.setup({ games: 2 }, 2, { seed: 'public' })
    for (const step of ['deal', 'deal']) {
      s = run(s, 0, step)
      s = run(s, 1, step)
    }
    s = finishGame(s, 0)
    const spectator = strip(duel.view(s, 'spectator'))
    expect(strip(duel.view(s, 0))).toEqual(spectator)
    expect(strip(duel.view(s, 1))).toEqual(spectator)
    const v = duel.view(s, 1)
    expect(v.viewer).toBe(1)
    expect(currentView(v, 0).viewer).toBe(1)
    expect(v.players[0].results[0]).toEqual(s.players[0].results[0])
  })

  it('[A-15] the stock order never reaches a view; a deck only once its game is over', () => {
    for (const opts of [
      { games: 2 },
      { games: 2, sameDeal: true },
      { games: 2, mode: 'alternating' as const },
      { games: 2, piles: [8, 5] as const },
    ]) {
      let s = duel.setup(opts, 2, { seed: 'leak' })
      expectNoStockLeak(s)
      s = run(s, 0, 'deal deal')
      expectNoStockLeak(s)
      s = finishGame(s, 0)
      expectNoStockLeak(s)
      const seat = s.turn ?? 1
      s = run(s, seat, 'deal')
      expectNoStockLeak(s)
      const v = duel.view(s, 'spectator')
      // With the same deal a spectator waits until player 1 has played game 0 too.
      expect(v.players[0].results[0]).toMatchObject(
        opts.sameDeal ? { hidden: true } : { deck: s.decks[0][0] },
      )
      expect(JSON.stringify(v)).not.toContain('"stock"')
    }
  })
})
