/**
 * A-16 "best possible": the fewest cards that could have been left on an Aces Up deal by perfect
 * play with the stock order known.
 *
 * The game searched (docs/rules.md A-3 … A-8, generalised so that short test decks work): the first
 * min(k, n) cards go face up one per pile from the left; the rest is the stock. A deal puts one
 * stock card on each pile from the left, empty piles included, until the stock runs out (so a last
 * deal may be short). A top card may be discarded when the top card of another pile has the same
 * suit and a strictly higher rank (twins of two decks are equal and kill nothing). When a pile is
 * empty, the top card of any other pile may be moved onto it. Once the stock is empty the player
 * may stop; the result is the number of cards on the table.
 *
 * Piles are NOT interchangeable while the stock has cards: pile i always receives the stock cards
 * i, i+k, i+2k, … So moving a lone card to another empty pile matters (it chooses which stock
 * card will cover it); on a sample of 4-pile deals, forbidding it worsens the optimum on two deals
 * in three. Only piles that receive no further card (all of them once the stock is empty; the
 * right-hand ones before a short last deal) are interchangeable; only those are sorted in keys.
 *
 * The search is a depth-first branch and bound over *phases* (the play between two deals). A
 * phase-start state is looked up in a transposition table keyed by the table and the stock
 * position; its value is the least, over every configuration reachable within the phase, of the
 * value of that configuration dealt on. Inside a phase the configurations are enumerated by a DFS
 * with a per-phase visited set (moves of a lone card between empty piles are reversible, so
 * values are cached only at phase starts, where the graph is acyclic).
 *
 * Two searches run. The *closed* search makes every available discard before each deal (within a
 * phase discard opportunities are monotone, so closing them first is confluent and loses nothing
 * among such lines); it always runs to the end and gives `closedBest`. The *full* search also
 * lets a discardable card be kept through the next deal: when a discardable top card has a lower
 * card of its suit still in the stock or buried on the table, it branches on "discard it now" or
 * "keep it until the deal" (discarding later in the same phase is never better than now); every
 * other discardable card is discarded at once. It starts with the closed result as its incumbent
 * and prunes with a lower bound (see {@link Search.lowerBound}). It runs within `maxNodes`; if it
 * finishes, the result is proven optimal over every line of play.
 *
 * Order within a phase: discards first, then moves from a pile of two or more cards into a gap,
 * then the deal, then moves of a lone card to another gap. Filling gaps before dealing finds good
 * lines early (a two-deck deal took 7.7 million nodes when the deal came first, and 33 now).
 *
 * Undo (A-9, any setting of the duel) is ignored on purpose: an undo puts the table back into a
 * position it has already been in (the card returns where it was, and never across a deal), so it
 * reaches no new position and cannot lower the fewest cards left (solver-engine.test.ts checks
 * this against a brute force that plays the undo move).
 *
 * Pure: no clock, no randomness, no I/O.
 */

import { type Card, rankOf, suitOf } from '../cards.ts'
import { StateTable } from './state-table.ts'

export type SolverMove =
  | { type: 'discard'; pile: number }
  | { type: 'move'; from: number; to: number }
  | { type: 'deal' }

export interface SolveOptions {
  /**
   * Search budget for the search that also considers KEEPING a discardable card under a deal.
   * Counted in nodes, not time (the engine has no clock). Default {@link DEFAULT_MAX_NODES}.
   * 0 = don't try keeps.
   */
  maxNodes?: number
}

export interface SolveResult {
  /** Fewest cards left that the solver found (and can replay: see line). */
  best: number
  /**
   * 'all' = best is proven optimal over every line of play; 'closed' = best is proven optimal
   * only over lines that make every available discard before each deal (the full search ran out
   * of budget; `best` may still be below `closedBest` if it found a better line before that).
   */
  proven: 'all' | 'closed'
  /** The optimum over lines that make every available discard before each deal. */
  closedBest: number
  /** Nodes searched in total (both searches). */
  nodes: number
  /**
   * A sequence of moves that, played from the start, leaves exactly `best` cards (the player
   * then ends the game when the stock is empty).
   */
  line: SolverMove[]
}

