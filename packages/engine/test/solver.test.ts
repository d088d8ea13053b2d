import { describe, expect, it } from 'vitest'
import { ExactSearch } from '../src/aces-up/exact.ts'
import { type SolverMove, solveAcesUp } from '../src/aces-up/solver.ts'
import { type Card, fullDeck, parseCards, rankOf, suitOf } from '../src/cards.ts'
import { Rng } from '../src/rng.ts'

// ---------------------------------------------------------------------------------------------
// An independent model of the game (A-3 … A-8, generalised to short decks): a plain brute force
// and a replayer. Nothing here is shared with the solver.

interface State {
  piles: Card[][]
  sp: number
}

const layout = (deck: readonly Card[], k: number): State => {
  const first = Math.min(k, deck.length)
  return { piles: Array.from({ length: k }, (_, p) => (p < first ? [deck[p]!] : [])), sp: first }
}

const canDiscard = (piles: readonly Card[][], p: number): boolean => {
  const x = piles[p]!.at(-1)
  if (x === undefined) return false
  return piles.some((q, i) => {
    const y = q.at(-1)
    return i !== p && y !== undefined && suitOf(y) === suitOf(x) && rankOf(y) > rankOf(x)
  })
}

const dealOnto = (deck: readonly Card[], s: State): void => {
  for (let p = 0; p < s.piles.length && s.sp < deck.length; p++) s.piles[p]!.push(deck[s.sp++]!)
}

const count = (s: State): number => s.piles.reduce((a, p) => a + p.length, 0)

interface BruteOptions {
  /** Deal only when no discard is available (the "closed" lines). */
  closed?: boolean
  /** Allow moving the only card of a pile to an empty pile (default true: the rules allow it). */
  loneMoves?: boolean
  /** Give up (throw) beyond this many states. */
  cap?: number
  /** Search from this position instead of the layout. */
  start?: State
}

/**
 * Exhaustive search over every legal action (every discard, every move to an empty pile, deal;
 * the player may stop once the stock is empty), with a visited set on the full state.
 */
function bruteForce(deck: readonly Card[], k: number, o: BruteOptions = {}): number {
  const cap = o.cap ?? 200_000
  const keyOf = (s: State) => `${s.sp}/${s.piles.map((p) => p.join(',')).join('/')}`
  const start = o.start ?? layout(deck, k)
  const seen = new Set([keyOf(start)])
  const stack = [start]
  let best = Number.POSITIVE_INFINITY
  const push = (s: State) => {
    const key = keyOf(s)
    if (seen.has(key)) return
    seen.add(key)
    if (seen.size > cap) throw new Error(`brute force: more than ${cap} states`)
    stack.push(s)
  }
  while (stack.length > 0) {
    const s = stack.pop()!
    if (s.sp === deck.length) best = Math.min(best, count(s))
    let anyDiscard = false
    for (let p = 0; p < k; p++) {
      if (!canDiscard(s.piles, p)) continue
      anyDiscard = true
      const piles = s.piles.map((q) => q.slice())
      piles[p]!.pop()
      push({ piles, sp: s.sp })
    }
    for (let b = 0; b < k; b++) {
      if (s.piles[b]!.length !== 0) continue
      for (let a = 0; a < k; a++) {
        const h = s.piles[a]!.length
        if (a === b || h === 0 || (h === 1 && o.loneMoves === false)) continue
        const piles = s.piles.map((q) => q.slice())
        piles[b]!.push(piles[a]!.pop()!)
        push({ piles, sp: s.sp })
      }
    }
    if (s.sp < deck.length && !(o.closed && anyDiscard)) {
      const next = { piles: s.piles.map((q) => q.slice()), sp: s.sp }
      dealOnto(deck, next)
      push(next)
    }
  }
  return best
}

