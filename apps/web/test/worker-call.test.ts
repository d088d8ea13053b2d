// Requests to a Web Worker (lib/worker-call.ts), against a stand-in worker that answers, fails or
// keeps silent as told.
import { describe, expect, it, vi } from 'vitest'
import { askWorker, KeptWorker, lanesFor, WorkerLanes } from '../src/lib/worker-call.ts'

type Behaviour = 'answer' | 'fail' | 'silent'

/** A stand-in for a Web Worker: answers each request with `{ ok: true, got }` after 5 ms. */
class FakeWorker {
  onmessage: ((e: MessageEvent) => void) | null = null
  onerror: ((e: ErrorEvent) => void) | null = null
  terminated = false
  got: unknown[] = []
  constructor(private readonly how: () => Behaviour) {}
  postMessage(req: unknown): void {
    this.got.push(req)
    const how = this.how()
    setTimeout(() => {
      if (how === 'answer') this.onmessage?.({ data: { ok: true, got: req } } as MessageEvent)
      if (how === 'fail') this.onerror?.({ message: 'boom' } as ErrorEvent)
    }, 5)
  }
  terminate(): void {
    this.terminated = true
  }
}

function kept(how: () => Behaviour = () => 'answer') {
  const made: FakeWorker[] = []
  const k = new KeptWorker(() => {
    const w = new FakeWorker(how)
    made.push(w)
    return w as unknown as Worker
  })
  return { k, made }
}

describe('a worker kept for one request after another', () => {
  it('answers requests in turn from one worker, and ends it when told', async () => {
    const { k, made } = kept()
    const answers = await Promise.all([1, 2, 3].map((n) => k.ask(n, 1000)))
    expect(answers).toEqual([1, 2, 3].map((n) => ({ ok: true, got: n })))
    expect(made).toHaveLength(1)
    expect(made[0]!.got).toEqual([1, 2, 3])
    k.end()
    expect(made[0]!.terminated).toBe(true)
    expect(await k.ask(4, 1000)).toEqual({ ok: false, error: 'ended' })
    expect(made).toHaveLength(1)
  })

  it('a failure or a time limit ends the worker, and the next request gets a new one', async () => {
    const plan: Behaviour[] = ['fail', 'answer', 'silent', 'answer']
    const { k, made } = kept(() => plan.shift()!)
    expect(await k.ask('a', 1000)).toEqual({ ok: false, error: 'boom' })
    expect(await k.ask('b', 1000)).toEqual({ ok: true, got: 'b' })
    expect(await k.ask('c', 20)).toEqual({ ok: false, error: 'time limit' })
    expect(await k.ask('d', 1000)).toEqual({ ok: true, got: 'd' })
    expect(made.map((w) => w.terminated)).toEqual([true, true, false])
  })

  it('a worker that cannot start is a failed answer, and the requests after it still run', async () => {
    let tries = 0
    const k = new KeptWorker(() => {
      if (tries++ === 0) throw new Error('no workers here')
      return new FakeWorker(() => 'answer') as unknown as Worker
    })
    expect(await k.ask(1, 1000)).toEqual({ ok: false, error: 'Error: no workers here' })
    expect(await k.ask(2, 1000)).toEqual({ ok: true, got: 2 })
  })

  it('askWorker ends its worker after the one answer', async () => {
    const w = new FakeWorker(() => 'answer')
    const end = vi.spyOn(w, 'terminate')
    expect(await askWorker(w as unknown as Worker, 'x', 1000)).toEqual({ ok: true, got: 'x' })
    expect(end).toHaveBeenCalledOnce()
  })
})

describe('workers side by side', () => {
  it('sends each request to the worker with the fewest waiting, and ends them all', async () => {
    const made: FakeWorker[] = []
    const lanes = new WorkerLanes(() => {
      const w = new FakeWorker(() => 'answer')
      made.push(w)
      return w as unknown as Worker
    }, 2)
    expect(lanes.size).toBe(2)
    const answers = await Promise.all([1, 2, 3, 4].map((n) => lanes.ask(n, 1000)))
    expect(answers).toEqual([1, 2, 3, 4].map((n) => ({ ok: true, got: n })))
    expect(made.map((w) => w.got)).toEqual([
      [1, 3],
      [2, 4],
    ])
    lanes.end()
    expect(made.every((w) => w.terminated)).toBe(true)
    expect(await lanes.ask(5, 1000)).toEqual({ ok: false, error: 'ended' })
  })

  it('one lane on one core; two or more beside the page where there are cores, three at most', () => {
    expect(lanesFor(undefined)).toBe(1)
    expect(lanesFor(1)).toBe(1)
    expect(lanesFor(2)).toBe(2)
    expect(lanesFor(3)).toBe(2)
    expect(lanesFor(4)).toBe(3)
    expect(lanesFor(16)).toBe(3)
  })
})
