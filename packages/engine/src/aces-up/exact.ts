/**
 * A-16, the search of solver.ts: the fewest cards an Aces Up deal can leave. In *closed* mode
 * every discard is made as soon as it is possible (the closed search, `closedBest`); otherwise the
 * search covers every line of play, keeps under a deal included, starting from the closed result
 * as its incumbent.
 *
 * ## Deciding a discard late
 *
 * Keeping a discardable card x through a deal is a choice the search would otherwise make at
 * every deal for every such card. Instead, a card that is discardable at some moment is marked
 * *optional*: from then on it may be taken off the table whenever it is the top of its pile, with
 * no killer in sight, and it does not count at the end. This stands for the real line in which x
 * was discarded at the end of the phase (the play between two deals) in which it was last marked,
 * just before that deal: x is then still discardable, because within a phase a killer stays on
 * top until the deal (it can only be moved to a gap or be discarded by a still higher card of its
 * suit, which kills x too). While x lies buried it touches nothing, so both lines see the same
 * tops. The only things the real discard would forbid are using x afterwards: as a killer, or by
 * moving it. Doing either *commits* x (it was kept after all) and it is optional again only if it
 * is discardable again. So the marks never add a line that cannot be played, and they lose none:
 * a line that discards x at once is matched by taking x off at once, and one that keeps it by
 * committing it when it is used.
 *
 * Consequences the search uses:
 * - Only committed cards kill: a top is marked when a committed top of another pile has its suit
 *   and a higher rank. (A marked card that is discardable now kills nothing its own killer does
 *   not kill as well.) Marking is free, never a branch: an optional card can do everything a
 *   committed one can.
 * - An optional card with no lower card of its suit left in play can never be worth committing,
 *   so it is taken off when it reaches the top and left out of the keys while buried.
 * - Taking an optional top off is a branch (it exposes the card below or makes a gap), but
 *   dealing straight after it is never better than dealing without it: the kept card can be taken
 *   off later, when it surfaces. So a deal right after a "bare" removal (one that changed nothing
 *   else) is not searched.
 * - Committing an optional top is a branch only when it has a lower committed top of its suit in
 *   another pile to kill.
 *
 * The search is a depth-first branch and bound over *phases* (the play between two deals). A
 * phase-start state is looked up in a transposition table keyed by the stock position and the
 * table (optional cards marked; piles that receive no further card sorted, since only those are
 * interchangeable); its value is the least, over every configuration reachable within the phase,
 * of the value of that configuration dealt on, and the table keeps exact values and lower bounds
 * (from {@link ExactSearch.lowerBound} and from searches cut by the incumbent). Inside a phase,
 * configurations are enumerated depth first with a per-phase visited set. Order within a phase:
 * taking optional tops off, moves from a pile of two or more cards into a gap, the deal, moves of
 * a lone card to another gap (which only change the card that will cover it), commits. A node
 * budget bounds the work (once the search has a line); when it runs out the result is the best
 * line found, unproven.
 *
 * Pure: no clock, no randomness, no I/O.
 */

import type { Card } from '../cards.ts'
import { INF, RANK, SUIT } from './card-tables.ts'
import { HighCards } from './high-cards.ts'
import { PileBound } from './pile-bound.ts'
import { hashWords, StateTable } from './state-table.ts'

/** TT values at or above this are lower bounds (value + LB_FLAG); below it, exact values. */
const LB_FLAG = 1024

/** Trail operations (each undone in reverse). */
export const T_MARK = 0
export const T_REMOVE = 1
export const T_COMMIT = 2
export const T_MOVE = 3
export const T_DEAL = 4

/** Twins (same suit and rank) play alike: keys write the face, card % 52, plus one. */
const FACE = new Uint8Array(104)
for (let c = 0; c < 104; c++) FACE[c] = (c % 52) + 1

/** One step of a line found by the search, as trail codes: op, a, b. */
export interface TrailStep {
  op: number
  a: number
  b: number
}

