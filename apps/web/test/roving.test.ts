import { describe, expect, it } from 'vitest'
import { PAGE, rovingTarget, rowNeighbour } from '../src/lib/roving.ts'

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

describe('a hand that wraps onto more lines (QA: Up and Down went one card back and on)', () => {
  // Seven cards to a line, 48 px apart: 0–6 on the first line, 7–13 on the second, 14–15 below.
  const places = Array.from({ length: 16 }, (_, i) => ({
    left: (i % 7) * 48 + (i >= 14 ? 130 : 0),
    top: Math.floor(i / 7) * 70 + 0.3,
    width: 44,
  }))

  it('Up and Down go to the nearest card of the line above or below', () => {
    expect(rowNeighbour(places, 2, 'ArrowDown')).toBe(9)
    expect(rowNeighbour(places, 9, 'ArrowUp')).toBe(2)
    // The last line is short and centred: the nearest card, not the same index.
    expect(rowNeighbour(places, 10, 'ArrowDown')).toBe(14)
    expect(rowNeighbour(places, 15, 'ArrowUp')).toBe(11)
  })

  it('stays at the top and bottom lines, and leaves one line to the toolbar’s back and on', () => {
    expect(rowNeighbour(places, 3, 'ArrowUp')).toBe(3)
    expect(rowNeighbour(places, 14, 'ArrowDown')).toBe(14)
    expect(rowNeighbour(places.slice(0, 7), 3, 'ArrowDown')).toBeNull()
  })
})
