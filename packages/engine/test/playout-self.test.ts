import { describe, expect, it } from 'vitest'
import { type IdiotState, type IdiotView, idiot } from '../src/index.ts'
import { idiotSpec } from './idiot-playout.ts'
import { type PlayoutStats, playout } from './playout.ts'

/** The playout checks must be able to fail: each mutant of the Idiot engine must be caught. */
function caught(mutant: Partial<typeof idiot>): string {
  const spec = { ...idiotSpec(3), game: { ...idiot, ...mutant } as never }
  const stats: PlayoutStats = { games: 0, moves: 0, capped: 0, junkTried: 0 }
  try {
    for (let g = 0; g < 20; g++) playout(spec, `mutant-${g}`, stats)
  } catch (e) {
    return (e as Error).message
  }
  return 'not caught'
}

type PlayerView = IdiotView['players'][number]

/** A view whose players are rewritten by `f`, which also sees the true state. */
const rewritePlayers =
  (f: (p: PlayerView, i: number, s: IdiotState) => PlayerView) =>
  (s: IdiotState, v: number | 'spectator'): IdiotView => {
    const view = idiot.view(s, v)
    return { ...view, players: view.players.map((p, i) => f(p, i, s)) }
  }

describe('the playout checks catch broken engines', () => {
  it('[I-15] a view that shows face-down cards', () => {
    const leaky = rewritePlayers((p, i, s) => ({
      ...p,
      row: p.row.map((pos, k) => ({
        ...pos,
        faceDown: (s.players[i]!.row[k]!.faceDown ?? -1) as never,
      })),
    }))
    expect(caught({ view: leaky })).toMatch(/depends on hidden cards/)
  })

  it('[I-15] a view that tells the next card of the draw pile', () => {
    const leaky = (s: IdiotState, v: number | 'spectator'): IdiotView => ({
      ...idiot.view(s, v),
      drawCount: s.draw[0] ?? 0,
    })
    expect(caught({ view: leaky })).toMatch(/depends on hidden cards/)
  })

  it('[I-15] a view that shows another player’s hand, even sorted', () => {
    const leaky = rewritePlayers((p, i, s) => ({
      ...p,
      hand: s.players[i]!.hand.slice().sort((a, b) => a - b),
    }))
    expect(caught({ view: leaky })).toMatch(/depends on hidden cards/)
  })

  it('an apply that mutates its input', () => {
    const mutating: typeof idiot.apply = (s, seat, m) => {
      const r = idiot.apply(s, seat, m)
      if (r.ok && m.type === 'pickup') (s as { moves: number }).moves += 1
      return r
    }
    expect(caught({ apply: mutating })).toMatch(/mutated/)
  })

  it('legal moves that miss a move the rules allow', () => {
    const missing: typeof idiot.legalMoves = (s, seat) =>
      idiot.legalMoves(s, seat).filter((m) => m.type !== 'ready' || seat !== 0)
    expect(caught({ legalMoves: missing })).toMatch(/activeSeats|illegal move accepted/)
  })
})