export class ExactSearch {
  readonly n: number
  readonly k: number
  readonly cap: number
  readonly deck: Uint8Array
  /** Pile p holds pc[p*cap] (bottom) … pc[p*cap + ph[p] - 1] (top); pf: 1 = optional. */
  readonly pc: Uint8Array
  readonly pf: Uint8Array
  readonly ph: Uint8Array
  sp = 0
  dealt = 0
  /** Committed cards on the table: the result if the game ended now. */
  committed = 0
  /** Cards in play (table, either mark, and stock) per face. */
  readonly inPlay = new Uint8Array(53)
  /** Per suit, the lowest rank in play (15: none): x has prey iff it is below x's rank. */
  readonly lowest = new Uint8Array(4)

  nodes = 0
  maxNodes = Number.POSITIVE_INFINITY
  aborted = false
  incumbent = INF
  /** The trail that reached the incumbent (empty: the search found nothing below its start). */
  incumbentSteps: TrailStep[] = []

  // The trail: every change since the layout, for undo and for the line.
  tOp = new Int32Array(1024)
  tA = new Int32Array(1024)
  tB = new Int32Array(1024)
  tLen = 0

  tt = new StateTable(12)
  retExact = false
  /** The high-card bound (high-cards.ts), if in use; its positions count as nodes. */
  high: HighCards | null = null

  readonly ctxMin: Int32Array
  readonly ctxExact: Uint8Array
  readonly ctxLB: Int32Array
  /** Whether phase d has branched yet (only then can a configuration be reached twice). */
  readonly branched: Uint8Array
  readonly visited: (StateTable | null)[]
  readonly savedKey: Uint32Array
  readonly savedLen: Int32Array
  readonly savedHash: Int32Array

  readonly maxWords: number
  readonly keyWords: Uint32Array
  readonly keyBytes: Uint8Array
  keyLen = 0
  keyHash = 0
  /** Slots that keys leave out: a probe of {@link dominated}. */
  readonly skip: Uint8Array
  readonly order: Int32Array
  /** The bounds (1) to (3) of {@link lowerBound}. */
  readonly piles: PileBound

  /**
   * @param closed every discard is made as soon as it is possible (no card is ever kept): the
   *   closed search of solver.ts.
   */
  constructor(
    deck: readonly Card[],
    k: number,
    readonly closed = false,
  ) {
    this.n = deck.length
    this.k = k
    this.cap = this.n + 1
    this.deck = Uint8Array.from(deck)
    this.pc = new Uint8Array(k * this.cap)
    this.pf = new Uint8Array(k * this.cap)
    this.ph = new Uint8Array(k)
    const phases = this.n + 2
    this.ctxMin = new Int32Array(phases)
    this.ctxExact = new Uint8Array(phases)
    this.ctxLB = new Int32Array(phases)
    this.branched = new Uint8Array(phases)
    this.visited = new Array<StateTable | null>(phases).fill(null)
    this.maxWords = Math.ceil((1 + this.n + k) / 4)
    this.keyWords = new Uint32Array(this.maxWords)
    this.keyBytes = new Uint8Array(this.keyWords.buffer)
    this.savedKey = new Uint32Array(phases * this.maxWords)
    this.savedLen = new Int32Array(phases)
    this.savedHash = new Int32Array(phases)
    this.order = new Int32Array(k)
    this.skip = new Uint8Array(k * this.cap)
    this.piles = new PileBound(deck, k, closed)
    this.reset()
  }

  /** Back to the layout. */
  reset(): void {
    this.ph.fill(0)
    this.inPlay.fill(0)
    for (let i = 0; i < this.n; i++) this.inPlay[FACE[this.deck[i]!]!]!++
    for (let s = 0; s < 4; s++) this.lowest[s] = this.lowestFrom(s, 2)
    const first = Math.min(this.k, this.n)
    for (let p = 0; p < first; p++) {
      this.pc[p * this.cap] = this.deck[p]!
      this.pf[p * this.cap] = 0
      this.ph[p] = 1
    }
    this.sp = first
    this.dealt = 0
    this.committed = first
    this.tLen = 0
    this.aborted = false
  }

  // ---- primitive changes, all recorded on the trail -------------------------------------------

  push(op: number, a: number, b: number): void {
    if (this.tLen === this.tOp.length) {
      const grow = (t: Int32Array) => {
        const g = new Int32Array(t.length * 2)
        g.set(t)
        return g
      }
      this.tOp = grow(this.tOp)
      this.tA = grow(this.tA)
      this.tB = grow(this.tB)
    }
    this.tOp[this.tLen] = op
    this.tA[this.tLen] = a
    this.tB[this.tLen] = b
    this.tLen++
  }

