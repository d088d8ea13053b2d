/**
 * a line of the search of exact.ts (its trail of marks, removals, commits, moves and deals)
 * as moves of the real game, checked move by move.
 */
import type { Card } from '../cards.ts'
import { RANK, SUIT } from './card-tables.ts'
import { T_COMMIT, T_DEAL, T_MARK, T_MOVE, T_REMOVE, type TrailStep } from './exact.ts'

export type SolverMove =
  | { type: 'discard'; pile: number }
  | { type: 'move'; from: number; to: number }
  | { type: 'deal' }

/**
 * Turns a line of the search (its trail) into moves of the real game. An optional card that was
 * taken off when it was discardable in the same phase is discarded then; one taken off later, or
 * never taken off, is discarded at the end of the phase in which it was last marked, just before
 * that deal (lowest rank first, so that each one's killer is still there). Throws if a move it
 * writes is not legal, which would be a bug of the search.
 */
export function realLine(
  deck: readonly Card[],
  k: number,
  steps: readonly TrailStep[],
): SolverMove[] {
  // Pass 1: which mark each removal takes off, and the fate of every mark.
  interface Mark {
    card: number
    phase: number
    removedIn: number
    used: boolean
  }
  const piles: { card: number; mark: Mark | null }[][] = Array.from({ length: k }, () => [])
  const first = Math.min(k, deck.length)
  for (let p = 0; p < first; p++) piles[p]!.push({ card: deck[p]!, mark: null })
  let sp = first
  let phase = 0
  const marks: Mark[] = []
  const removes: (Mark | null)[] = []
  for (const { op, a } of steps) {
    let removed: Mark | null = null
    if (op === T_MARK) {
      const t = piles[a]!.at(-1)!
      t.mark = { card: t.card, phase, removedIn: Number.POSITIVE_INFINITY, used: false }
      marks.push(t.mark)
    } else if (op === T_COMMIT) {
      const t = piles[a]!.at(-1)!
      if (t.mark !== null) t.mark.used = true
      t.mark = null
    } else if (op === T_REMOVE) {
      const t = piles[a]!.pop()!
      removed = t.mark
      if (removed !== null) removed.removedIn = phase
    } else if (op === T_MOVE) {
      const t = piles[a >> 3]!.pop()!
      if (t.mark !== null) t.mark.used = true
      t.mark = null
      piles[a & 7]!.push(t)
    } else {
      for (let p = 0; p < a; p++) piles[p]!.push({ card: deck[sp++]!, mark: null })
      phase++
    }
    removes.push(removed)
  }
  // Pass 2: the real game.
  const real: number[][] = Array.from({ length: k }, () => [])
  for (let p = 0; p < first; p++) real[p]!.push(deck[p]!)
  sp = first
  phase = 0
  const out: SolverMove[] = []
  const discard = (card: number) => {
    const p = real.findIndex((q) => q.at(-1) === card)
    const ok =
      p >= 0 &&
      real.some((q, i) => {
        const y = q.at(-1)
        return i !== p && y !== undefined && SUIT[y] === SUIT[card] && RANK[y]! > RANK[card]!
      })
    if (!ok) throw new Error(`solver line: card ${card} cannot be discarded`)
    real[p]!.pop()
    out.push({ type: 'discard', pile: p })
  }
  // Marks of this phase whose card goes later or never: discarded now, lowest rank first.
  const closePhase = () => {
    const late = marks
      .filter((m) => !m.used && m.phase === phase && m.removedIn > phase)
      .sort((x, y) => RANK[x.card]! - RANK[y.card]!)
    for (const m of late) discard(m.card)
  }
  steps.forEach(({ op, a }, i) => {
    const m = removes[i]
    if (op === T_REMOVE && m !== null && m !== undefined && m.phase === phase) discard(m.card)
    else if (op === T_MOVE) {
      const x = real[a >> 3]!.pop()
      if (x === undefined || real[a & 7]!.length !== 0) throw new Error('solver line: bad move')
      real[a & 7]!.push(x)
      out.push({ type: 'move', from: a >> 3, to: a & 7 })
    } else if (op === T_DEAL) {
      closePhase()
      for (let p = 0; p < a; p++) real[p]!.push(deck[sp++]!)
      out.push({ type: 'deal' })
      phase++
    }
  })
  closePhase()
  return out
}