/** Default node budget of the full search (keeps included). */
export const DEFAULT_MAX_NODES = 20_000

const INF = 0x3fffffff
/** TT values at or above this are lower bounds (value + LB_FLAG); below it, exact values. */
const LB_FLAG = 1024
/** Path codes: 0..7 discard from pile p; MOVE + 8a + b move a→b; DEAL. */
const MOVE = 8
const DEAL = 100

const SUIT = new Uint8Array(104)
const RANK = new Uint8Array(104)
/** Twins (same suit and rank) play alike, so keys write the face, card % 52, plus one. */
const FACE = new Uint8Array(104)
for (let c = 0; c < 104; c++) {
  SUIT[c] = suitOf(c)
  RANK[c] = rankOf(c)
  FACE[c] = (c % 52) + 1
}

class Search {
  readonly n: number
  readonly k: number
  /** Capacity of one pile in `pc`. */
  readonly cap: number
  readonly deck: Uint8Array
  /** Pile p holds pc[p*cap] (bottom) … pc[p*cap + ph[p] - 1] (top). */
  readonly pc: Uint8Array
  readonly ph: Uint8Array
  /** Index in `deck` of the next stock card. */
  sp = 0
  /** Deals made so far (the phase index). */
  dealt = 0
  tableCount = 0
  /** Cards in play (table + stock) per face: 0, 1 or 2. */
  readonly inPlay = new Uint8Array(53)
  /** kept[c] === dealt + 1: card c is kept through the next deal (decided in this phase). */
  readonly kept = new Uint8Array(104)

  keeps = false
  /** With keeps on: the only phase where keeps are tried, or -1 for every phase. */
  keepPhase = -1
  nodes = 0
  maxNodes = Number.POSITIVE_INFINITY
  aborted = false
  incumbent = INF
  incumbentPath: number[] = []

  readonly path: number[] = []
  readonly undoCards: number[] = []
  tt = new StateTable(8)
  retExact = false

  // Per phase (indexed by `dealt`).
  readonly ctxMin: Int32Array
  readonly ctxExact: Uint8Array
  readonly ctxLB: Int32Array
  readonly branched: Uint8Array
  readonly visited: (StateTable | null)[]
  /** Phase-start keys kept while their phase is searched (the key buffer is reused below). */
  readonly savedKey: Uint32Array
  readonly savedLen: Int32Array
  readonly savedHash: Int32Array

  // Scratch.
  readonly maxWords: number
  /** The last packed key: keyLen words of keyWords (bytes in keyBytes), hashed to keyHash. */
  readonly keyWords: Uint32Array
  readonly keyBytes: Uint8Array
  keyLen = 0
  keyHash = 0
  readonly order: Int32Array
  readonly maxLive = new Int32Array(4)
  readonly cost: Int32Array
  readonly pileC: Int32Array
  readonly pileNonPBottom: Uint8Array
  readonly dpA: Int32Array
  readonly dpB: Int32Array
  readonly deadTo: Int32Array
  /** Highest live rank per pile (as the pile the card is or will be on) and suit: [p*4 + s]. */
  readonly liveMax: Int32Array
  /** For stock card i, the pile it will be dealt onto. */
  readonly landing: Uint8Array
  /** stockLive[sp*k*4 + p*4 + s]: highest rank of suit s among stock cards from sp landing on p. */
  readonly stockLive: Uint8Array
  /** Index in `deck` of the last deal's first card, and whether that deal kills nothing (see lastRowBound). */
  readonly lastStart: number
  readonly lastRowDead: boolean
  readonly top1 = new Int32Array(4)
  readonly top1Pile = new Int32Array(4)
  readonly top2 = new Int32Array(4)

