import { describe, expect, it } from 'vitest'
import { localEnd, secondsLeft, TurnClocks } from '../src/lib/clock.ts'

describe('turn clocks as shown (I-16)', () => {
  it('[I-16] a 15 s timer starts at 15, even when this computer’s clock lags the server’s', () => {
    const now = 1_000_000
    // The server set the deadline 15 s from its now, which is 1.2 s ahead of ours.
    const end = localEnd(now + 1200 + 15_000, 15_000, now)
    expect(secondsLeft(end, now)).toBe(15)
    expect(secondsLeft(end, now + 1)).toBe(15)
    expect(secondsLeft(end, now + 14_001)).toBe(1)
    expect(secondsLeft(end, now + 15_000)).toBe(0)
    expect(secondsLeft(end, now + 99_000)).toBe(0)
  })

  it('[I-16] a clock that arrives late shows the time that is really left', () => {
    const now = 5_000
    expect(secondsLeft(localEnd(now + 12_300, 30_000, now), now)).toBe(13)
    // A deadline already passed (a slow network): zero, never negative.
    expect(secondsLeft(localEnd(now - 500, 30_000, now), now)).toBe(0)
  })

  it('[I-16] a deadline that stays the same keeps its end: the countdown never jumps', () => {
    const clocks = new TurnClocks()
    const d = 100_000 + 16_000 // the server is 1 s ahead: 16 s by our clock, a 15 s timer
    const first = clocks.ends([d, null], 15, 100_000)
    expect(first[1]).toBeNull()
    expect(secondsLeft(first[0]!, 100_000)).toBe(15)
    // Five seconds later an update comes with the same deadline: still 10 left, not 11.
    const later = clocks.ends([d, null], 15, 105_000)
    expect(later[0]).toBe(first[0])
    expect(secondsLeft(later[0]!, 105_000)).toBe(10)
    // A new deadline for the same seat is a new clock.
    const fresh = clocks.ends([200_000, 190_000], 15, 180_000)
    expect(secondsLeft(fresh[0]!, 180_000)).toBe(15)
    expect(secondsLeft(fresh[1]!, 180_000)).toBe(10)
  })

  it('[I-16] without a limit (unknown setting) the deadline counts as it is', () => {
    expect(localEnd(70_000, null, 10_000)).toBe(70_000)
  })
})
