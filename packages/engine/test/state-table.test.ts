import { describe, expect, it } from 'vitest'
import { StateTable } from '../src/aces-up/state-table.ts'
import { Rng } from '../src/rng.ts'

// The A-16 solver's hash table, checked against a Map on random keys of varied lengths (many
// more than its starting size, so it grows), including keys that differ only in their last word.

const keyOf = (words: Uint32Array, at: number, n: number) =>
  `${n}:${[...words.subarray(at, at + n)]}`
const hashOf = (words: Uint32Array, at: number, n: number) => {
  let h = n
  for (let i = 0; i < n; i++) h = Math.imul(h ^ words[at + i]!, 0x01000193)
  return h & 0xfff // few hash values on purpose: many collisions to resolve by comparing words
}

describe('A-16 solver state table', () => {
  it('[A-16] get, set and add agree with a Map over thousands of keys; clear empties it', () => {
    const rng = Rng.seeded('state-table')
    const table = new StateTable(4)
    const model = new Map<string, number>()
    const words = new Uint32Array(64)
    for (let round = 0; round < 20_000; round++) {
      const n = 1 + rng.int(3)
      const at = rng.int(60)
      for (let i = 0; i < n; i++) words[at + i] = rng.int(40)
      const key = keyOf(words, at, n)
      const h = hashOf(words, at, n)
      expect(table.get(words, at, n, h)).toBe(model.get(key) ?? -1)
      if (rng.int(2) === 0) {
        const v = rng.int(2000)
        table.set(words, at, n, h, v)
        model.set(key, v)
      } else {
        expect(table.add(words, at, n, h)).toBe(!model.has(key))
        if (!model.has(key)) model.set(key, 0)
      }
    }
    expect(table.size).toBe(model.size)
    table.clear()
    expect(table.size).toBe(0)
    words[0] = 1
    expect(table.get(words, 0, 1, hashOf(words, 0, 1))).toBe(-1)
    expect(table.add(words, 0, 1, hashOf(words, 0, 1))).toBe(true)
    expect(table.add(words, 0, 1, hashOf(words, 0, 1))).toBe(false)
  })
})
