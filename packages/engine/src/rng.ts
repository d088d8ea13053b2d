/**
 * Seeded randomness for the engine. The engine never uses the platform's unseeded generator: every shuffle takes its
 * bits from an {@link Rng} whose state is a plain JSON value that can live inside a game state.
 *
 * Algorithm: **sfc32** (Chris Doty-Humphrey's Small Fast Counting generator, 128-bit state,
 * from PractRand), seeded from a string by **cyrb128** (a 128-bit string hash by bryc). Not a
 * cryptographic generator: a server picks secret seeds from a CSPRNG and keeps them secret; the
 * engine only makes a seed reproducible.
 */

/** The generator's whole state: four unsigned 32-bit words. */
export type RngState = readonly [number, number, number, number]

/** cyrb128: hashes a string to 128 bits. */
function cyrb128(str: string): [number, number, number, number] {
  let h1 = 1779033703
  let h2 = 3144134277
  let h3 = 1013904242
  let h4 = 2773480762
  for (let i = 0; i < str.length; i++) {
    const k = str.charCodeAt(i)
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067)
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233)
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213)
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179)
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067)
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233)
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213)
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179)
  h1 ^= h2 ^ h3 ^ h4
  h2 ^= h1
  h3 ^= h1
  h4 ^= h1
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0]
}

/** A mutable sfc32 generator. Snapshot it with {@link Rng.state}; restore with {@link Rng.from}. */
export class Rng {
  private a: number
  private b: number
  private c: number
  private d: number

  private constructor(s: RngState) {
    this.a = s[0] >>> 0
    this.b = s[1] >>> 0
    this.c = s[2] >>> 0
    this.d = s[3] >>> 0
  }

  /** A generator seeded from a string; the first 15 outputs are discarded to mix the state. */
  static seeded(seed: string): Rng {
    const r = new Rng(cyrb128(seed))
    for (let i = 0; i < 15; i++) r.nextU32()
    return r
  }

  /** A generator that continues from a saved state. */
  static from(state: RngState): Rng {
    return new Rng(state)
  }

  state(): RngState {
    return [this.a, this.b, this.c, this.d]
  }

  /** The next unsigned 32-bit output of sfc32. */
  nextU32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0
    this.d = (this.d + 1) | 0
    this.a = this.b ^ (this.b >>> 9)
    this.b = (this.c + (this.c << 3)) | 0
    this.c = (this.c << 21) | (this.c >>> 11)
    this.c = (this.c + t) | 0
    return t >>> 0
  }

  /**
   * A uniform integer in [0, n), 1 ≤ n ≤ 2^32, without modulo bias: outputs in the incomplete
   * last block of size 2^32 mod n are rejected and drawn again.
   */
  int(n: number): number {
    if (!Number.isInteger(n) || n < 1 || n > 0x100000000) throw new RangeError(`int(${n})`)
    const limit = 0x100000000 - (0x100000000 % n)
    for (;;) {
      const x = this.nextU32()
      if (x < limit) return x % n
    }
  }

  /** A float in [0, 1) with 32 bits of randomness (for simulations, not for shuffles). */
  float(): number {
    return this.nextU32() / 0x100000000
  }

  /** Returns a new array: an unbiased Fisher–Yates (Durstenfeld) shuffle of `items`. */
  shuffle<T>(items: readonly T[]): T[] {
    return fisherYates(items, (n) => this.int(n))
  }

  /** A uniformly chosen element; throws on an empty array (a programmer error). */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty array')
    return items[this.int(items.length)]!
  }
}

/**
 * Fisher–Yates (Durstenfeld) from the end: for i = length−1 down to 1, swap item i with item
 * `int(i + 1)`, where `int(n)` is uniform in 0 … n−1. Returns a new array. The order of the calls
 * is part of the fair shuffle's published procedure (fair.ts), so it must not change.
 */
export function fisherYates<T>(items: readonly T[], int: (n: number) => number): T[] {
  const a = items.slice()
  for (let i = a.length - 1; i > 0; i--) {
    const j = int(i + 1)
    const t = a[i]!
    a[i] = a[j]!
    a[j] = t
  }
  return a
}
