// The answers of an Idiot replay's hint reviews (lib/hint-review.ts), kept while the page is open:
// one move at a time when asked, or every move in turn ("Check every move"), with the moves to
// look at again: those whose playouts lost clearly more games than the hint's move.
import type { IdiotMove, IdiotState, Weighed } from '@kortbord/engine'
import { type Review, reviewable, reviewMove, sameMove } from './hint-review.ts'
import type { MoveLine } from './replay.ts'

export type Answer = 'working' | 'failed' | Review

/** A move that lost clearly more games in the playouts than the hint's. */
export interface LookAgain {
  readonly k: number
  readonly seat: number
  /** The share of games the move made lost, and the hint's move, in percent. */
  readonly playedLost: number
  readonly hintLost: number
}

/**
 * How many standard errors the move made must lose above the hint's move to be listed: with
 * about a hundred playouts a move, a difference of 10 points is often chance (the hint's move is
 * the best of several noisy figures), so only a difference beyond twice its error counts.
 */
export const LOOK_AGAIN_ERRORS = 2

const share = (w: Weighed) => Math.round((100 * w.lost) / Math.max(1, w.tries))
const rate = (w: Weighed) => w.lost / Math.max(1, w.tries)
/** The standard error of a share of lost games (never taken as less than a floor's, as bots.ts). */
const variance = (w: Weighed) => Math.max(rate(w) * (1 - rate(w)), 0.05) / Math.max(1, w.tries)

/** Whether `played` lost clearly more of its playouts than `hint` (beyond chance). */
export function clearlyWorse(played: Weighed, hint: Weighed): boolean {
  return (
    rate(played) - rate(hint) > LOOK_AGAIN_ERRORS * Math.sqrt(variance(played) + variance(hint))
  )
}

/** The hint's own share of lost games, where it weighed its move (null: nothing weighed). */
export function hintLost(review: Review): number | null {
  const hint = review.hint
  if (hint === null) return null
  const key = (m: IdiotMove) => JSON.stringify(m)
  const w = hint.weighed.find((x) => key(x.move) === key(hint.move))
  return w === undefined ? null : share(w)
}

/** The moves among `answers` that lost clearly more than the hint's (clearlyWorse), in order. */
export function lookAgain(
  lines: readonly MoveLine[],
  answers: ReadonlyMap<number, Answer>,
): LookAgain[] {
  const out: LookAgain[] = []
  for (const l of lines) {
    const a = answers.get(l.k)
    if (typeof a !== 'object' || a.same || a.hint === null || l.move === null) continue
    const hint = a.hint
    const made = l.move as IdiotMove
    const played = hint.weighed.find((w) => sameMove(w.move, made))
    const chosen = hint.weighed.find((w) => sameMove(w.move, hint.move))
    if (played && chosen && clearlyWorse(played, chosen)) {
      out.push({ k: l.k, seat: l.seat, playedLost: share(played), hintLost: share(chosen) })
    }
  }
  return out
}

export class HintReviews {
  answers = $state.raw<ReadonlyMap<number, Answer>>(new Map())
  /** While every move is checked: how far it has come. */
  checking = $state<{ readonly done: number; readonly of: number } | null>(null)
  /** Whether every move has been checked. */
  checkedAll = $state(false)
  #stopped = false

  constructor(private readonly states: () => readonly IdiotState[]) {}

  /** Works out the review of `line`'s move, unless it is known or under way. */
  async ask(line: MoveLine & { move: IdiotMove }): Promise<void> {
    if (this.answers.has(line.k)) return
    this.#set(line.k, 'working')
    let answer: Answer
    try {
      answer = await reviewMove(this.states(), line)
    } catch {
      answer = 'failed'
    }
    this.#set(line.k, answer)
  }

  /**
   * Reviews every move that can be, one after another, giving the page a moment between two
   * (each takes the page's thread up to the hint's time limit).
   */
  async checkAll(lines: readonly MoveLine[]): Promise<void> {
    if (this.checking !== null) return
    const todo = lines.filter(reviewable)
    for (let i = 0; i < todo.length && !this.#stopped; i++) {
      this.checking = { done: i, of: todo.length }
      await new Promise((r) => setTimeout(r, 0))
      if (!this.#stopped) await this.ask(todo[i]!)
    }
    this.checking = null
    if (!this.#stopped) this.checkedAll = true
  }

  /** The page goes: a check under way ends after the move it is at. */
  stop(): void {
    this.#stopped = true
  }

  #set(k: number, a: Answer): void {
    this.answers = new Map(this.answers).set(k, a)
  }
}
