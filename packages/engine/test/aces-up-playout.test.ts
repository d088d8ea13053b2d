import { describe, expect, it } from 'vitest'
import {
  type AcesUpMove,
  type AcesUpPiles,
  type AcesUpState,
  type AcesUpView,
  acesUp,
  acesUpLegalMovesFromView,
  type Card,
  type DuelMove,
  type DuelState,
  type DuelView,
  duel,
  duelLegalMovesFromView,
  type Rng,
  type Seat,
  UNDO_SETTINGS,
} from '../src/index.ts'
import { type PlayoutSpec, type PlayoutStats, permuteWithin, playout } from './playout.ts'

const keyOf = (m: AcesUpMove): string =>
  m.type === 'discard' ? `d:${m.pile}` : m.type === 'move' ? `m:${m.from}:${m.to}` : m.type

const WEIGHTS: Record<AcesUpMove['type'], number> = {
  discard: 4,
  move: 1.5,
  deal: 2,
  undo: 0.7,
  finish: 0.3,
}

/** Random moves, weighted by kind so that games end (moves between empty piles could go on for ever). */
function pickAcesUp(moves: readonly AcesUpMove[], rng: Rng): AcesUpMove {
  const kinds = [...new Set(moves.map((m) => m.type))]
  let r = rng.float() * kinds.reduce((a, k) => a + WEIGHTS[k], 0)
  let kind = kinds[0]!
  for (const k of kinds) {
    r -= WEIGHTS[k]
    if (r <= 0) {
      kind = k
      break
    }
  }
  return rng.pick(moves.filter((m) => m.type === kind))
}

function junkAcesUp(rng: Rng, seat: () => Seat): { seat: Seat; move: unknown }[] {
  return [
    { seat: seat(), move: { type: 'discard', pile: rng.int(10) - 1 } },
    { seat: seat(), move: { type: 'move', from: rng.int(9), to: rng.int(9) } },
    { seat: seat(), move: { type: rng.pick(['deal', 'finish', 'undo']) } },
    {
      seat: seat(),
      move: rng.pick([
        { type: 'discard', pile: 0.5 },
        { type: 'shuffle' },
        null,
        7,
        { type: 'move' },
      ]),
    },
  ]
}

const tableCards = (g: AcesUpState): Card[] => [...g.piles.flat(), ...g.stock, ...g.discard]

function acesUpSpec(piles: AcesUpPiles): PlayoutSpec<AcesUpState, AcesUpMove, AcesUpView> {
  return {
    game: acesUp as never,
    seats: 1,
    viewers: [0, 'spectator'],
    setup: (seed) => {
      const undo = UNDO_SETTINGS[seed.length % UNDO_SETTINGS.length]!
      return acesUp.setup({ piles, undo }, 1, { seed })
    },
    choose: (s, rng) => {
      const moves = acesUp.legalMoves(s, 0)
      // A client computes the same moves from its view.
      expect(acesUpLegalMovesFromView(acesUp.view(s, 0))).toEqual(moves)
      return moves.length === 0 ? null : { seat: 0, move: pickAcesUp(moves, rng) }
    },
    cards: tableCards,
    deckSize: piles === 8 ? 104 : 52,
    // everything dealt is public, to the player and to spectators alike.
    known: (s) => [...s.piles.flat(), ...s.discard],
    rearrange: (s, _v, movable, shuffle) => ({
      ...s,
      stock: permuteWithin(s.stock.slice(), movable, shuffle),
    }),
    junk: (_s, rng) => junkAcesUp(rng, () => (rng.float() < 0.1 ? 1 : 0)),
    key: (m) => (m && typeof m === 'object' ? keyOf(m) : 'bad'),
    maxMoves: 1000,
  }
}

