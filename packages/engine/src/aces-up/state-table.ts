/**
 * A hash table from packed solver states (a few 32-bit words) to small non-negative integers, for
 * the A-16 solver's transposition table and its per-phase visited sets.
 *
 * Why not a Map keyed by strings: the solver looks up a state at every node, and building a
 * string for each one (and collecting it afterwards) cost about a third of its time. Here a key is
 * hashed and compared as words in place; keys are copied into one growing arena, and `clear` is
 * O(1) (a generation stamp), so a visited set can be emptied for every phase at no cost.
 */
/** The hash of a key: the first n words of `words` (the solver's packed states). */
export function hashWords(words: Uint32Array, n: number): number {
  let h = Math.imul(n, 0x9e3779b1)
  for (let i = 0; i < n; i++) {
    h = Math.imul(h ^ words[i]!, 0x85ebca6b)
    h ^= h >>> 13
  }
  h = Math.imul(h ^ (h >>> 16), 0xc2b2ae35)
  return h ^ (h >>> 16)
}

export class StateTable {
  private mask: number
  /** Per slot: offset of the key in the arena, valid only if gens[slot] === gen. */
  private offs: Int32Array
  private hashes: Int32Array
  private vals: Int32Array
  private gens: Uint32Array
  private gen = 1
  /** Keys, each stored as its length in words followed by the words. */
  private arena: Uint32Array
  private top = 0
  size = 0

  constructor(bits = 10) {
    const cap = 1 << bits
    this.mask = cap - 1
    this.offs = new Int32Array(cap)
    this.hashes = new Int32Array(cap)
    this.vals = new Int32Array(cap)
    this.gens = new Uint32Array(cap)
    this.arena = new Uint32Array(cap * 4)
  }

  /**
   * The slot holding this key, or the empty slot where it would go. A key is n words of `words`
   * from `at`, and h its hash.
   */
  private slot(words: Uint32Array, at: number, n: number, h: number): number {
    const { mask, gens, gen, hashes, offs, arena } = this
    let i = h & mask
    for (;;) {
      if (gens[i] !== gen) return i
      if (hashes[i] === h) {
        const o = offs[i]!
        if (arena[o] === n) {
          let j = 0
          while (j < n && arena[o + 1 + j] === words[at + j]) j++
          if (j === n) return i
        }
      }
      i = (i + 1) & mask
    }
  }

  /** The value stored for the key, or -1. */
  get(words: Uint32Array, at: number, n: number, h: number): number {
    const i = this.slot(words, at, n, h)
    return this.gens[i] === this.gen ? this.vals[i]! : -1
  }

  /** Stores a value (>= 0) for the key. */
  set(words: Uint32Array, at: number, n: number, h: number, v: number): void {
    let i = this.slot(words, at, n, h)
    if (this.gens[i] !== this.gen) {
      this.insert(i, words, at, n, h)
      i = this.slot(words, at, n, h)
    }
    this.vals[i] = v
  }

  /** Adds the key (value 0); false if it was there already. */
  add(words: Uint32Array, at: number, n: number, h: number): boolean {
    const i = this.slot(words, at, n, h)
    if (this.gens[i] === this.gen) return false
    this.insert(i, words, at, n, h)
    return true
  }

  /** Empties the table (its memory is kept for the next use). */
  clear(): void {
    this.gen++
    this.size = 0
    this.top = 0
  }

  private insert(i: number, words: Uint32Array, at: number, n: number, h: number): void {
    if (this.top + n + 1 > this.arena.length) {
      const grown = new Uint32Array(Math.max(this.arena.length * 2, this.top + n + 1))
      grown.set(this.arena)
      this.arena = grown
    }
    const o = this.top
    const arena = this.arena
    arena[o] = n
    for (let j = 0; j < n; j++) arena[o + 1 + j] = words[at + j]!
    this.top += n + 1
    this.gens[i] = this.gen
    this.offs[i] = o
    this.hashes[i] = h
    this.vals[i] = 0
    if (++this.size * 2 > this.mask) this.grow()
  }

  /** Doubles the slots; a slot index found before is stale afterwards (set re-finds it). */
  private grow(): void {
    const { offs, hashes, vals, gens, gen } = this
    const cap = (this.mask + 1) * 2
    this.mask = cap - 1
    this.offs = new Int32Array(cap)
    this.hashes = new Int32Array(cap)
    this.vals = new Int32Array(cap)
    this.gens = new Uint32Array(cap)
    for (let s = 0; s < gens.length; s++) {
      if (gens[s] !== gen) continue
      let i = hashes[s]! & this.mask
      while (this.gens[i] === gen) i = (i + 1) & this.mask
      this.gens[i] = gen
      this.offs[i] = offs[s]!
      this.hashes[i] = hashes[s]!
      this.vals[i] = vals[s]!
    }
  }
}
