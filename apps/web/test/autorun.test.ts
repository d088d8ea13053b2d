import { describe, expect, it } from 'vitest'
import { AutoRun } from '../src/lib/autorun.ts'

/** A fake clock: sleeping advances it; every step takes `rtt` ms to be acknowledged. */
function fake(opts: { steps: number; rtt?: number; refuseAt?: number; intervalMs?: number }) {
  let clock = 0
  let done = 0
  let inflight = 0
  let maxInflight = 0
  const sentAt: number[] = []
  const changes: boolean[] = []
  const run: AutoRun = new AutoRun({
    intervalMs: opts.intervalMs ?? 200,
    canStep: () => done < opts.steps,
    async step() {
      sentAt.push(clock)
      inflight++
      maxInflight = Math.max(maxInflight, inflight)
      await Promise.resolve()
      clock += opts.rtt ?? 30
      inflight--
      if (opts.refuseAt !== undefined && sentAt.length === opts.refuseAt) return false
      done++
      return true
    },
    onChange: (r) => changes.push(r),
    now: () => clock,
    sleep: async (ms) => {
      clock += ms
    },
  })
  return {
    run,
    sentAt,
    changes,
    get done() {
      return done
    },
    get maxInflight() {
      return maxInflight
    },
  }
}

describe('AutoRun (Kör / Stopp)', () => {
  it('steps until the page says no more, one step in flight, an interval apart', async () => {
    const f = fake({ steps: 5 })
    await f.run.start()
    expect(f.done).toBe(5)
    expect(f.maxInflight).toBe(1)
    // The interval runs from the start of a step: the acknowledgement's time is part of it.
    expect(f.sentAt).toEqual([0, 200, 400, 600, 800])
    expect(f.changes).toEqual([true, false])
    expect(f.run.running).toBe(false)
  })

  it('a slow acknowledgement is waited for, not overtaken', async () => {
    const f = fake({ steps: 3, rtt: 500 })
    await f.run.start()
    expect(f.sentAt).toEqual([0, 500, 1000])
    expect(f.maxInflight).toBe(1)
  })

  it('stops at a refused step', async () => {
    const f = fake({ steps: 10, refuseAt: 3 })
    await f.run.start()
    expect(f.sentAt).toHaveLength(3)
    expect(f.done).toBe(2)
    expect(f.run.running).toBe(false)
  })

  it('a step that throws (no answer) stops the run', async () => {
    let calls = 0
    const run = new AutoRun({
      intervalMs: 0,
      canStep: () => true,
      step: async () => {
        calls++
        throw new Error('offline')
      },
    })
    await run.start()
    expect(calls).toBe(1)
    expect(run.running).toBe(false)
  })

  it('Stopp ends the run: the step in flight is the last one sent', async () => {
    let release: (ok: boolean) => void = () => {}
    let sent = 0
    const run = new AutoRun({
      intervalMs: 0,
      canStep: () => true,
      step: () => {
        sent++
        return new Promise<boolean>((r) => {
          release = r
        })
      },
    })
    const p = run.start()
    await Promise.resolve()
    expect(run.running).toBe(true)
    run.stop()
    expect(run.running).toBe(false)
    release(true)
    await p
    expect(sent).toBe(1)
    expect(run.running).toBe(false)
  })

  it('a new start waits for the step an earlier run left in flight', async () => {
    const releases: ((ok: boolean) => void)[] = []
    let inflight = 0
    let maxInflight = 0
    let steps = 0
    const run = new AutoRun({
      intervalMs: 0,
      canStep: () => steps < 3,
      step: () => {
        inflight++
        maxInflight = Math.max(maxInflight, inflight)
        return new Promise<boolean>((r) => {
          releases.push((ok) => {
            inflight--
            steps++
            r(ok)
          })
        })
      },
    })
    void run.start()
    await Promise.resolve()
    run.stop()
    const second = run.start()
    await Promise.resolve()
    expect(releases).toHaveLength(1)
    releases[0]!(true)
    for (let i = 1; i < 3; i++) {
      await expect.poll(() => releases.length).toBe(i + 1)
      releases[i]!(true)
    }
    await second
    expect(maxInflight).toBe(1)
    expect(steps).toBe(3)
  })

  it('starting twice runs once', async () => {
    const f = fake({ steps: 2 })
    await Promise.all([f.run.start(), f.run.start()])
    expect(f.done).toBe(2)
    expect(f.maxInflight).toBe(1)
  })
})
