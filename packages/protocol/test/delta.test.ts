// Delta updates (issue 17): applying the patches reproduces exactly the engine's view at every
// version, for every viewer, over seeded games of every kind; the checksum tells a client that
// went astray.
import {
  duel,
  herrarna,
  idiot,
  klockan,
  type RecordGame,
  Rng,
  replayRecord,
  type Viewer,
} from '@kortbord/engine'
import { describe, expect, it } from 'vitest'
import { recordedGame } from '../../engine/test/record-games.ts'
import { applyPatch, checksum, diff, jsonEqual, type Patch } from '../src/index.ts'

declare const process: { env: Record<string, string | undefined> }

/** Games per kind in the test suite (1,000 in all); DELTA_SAMPLE=10000 for a long run. */
const SAMPLE = Number(process.env.DELTA_SAMPLE ?? 250)

const VIEWS: Record<RecordGame, (s: never, v: Viewer) => unknown> = {
  idiot: idiot.view as never,
  duel: duel.view as never,
  klockan: klockan.view as never,
  herrarna: herrarna.view as never,
}

/** A patch as it travels: through JSON. */
const wire = (p: Patch): Patch => JSON.parse(JSON.stringify(p)) as Patch

describe('delta updates (issue 17)', () => {
  for (const game of ['idiot', 'duel', 'klockan', 'herrarna'] as const) {
    it(`[I-15][A-15] ${SAMPLE} seeded ${game} games: every viewer's patched view is the engine's view at every version`, () => {
      let checked = 0
      let patchBytes = 0
      let viewBytes = 0
      for (let g = 0; g < SAMPLE; g++) {
        const r = recordedGame(game, `delta/${g}`)
        const { states } = replayRecord(r)
        const viewers: Viewer[] = [...r.seats.map((_, i) => i), 'spectator']
        for (const viewer of viewers) {
          let held = VIEWS[game](states[0] as never, viewer)
          for (let i = 1; i < states.length; i++) {
            const next = VIEWS[game](states[i] as never, viewer)
            const p = wire(diff(held, next))
            const patched = applyPatch(held, p)
            if (!jsonEqual(patched, next) || checksum(patched) !== checksum(next)) {
              throw new Error(
                `${game} game ${g} viewer ${viewer} version ${i}: ${JSON.stringify(p)}`,
              )
            }
            if (g < 20) {
              patchBytes += JSON.stringify(p).length
              viewBytes += JSON.stringify(next).length
            }
            held = patched
            checked++
          }
        }
      }
      expect(checked).toBeGreaterThan(SAMPLE * 10)
      // What deltas are for: a patch is a small part of the view it stands for.
      expect(patchBytes).toBeLessThan(viewBytes / 2)
    }, 120_000)
  }

  it('patches never change what they are applied to', () => {
    const a = { x: [1, 2, 3], y: { z: 'q' }, w: null }
    const frozen = JSON.stringify(a)
    const b = { x: [1, 2, 3, 4], y: { z: 'r', n: 1 } }
    const p = diff(a, b)
    expect(applyPatch(a, p)).toEqual(b)
    expect(JSON.stringify(a)).toBe(frozen)
    expect(p).toEqual([
      ['d', ['w']],
      ['a', ['x'], [4]],
      ['s', ['y', 'z'], 'r'],
      ['s', ['y', 'n'], 1],
    ])
  })

  it('random JSON values: the patch of a into b turns a into b', () => {
    const rng = Rng.seeded('delta-random')
    const value = (depth: number): unknown => {
      const k = rng.int(depth > 3 ? 4 : 6)
      if (k === 0) return rng.int(100)
      if (k === 1) return rng.pick(['a', 'b', ''])
      if (k === 2) return rng.float() < 0.5 ? null : rng.float() < 0.5
      if (k === 3) return rng.int(3) - 1
      if (k === 4) return Array.from({ length: rng.int(5) }, () => value(depth + 1))
      const o: Record<string, unknown> = {}
      for (let i = rng.int(4); i > 0; i--) o[rng.pick(['p', 'q', 'r', 's'])] = value(depth + 1)
      return o
    }
    for (let i = 0; i < 3000; i++) {
      const a = value(0)
      const b = value(0)
      expect(applyPatch(a, wire(diff(a, b)))).toEqual(b)
      expect(diff(a, a)).toEqual([])
    }
  })

  it('the checksum ignores the order of object keys but nothing else', () => {
    expect(checksum({ a: 1, b: [2, 3] })).toBe(checksum({ b: [2, 3], a: 1 }))
    for (const other of [
      { a: 1, b: [3, 2] },
      { a: 2, b: [2, 3] },
      { a: 1, b: [2, 3], c: 0 },
      { a: '1', b: [2, 3] },
    ])
      expect(checksum(other)).not.toBe(checksum({ a: 1, b: [2, 3] }))
    expect(checksum([1_796_000_000_123])).not.toBe(checksum([1_796_000_000_124]))
    expect(checksum(null)).not.toBe(checksum(false))
  })

  it('a patch that does not fit the value it is applied to throws rather than making something up', () => {
    expect(() => applyPatch({ x: 1 }, [['s', ['y', 'z'], 1]])).toThrow()
    expect(() => applyPatch([1], [['s', [5], 1]])).toThrow()
    expect(() => applyPatch({ x: 1 }, [['a', ['x'], [1]]])).toThrow()
  })
})
