import {
  acesUp,
  botMove,
  type IdiotView,
  idiot,
  idiotLegalMovesFromView,
  Rng,
  solveAcesUp,
} from '@kortbord/engine'
import { afterAll, describe, expect, it } from 'vitest'
import { WorkerPool } from '../src/workers/pool.ts'

const deckOf = (piles: 4 | 5 | 8, seed: string) => acesUp.setup({ piles }, 1, { seed }).deck

/** A view of the first active seat of a fresh Idiot game, in its play phase. */
function idiotView(seed: string): IdiotView {
  let s = idiot.setup({}, 3, { seed })
  for (const seat of [0, 1, 2]) {
    const r = idiot.apply(s, seat, { type: 'ready' })
    if (r.ok) s = r.value
  }
  const seat = idiot.activeSeats(s)[0]!
  return idiot.view(s, seat) as IdiotView
}

/** Waits until the pool's workers have taken `n` jobs (worker start-up is slow on a busy machine). */
async function untilRunning(pool: WorkerPool, n: number): Promise<void> {
  const end = performance.now() + 20_000
  while (pool.stats().running < n || pool.stats().queued > 0) {
    if (performance.now() > end) throw new Error(`workers never took ${n} jobs`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

const pools: WorkerPool[] = []
const make = (...args: ConstructorParameters<typeof WorkerPool>) => {
  const p = new WorkerPool(...args)
  pools.push(p)
  return p
}
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()))
})

describe('worker pool (A-16 solver and bots off the event loop)', () => {
  it('[A-16] a solve in the pool equals the solve in this process', async () => {
    const pool = make({ threads: 2 })
    const cases: [4 | 5 | 8, string][] = [
      [4, 'pool-4-a'],
      [4, 'pool-4-b'],
      [5, 'pool-5'],
      [8, 'pool-8'],
    ]
    const results = await Promise.all(cases.map(([k, seed]) => pool.solve(deckOf(k, seed), k)))
    for (const [i, [k, seed]] of cases.entries()) {
      const local = solveAcesUp(deckOf(k, seed), k)
      expect(results[i]).toEqual({ best: local.best, proven: local.proven, line: local.line })
    }
    expect(pool.stats()).toMatchObject({ completed: 4, refused: 0, timedOut: 0, failed: 0 })
  })

  it('[I-16] a bot move in the pool equals the move in this process (easy, normal) and is legal (hard)', async () => {
    // What is checked is the move, not the time: a generous grace for a worker that starts on a
    // busy machine (its first job loads the engine; past 1 s it answered null once).
    const pool = make({ threads: 1, botGraceMs: 20_000 })
    const view = idiotView('pool-bot')
    for (const level of ['easy', 'normal'] as const) {
      const remote = await pool.botMove(level, view, 'seed-1', 10)
      expect(remote).toEqual(botMove(level, view, Rng.seeded('seed-1')))
    }
    const hard = await pool.botMove('hard', view, 'seed-2', 30)
    expect(idiotLegalMovesFromView(view)).toContainEqual(hard)
  })

  it('refuses a job when the queue is full', async () => {
    const pool = make({ threads: 1, maxQueue: 1, testTasks: true })
    const busy = pool.runTestTask({ kind: 'spin', ms: 400 }, 30_000)
    await untilRunning(pool, 1)
    const waiting = pool.solve(deckOf(4, 'pool-q'), 4)
    expect(pool.stats().queued).toBe(1)
    expect(await pool.solve(deckOf(4, 'pool-q2'), 4)).toBeNull()
    expect(pool.stats().refused).toBe(1)
    await busy
    expect(await waiting).not.toBeNull()
  })

  it('a job over its time limit is cancelled and the pool keeps working', async () => {
    const pool = make({ threads: 1, testTasks: true })
    const t0 = performance.now()
    expect(await pool.runTestTask({ kind: 'spin', ms: 60_000 }, 150)).toBeNull()
    expect(performance.now() - t0).toBeLessThan(5_000)
    expect(pool.stats().timedOut).toBe(1)
    const deck = deckOf(4, 'pool-after-timeout')
    expect((await pool.solve(deck, 4))?.best).toBe(solveAcesUp(deck, 4).best)
    expect(pool.stats().threads).toBe(1)
  })

  it('a job its caller cancels, running or waiting, resolves null and the pool keeps working', async () => {
    const pool = make({ threads: 1, testTasks: true })
    const running = new AbortController()
    const waiting = new AbortController()
    const t0 = performance.now()
    const first = pool.runTestTask({ kind: 'spin', ms: 60_000 }, 120_000, running.signal)
    await untilRunning(pool, 1)
    const second = pool.runTestTask({ kind: 'spin', ms: 60_000 }, 120_000, waiting.signal)
    expect(pool.stats().queued).toBe(1)
    waiting.abort()
    expect(await second).toBeNull()
    running.abort()
    expect(await first).toBeNull()
    expect(performance.now() - t0).toBeLessThan(10_000)
    // A signal already aborted: the job never runs.
    expect(await pool.runTestTask({ kind: 'spin', ms: 60_000 }, 120_000, running.signal)).toBeNull()
    expect(pool.stats()).toMatchObject({ cancelled: 3, timedOut: 0, failed: 0, queued: 0 })
    const deck = deckOf(4, 'pool-after-cancel')
    expect((await pool.solve(deck, 4))?.best).toBe(solveAcesUp(deck, 4).best)
    expect(pool.stats().threads).toBe(1)
  })

  it('a worker that dies fails its job and is replaced', async () => {
    const pool = make({ threads: 1, testTasks: true })
    expect(await pool.runTestTask({ kind: 'exit' }, 5_000)).toBeNull()
    expect(pool.stats().failed).toBe(1)
    const deck = deckOf(4, 'pool-after-crash')
    expect((await pool.solve(deck, 4))?.best).toBe(solveAcesUp(deck, 4).best)
  })

  it('a job that fills its heap ends its worker, not the process; the pool keeps working', async () => {
    const pool = make({ threads: 1, testTasks: true, maxHeapMb: 32 })
    expect(await pool.runTestTask({ kind: 'hog' }, 60_000)).toBeNull()
    expect(pool.stats()).toMatchObject({ failed: 1, timedOut: 0 })
    const deck = deckOf(4, 'pool-after-hog')
    expect((await pool.solve(deck, 4))?.best).toBe(solveAcesUp(deck, 4).best)
    expect(pool.stats().threads).toBe(1)
  })

  it('test tasks are refused by a production pool', async () => {
    const pool = make({ threads: 1 })
    expect(await pool.runTestTask({ kind: 'spin', ms: 1 }, 5_000)).toBeNull()
    expect(pool.stats().failed).toBe(1)
  })

  it('close() stops every worker, settles waiting jobs and refuses new ones', async () => {
    const before = process.getActiveResourcesInfo().filter((r) => r === 'MessagePort').length
    const pool = new WorkerPool({ threads: 2, testTasks: true })
    const running = pool.runTestTask({ kind: 'spin', ms: 60_000 }, 120_000)
    await untilRunning(pool, 1)
    await pool.close()
    expect(await running).toBeNull()
    expect(await pool.solve(deckOf(4, 'pool-closed'), 4)).toBeNull()
    expect(pool.stats()).toMatchObject({ threads: 0, queued: 0, running: 0 })
    const after = process.getActiveResourcesInfo().filter((r) => r === 'MessagePort').length
    expect(after).toBeLessThanOrEqual(before)
  })
})