  top(p: number): number {
    return this.pc[p * this.cap + this.ph[p]! - 1]!
  }

  topFlag(p: number): number {
    return this.pf[p * this.cap + this.ph[p]! - 1]!
  }

  /** Marks or commits the top of p (flag 1 / 0). */
  setTopFlag(p: number, f: number): void {
    this.pf[p * this.cap + this.ph[p]! - 1] = f
    if (f === 1) this.committed--
    else this.committed++
    this.push(f === 1 ? T_MARK : T_COMMIT, p, 0)
  }

  /** Takes the optional top of p off the table. */
  remove(p: number): void {
    const x = this.top(p)
    this.ph[p]!--
    const s = SUIT[x]!
    if (--this.inPlay[FACE[x]!]! === 0 && this.lowest[s] === RANK[x]) {
      this.lowest[s] = this.lowestFrom(s, RANK[x]! + 1)
    }
    this.push(T_REMOVE, p, x)
  }

  /** The lowest rank from r up of suit s with a card in play (15: none). */
  lowestFrom(s: number, r: number): number {
    while (r <= 14 && this.inPlay[s * 13 + r - 1] === 0) r++
    return r
  }

  /** Moves the top of a into the gap b; the card is committed by the move. */
  move(a: number, b: number): void {
    const i = a * this.cap + this.ph[a]! - 1
    const x = this.pc[i]!
    const f = this.pf[i]!
    this.ph[a]!--
    const j = b * this.cap + this.ph[b]!
    this.pc[j] = x
    this.pf[j] = 0
    this.ph[b]!++
    if (f === 1) this.committed++
    this.push(T_MOVE, a * 8 + b, f)
  }

  deal(): void {
    const m = Math.min(this.k, this.n - this.sp)
    for (let p = 0; p < m; p++) {
      const j = p * this.cap + this.ph[p]!
      this.pc[j] = this.deck[this.sp + p]!
      this.pf[j] = 0
      this.ph[p]!++
    }
    this.sp += m
    this.committed += m
    this.dealt++
    this.push(T_DEAL, m, 0)
  }

  /** Undoes the trail back to length `to`. */
  undo(to: number): void {
    while (this.tLen > to) {
      const i = --this.tLen
      const op = this.tOp[i]!
      const a = this.tA[i]!
      const b = this.tB[i]!
      if (op === T_MARK) {
        this.pf[a * this.cap + this.ph[a]! - 1] = 0
        this.committed++
      } else if (op === T_COMMIT) {
        this.pf[a * this.cap + this.ph[a]! - 1] = 1
        this.committed--
      } else if (op === T_REMOVE) {
        const j = a * this.cap + this.ph[a]!
        this.pc[j] = b
        this.pf[j] = 1
        this.ph[a]!++
        this.inPlay[FACE[b]!]!++
        if (RANK[b]! < this.lowest[SUIT[b]!]!) this.lowest[SUIT[b]!] = RANK[b]!
      } else if (op === T_MOVE) {
        const from = a >> 3
        const to2 = a & 7
        const j = to2 * this.cap + this.ph[to2]! - 1
        const x = this.pc[j]!
        this.ph[to2]!--
        const i2 = from * this.cap + this.ph[from]!
        this.pc[i2] = x
        this.pf[i2] = b
        this.ph[from]!++
        if (b === 1) this.committed--
      } else {
        for (let p = 0; p < a; p++) this.ph[p]!--
        this.sp -= a
        this.committed -= a
        this.dealt--
      }
    }
  }

  // ---- rules of the marks ---------------------------------------------------------------------

  /** Is there a lower card of x's suit still in play (so that x could ever kill)? */
  hasPrey(x: number): boolean {
    return !this.closed && this.lowest[SUIT[x]!]! < RANK[x]!
  }

  /**
   * Has another pile a committed top of the suit of p's top, of a higher rank (`above`: a killer
   * of p's top) or a lower one (its prey)?
   */
  committedOfSuit(p: number, above: boolean): boolean {
    const x = this.top(p)
    const s = SUIT[x]
    const r = RANK[x]!
    for (let q = 0; q < this.k; q++) {
      if (q === p || this.ph[q] === 0 || this.topFlag(q) === 1) continue
      const y = this.top(q)
      if (SUIT[y] === s && (above ? RANK[y]! > r : RANK[y]! < r)) return true
    }
    return false
  }

