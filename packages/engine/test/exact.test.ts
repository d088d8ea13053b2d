/**
 * The A-16 full search's own devices (src/aces-up/exact.ts): cards marked optional when they are
 * discardable and decided late, and the way a line of such marks becomes moves of the real game.
 * The search's results are checked against brute forces in solver.test.ts and
 * solver-engine.test.ts; here, that the lines which depend on deciding late are real lines.
 */
import { describe, expect, it } from 'vitest'
import { ExactSearch, T_COMMIT, T_MARK, T_MOVE, T_REMOVE } from '../src/aces-up/exact.ts'
import { realLine } from '../src/aces-up/real-line.ts'
import { solveAcesUp } from '../src/aces-up/solver.ts'
import { acesUp, parseCards } from '../src/index.ts'
import { replaySolverLine } from './aces-up-helpers.ts'

describe('A-16 full search: deciding a discard late', () => {
  it('[A-16] lines that beat every closed line (a kept card, committed or taken off in a later phase) replay through the engine to exactly best', () => {
    let improved = 0
    let commits = 0
    let lateRemovals = 0
    for (let i = 0; i < 150; i++) {
      const deck = acesUp.setup({ piles: 4 }, 1, { seed: `exact-late-${i}` }).deck
      const closed = solveAcesUp(deck, 4, { maxNodes: 0 })
      const s = new ExactSearch(deck, 4)
      s.incumbent = closed.closedBest
      s.maxNodes = 30_000
      s.phaseSearch()
      if (s.incumbent >= closed.closedBest) continue
      improved++
      const steps = s.line()
      // Which devices the line used: a commit, or a card marked in one phase and taken off in a
      // later one (the real line discards it before the deal of its phase).
      const piles: number[][] = [0, 1, 2, 3].map((p) => [deck[p]!])
      let sp = 4
      let phase = 0
      const markedIn = new Map<number, number>()
      for (const st of steps) {
        if (st.op === T_MARK) markedIn.set(piles[st.a]!.at(-1)!, phase)
        else if (st.op === T_COMMIT) commits++
        else if (st.op === T_REMOVE) {
          if ((markedIn.get(piles[st.a]!.pop()!) ?? phase) < phase) lateRemovals++
        } else if (st.op === T_MOVE) piles[st.a & 7]!.push(piles[st.a >> 3]!.pop()!)
        else {
          for (let p = 0; p < st.a; p++) piles[p]!.push(deck[sp++]!)
          phase++
        }
      }
      const line = realLine(deck, 4, steps)
      expect(replaySolverLine(deck, 4, line), `seed exact-late-${i}`).toBe(s.incumbent)
    }
    console.log(
      `exact.test: ${improved} improved, ${commits} commits, ${lateRemovals} late removals`,
    )
    expect(improved).toBeGreaterThan(2)
    expect(commits).toBeGreaterThan(0)
    expect(lateRemovals).toBeGreaterThan(0)
  })

  it('[A-16] a line whose discard has no killer is refused, not written', () => {
    // 5C alone next to 9D: nothing kills it, so taking it off as "optional" is a bug to report.
    const deck = parseCards('5C 9D 2H 3S')
    expect(() =>
      realLine(deck, 4, [
        { op: T_MARK, a: 0, b: 0 },
        { op: T_REMOVE, a: 0, b: deck[0]! },
      ]),
    ).toThrow(/cannot be discarded/)
  })

  it('[A-16] the closed mode never keeps a card, and its line replays to its result', () => {
    for (let i = 0; i < 40; i++) {
      const deck = acesUp.setup({ piles: 4 }, 1, { seed: `exact-closed-${i}` }).deck
      const s = new ExactSearch(deck, 4, true)
      s.phaseSearch()
      expect(s.aborted).toBe(false)
      expect(s.line().some((st) => st.op === T_COMMIT)).toBe(false)
      expect(replaySolverLine(deck, 4, realLine(deck, 4, s.line()))).toBe(s.incumbent)
    }
  })
})
