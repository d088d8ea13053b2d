/**
 * A-16, a lower bound for the search of exact.ts: the *high-card game*. From a phase start, play
 * a relaxed game in which every card below rank `r0` may vanish at any moment (it blocks nothing
 * and counts nothing), and count the high cards (rank `r0` and up) that are left at the end.
 *
 * Why it is a bound: a high card is only ever discarded by a higher card of its suit, which is a
 * high card too, so every line of the real game is a line of this one (keep the high cards'
 * order in each pile, drop the others), with the same high cards left. A pile of low cards only
 * is a gap here, which can only add moves. Marked (optional) cards of exact.ts count nothing and
 * may be taken off when on top, as there; they may also still be used, which relaxes more.
 *
 * Its value is exact for the relaxed game (memoised across the calls of one search, so that the
 * many phase starts that share their high cards share one answer). It sees what the bound of
 * exact.ts cannot: a king is discarded only while its ace is a top elsewhere, and the aces, the
 * kings and the queens waiting for them need piles of their own at the same time. On the deal
 * `m-15` of the engine README it cuts the full proof from 17.2 million nodes to 0.2 million.
 *
 * The search of the relaxed game: take off a top that may go (a committed top with a higher card
 * of its suit on another top, or a marked one); move the top of a pile of two or more into a gap
 * (which gap does not matter until the next deal); deal, with the lone cards of piles of at most
 * one card placed on those piles in every way (that is all moving a lone card can change); or
 * end, once the stock is out. A top that may go and has no lower high card of its suit left to
 * kill is taken off at once (keeping it can only block). Pure, no clock.
 */
import type { Card } from '../cards.ts'
import { INF, RANK, SUIT } from './card-tables.ts'
import { hashWords, StateTable } from './state-table.ts'

const OPT = 64
const SEP = 127
/** A face (0 … 51) as the relaxed game writes it: card % 52, plus OPT when marked. */
const faceSuit = (f: number) => SUIT[f & 63]!
const faceRank = (f: number) => RANK[f & 63]!

export class HighCards {
  readonly n: number
  readonly k: number
  /** Deepest pile the relaxed game can build (every high card on one pile). */
  readonly cap: number
  /** Per depth of the search: piles (k × cap faces), heights, stock position, high cards in play. */
  private readonly pcs: Uint8Array[] = []
  private readonly phs: Uint8Array[] = []
  private readonly sps: Int32Array
  private readonly counts: Uint8Array[] = []
  /** Per stock position: whether the high cards from there on land on pile p (a bit per pile). */
  private readonly lands: Uint8Array
  private readonly memo = new StateTable(10)
  /** Per depth: its state's key (and the same as bytes), kept from the lookup to the store. */
  private readonly keys: Uint32Array[] = []
  private readonly keyBytes: Uint8Array[] = []
  private readonly order: Int32Array
  /** Positions of the relaxed game solved so far (each one is a node of the search's budget). */
  misses = 0
  /** Past this many misses the bound stops (returns 0) and stays off. */
  maxMisses = Number.POSITIVE_INFINITY
  off = false

  constructor(
    readonly deck: ArrayLike<Card>,
    k: number,
    readonly r0: number,
  ) {
    this.n = deck.length
    this.k = k
    let highs = 0
    for (let i = 0; i < this.n; i++) if (RANK[deck[i]!]! >= r0) highs++
    this.cap = highs + 1
    const depth = 4 * highs + this.n + 8
    for (let d = 0; d < depth; d++) {
      this.pcs.push(new Uint8Array(k * this.cap))
      this.phs.push(new Uint8Array(k))
      this.counts.push(new Uint8Array(52))
      const key = new Uint32Array(Math.ceil((2 + highs + k) / 4) + 1)
      this.keys.push(key)
      this.keyBytes.push(new Uint8Array(key.buffer))
    }
    this.sps = new Int32Array(depth)
    this.lands = new Uint8Array(this.n + 1)
    const first = Math.min(k, this.n)
    for (let i = this.n - 1; i >= 0; i--) {
      const p = i < first ? -1 : (i - first) % k
      this.lands[i] = this.lands[i + 1]! | (p >= 0 && RANK[deck[i]!]! >= r0 ? 1 << p : 0)
    }
    this.order = new Int32Array(k)
  }