describe('Aces Up playouts', () => {
  for (const piles of [4, 5, 8] as const) {
    it(`[A-15] 2,000 seeded random games with ${piles} piles keep every invariant after every move`, () => {
      const stats: PlayoutStats = { games: 0, moves: 0, capped: 0, junkTried: 0 }
      const spec = acesUpSpec(piles)
      const games = Number(process.env.N ?? 2000)
      let won = 0
      for (let g = 0; g < games; g++) {
        const end = playout(spec, `aces${piles}-${g}`, stats)
        const o = acesUp.outcome(end)
        expect(o).toBeDefined()
        expect(end.stock).toHaveLength(0)
        if (o!.won) won++
        expect(o!.left).toBeGreaterThanOrEqual(o!.aces)
      }
      console.log(
        `aces up ${piles} piles: ${stats.games} games, ${stats.moves} moves, ${won} won, ${stats.junkTried} junk moves`,
      )
      expect(stats.games).toBe(games)
      expect(stats.capped).toBe(0)
    })
  }
})

/** A match taking turns or both at once, or a series alone (A-17: one seat, no turns). */
type DuelPlay = 'simultaneous' | 'alternating' | 'alone'

function duelSpec(play: DuelPlay): PlayoutSpec<DuelState, DuelMove, DuelView> {
  const current = (s: DuelState, seat: 0 | 1) => s.players[seat]?.current ?? null
  const seats = play === 'alone' ? 1 : 2
  const mode = play === 'alone' ? 'simultaneous' : play
  return {
    game: duel as never,
    seats,
    viewers: seats === 1 ? [0, 'spectator'] : [0, 1, 'spectator'],
    setup: (seed) =>
      duel.setup(
        { games: 2, mode, piles: seed.endsWith('1') ? [5, 4] : [4, 8], undo: 'both' },
        seats,
        { seed },
      ),
    choose: (s, rng) => {
      const seats = duel.activeSeats(s)
      if (seats.length === 0) return null
      const seat = rng.pick(seats)
      expect(duelLegalMovesFromView(duel.view(s, seat))).toEqual(duel.legalMoves(s, seat))
      expect(duelLegalMovesFromView(duel.view(s, 'spectator'))).toEqual([])
      return { seat, move: pickAcesUp(duel.legalMoves(s, seat), rng) }
    },
    // Each player's current game holds a whole deck of its own; ids are offset to tell them apart.
    cards: (s) =>
      [0, 1].flatMap((seat) =>
        tableCards(
          current(s, seat as 0 | 1) ?? ({ piles: [], stock: [], discard: [] } as never),
        ).map((c) => c + 1000 * seat),
      ),
    deckSize: (s) =>
      [0, 1].reduce((n, seat) => n + (current(s, seat as 0 | 1)?.deck.length ?? 0), 0),
    known: () => [],
    rearrange: (s, _v, _movable, shuffle) => {
      // Nothing of a stock is known to anyone until dealt: shuffle every stock and every
      // future deck; the views must not change.
      const players = s.players.map((p) =>
        p.current
          ? { ...p, current: { ...p.current, stock: shuffle(p.current.stock.slice()) } }
          : p,
      ) as unknown as DuelState['players']
      const decks = s.decks.map((ds, seat) =>
        ds.map((d, i) => (i > s.players[seat as 0 | 1]!.results.length ? shuffle(d.slice()) : d)),
      ) as unknown as DuelState['decks']
      return { ...s, players, decks }
    },
    junk: (_s, rng) => junkAcesUp(rng, () => rng.int(3)),
    key: (m) => (m && typeof m === 'object' ? keyOf(m) : 'bad'),
    maxMoves: 4000,
  }
}

describe('Idioten för två playouts', () => {
  for (const play of ['simultaneous', 'alternating', 'alone'] as const) {
    const rules = play === 'alone' ? '[A-17][A-15]' : '[A-10][A-15]'
    const what = play === 'alone' ? 'series alone' : `${play} matches`
    it(`${rules} 200 seeded random ${what} keep every invariant after every move`, () => {
      const stats: PlayoutStats = { games: 0, moves: 0, capped: 0, junkTried: 0 }
      const spec = duelSpec(play)
      for (let g = 0; g < 200; g++) {
        const end = playout(spec, `duel-${play}-${g}`, stats)
        const o = duel.outcome(end)
        expect(o).toBeDefined()
        expect(o!.totals.map((t) => t.games)).toEqual(play === 'alone' ? [2] : [2, 2])
      }
      expect(stats.capped).toBe(0)
    })
  }
})
