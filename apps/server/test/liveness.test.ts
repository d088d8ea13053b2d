// The failover rule (issue 17: a dead node's tables move within 5 s) on a fake clock, with the
// default heartbeat: how long after a crash the other node stops taking it as an owner, over
// every phase of the crash against the beats; and what must not look like a crash: an event
// loop that stalls, a Redis blip (the store away for every node, and back for one before the
// other). The real processes: the kill tests in cluster.test.ts.
import type { Logger } from 'pino'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { loadConfig } from '../src/config.ts'
import type { Hub } from '../src/hub.ts'
import { goneMs, Liveness, MARK_BEATS } from '../src/liveness.ts'
import type { TableStore } from '../src/store.ts'

const H = loadConfig({}).heartbeatMs

/** The marks in a store every node shares; `down(node)` makes that node's calls fail. */
class Marks {
  private readonly until = new Map<string, number>()
  private readonly downUntil = new Map<string, number>()
  /** The node's store calls fail until `ms` from now. */
  down(node: string, ms: number): void {
    this.downUntil.set(node, Date.now() + ms)
  }
  storeOf(node: string): TableStore {
    const check = () => {
      if (Date.now() < (this.downUntil.get(node) ?? 0)) throw new Error('store unavailable')
    }
    return {
      heartbeat: async (n: string, ttlMs: number) => {
        check()
        this.until.set(n, Date.now() + ttlMs)
      },
      liveNodes: async () => {
        check()
        const now = Date.now()
        return new Map([...this.until].filter(([, u]) => u > now).map(([n]) => [n, null]))
      },
    } as unknown as TableStore
  }
}

const noLog = { debug() {} } as unknown as Logger
const noHub = { all: () => [] } as unknown as Hub

function node(marks: Marks, id: string): Liveness {
  return new Liveness({
    store: marks.storeOf(id),
    hub: noHub,
    node: id,
    url: null,
    heartbeatMs: H,
    log: noLog,
    now: () => Date.now(),
    onNodesGone() {},
    onNodesChanged() {},
  })
}

/** Two nodes that know each other: `a` and the one that judges it, `b`. */
async function pair(): Promise<{ marks: Marks; a: Liveness; b: Liveness }> {
  const marks = new Marks()
  const a = node(marks, 'a')
  const b = node(marks, 'b')
  void a.start()
  // b beats a third of a beat after a: neither in step nor far apart.
  await vi.advanceTimersByTimeAsync(Math.round(H / 3))
  void b.start()
  await vi.advanceTimersByTimeAsync(H * 8)
  expect([...b.owners()!.keys()].sort()).toEqual(['a', 'b'])
  return { marks, a, b }
}

/** Runs the clock in small steps until `b` no longer takes `a` for an owner: how long it took. */
async function untilGone(b: Liveness, ms: number): Promise<number | null> {
  const start = Date.now()
  while (Date.now() - start < ms) {
    await vi.advanceTimersByTimeAsync(10)
    if (!b.owners()!.has('a')) return Date.now() - start
  }
  return null
}

describe('failover timing with the default heartbeat (liveness.ts)', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it(`a crashed node is gone 2.5-3.5 s after the crash (HEARTBEAT_MS=${H}), whenever between beats it crashes`, async () => {
    expect(H).toBe(500)
    const times: number[] = []
    for (let phase = 0; phase < H; phase += 50) {
      const { a, b } = await pair()
      await vi.advanceTimersByTimeAsync(phase)
      a.stop()
      const t = await untilGone(b, 10_000)
      expect(t, `crash ${phase} ms into the beat`).not.toBeNull()
      times.push(t!)
      b.stop()
    }
    const worst = Math.max(...times)
    console.log(
      `gone ${Math.min(...times)}-${worst} ms after the crash (mark ${MARK_BEATS * H} ms, missing ${goneMs(H)} ms); 5 s bound: ${5000 - worst} ms to spare`,
    )
    expect(Math.min(...times)).toBeGreaterThanOrEqual(2000)
    expect(worst).toBeLessThanOrEqual(3600)
  })

  it('a live node whose event loop stalls (no beat) for up to 2 s is never taken for gone; 4 s is', async () => {
    for (const stall of [1000, 2000]) {
      // The worst moment: just before a beat was due, so the mark had the least life left.
      for (let phase = 0; phase < H; phase += 100) {
        const { a, b } = await pair()
        await vi.advanceTimersByTimeAsync(phase)
        a.stop()
        const gone = await untilGone(b, stall)
        expect(gone, `a stall of ${stall} ms, ${phase} ms into the beat`).toBeNull()
        void a.start()
        expect(await untilGone(b, H * 10)).toBeNull()
        a.stop()
        b.stop()
      }
    }
    // The rule is not blind: a node that misses its beats for 4 s is gone.
    const { a, b } = await pair()
    a.stop()
    expect(await untilGone(b, 4000)).not.toBeNull()
    b.stop()
  })

  it('a Redis blip: the store away for both nodes (every mark lapses), then back for one 2 s before the other: nobody is gone', async () => {
    const { marks, a, b } = await pair()
    marks.down('a', 5000)
    marks.down('b', 3000)
    expect(await untilGone(b, 12_000)).toBeNull()
    expect([...a.owners()!.keys()].sort()).toEqual(['a', 'b'])
    a.stop()
    b.stop()
  })
})