  constructor(deck: readonly Card[], k: number) {
    this.n = deck.length
    this.k = k
    this.cap = this.n + 1
    this.deck = Uint8Array.from(deck)
    this.pc = new Uint8Array(k * this.cap)
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
    this.cost = new Int32Array(k * this.cap)
    this.pileC = new Int32Array(k)
    this.pileNonPBottom = new Uint8Array(k)
    this.dpA = new Int32Array((k + 1) * (k + 1) * 2)
    this.dpB = new Int32Array((k + 1) * (k + 1) * 2)
    this.deadTo = new Int32Array(k)
    this.liveMax = new Int32Array(k * 4)
    this.landing = new Uint8Array(this.n)
    const first = Math.min(k, this.n)
    for (let i = first; i < this.n; i++) this.landing[i] = (i - first) % k
    this.stockLive = new Uint8Array((this.n + 1) * k * 4)
    for (let i = this.n - 1; i >= 0; i--) {
      const o = i * k * 4
      for (let j = 0; j < k * 4; j++) this.stockLive[o + j] = this.stockLive[o + k * 4 + j]!
      if (i < first) continue
      const x = this.deck[i]!
      const j = o + this.landing[i]! * 4 + SUIT[x]!
      if (RANK[x]! > this.stockLive[j]!) this.stockLive[j] = RANK[x]!
    }
    this.lastStart = this.n > first ? first + k * Math.floor((this.n - first - 1) / k) : this.n
    let dead = this.n - this.lastStart === k
    for (let i = this.lastStart; dead && i < this.n; i++) {
      for (let j = this.lastStart; j < this.n; j++) {
        const x = this.deck[i]!
        const y = this.deck[j]!
        if (SUIT[x] === SUIT[y] && RANK[y]! > RANK[x]!) dead = false
      }
    }
    this.lastRowDead = dead
    this.reset()
  }

  /** Back to the layout. */
  reset(): void {
    this.ph.fill(0)
    this.inPlay.fill(0)
    this.kept.fill(0)
    for (let i = 0; i < this.n; i++) this.inPlay[FACE[this.deck[i]!]!]!++
    const first = Math.min(this.k, this.n)
    for (let p = 0; p < first; p++) {
      this.pc[p * this.cap] = this.deck[p]!
      this.ph[p] = 1
    }
    this.sp = first
    this.dealt = 0
    this.tableCount = first
    this.path.length = 0
    this.undoCards.length = 0
    this.aborted = false
  }

  top(p: number): number {
    return this.pc[p * this.cap + this.ph[p]! - 1]!
  }

  /** First pile whose top can be discarded and is not kept, or -1. */
  firstDiscardable(): number {
    const k = this.k
    for (let p = 0; p < k; p++) {
      if (this.ph[p] === 0) continue
      const x = this.top(p)
      if (this.kept[x] === this.dealt + 1) continue
      const s = SUIT[x]
      const r = RANK[x]!
      for (let q = 0; q < k; q++) {
        if (q === p || this.ph[q] === 0) continue
        const y = this.top(q)
        if (SUIT[y] === s && RANK[y]! > r) return p
      }
    }
    return -1
  }

  /**
   * Can keeping `x` through the next deal help? Only if a lower card of its suit is still in
   * the stock or buried on the table (a lower card that is a top now is discardable now by the
   * same killer, and is itself a keep candidate only if this holds for it).
   */
  isCandidate(x: number): boolean {
    const s = SUIT[x]!
    const r = RANK[x]!
    let lower = 0
    for (let rr = 2; rr < r; rr++) lower += this.inPlay[s * 13 + rr - 1]!
    if (lower === 0) return false
    for (let p = 0; p < this.k; p++) {
      if (this.ph[p] === 0) continue
      const y = this.top(p)
      if (SUIT[y] === s && RANK[y]! < r) lower--
    }
    return lower > 0
  }

  discard(p: number): number {
    const x = this.top(p)
    this.ph[p]!--
    this.inPlay[FACE[x]!]!--
    this.tableCount--
    return x
  }

  undiscard(p: number, x: number): void {
    this.pc[p * this.cap + this.ph[p]!] = x
    this.ph[p]!++
    this.inPlay[FACE[x]!]!++
    this.tableCount++
  }