  /**
   * Marks every discardable committed top and takes off every optional top that can never be
   * worth committing, until nothing changes. Returns true if it changed anything.
   */
  closure(): boolean {
    let any = false
    for (;;) {
      let changed = false
      for (let p = 0; p < this.k; p++) {
        if (this.ph[p] === 0) continue
        if (this.topFlag(p) === 0) {
          if (this.committedOfSuit(p, true)) {
            this.setTopFlag(p, 1)
            changed = true
          }
        }
        if (this.ph[p]! > 0 && this.topFlag(p) === 1 && !this.hasPrey(this.top(p))) {
          this.remove(p)
          changed = true
          p--
        }
      }
      if (!changed) return any
      any = true
    }
  }

  // ---- keys -----------------------------------------------------------------------------------

  freeFrom(): number {
    return Math.min(this.n - this.sp, this.k)
  }

  /** Byte of the card at slot i in keys, or 0 if keys leave it out (a useless optional card). */
  keyByte(i: number): number {
    const x = this.pc[i]!
    if (this.skip[i] === 1) return 0
    if (this.pf[i] === 1 && !this.closed) return this.hasPrey(x) ? FACE[x]! + 64 : 0
    return FACE[x]!
  }

  /** Index of the first slot from i (below end) that keys write, or end. */
  nextKeyed(i: number, end: number): number {
    while (i < end && this.keyByte(i) === 0) i++
    return i
  }

  /** Compares piles a and b as their keys write them (bottom first, then length). */
  comparePiles(a: number, b: number): number {
    const ea = a * this.cap + this.ph[a]!
    const eb = b * this.cap + this.ph[b]!
    let i = this.nextKeyed(a * this.cap, ea)
    let j = this.nextKeyed(b * this.cap, eb)
    while (i < ea && j < eb) {
      const d = this.keyByte(i) - this.keyByte(j)
      if (d !== 0) return d
      i = this.nextKeyed(i + 1, ea)
      j = this.nextKeyed(j + 1, eb)
    }
    return (i < ea ? 1 : 0) - (j < eb ? 1 : 0)
  }

  packKey(): void {
    const bytes = this.keyBytes
    const k = this.k
    const free = this.freeFrom()
    const order = this.order
    for (let p = 0; p < k; p++) order[p] = p
    for (let i = free + 1; i < k; i++) {
      const v = order[i]!
      let j = i - 1
      while (j >= free && this.comparePiles(order[j]!, v) > 0) {
        order[j + 1] = order[j]!
        j--
      }
      order[j + 1] = v
    }
    let len = 0
    bytes[len++] = this.sp
    for (let i = 0; i < k; i++) {
      const p = order[i]!
      const o = p * this.cap
      for (let j = 0; j < this.ph[p]!; j++) {
        const v = this.keyByte(o + j)
        if (v !== 0) bytes[len++] = v
      }
      bytes[len++] = 127
    }
    while ((len & 3) !== 0) bytes[len++] = 0
    const n = len >> 2
    this.keyLen = n
    this.keyHash = hashWords(this.keyWords, n)
  }

  saveKey(d: number): void {
    const o = d * this.maxWords
    for (let i = 0; i < this.keyLen; i++) this.savedKey[o + i] = this.keyWords[i]!
    this.savedLen[d] = this.keyLen
    this.savedHash[d] = this.keyHash
  }

  ttSet(d: number, v: number): void {
    this.tt.set(this.savedKey, d * this.maxWords, this.savedLen[d]!, this.savedHash[d]!, v)
  }

  // ---- bounds ---------------------------------------------------------------------------------

  /**
   * A lower bound on the cards left from a phase start, on any line: the pile bounds (1) to (3)
   * of pile-bound.ts (digging, a dead last row, a frozen table) and, with {@link useHighCards},
   * the high-card game of high-cards.ts when those do not reach the incumbent.
   */
  lowerBound(): number {
    const lb = this.piles.value(this, this.incumbent)
    const high = this.high
    if (high === null || high.off || lb >= this.incumbent) return lb
    const before = high.misses
    high.maxMisses = before + Math.max(0, this.maxNodes - this.nodes)
    const v = high.value(this.pc, this.pf, this.ph, this.cap, this.sp, this.incumbent)
    this.nodes += high.misses - before
    return Math.max(lb, v)
  }

