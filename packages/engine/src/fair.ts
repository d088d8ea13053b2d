/**
 * A shuffle anyone can verify (issue 14; docs/fairness.md is the specification, with a worked
 * example). Commit–reveal with the players' own entropy:
 *
 * - before a game the server picks a secret 32-byte seed and publishes `commitment(seed)`, its
 *   SHA-256;
 * - each seated player contributes a value of their own choosing (their client draws it at
 *   random); a bot or a player who sent none contributes the empty string;
 * - the cards are ordered by an unbiased Fisher–Yates shuffle driven by HMAC-SHA256 keyed with the
 *   seed over the game number, a label and every contribution, expanded in counter mode;
 * - after the game the seed is revealed: anyone checks it against the commitment and derives the
 *   same cards.
 *
 * The server cannot pick a seed that favours anyone (it commits before it sees the players'
 * values), and no player can either (they do not know the seed). Pure: no clock, no platform
 * randomness.
 */
import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js'
import { fisherYates } from './rng.ts'

/** The version tag of this derivation; a record names it, a verifier refuses others. */
export const FAIR_VERSION = 'kortbord-shuffle-v1'

/** What a fair deal is made from: revealed after the game, in its record. */
export interface FairDeal {
  /** The derivation: 1 = {@link FAIR_VERSION}. */
  readonly v: 1
  /** The server's secret seed: 32 bytes as 64 lowercase hex digits. */
  readonly seed: string
  /** Each seat's contribution, 0 to 64 lowercase hex digits ('' for none). */
  readonly entropy: readonly string[]
  /** The game's number at its table (1 for the first). */
  readonly game: number
}

const SEED = /^[0-9a-f]{64}$/
const ENTROPY = /^[0-9a-f]{0,64}$/

/** Whether `seed` is 32 bytes of lowercase hex. */
export const isFairSeed = (seed: string): boolean => SEED.test(seed)
/** Whether `value` is a contribution a player may make (0 to 32 bytes of lowercase hex). */
export const isEntropy = (value: string): boolean => ENTROPY.test(value)

/** The commitment to a seed: SHA-256 of its 32 bytes, lowercase hex. */
export function commitment(seed: string): string {
  if (!isFairSeed(seed)) throw new RangeError('a seed is 64 lowercase hex digits')
  return bytesToHex(sha256(hexToBytes(seed)))
}

/**
 * The message of one stream: `kortbord-shuffle-v1|game=<n>|deal=<label>|<e0>|<e1>|…` in UTF-8,
 * one contribution per seat in seat order.
 */
export function fairMessage(fair: FairDeal, label: string): string {
  return [FAIR_VERSION, `game=${fair.game}`, `deal=${label}`, ...fair.entropy].join('|')
}

/**
 * The random stream of one deal: block i is HMAC-SHA256(key = seed, message + '|' + i), for
 * i = 0, 1, 2, …; the blocks are read as consecutive big-endian 32-bit unsigned integers.
 */
export class FairStream {
  private readonly key: Uint8Array
  private readonly prefix: string
  private block = 0
  private buf: Uint8Array = new Uint8Array(0)
  private pos = 0

  constructor(fair: FairDeal, label: string) {
    if (fair.v !== 1) throw new RangeError(`unknown shuffle version ${String(fair.v)}`)
    if (!isFairSeed(fair.seed)) throw new RangeError('a seed is 64 lowercase hex digits')
    for (const e of fair.entropy)
      if (!isEntropy(e)) throw new RangeError('a contribution is up to 64 lowercase hex digits')
    this.key = hexToBytes(fair.seed)
    this.prefix = fairMessage(fair, label)
  }

  /** Block i of the stream (32 bytes). */
  blockAt(i: number): Uint8Array {
    return hmac(sha256, this.key, utf8ToBytes(`${this.prefix}|${i}`))
  }

  /** The next 32-bit unsigned integer, big-endian. */
  nextU32(): number {
    if (this.pos + 4 > this.buf.length) {
      this.buf = this.blockAt(this.block++)
      this.pos = 0
    }
    const b = this.buf
    const p = this.pos
    this.pos += 4
    return ((b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!) >>> 0
  }

  /**
   * A uniform integer in [0, n): 32-bit draws at or above the largest multiple of n below 2^32
   * are thrown away (rejection sampling), so no value is more likely than another.
   */
  int(n: number): number {
    if (!Number.isInteger(n) || n < 1 || n > 2 ** 32) throw new RangeError(`bad range ${n}`)
    const limit = Math.floor(2 ** 32 / n) * n
    for (;;) {
      const x = this.nextU32()
      if (x < limit) return x % n
    }
  }

  /**
   * Fisher–Yates (Durstenfeld) from the end: for i = length−1 down to 1, swap item i with item
   * `int(i + 1)`. Returns a new array.
   */
  shuffle<T>(items: readonly T[]): T[] {
    return fisherYates(items, (n) => this.int(n))
  }
}

/** The cards of one deal, shuffled by the stream of `label`. */
export function fairShuffle<T>(items: readonly T[], fair: FairDeal, label: string): T[] {
  return new FairStream(fair, label).shuffle(items)
}