/** Plays `line` from the start, checking every step; returns the cards left. */
function replay(deck: readonly Card[], k: number, line: readonly SolverMove[]): number {
  const s = layout(deck, k)
  for (const [i, m] of line.entries()) {
    const where = `step ${i} ${JSON.stringify(m)}`
    if (m.type === 'deal') {
      if (s.sp >= deck.length) throw new Error(`${where}: the stock is empty`)
      dealOnto(deck, s)
    } else if (m.type === 'discard') {
      if (!canDiscard(s.piles, m.pile)) throw new Error(`${where}: not discardable`)
      s.piles[m.pile]!.pop()
    } else {
      const ok =
        m.from !== m.to && s.piles[m.to]?.length === 0 && (s.piles[m.from]?.length ?? 0) > 0
      if (!ok) throw new Error(`${where}: illegal move`)
      s.piles[m.to]!.push(s.piles[m.from]!.pop()!)
    }
  }
  if (s.sp !== deck.length) throw new Error('the line does not deal the whole stock')
  return count(s)
}

/** A short deck of `size` cards drawn from `suits` random suits (twins too with two decks). */
function shortDeck(rng: Rng, suits: number, size: number, decks = 1): Card[] {
  const chosen = rng.shuffle([0, 1, 2, 3]).slice(0, suits)
  const pool: Card[] = []
  for (const s of chosen)
    for (let r = 0; r < 13; r++) for (let d = 0; d < decks; d++) pool.push(d * 52 + s * 13 + r)
  return rng.shuffle(pool).slice(0, size)
}

/** Solves, compares with both brute forces, and replays the line. */
function checkAgainstBruteForce(deck: readonly Card[], k: 4 | 5 | 8, highCards?: number): void {
  const r = solveAcesUp(deck, k, { maxNodes: 1_000_000, highCards })
  const label = `${k} piles, deck ${JSON.stringify(deck)}`
  expect(r.proven, label).toBe('all')
  expect(r.best, label).toBe(bruteForce(deck, k))
  expect(r.closedBest, label).toBe(bruteForce(deck, k, { closed: true }))
  expect(replay(deck, k, r.line), label).toBe(r.best)
}

// ---------------------------------------------------------------------------------------------

