import { describe, expect, it } from 'vitest'
import { type IdiotEvent, type IdiotState, idiot, Rng } from '../src/index.ts'
import { idiotSpec } from './idiot-playout.ts'
import { type PlayoutStats, playout } from './playout.ts'

/**
 * Named seeds of the playout policy, kept as regression tests: each replays a whole game under
 * every playout check and pins a rare situation at a known move. A failing playout seed found
 * later goes here too, with the move where it failed.
 */
const SEEDS: { seed: string; move: number; rule: string; what: (s: IdiotState) => boolean }[] = [
  {
    seed: 'idiot4-0',
    move: 26,
    rule: 'I-9',
    what: (s) => s.recent.some((e) => e.t === 'burn' && e.reason === 'four'),
  },
  {
    seed: 'idiot4-0',
    move: 51,
    rule: 'I-12',
    what: (s) => has(s.recent, 'uncover') && has(s.recent, 'burn') && s.turn === actor(s.recent),
  },
  {
    seed: 'idiot4-0',
    move: 56,
    rule: 'I-13',
    what: (s) => has(s.recent, 'pickup'),
  },
  {
    seed: 'idiot4-2',
    move: 96,
    rule: 'I-8',
    what: (s) => has(s.recent, 'out') && s.recent.some((e) => e.t === 'burn' && e.reason === 'ten'),
  },
]

const has = (es: readonly IdiotEvent[], t: IdiotEvent['t']) => es.some((e) => e.t === t)
const actor = (es: readonly IdiotEvent[]) => (es[0] && 'seat' in es[0] ? es[0].seat : -1)

describe('kept playout seeds', () => {
  for (const k of SEEDS) {
    it(`[${k.rule}] seed ${k.seed}, move ${k.move}`, () => {
      const spec = idiotSpec(4)
      const stats: PlayoutStats = { games: 0, moves: 0, capped: 0, junkTried: 0 }
      playout(spec, k.seed, stats) // every check, every move
      // replay to the pinned move
      const rng = Rng.seeded(`policy:${k.seed}`)
      let s = spec.setup(k.seed)
      for (let n = 0; n <= k.move; n++) {
        const c = spec.choose(s, rng)!
        const r = idiot.apply(s, c.seat, c.move)
        expect(r.ok).toBe(true)
        if (r.ok) s = r.value
      }
      expect(k.what(s)).toBe(true)
    })
  }
})