  move(a: number, b: number): void {
    const x = this.top(a)
    this.ph[a]!--
    this.pc[b * this.cap + this.ph[b]!] = x
    this.ph[b]!++
  }

  /** Deals; returns the number of cards dealt. */
  deal(): number {
    const m = Math.min(this.k, this.n - this.sp)
    for (let p = 0; p < m; p++) {
      this.pc[p * this.cap + this.ph[p]!] = this.deck[this.sp + p]!
      this.ph[p]!++
    }
    this.sp += m
    this.tableCount += m
    this.dealt++
    return m
  }

  undeal(m: number): void {
    for (let p = 0; p < m; p++) this.ph[p]!--
    this.sp -= m
    this.tableCount -= m
    this.dealt--
  }

  /** Piles p >= this receive no further card, so they are interchangeable. */
  freeFrom(): number {
    const rem = this.n - this.sp
    return Math.min(rem, this.k)
  }

  /** Compares pile a and pile b as sequences (bottom first, then length). */
  comparePiles(a: number, b: number): number {
    const ha = this.ph[a]!
    const hb = this.ph[b]!
    const oa = a * this.cap
    const ob = b * this.cap
    const h = Math.min(ha, hb)
    for (let i = 0; i < h; i++) {
      const d = FACE[this.pc[oa + i]!]! - FACE[this.pc[ob + i]!]!
      if (d !== 0) return d
    }
    return ha - hb
  }