  /** Uses the high-card bound of high-cards.ts, with cards of rank r0 and up. */
  useHighCards(r0: number): void {
    this.high = new HighCards(this.deck, this.k, r0)
  }

  // ---- the search -----------------------------------------------------------------------------

  /** Counts a node; true once past the budget, but never before the search has a line. */
  overBudget(): boolean {
    return ++this.nodes > this.maxNodes && this.incumbent < INF
  }

  stop(d: number): boolean {
    return (
      this.aborted ||
      this.incumbent <= this.ctxLB[d]! ||
      (this.ctxExact[d] === 1 && this.ctxMin[d]! <= this.ctxLB[d]!)
    )
  }

  offer(d: number, v: number, exact: boolean): void {
    const m = this.ctxMin[d]!
    if (v < m || (v === m && exact)) {
      this.ctxMin[d] = v
      this.ctxExact[d] = exact ? 1 : 0
    }
  }

  /** Value of the current phase-start state (just dealt, or the layout). Sets retExact. */
  phaseSearch(): number {
    const d = this.dealt
    if (this.sp === this.n) {
      // Stock empty: if nothing can empty a pile or be taken off, the game is over.
      const mark = this.tLen
      this.closure()
      let forced = true
      for (let p = 0; p < this.k; p++) if (this.ph[p] === 0 || this.topFlag(p) === 1) forced = false
      const v = this.committed
      if (forced) this.leaf(v)
      this.undo(mark)
      if (forced) {
        this.retExact = true
        return v
      }
    }
    this.packKey()
    this.saveKey(d)
    const e = this.tt.get(this.keyWords, 0, this.keyLen, this.keyHash)
    let lb = 0
    if (e >= 0) {
      if (e < LB_FLAG) {
        this.retExact = true
        return e
      }
      lb = e - LB_FLAG
    }
    if (lb < this.incumbent) {
      const slb = this.lowerBound()
      if (slb > lb) lb = slb
    }
    if (lb < this.incumbent && !this.closed) lb = Math.max(lb, this.dominated())
    if (lb >= this.incumbent) {
      this.retExact = false
      return lb
    }
    if (this.overBudget()) {
      this.aborted = true
      this.retExact = false
      return lb
    }
    this.ctxMin[d] = INF
    this.ctxExact[d] = 0
    this.ctxLB[d] = lb
    this.branched[d] = 0
    this.visited[d]?.clear()
    this.explore(d, false)
    this.visited[d]?.clear()
    if (this.aborted) {
      this.retExact = false
      return lb
    }
    const v = this.ctxMin[d]!
    const exactChild = this.ctxExact[d] === 1
    if (exactChild && v <= lb) {
      this.ttSet(d, v)
      this.retExact = true
      return v
    }
    if (this.incumbent <= lb) {
      this.ttSet(d, lb + LB_FLAG)
      this.retExact = false
      return lb
    }
    if (exactChild) {
      this.ttSet(d, v)
      this.retExact = true
      return v
    }
    const r = Math.max(v, lb)
    this.ttSet(d, r + LB_FLAG)
    this.retExact = false
    return r
  }

  /**
   * A lower bound from the transposition table: the value of this table without one of its
   * committed cards that can never kill (the lowest of its suit in play, not an ace). Every line
   * from here is a line from there, with the same cards left but that one (it blocks, it can be
   * moved or discarded, but it discards nothing; the card under it is only the sooner a top), so
   * this table is worth at least as much. Such a pair is met where two lines discarded different
   * cards: on hard deals it saves 9 to 40% of the nodes (engine README, issue 16).
   */
  dominated(): number {
    let best = 0
    for (let s = 0; s < 4 && best < this.incumbent; s++) {
      const low = this.lowest[s]!
      if (low > 13) continue
      const slot = this.committedSlot(s, low)
      if (slot < 0) continue
      const x = this.pc[slot]!
      this.skip[slot] = 1
      this.inPlay[FACE[x]!]!--
      this.lowest[s] = this.lowestFrom(s, low)
      this.packKey()
      const e = this.tt.get(this.keyWords, 0, this.keyLen, this.keyHash)
      this.skip[slot] = 0
      this.inPlay[FACE[x]!]!++
      this.lowest[s] = low
      if (e >= 0) best = Math.max(best, e >= LB_FLAG ? e - LB_FLAG : e)
    }
    return best
  }

