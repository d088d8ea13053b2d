import { expect } from 'vitest'
import {
  type Card,
  type IdiotMove,
  type IdiotState,
  type IdiotView,
  idiot,
  idiotGreedy,
  type Rng,
  type Seat,
  type Viewer,
} from '../src/index.ts'
import { allCards } from './idiot-helpers.ts'
import { type PlayoutSpec, type PlayoutStats, permuteWithin, playout } from './playout.ts'

const key = (m: IdiotMove): string => {
  if (m.type === 'play') {
    return Array.isArray(m.cards)
      ? `play:${m.cards
          .slice()
          .sort((a, b) => a - b)
          .join(',')}`
      : 'bad'
  }
  if (m.type === 'swap') return `swap:${m.hand}:${m.faceUp}`
  return m.type
}

/**
 * Random play mixed with the greedy player (uniformly random players pick up so often that games
 * run to thousands of moves): half the turns greedy, the rest a random play, and a voluntary
 * pick-up now and then.
 */
function choose(s: IdiotState, rng: Rng): { seat: Seat; move: IdiotMove } | null {
  const active = idiot.activeSeats(s)
  if (active.length === 0) return null
  const seat = rng.pick(active)
  const moves = idiot.legalMoves(s, seat)
  if (s.phase === 'swap') {
    return { seat, move: rng.float() < 0.35 ? { type: 'ready' } : rng.pick(moves) }
  }
  const plays = moves.filter((m) => m.type === 'play')
  if (rng.float() < 0.5) return { seat, move: idiotGreedy(idiot.view(s, seat), moves, rng) }
  if (plays.length === 0 || (s.pile.length > 0 && rng.float() < 0.05)) {
    return { seat, move: moves.find((m) => m.type === 'pickup')! }
  }
  return { seat, move: rng.pick(plays) }
}

function junk(s: IdiotState, rng: Rng): { seat: Seat; move: unknown }[] {
  const seat = rng.int(s.seats + 1) - (rng.float() < 0.05 ? 1 : 0)
  const anyCard = () => rng.int(52)
  const p = s.players[Math.max(0, Math.min(s.seats - 1, seat))]!
  const mine = [...p.hand, ...p.row.flatMap((x) => (x.faceUp === null ? [] : [x.faceUp]))]
  const some = (k: number) =>
    Array.from({ length: k }, () => (mine.length && rng.float() < 0.7 ? rng.pick(mine) : anyCard()))
  return [
    { seat, move: { type: 'play', cards: some(1 + rng.int(3)) } },
    { seat: rng.int(s.seats), move: { type: 'pickup' } },
    { seat, move: { type: 'swap', hand: some(1)[0], faceUp: some(1)[0] } },
    { seat: rng.int(s.seats), move: { type: 'ready' } },
    {
      seat,
      move: rng.pick([
        { type: 'fly' },
        { type: 'play', cards: [-1] },
        { type: 'play' },
        { type: 'play', cards: [0.5] },
        null,
        'play',
      ]),
    },
  ]
}

function known(s: IdiotState, v: Viewer): Card[] {
  const out: Card[] = [...s.pile, ...s.burned]
  s.players.forEach((p, i) => {
    for (const pos of p.row) if (pos.faceUp !== null) out.push(pos.faceUp)
    if (i === v) out.push(...p.hand)
  })
  return out
}

function rearrange(
  s: IdiotState,
  v: Viewer,
  movable: (c: Card) => boolean,
  shuffle: (cs: Card[]) => Card[],
): IdiotState {
  // The places hidden from v: other hands, every face-down card, the draw pile.
  const slots: Card[] = [...s.draw]
  s.players.forEach((p, i) => {
    if (i !== v) slots.push(...p.hand)
    for (const pos of p.row) if (pos.faceDown !== null) slots.push(pos.faceDown)
  })
  const out = permuteWithin(slots, movable, shuffle)
  let k = 0
  const draw = out.slice(0, s.draw.length)
  k = s.draw.length
  const players = s.players.map((p, i) => {
    let hand = p.hand
    if (i !== v) {
      hand = out.slice(k, k + p.hand.length)
      k += p.hand.length
    }
    const row = p.row.map((pos) => (pos.faceDown === null ? pos : { ...pos, faceDown: out[k++]! }))
    return { ...p, hand, row }
  })
  return { ...s, draw, players }
}

export function idiotSpec(seats: number): PlayoutSpec<IdiotState, IdiotMove, IdiotView> {
  return {
    game: idiot as never,
    seats,
    viewers: [...Array.from({ length: seats }, (_, i) => i), 'spectator'],
    setup: (seed) => idiot.setup({}, seats, { seed }),
    choose,
    cards: allCards,
    deckSize: 52,
    known,
    rearrange,
    junk,
    key,
    maxMoves: 3000,
  }
}

/** Plays `games` seeded games at `seats` players and checks the figures that must hold. */
export function runIdiotPlayouts(seats: number, games: number, prefix: string): PlayoutStats {
  const stats: PlayoutStats = { games: 0, moves: 0, capped: 0, junkTried: 0 }
  const spec = idiotSpec(seats)
  for (let g = 0; g < games; g++) {
    const end = playout(spec, `${prefix}-${g}`, stats)
    if (idiot.outcome(end) === undefined) continue
    const o = idiot.outcome(end)!
    expect(new Set(o.places).size).toBe(seats)
  }
  return stats
}