  isHigh(c: number): boolean {
    return RANK[c]! >= this.r0
  }

  /**
   * The fewest committed high cards the relaxed game leaves from a phase start of exact.ts: its
   * piles (`pc`, `pf` 1 = marked, `ph`, `srcCap` slots a pile) and stock position. 0 once off,
   * and 0 without a search when fewer than `need` committed high cards are left to count.
   */
  value(
    pc: Uint8Array,
    pf: Uint8Array,
    ph: Uint8Array,
    srcCap: number,
    sp: number,
    need: number,
  ): number {
    if (this.off) return 0
    const to = this.pcs[0]!
    const th = this.phs[0]!
    const count = this.counts[0]!
    count.fill(0)
    for (let p = 0; p < this.k; p++) {
      let h = 0
      for (let j = 0; j < ph[p]!; j++) {
        const c = pc[p * srcCap + j]!
        if (!this.isHigh(c)) continue
        const f = (c % 52) | (pf[p * srcCap + j] === 1 ? OPT : 0)
        to[p * this.cap + h++] = f
        count[c % 52]!++
      }
      th[p] = h
    }
    let most = 0
    for (let i = sp; i < this.n; i++) {
      if (!this.isHigh(this.deck[i]!)) continue
      count[this.deck[i]! % 52]!++
      most++
    }
    if (most + this.committed(0) < need) return 0
    this.sps[0] = sp
    const v = this.solve(0)
    if (v < 0) {
      this.off = true
      return 0
    }
    return v
  }

  /** The value at depth d (its state in the buffers of d); -1 once past maxMisses. */
  private solve(d: number): number {
    this.settle(d)
    const key = this.keys[d]!
    const len = this.pack(d)
    const hash = hashWords(key, len)
    const got = this.memo.get(key, 0, len, hash)
    if (got >= 0) return got
    if (++this.misses > this.maxMisses) return -1
    const k = this.k
    const cap = this.cap
    const ph = this.phs[d]!
    const sp = this.sps[d]!
    let best = sp >= this.n ? this.committed(d) : INF
    let gap = -1
    for (let p = 0; p < k; p++) {
      if (ph[p] === 0) {
        if (gap < 0) gap = p
        continue
      }
      if (!this.mayGo(d, p)) continue
      this.copy(d)
      this.pop(d + 1, p)
      const v = this.solve(d + 1)
      if (v < 0) return -1
      if (v < best) best = v
    }
    if (gap >= 0) {
      for (let a = 0; a < k; a++) {
        if (ph[a]! < 2) continue
        this.copy(d)
        const pc1 = this.pcs[d + 1]!
        const ph1 = this.phs[d + 1]!
        const x = pc1[a * cap + --ph1[a]!]!
        pc1[gap * cap] = x
        ph1[gap] = 1
        const v = this.solve(d + 1)
        if (v < 0) return -1
        if (v < best) best = v
      }
    }
    if (sp < this.n) {
      const v = this.deal(d)
      if (v < 0) return -1
      if (v < best) best = v
    }
    this.memo.set(key, 0, len, hash, best)
    return best
  }

  /** The committed (unmarked) high cards on the table at depth d. */
  private committed(d: number): number {
    const pc = this.pcs[d]!
    const ph = this.phs[d]!
    let c = 0
    for (let p = 0; p < this.k; p++) {
      for (let j = 0; j < ph[p]!; j++) if ((pc[p * this.cap + j]! & OPT) === 0) c++
    }
    return c
  }

  /** The deal from depth d, over every placing of the lone cards; -1 once past maxMisses. */
  private deal(d: number): number {
    const k = this.k
    const cap = this.cap
    const pc = this.pcs[d]!
    const ph = this.phs[d]!
    const sp = this.sps[d]!
    const small: number[] = []
    const lone: number[] = []
    for (let p = 0; p < k; p++) {
      if (ph[p]! > 1) continue
      small.push(p)
      if (ph[p] === 1) lone.push(pc[p * cap]!)
    }
    const m = Math.min(k, this.n - sp)
    let best = INF
    const at = new Int32Array(lone.length)
    const used = new Uint8Array(small.length)
    const place = (i: number): number => {
      if (i === lone.length) {
        this.copy(d)
        const pc1 = this.pcs[d + 1]!
        const ph1 = this.phs[d + 1]!
        for (const p of small) ph1[p] = 0
        for (let j = 0; j < lone.length; j++) {
          const p = small[at[j]!]!
          pc1[p * cap] = lone[j]!
          ph1[p] = 1
        }
        for (let p = 0; p < m; p++) {
          const c = this.deck[sp + p]!
          if (this.isHigh(c)) pc1[p * cap + ph1[p]!++] = c % 52
        }
        this.sps[d + 1] = sp + m
        return this.solve(d + 1)
      }
      for (let s = 0; s < small.length; s++) {
        if (used[s] === 1) continue
        used[s] = 1
        at[i] = s
        const v = place(i + 1)
        used[s] = 0
        if (v < 0) return -1
        if (v < best) best = v
      }
      return best
    }
    return place(0)
  }

