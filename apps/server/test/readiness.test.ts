import { describe, expect, it, vi } from 'vitest'
import { READY_CACHE_MS, sharedReadiness } from '../src/readiness.ts'
import { startServer } from './harness.ts'

describe('/readyz asks the store a bounded number of times', () => {
  it('shares one answer for READY_CACHE_MS, and one question in flight with every caller', async () => {
    let t = 0
    let asked = 0
    let answer = true
    const ready = sharedReadiness(
      async () => {
        asked++
        return answer
      },
      () => t,
    )
    expect(await Promise.all([ready(), ready(), ready()])).toEqual([true, true, true])
    expect(asked).toBe(1)
    answer = false
    t = READY_CACHE_MS - 1
    expect(await ready()).toBe(true)
    expect(asked).toBe(1)
    t = READY_CACHE_MS
    expect(await ready()).toBe(false)
    expect(asked).toBe(2)
  })

  it('reads a failing store as not ready', async () => {
    const ready = sharedReadiness(
      () => Promise.reject(new Error('redis down')),
      () => 0,
    )
    expect(await ready()).toBe(false)
  })

  it('a flood of 200 requests to /readyz costs the store a question per READY_CACHE_MS, not one each', async () => {
    const srv = await startServer()
    try {
      const spy = vi.spyOn(srv.app.store, 'ready')
      await new Promise((r) => setTimeout(r, READY_CACHE_MS))
      const started = performance.now()
      const answers = await Promise.all(
        Array.from({ length: 200 }, () => fetch(`${srv.url}/readyz`).then((r) => r.status)),
      )
      const took = performance.now() - started
      expect(answers.every((s) => s === 200)).toBe(true)
      // One question per READY_CACHE_MS the flood lasted, and the first.
      expect(spy.mock.calls.length).toBeLessThanOrEqual(1 + Math.ceil(took / READY_CACHE_MS))
      expect(spy.mock.calls.length).toBeGreaterThanOrEqual(1)
      expect(spy.mock.calls.length).toBeLessThan(20)
    } finally {
      await srv.stop()
    }
  })
})
