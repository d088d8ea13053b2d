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
import {
  applyDelta,
  applyPatch,
  checksum,
  deadlinesChange,
  diff,
  headChange,
  jsonEqual,
  type Patch,
  ROW_KEYS,
  type TableDelta,
  type TableInfo,
  type TableUpdate,
} from '../src/index.ts'

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
            const p = wire(diff(held, next, { rows: true }))
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

  it(`${SAMPLE} seeded Idiot games: every event of \`recent\` travels as a row (ROW_KEYS knows them all), the record's frames keep to 's'`, () => {
    const tags = new Set<string>()
    for (let g = 0; g < SAMPLE; g++) {
      const { states } = replayRecord(recordedGame('idiot', `rows/${g}`))
      for (let i = 1; i < states.length; i++) {
        const before = idiot.view(states[i - 1] as never, 'spectator')
        const after = idiot.view(states[i] as never, 'spectator')
        const ops = diff(before, after, { rows: true }).filter((o) => o[1][0] === 'recent')
        for (const op of ops) {
          if (op[0] !== 'e') throw new Error(`not a rows operation: ${JSON.stringify(op)}`)
          for (const row of op[2]) {
            expect(Array.isArray(row), JSON.stringify(op)).toBe(true)
            tags.add((row as string[])[0]!)
          }
        }
        expect(diff(before, after).some((o) => o[0] === 'e')).toBe(false)
      }
    }
    expect([...tags].sort()).toEqual(Object.keys(ROW_KEYS).sort())
  }, 120_000)

  it("an 'e' row stands for exactly its tag's keys; anything else travels as it is or does not fit", () => {
    const a = { recent: [{ t: 'draw', seat: 0, count: 1 }] }
    const b = {
      recent: [
        { t: 'play', seat: 1, cards: [22], from: 'hand' },
        { t: 'odd', x: 1 },
      ],
    }
    const p = diff(a, b, { rows: true })
    expect(p).toEqual([['e', ['recent'], [['play', 1, [22], 'hand'], { t: 'odd', x: 1 }]]])
    expect(applyPatch(a, wire(p))).toEqual(b)
    // Keys in another order, or one more, are not the row's: the object whole.
    const other = {
      recent: [
        { seat: 1, t: 'draw', count: 1 },
        { t: 'draw', seat: 1, count: 1, x: 0 },
      ],
    }
    expect(diff(a, other, { rows: true })).toEqual([['s', ['recent'], other.recent]])
    expect(() => applyPatch(a, [['e', ['recent'], [['play', 1]]]])).toThrow()
    expect(() => applyPatch(a, [['e', ['recent'], [['nosuch', 1]]]])).toThrow()
  })

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

  describe('applyDelta: the turn clocks, the chain head and the log a delta leaves out', () => {
    const info = (o: Partial<TableInfo> = {}): TableInfo =>
      ({
        code: 'ABCDEF',
        seats: [{}, {}, {}],
        status: 'playing',
        deadline: null,
        deadlines: [null, null, null],
        fair: { commitment: null, entropy: ['', '', ''], record: 'r1', head: 'h0' },
        version: 4,
        ...o,
      }) as unknown as TableInfo
    const view = { recent: [{ t: 'draw', seat: 0, count: 1 }] }
    const held: TableUpdate = {
      table: info(),
      seat: 0,
      view: view as never,
      log: [],
      logAfter: null,
    }
    const delta = (o: Partial<TableDelta>): TableDelta => ({
      code: 'ABCDEF',
      version: 5,
      p: [],
      sum: checksum(view),
      logAfter: 9,
      at: 1_000_000,
      ...o,
    })

    it('dl: the running clocks after `at`, every other seat null; the earliest is the deadline', () => {
      const after = info({ deadlines: [null, 1_030_000, 1_020_000], version: 5 })
      const dl = deadlinesChange(held.table, after, 1_000_000)
      expect(dl).toEqual({ dl: [1, 30_000, 2, 20_000] })
      const r = applyDelta(held, delta(dl))
      expect(r.ok && r.update.table.deadlines).toEqual([null, 1_030_000, 1_020_000])
      expect(r.ok && r.update.table.deadline).toBe(1_020_000)
      // No dl: the clocks held; a seat that is not there does not fit.
      expect(deadlinesChange(after, after, 0)).toEqual({})
      expect(applyDelta({ ...held, table: after }, delta({ version: 6 }))).toMatchObject({
        ok: true,
        update: { table: { deadlines: after.deadlines } },
      })
      expect(applyDelta(held, delta({ dl: [3, 1] }))).toEqual({ ok: false, miss: 'mismatch' })
      expect(applyDelta(held, delta({ dl: [1] }))).toEqual({ ok: false, miss: 'mismatch' })
    })

    it('h: every 8th version and when fair or the status changes; else the head held stays', () => {
      const next = (v: number, o: Partial<TableInfo> = {}) =>
        info({ version: v, fair: { ...held.table.fair, head: `h${v}` }, ...o })
      expect(headChange(next(4), next(5))).toEqual({})
      expect(headChange(next(7), next(8))).toEqual({ h: 'h8' })
      expect(headChange(next(4), next(5, { status: 'over' }))).toEqual({ h: 'h5' })
      const newGame = { commitment: 'c', entropy: ['', '', ''], record: 'r2', head: 'h5' }
      expect(headChange(next(4), next(5, { fair: newGame }))).toEqual({ h: 'h5' })
      expect(applyDelta(held, delta({})).ok && applyDelta(held, delta({}))).toMatchObject({
        update: { table: { fair: { head: 'h0' } } },
      })
      expect(applyDelta(held, delta({ h: 'h5' }))).toMatchObject({
        update: { table: { fair: { head: 'h5' } } },
      })
    })

    it("no log: one game entry per event of the view's recent, at `at`; without recent it does not fit", () => {
      const r = applyDelta(held, delta({}))
      expect(r.ok && r.update.log).toEqual([
        { t: 'game', e: view.recent[0], seq: 10, at: 1_000_000 },
      ])
      const bare = { recent: [] }
      const none = applyDelta({ ...held, view: bare as never }, delta({ sum: checksum(bare) }))
      expect(none).toEqual({ ok: false, miss: 'mismatch' })
    })
  })
})