  /**
   * Packs the state's key into keyWords: stock position, then every pile's faces and a separator,
   * one byte each (zero padding to a whole word). Piles that receive no further card are sorted;
   * twins are written alike.
   */
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
      const h = this.ph[p]!
      const o = p * this.cap
      // Faces 1..52, separator 63 (so a key never ends in padding).
      for (let j = 0; j < h; j++) bytes[len++] = FACE[this.pc[o + j]!]!
      bytes[len++] = 63
    }
    while ((len & 3) !== 0) bytes[len++] = 0
    const n = len >> 2
    const words = this.keyWords
    let hash = Math.imul(n, 0x9e3779b1)
    for (let i = 0; i < n; i++) {
      hash = Math.imul(hash ^ words[i]!, 0x85ebca6b)
      hash ^= hash >>> 13
    }
    hash = Math.imul(hash ^ (hash >>> 16), 0xc2b2ae35)
    this.keyLen = n
    this.keyHash = hash ^ (hash >>> 16)
  }

  /** Keeps the packed key as phase d's (for ttSet after the phase is searched). */
  saveKey(d: number): void {
    const o = d * this.maxWords
    for (let i = 0; i < this.keyLen; i++) this.savedKey[o + i] = this.keyWords[i]!
    this.savedLen[d] = this.keyLen
    this.savedHash[d] = this.keyHash
  }

  ttSet(d: number, v: number): void {
    const o = d * this.maxWords
    const n = this.savedLen[d]!
    this.tt.set(this.savedKey, o, n, this.savedHash[d]!, v)
  }

  /** Empties phase d's visited set. */
  clearVisited(d: number): void {
    this.visited[d]?.clear()
  }

  /**
   * A lower bound on the cards left from here on any line (keeps included). "P" cards, of the
   * highest rank of their suit still in play, can never be discarded; there are `staticLb`.
   * (1) Digging: a card below a P card can only come to the top after that P card is moved to an
   * empty pile ("dug"), where it then lies at the bottom of a pile for good (it is never
   * discarded, and moving a lone card elsewhere keeps it at a bottom). B piles have a P card at
   * the bottom now. A pile whose bottom card is not P but lies under an undug P card stays
   * occupied for good (N such piles). So B + digs + N <= k. Moreover, while a pile with a non-P
   * bottom is being dug it is occupied too, so if some such pile is dug out completely, then at
   * its last dig (best done before any other dig) B + its digs and those of the piles dug out
   * before + N + 1 <= k. The bound takes the best digs under both constraints (a small dynamic
   * programme over the piles), optimistically assuming every freed card gets discarded.
   * (2) Frozen table: if every pile holds a P card, no pile can become empty again, so no move is
   * ever possible. Then a card can only be discarded by a higher card of its suit in another pile
   * (one in its own pile is below it, or above it and must go first), every card below a P card
   * stays buried for good, and a card with no live killer in another pile (table, or stock by
   * the pile it will land on) is P too. The fixpoint is computed assuming no move is ever
   * possible and then checked: if every pile holds a P card of the fixpoint, then by induction
   * over time no P card has been discarded or moved before the first empty pile, so none ever
   * appears.
   */
  lowerBound(): number {
    const _n = this.n
    const k = this.k
    const cap = this.cap
    const maxLive = this.maxLive
    // Highest rank in play per suit.
    let staticLb = 0
    for (let s = 0; s < 4; s++) {
      maxLive[s] = 0
      for (let r = 14; r >= 2; r--) {
        const c = this.inPlay[s * 13 + r - 1]!
        if (c > 0) {
          maxLive[s] = r
          staticLb += c
          break
        }
      }
    }
    // (1) Digging. State: r1 = digs + piles left with a non-P bottom under an undug P card;
    // r2 = digs out of fully dug non-P-bottom piles + those left piles; fd = some non-P-bottom
    // pile is fully dug. Value: least number of non-P cards left buried.
    const cost = this.cost
    const pileC = this.pileC
    const pileNonPBottom = this.pileNonPBottom
    let bottoms = 0
    let noEmpty = true
    let any = false
    for (let p = 0; p < k; p++) {
      pileC[p] = 0
      const h = this.ph[p]!
      if (h === 0) {
        noEmpty = false
        continue
      }
      const o = p * cap
      const x0 = this.pc[o]!
      const pBottom = RANK[x0] === maxLive[SUIT[x0]!]
      if (pBottom) bottoms++
      pileNonPBottom[p] = pBottom ? 0 : 1
      let c = 0
      let nonP = pBottom ? 0 : 1
      for (let j = 1; j < h; j++) {
        const x = this.pc[o + j]!
        if (RANK[x] === maxLive[SUIT[x]!]) cost[o + c++] = nonP
        else nonP++
      }
      pileC[p] = c
      if (c > 0) any = true
    }
    let buried = 0
    if (any) {
      // cost[p*cap + i] = non-P cards below the i-th non-bottom P card of pile p from the bottom;
      // with m digs from the top, the cards below P card number c-1-m stay buried.
      const lim = k - bottoms
      const k1 = lim + 1
      let dpA = this.dpA
      let dpB = this.dpB
      const size = k1 * k1 * 2
      dpA.fill(INF, 0, size)
      dpA[0] = 0
      for (let p = 0; p < k; p++) {
        const c = pileC[p]!
        if (c === 0) continue
        const nonPBottom = pileNonPBottom[p] === 1
        const o = p * cap
        dpB.fill(INF, 0, size)
        for (let i = 0; i < size; i++) {
          const cur = dpA[i]!
          if (cur === INF) continue
          const fd = i & 1
          const r2 = (i >> 1) % k1
          const r1 = ((i >> 1) - r2) / k1
          for (let m = 0; m <= c; m++) {
            let n1 = r1 + m
            let n2 = r2
            let nf = fd
            let v = cur
            if (m < c) v += cost[o + c - 1 - m]!
            if (nonPBottom) {
              if (m < c) {
                n1++
                n2++
              } else {
                n2 += c
                nf = 1
              }
            }
            if (n1 > lim || n2 > lim) continue
            const idx = (n1 * k1 + n2) * 2 + nf
            if (v < dpB[idx]!) dpB[idx] = v
          }
        }
        const t = dpA
        dpA = dpB
        dpB = t
      }
      buried = INF
      for (let i = 0; i < size; i++) {
        const v = dpA[i]!
        if (v >= buried) continue
        // fd: the last dig of a fully dug non-P-bottom pile needs r2 + 1 more piles.
        if ((i & 1) === 1 && ((i >> 1) % k1) + 1 > lim) continue
        buried = v
      }
    }
    const digLb = Math.max(staticLb + buried, this.lastRowBound())
    if (!noEmpty) return digLb
    return Math.max(digLb, this.frozenBound())
  }

  /**
   * (3) A dead last row: when the last deal covers every pile and none of its cards can discard
   * another (no two share a suit, or only as equal twins), then after it every pile is occupied
   * and no top can discard another top, so the game is over at once: the last deal's cards
   * stay, and so does every card on the table before it. Those include every card that can never
   * be discarded (the highest live card of its suit, counted in `maxLive`). Before the last deal,
   * the bound is the last deal's size plus those permanent cards that are not in it.
   */
  lastRowBound(): number {
    if (!this.lastRowDead || this.sp > this.lastStart) return 0
    let permanent = 0
    for (let s = 0; s < 4; s++) {
      const r = this.maxLive[s]!
      if (r > 0) permanent += this.inPlay[s * 13 + r - 1]!
    }
    for (let i = this.lastStart; i < this.n; i++) {
      const x = this.deck[i]!
      if (RANK[x] === this.maxLive[SUIT[x]!]) permanent--
    }
    return this.n - this.lastStart + permanent
  }

  /** Bound (2) of {@link lowerBound}, or 0 if not every pile holds a P card. */
  frozenBound(): number {
    const n = this.n
    const k = this.k
    const cap = this.cap
    const deadTo = this.deadTo // slots [0, deadTo[p]) of pile p are buried for good
    const liveMax = this.liveMax
    deadTo.fill(0)
    for (;;) {
      // Highest live rank per (pile, suit): stock cards by landing, table cards above deadTo.
      const so = this.sp * k * 4
      for (let i = 0; i < k * 4; i++) liveMax[i] = this.stockLive[so + i]!
      for (let p = 0; p < k; p++) {
        const o = p * cap
        for (let j = deadTo[p]!; j < this.ph[p]!; j++) {
          const x = this.pc[o + j]!
          const i = p * 4 + SUIT[x]!
          if (RANK[x]! > liveMax[i]!) liveMax[i] = RANK[x]!
        }
      }
      this.summarise()
      // In each pile, the highest card with no higher live card of its suit in another pile is
      // P; everything below it is buried for good.
      let changed = false
      for (let p = 0; p < k; p++) {
        const o = p * cap
        for (let j = this.ph[p]! - 1; j > deadTo[p]!; j--) {
          if (this.isP(this.pc[o + j]!, p)) {
            deadTo[p] = j
            changed = true
            break
          }
        }
      }
      if (!changed) break
    }
    let lb = 0
    for (let p = 0; p < k; p++) {
      const o = p * cap
      let hasP = false
      for (let j = deadTo[p]!; j < this.ph[p]!; j++) {
        if (this.isP(this.pc[o + j]!, p)) {
          hasP = true
          lb++
        }
      }
      if (!hasP) return 0
      lb += deadTo[p]!
    }
    for (let i = this.sp; i < n; i++) if (this.isP(this.deck[i]!, this.landing[i]!)) lb++
    return lb
  }

  /** Per suit: the highest live rank over piles, its pile, and the highest in any other pile. */
  summarise(): void {
    const top1 = this.top1
    const top1Pile = this.top1Pile
    const top2 = this.top2
    for (let s = 0; s < 4; s++) {
      let a = 0
      let ap = -1
      let b = 0
      for (let p = 0; p < this.k; p++) {
        const v = this.liveMax[p * 4 + s]!
        if (v > a) {
          b = a
          a = v
          ap = p
        } else if (v > b) b = v
      }
      top1[s] = a
      top1Pile[s] = ap
      top2[s] = b
    }
  }

  /** In the frozen bound: has card x, in (or landing on) pile p, no live killer elsewhere? */
  isP(x: number, p: number): boolean {
    const s = SUIT[x]!
    const other = this.top1Pile[s] === p ? this.top2[s]! : this.top1[s]!
    return other <= RANK[x]!
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

  /** Value of the current phase-start state (after a deal, nothing kept). Sets retExact. */
  phaseSearch(): number {
    const d = this.dealt
    if (this.sp === this.n && this.finalIsForced()) {
      // Stock empty and no move will ever be possible: the result is the discard closure.
      this.ctxMin[d] = INF
      this.ctxExact[d] = 0
      this.ctxLB[d] = 0
      this.branched[d] = 0
      this.clearVisited(d)
      this.explore(d)
      this.retExact = true
      return this.ctxMin[d]!
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
    if (lb >= this.incumbent) {
      this.retExact = false
      return lb
    }
    if (++this.nodes > this.maxNodes) {
      this.aborted = true
      this.retExact = false
      return lb
    }
    this.ctxMin[d] = INF
    this.ctxExact[d] = 0
    this.ctxLB[d] = lb
    this.branched[d] = 0
    this.clearVisited(d)
    this.explore(d)
    this.clearVisited(d)
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
      // Possibly stopped early: every unexplored configuration is worth at least lb.
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
   * Plays `line` (path codes) up to the start of phase `phase`, then searches that phase with
   * keeps and the rest with closed play (whose table entries stay valid).
   */
  probe(line: readonly number[], phase: number): void {
    this.reset()
    let i = 0
    while (this.dealt < phase && i < line.length) {
      const c = line[i++]!
      if (c === DEAL) this.deal()
      else if (c < MOVE) this.discard(c)
      else this.move(Math.floor((c - MOVE) / 8), (c - MOVE) % 8)
      this.path.push(c)
    }
    const d = this.dealt
    this.ctxMin[d] = INF
    this.ctxExact[d] = 0
    this.ctxLB[d] = 0
    this.branched[d] = 0
    this.clearVisited(d)
    this.keeps = true
    this.keepPhase = d
    this.explore(d)
    this.clearVisited(d)
    this.keeps = false
    this.keepPhase = -1
  }

  /** With the stock empty: does closing the discards leave no empty pile (so no move)? */
  finalIsForced(): boolean {
    let undo = 0
    for (;;) {
      const p = this.firstDiscardable()
      if (p < 0) break
      this.undoCards.push(this.discard(p))
      this.path.push(p)
      undo++
    }
    let forced = true
    for (let p = 0; p < this.k; p++) if (this.ph[p] === 0) forced = false
    this.unwind(undo)
    return forced
  }

  /** Explores the phase from the current configuration: discards, keeps, moves, then deal. */
  explore(d: number): void {
    let undo = 0
    for (;;) {
      const p = this.firstDiscardable()
      if (p < 0) break
      const x = this.top(p)
      if (
        this.keeps &&
        (this.keepPhase < 0 || this.keepPhase === d) &&
        this.sp < this.n &&
        this.isCandidate(x)
      ) {
        this.branched[d] = 1
        this.discard(p)
        this.path.push(p)
        this.explore(d)
        this.path.pop()
        this.undiscard(p, x)
        if (!this.stop(d)) {
          const old = this.kept[x]!
          this.kept[x] = d + 1
          this.explore(d)
          this.kept[x] = old
        }
        this.unwind(undo)
        return
      }
      this.undoCards.push(this.discard(p))
      this.path.push(p)
      undo++
    }
    this.settled(d)
    this.unwind(undo)
  }

  unwind(count: number): void {
    for (let i = 0; i < count; i++) {
      const p = this.path.pop()!
      this.undiscard(p, this.undoCards.pop()!)
    }
  }

  /** A configuration with no discard left to decide: deal (or stop), then try moves. */
  settled(d: number): void {
    const k = this.k
    const rem = this.n - this.sp
    let empty = false
    let tall = false
    let lone = false
    for (let p = 0; p < k; p++) {
      const h = this.ph[p]!
      if (h === 0) empty = true
      else if (h === 1) lone = true
      else tall = true
    }
    const movable = empty && (tall || (lone && rem > 0))
    if (this.branched[d] === 1 || movable) {
      this.packKey()
      let vs = this.visited[d]
      if (vs === null || vs === undefined) {
        vs = new StateTable(4)
        this.visited[d] = vs
      }
      if (!vs.add(this.keyWords, 0, this.keyLen, this.keyHash)) return
    }
    if (++this.nodes > this.maxNodes) {
      this.aborted = true
      return
    }
    // Moves from a pile of two or more cards into a gap first: filling a gap before dealing
    // is what usually leaves fewer cards, so good lines (and the incumbent) come early. Then the
    // deal, then moving a lone card to another gap (which only changes the card that will cover
    // it; tried last, and never before the deal, so the search never chains through every
    // placement of the lone cards before it deals).
    if (movable && !this.tryMoves(d, true)) return
    if (rem === 0) {
      const v = this.tableCount
      this.offer(d, v, true)
      if (v < this.incumbent) {
        this.incumbent = v
        this.incumbentPath = this.path.slice()
      }
    } else {
      const m = this.deal()
      this.path.push(DEAL)
      const v = this.phaseSearch()
      const exact = this.retExact
      this.path.pop()
      this.undeal(m)
      if (this.aborted) return
      this.offer(d, v, exact)
    }
    if (movable && !this.stop(d)) this.tryMoves(d, false)
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
        this.move(a, b)
        this.path.push(MOVE + a * 8 + b)
        this.branched[d] = 1
        this.explore(d)
        this.path.pop()
        this.move(b, a)
        if (this.aborted || this.stop(d)) return false
      }
    }
    return true
  }
}