describe('A-16 best possible: Aces Up solver', () => {
  it('[A-16] solver agrees with brute force on short random decks (4 piles)', () => {
    for (let i = 0; i < 40; i++) {
      const rng = Rng.seeded(`a16-4-${i}`)
      checkAgainstBruteForce(shortDeck(rng, 2 + rng.int(3), 8 + rng.int(4)), 4)
    }
  })

  it('[A-16] solver agrees with brute force on short random decks (5 piles)', () => {
    for (let i = 0; i < 30; i++) {
      const rng = Rng.seeded(`a16-5-${i}`)
      checkAgainstBruteForce(shortDeck(rng, 3 + rng.int(2), 7 + rng.int(3)), 5)
    }
  })

  it('[A-16] solver agrees with brute force on short two-deck decks with equal twins (8 piles)', () => {
    // The layout is four pairs of twins (equal cards never kill each other, A-4), of rank K or A
    // so that the brute force stays small; then a few cards of either deck.
    let compared = 0
    for (let i = 0; i < 36; i++) {
      const rng = Rng.seeded(`a16-8-${i}`)
      const faces = rng.shuffle([0, 1, 2, 3]).map((s) => s * 13 + 11 + rng.int(2))
      const pairs = rng.shuffle(faces.flatMap((f) => [f, f + 52]))
      const others = fullDeck(2).filter((c) => !pairs.includes(c))
      const deck = pairs.concat(rng.shuffle(others).slice(0, 3 + rng.int(6)))
      try {
        bruteForce(deck, 8, { cap: 10_000 })
      } catch {
        continue // too big for the brute force
      }
      checkAgainstBruteForce(deck, 8)
      compared++
    }
    expect(compared).toBeGreaterThanOrEqual(24)
    // And a hand-made one where twins meet: 9H and 9H' cannot discard each other, KH can.
    checkAgainstBruteForce(parseCards("9H 9H' AS AS' AC AC' AD AD' KH 2S 2S' 3C 4C 2D 5D 2H"), 8)
  })

  it('[A-16] the high-card game (high-cards.ts) solves the whole game when every card is high, and bounds it otherwise', () => {
    // From the layout, with rank 2 as the lowest high rank, the relaxed game is the game itself:
    // its value is the brute force's. With fewer high cards it may only be lower.
    for (let i = 0; i < 40; i++) {
      const rng = Rng.seeded(`a16-high-${i}`)
      const k = i % 4 === 3 ? 5 : 4
      const deck = shortDeck(rng, 2 + rng.int(3), 8 + rng.int(4))
      const truth = bruteForce(deck, k)
      const label = `${k} piles, deck ${JSON.stringify(deck)}`
      for (const r0 of [2, 5, 8, 11, 14]) {
        const s = new ExactSearch(deck, k)
        s.useHighCards(r0)
        const v = s.high!.value(s.pc, s.pf, s.ph, s.cap, s.sp, 0)
        if (r0 === 2) expect(v, label).toBe(truth)
        else expect(v, `${label}, r0 ${r0}`).toBeLessThanOrEqual(truth)
      }
    }
  })

  it('[A-16] the high-card game bounds the game from positions late in full deals', () => {
    // Random play down to one or two deals before the end, then the brute force from there.
    let compared = 0
    let above = 0
    for (let i = 0; i < 60 && compared < 30; i++) {
      const rng = Rng.seeded(`a16-high-late-${i}`)
      const deck = rng.shuffle(fullDeck(1))
      const s = layout(deck, 4)
      while (s.sp < deck.length - 4 * (1 + (i % 2))) {
        for (let p = 0; p < 4; p++) if (canDiscard(s.piles, p) && rng.int(4) > 0) s.piles[p]!.pop()
        const gap = s.piles.findIndex((q) => q.length === 0)
        const from = s.piles.findIndex((q) => q.length > 1)
        if (gap >= 0 && from >= 0 && rng.int(2) === 0) s.piles[gap]!.push(s.piles[from]!.pop()!)
        else dealOnto(deck, s)
      }
      let truth: number
      try {
        truth = bruteForce(deck, 4, { start: s, cap: 50_000 })
      } catch {
        continue // too big for the brute force
      }
      compared++
      const search = new ExactSearch(deck, 4)
      const pc = new Uint8Array(4 * search.cap)
      const ph = Uint8Array.from(s.piles.map((q) => q.length))
      for (const [p, q] of s.piles.entries()) pc.set(q, p * search.cap)
      const none = new Uint8Array(pc.length)
      for (const r0 of [2, 9, 10, 12]) {
        search.useHighCards(r0)
        const v = search.high!.value(pc, none, ph, search.cap, s.sp, 0)
        const label = `seed a16-high-late-${i}, r0 ${r0}`
        if (r0 === 2) expect(v, label).toBe(truth)
        else expect(v, label).toBeLessThanOrEqual(truth)
        if (r0 === 10 && v > 4) above++
      }
    }
    expect(compared).toBeGreaterThanOrEqual(20)
    // It says more than the aces on some of them (else this test would show little).
    expect(above).toBeGreaterThan(0)
  })

  it('[A-16] with the high-card bound forced on, down to low ranks, the solver still agrees with brute force', () => {
    // An unsound bound would cut off the best line and still call the worse one proven.
    for (let i = 0; i < 30; i++) {
      const rng = Rng.seeded(`a16-highs-${i}`)
      const deck = shortDeck(rng, 2 + rng.int(3), 8 + rng.int(4))
      checkAgainstBruteForce(deck, i % 3 === 2 ? 5 : 4, 3 + (i % 10))
    }
    checkAgainstBruteForce(parseCards("9H 9H' AS AS' AC AC' AD AD' KH 2S 2S' 3C 4C 2D 5D 2H"), 8, 9)
  })

  it('[A-16] the high-card bound proves a lost deal the other bounds cannot (m-15: kings need their aces on top)', () => {
    // m-15 leaves 5 at best. Without the bound its proof takes 17 million nodes; with tens and
    // up, about 0.2 million. Only long searches use it by default.
    const deck = Rng.seeded('m-15').shuffle(fullDeck(1))
    const withIt = solveAcesUp(deck, 4, { maxNodes: 400_000, highCards: 10 })
    expect(withIt).toMatchObject({ best: 5, proven: 'all' })
    expect(replay(deck, 4, withIt.line)).toBe(5)
    const without = solveAcesUp(deck, 4, { maxNodes: 400_000, highCards: null })
    expect(without.proven).not.toBe('all')
    expect(without.best).toBe(5)
    // The default: none at the table's budget, tens and up from a million nodes.
    const small = Rng.seeded('a16-full-4-0').shuffle(fullDeck(1))
    expect(solveAcesUp(small, 4)).toEqual(solveAcesUp(small, 4, { highCards: null }))
    expect(solveAcesUp(deck, 4, { maxNodes: 1_000_000 })).toEqual(
      solveAcesUp(deck, 4, { maxNodes: 1_000_000, highCards: 10 }),
    )
  })

  it('[A-16] keeping a discardable card through a deal can beat every closed line', () => {
    // Layout 8H TS 6C TD; deal 1: 5D 2C JD 4C; deal 2: 7C 9S 7H JH; deal 3: KS AS 3S 2H.
    // After deal 2 the tops are 7C 9S 7H JH, and 7H may be discarded (JH kills it). A closed
    // line must discard it; deal 3 then drops 2H on JH, the only heart left that could kill it,
    // and 11 cards stay. Keeping 7H instead: deal 3 covers it with 3S, which AS kills at once;
    // 7H is on top again and kills 2H, which uncovers JH, which kills 7H: 10 cards stay.
    const deck = parseCards('8H TS 6C TD 5D 2C JD 4C 7C 9S 7H JH KS AS 3S 2H')
    const r = solveAcesUp(deck, 4)
    expect(r.closedBest).toBe(11)
    expect(r.best).toBe(10)
    expect(r.proven).toBe('all')
    expect(bruteForce(deck, 4)).toBe(10)
    expect(bruteForce(deck, 4, { closed: true })).toBe(11)
    expect(replay(deck, 4, r.line)).toBe(10)
    // The line deals over the discardable 7H.
    expect(r.line.slice(0, 4).map((m) => m.type)).toEqual(['deal', 'discard', 'discard', 'deal'])
    expect(r.line[4]).toEqual({ type: 'deal' })
  })

  it('[A-16][A-5] a lone card moved to another empty pile changes which stock card covers it (4 piles)', () => {
    // Piles are not interchangeable while the stock has cards: pile i always gets stock cards i,
    // i+4, … Layout 8C 9H AD JC: JC kills 8C, pile 0 is empty. Moving the lone 9H there, the
    // deal 9D 9C KS 3D puts 9D on 9H and 9C on the empty pile 1; 9D kills 3D, JC kills 9C, KS
    // goes to pile 1 and AD kills 9D: 4 cards. Left in place, 9H gets 9C and nothing empties.
    const deck = parseCards('8C 9H AD JC 9D 9C KS 3D')
    const r = solveAcesUp(deck, 4)
    expect(r.best).toBe(4)
    expect(r.closedBest).toBe(4)
    expect(bruteForce(deck, 4)).toBe(4)
    expect(bruteForce(deck, 4, { loneMoves: false })).toBe(5)
    expect(r.line).toContainEqual({ type: 'move', from: 1, to: 0 })
    expect(replay(deck, 4, r.line)).toBe(4)
  })

  it('[A-16][A-6] 5 piles: the last short deal covers piles 0 and 1 only', () => {
    // Layout KH 2C 3C 5D 6D: 3C kills 2C and 6D kills 5D (piles 1 and 3 are empty). The last
    // deal, AS QH, goes onto piles 0 and 1 only. KH must be on top afterwards to kill QH: it
    // leaves pile 0 for pile 3, out of the deal's reach (or AS is moved off it to pile 3 later).
    // The random 5-pile decks above mostly end with such a short deal too.
    const deck = parseCards('KH 2C 3C 5D 6D AS QH')
    const r = solveAcesUp(deck, 5)
    expect(r).toMatchObject({ best: 4, closedBest: 4, proven: 'all' })
    expect(bruteForce(deck, 5)).toBe(4)
    expect(replay(deck, 5, r.line)).toBe(4)
  })

  it('[A-16] full deals: best <= closedBest, at least the aces stay, deterministic, line replays', () => {
    const cases: [4 | 5 | 8, number][] = [
      [4, 1],
      [4, 1],
      [4, 1],
      [4, 1],
      [5, 1],
      [5, 1],
      [8, 2],
      [8, 2],
    ]
    for (const [i, [k, decks]] of cases.entries()) {
      const deck = Rng.seeded(`a16-full-${k}-${i}`).shuffle(fullDeck(decks))
      const r = solveAcesUp(deck, k)
      const label = `${k} piles, seed a16-full-${k}-${i}`
      expect(r.best, label).toBeLessThanOrEqual(r.closedBest)
      expect(r.best, label).toBeGreaterThanOrEqual(4 * decks)
      expect(replay(deck, k, r.line), label).toBe(r.best)
      expect(solveAcesUp(deck, k), label).toEqual(r)
    }
  })

  it('[A-16][A-7] a last deal whose cards discard nothing ends the game at once: proven without the keep search', () => {
    // The last deal covers every pile with 2S 3H 4D 5C: no two share a suit, so no top can go and
    // no pile is empty. The aces stay too (nothing outranks them): 8 cards, whatever the play.
    const deck = parseCards('AS AH AD AC 2S 3H 4D 5C')
    expect(solveAcesUp(deck, 4, { maxNodes: 0 })).toMatchObject({ best: 8, proven: 'all' })
    expect(bruteForce(deck, 4)).toBe(8)
    // With a killing pair in the last row (3H and 9H) the bound says nothing and the closed
    // search alone proves only the closed optimum.
    const live = parseCards('AS AH AD AC 2S 3H 4D 9H 5C 6C KC 8C')
    const r = solveAcesUp(live, 4, { maxNodes: 0 })
    expect(r.best).toBe(bruteForce(live, 4, { closed: true }))
  })

  it('[A-16] the closed search has a budget too: beyond it the figure is a found line, marked unproven', () => {
    // A deal whose closed optimum (8) takes 153,636 nodes to prove.
    const deck = Rng.seeded('closed-cap-10').shuffle(fullDeck(1))
    const exact = solveAcesUp(deck, 4, { maxNodes: 0, closedMaxNodes: Number.POSITIVE_INFINITY })
    expect(exact).toMatchObject({ closedBest: 8, closedProven: true, proven: 'closed' })
    expect(exact.nodes).toBeGreaterThan(150_000)
    // The default budget (100,000) stops it: same line, no proof, and the work is bounded.
    const capped = solveAcesUp(deck, 4, { maxNodes: 0 })
    expect(capped).toMatchObject({ best: 8, closedProven: false, proven: 'none' })
    expect(capped.nodes).toBe(100_001)
    expect(replay(deck, 4, capped.line)).toBe(8)
    // With the keep search after it: at most both budgets, and never called proven over closed
    // lines when it is not.
    const both = solveAcesUp(deck, 4)
    expect(both.nodes).toBeLessThanOrEqual(100_001 + 20_001)
    expect(both.proven).not.toBe('closed')
    expect(replay(deck, 4, both.line)).toBe(both.best)
    // A budget far below the first line's length still gives a line (a figure to show).
    const tiny = solveAcesUp(deck, 4, { maxNodes: 0, closedMaxNodes: 1 })
    expect(tiny.proven).toBe('none')
    expect(replay(deck, 4, tiny.line)).toBe(tiny.best)
    expect(tiny.best).toBeGreaterThanOrEqual(8)
    // A bigger keep budget brings a bigger closed one (the background proof's).
    expect(solveAcesUp(deck, 4, { maxNodes: 200_000 }).closedProven).toBe(true)
    expect(() => solveAcesUp(deck, 4, { closedMaxNodes: 0 })).toThrow(RangeError)
  })

  it('[A-16] maxNodes 0 skips the keep search; bad input is refused', () => {
    const deck = parseCards('8H TS 6C TD 5D 2C JD 4C 7C 9S 7H JH KS AS 3S 2H')
    const r = solveAcesUp(deck, 4, { maxNodes: 0 })
    expect(r).toMatchObject({ best: 11, closedBest: 11, proven: 'closed' })
    expect(replay(deck, 4, r.line)).toBe(11)
    // A won closed line needs no keep search: nothing beats the aces.
    const won = parseCards('2H 3H 4H AH')
    expect(solveAcesUp(won, 4, { maxNodes: 0 })).toMatchObject({ best: 1, proven: 'all' })
    expect(solveAcesUp([], 4)).toMatchObject({ best: 0, proven: 'all', line: [] })
    expect(() => solveAcesUp(deck, 6 as 4)).toThrow(RangeError)
    expect(() => solveAcesUp([1, 1], 4)).toThrow(RangeError)
    expect(() => solveAcesUp([104], 4)).toThrow(RangeError)
  })
})
