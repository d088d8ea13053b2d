// Presence yields to play (src/yielding.ts, issue 13 finding 4): a crowd's watch/leave messages
// start a batch per turn of the event loop, a connection's messages keep their order, the queue
// is bounded.
import { describe, expect, it } from 'vitest'
import { YIELDING, Yielding } from '../src/yielding.ts'

const turn = () => new Promise<void>((r) => setImmediate(r))

describe('Yielding', () => {
  it('only presence yields', () => {
    expect([...YIELDING].sort()).toEqual(['table:leave', 'table:watch'])
  })

  it('starts a crowd a batch per turn, so work queued meanwhile runs between batches', async () => {
    const y = new Yielding()
    const ran: string[] = []
    for (let i = 0; i < 100; i++) y.defer(`s${i}`, () => ran.push(`watch ${i}`))
    expect(ran).toEqual([])
    // A move arriving while the crowd waits: handled at the next turn, not after all 100.
    setImmediate(() => ran.push('move'))
    await turn()
    await turn()
    const move = ran.indexOf('move')
    expect(move).toBeGreaterThan(0)
    expect(move).toBeLessThan(100)
    for (let i = 0; i < 10 && y.size > 0; i++) await turn()
    expect(y.size).toBe(0)
    expect(ran.filter((x) => x.startsWith('watch'))).toEqual(
      Array.from({ length: 100 }, (_, i) => `watch ${i}`),
    )
  })

  it("keeps a connection's order: while one of its messages waits, the next waits behind it", async () => {
    const y = new Yielding()
    const ran: string[] = []
    expect(y.busy('a')).toBe(false)
    y.defer('a', () => ran.push('a: leave'))
    expect(y.busy('a')).toBe(true)
    expect(y.busy('b')).toBe(false)
    y.defer('a', () => ran.push('a: join'))
    await turn()
    expect(ran).toEqual(['a: leave', 'a: join'])
    expect(y.busy('a')).toBe(false)
  })

  it('is bounded: beyond its size a job is refused and nothing is queued', async () => {
    const y = new Yielding(5)
    let ran = 0
    const took = Array.from({ length: 8 }, (_, i) => y.defer(`s${i}`, () => ran++))
    expect(took).toEqual([true, true, true, true, true, false, false, false])
    expect(y.size).toBe(5)
    expect(y.busy('s6')).toBe(false)
    await turn()
    expect(ran).toBe(5)
    expect(y.size).toBe(0)
  })

  it('a job that throws does not stop the others', async () => {
    const y = new Yielding()
    let ran = 0
    y.defer('a', () => {
      throw new Error('boom')
    })
    y.defer('b', () => ran++)
    await turn()
    expect(ran).toBe(1)
  })
})