function decode(code: number): SolverMove {
  if (code === DEAL) return { type: 'deal' }
  if (code < MOVE) return { type: 'discard', pile: code }
  const m = code - MOVE
  return { type: 'move', from: Math.floor(m / 8), to: m % 8 }
}

/**
 * Solves an Aces Up deal: the fewest cards that perfect play with the stock order known
 * leaves, and a line of play that achieves it. `deck[0]` is dealt first.
 */
export function solveAcesUp(
  deck: readonly Card[],
  piles: 4 | 5 | 8,
  opts: SolveOptions = {},
): SolveResult {
  if (piles !== 4 && piles !== 5 && piles !== 8) throw new RangeError(`piles: ${piles}`)
  if (deck.length > 104) throw new RangeError('deck: more than 104 cards')
  const seen = new Uint8Array(104)
  for (const c of deck) {
    if (!Number.isInteger(c) || c < 0 || c >= 104) throw new RangeError(`not a card: ${c}`)
    if (seen[c] === 1) throw new RangeError(`card twice: ${c}`)
    seen[c] = 1
  }
  const maxNodes = opts.maxNodes ?? DEFAULT_MAX_NODES
  if (!(maxNodes >= 0)) throw new RangeError(`maxNodes: ${maxNodes}`)

  const s = new Search(deck, piles)
  const rootLb = s.lowerBound()
  // Closed search: every available discard before each deal; always complete.
  s.keeps = false
  s.phaseSearch()
  const closedBest = s.incumbent
  let nodes = s.nodes
  let proven: 'all' | 'closed' = 'closed'
  if (closedBest <= rootLb) proven = 'all'
  else if (maxNodes > 0) {
    s.nodes = 0
    s.maxNodes = maxNodes
    // First, cheaply: keeps in one phase of the closed line, closed play after it.
    const closedLine = s.incumbentPath.slice()
    let deals = 0
    for (const c of closedLine) if (c === DEAL) deals++
    for (let phase = deals - 1; phase >= 0 && !s.aborted; phase--) s.probe(closedLine, phase)
    if (!s.aborted) {
      s.reset()
      s.keeps = true
      s.tt = new StateTable(8)
      s.phaseSearch()
      if (!s.aborted) proven = 'all'
    }
    nodes += s.nodes
  }
  return { best: s.incumbent, proven, closedBest, nodes, line: s.incumbentPath.map(decode) }
}
