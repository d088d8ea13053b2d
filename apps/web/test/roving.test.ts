import { describe, expect, it } from 'vitest'
import { PAGE, rovingTarget } from '../src/lib/roving.ts'

describe('a list with a roving tabindex', () => {
  const moves = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]

  it('the arrows go one on or back, Home and End to the ends, the page keys ten', () => {
    expect(rovingTarget('ArrowDown', moves, 5)).toBe(6)
    expect(rovingTarget('ArrowRight', moves, 5)).toBe(6)
    expect(rovingTarget('ArrowUp', moves, 5)).toBe(4)
    expect(rovingTarget('ArrowLeft', moves, 5)).toBe(4)
    expect(rovingTarget('Home', moves, 5)).toBe(0)
    expect(rovingTarget('End', moves, 5)).toBe(20)
    expect(rovingTarget('PageDown', moves, 5)).toBe(5 + PAGE)
    expect(rovingTarget('PageUp', moves, 15)).toBe(15 - PAGE)
  })

  it('stops at either end, and other keys are not the list’s', () => {
    expect(rovingTarget('ArrowUp', moves, 0)).toBe(0)
    expect(rovingTarget('ArrowDown', moves, 20)).toBe(20)
    expect(rovingTarget('PageDown', moves, 17)).toBe(20)
    expect(rovingTarget('PageUp', moves, 3)).toBe(0)
    expect(rovingTarget('Enter', moves, 3)).toBeNull()
    expect(rovingTarget('a', moves, 3)).toBeNull()
    expect(rovingTarget('End', [], 3)).toBeNull()
  })

  it('a list that does not start at 0 (a game in play’s first kept frame): its own options', () => {
    const kept = [40, 41, 42, 43]
    expect(rovingTarget('Home', kept, 42)).toBe(40)
    expect(rovingTarget('ArrowDown', kept, 43)).toBe(43)
    // From a step that is not in the list, the keys start from its first option.
    expect(rovingTarget('ArrowDown', kept, 7)).toBe(41)
  })
})