  /** Takes off, until none is left, every top that may go and has nothing left to kill. */
  private settle(d: number): void {
    const ph = this.phs[d]!
    for (let again = true; again; ) {
      again = false
      for (let p = 0; p < this.k; p++) {
        if (ph[p] === 0 || !this.mayGo(d, p) || this.hasPrey(d, this.top(d, p))) continue
        this.pop(d, p)
        again = true
      }
    }
  }

  private top(d: number, p: number): number {
    return this.pcs[d]![p * this.cap + this.phs[d]![p]! - 1]!
  }

  /** The top of p may be taken off: it is marked, or another top kills it. */
  private mayGo(d: number, p: number): boolean {
    const x = this.top(d, p)
    if ((x & OPT) !== 0) return true
    const ph = this.phs[d]!
    for (let q = 0; q < this.k; q++) {
      if (q === p || ph[q] === 0) continue
      const y = this.top(d, q)
      if (faceSuit(y) === faceSuit(x) && faceRank(y) > faceRank(x)) return true
    }
    return false
  }

  /** Whether a lower high card of x's suit is still in play (on the table or in the stock). */
  private hasPrey(d: number, x: number): boolean {
    const count = this.counts[d]!
    const s = faceSuit(x)
    for (let r = this.r0; r < faceRank(x); r++) if (count[s * 13 + r - 2]! > 0) return true
    return false
  }

  private pop(d: number, p: number): void {
    const x = this.pcs[d]![p * this.cap + --this.phs[d]![p]!]!
    this.counts[d]![x & 63]!--
  }

  /** Depth d + 1 starts as a copy of depth d. */
  private copy(d: number): void {
    this.pcs[d + 1]!.set(this.pcs[d]!)
    this.phs[d + 1]!.set(this.phs[d]!)
    this.counts[d + 1]!.set(this.counts[d]!)
    this.sps[d + 1] = this.sps[d]!
  }

  /**
   * Packs the state of depth d into its key (`keys[d]`); returns its length in words. Piles on which no high
   * card lands any more are interchangeable, so they are written in a canonical order.
   */
  private pack(d: number): number {
    const k = this.k
    const cap = this.cap
    const pc = this.pcs[d]!
    const ph = this.phs[d]!
    const sp = this.sps[d]!
    const lands = this.lands[sp]!
    const order = this.order
    let free = 0
    for (let p = 0; p < k; p++) if ((lands >> p) & 1) order[free++] = p
    const start = free
    for (let p = 0; p < k; p++) {
      if ((lands >> p) & 1) continue
      let j = free++
      while (j > start && this.comparePiles(d, order[j - 1]!, p) > 0) {
        order[j] = order[j - 1]!
        j--
      }
      order[j] = p
    }
    const bytes = this.keyBytes[d]!
    let len = 0
    bytes[len++] = sp
    for (let i = 0; i < k; i++) {
      const p = order[i]!
      for (let j = 0; j < ph[p]!; j++) bytes[len++] = pc[p * cap + j]!
      bytes[len++] = SEP
    }
    while ((len & 3) !== 0) bytes[len++] = 0
    return len >> 2
  }

  private comparePiles(d: number, a: number, b: number): number {
    const pc = this.pcs[d]!
    const ph = this.phs[d]!
    const cap = this.cap
    const n = Math.min(ph[a]!, ph[b]!)
    for (let j = 0; j < n; j++) {
      const x = pc[a * cap + j]! - pc[b * cap + j]!
      if (x !== 0) return x
    }
    return ph[a]! - ph[b]!
  }
}