  /** The slot of the committed table card of suit s and rank r, or -1 (in the stock, or none). */
  committedSlot(s: number, r: number): number {
    for (let p = 0; p < this.k; p++) {
      const o = p * this.cap
      for (let j = 0; j < this.ph[p]!; j++) {
        const x = this.pc[o + j]!
        if (this.pf[o + j] === 0 && SUIT[x] === s && RANK[x] === r) return o + j
      }
    }
    return -1
  }

  /** Explores phase d from here; `bare`: reached by a removal that changed nothing else. */
  explore(d: number, bare: boolean): void {
    const mark = this.tLen
    if (this.closure()) bare = false
    this.settled(d, bare)
    this.undo(mark)
  }

  settled(d: number, bare: boolean): void {
    const k = this.k
    const rem = this.n - this.sp
    let empty = false
    let optional = false
    for (let p = 0; p < k; p++) {
      if (this.ph[p] === 0) empty = true
      else if (this.topFlag(p) === 1) optional = true
    }
    // A configuration can be reached twice only after a branch of this phase, or if it branches.
    if (this.branched[d] === 1 || empty || optional) {
      this.packKey()
      let vs = this.visited[d]
      if (vs === null || vs === undefined) {
        vs = new StateTable(6)
        this.visited[d] = vs
      }
      if (!vs.add(this.keyWords, 0, this.keyLen, this.keyHash)) return
    }
    if (this.overBudget()) {
      this.aborted = true
      return
    }
    // Taking off an optional top (exposing the card below, or making a gap).
    for (let p = 0; p < k; p++) {
      if (this.ph[p] === 0 || this.topFlag(p) === 0) continue
      const mark = this.tLen
      this.branched[d] = 1
      this.remove(p)
      this.explore(d, true)
      this.undo(mark)
      if (this.stop(d)) return
    }
    if (empty && !this.tryMoves(d, true)) return
    if (!bare) {
      if (rem === 0) {
        const v = this.committed
        this.offer(d, v, true)
        this.leaf(v)
      } else {
        const mark = this.tLen
        this.deal()
        const v = this.phaseSearch()
        const exact = this.retExact
        this.undo(mark)
        if (this.aborted) return
        this.offer(d, v, exact)
      }
      if (this.stop(d)) return
    }
    if (empty && !this.tryMoves(d, false)) return
    // Committing an optional top to kill a lower committed top of its suit.
    for (let p = 0; p < k; p++) {
      if (this.ph[p] === 0 || this.topFlag(p) === 0) continue
      if (!this.committedOfSuit(p, false)) continue
      const mark = this.tLen
      this.branched[d] = 1
      this.setTopFlag(p, 0)
      this.explore(d, false)
      this.undo(mark)
      if (this.stop(d)) return
    }
  }

  /** A game ending here with v cards: keeps it and its trail if it beats the incumbent. */
  leaf(v: number): void {
    if (v >= this.incumbent) return
    this.incumbent = v
    this.incumbentSteps = Array.from(this.tOp.subarray(0, this.tLen), (op, i) => ({
      op,
      a: this.tA[i]!,
      b: this.tB[i]!,
    }))
  }

  /** Moves from piles of two or more cards (tall) or of one card into gaps; false = stop. */
  tryMoves(d: number, tall: boolean): boolean {
    const k = this.k
    const free = this.freeFrom()
    let firstFreeEmpty = true
    for (let b = 0; b < k; b++) {
      if (this.ph[b] !== 0) continue
      const bFree = b >= free
      if (bFree) {
        if (!firstFreeEmpty) continue
        firstFreeEmpty = false
      }
      for (let a = 0; a < k; a++) {
        const ha = this.ph[a]!
        if (a === b || ha === 0 || tall !== ha > 1) continue
        if (ha === 1 && bFree && a >= free) continue
        const mark = this.tLen
        this.branched[d] = 1
        this.move(a, b)
        this.explore(d, false)
        this.undo(mark)
        if (this.stop(d)) return false
      }
    }
    return true
  }

  /** The incumbent line as trail steps (empty if the search found nothing better). */
  line(): TrailStep[] {
    return this.incumbentSteps
  }
}
