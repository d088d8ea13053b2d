// The answers of an Idiot replay's hint reviews (lib/hint-review.ts), kept while the page is open:
// one move at a time when asked, or every move in turn ("Check every move"), with the moves to
// look at again: those whose playouts lost clearly more games than the hint's move.
import { clearlyFewerLosses, type IdiotMove, type IdiotState, type Weighed } from '@kortbord/engine'
import { chosenOf, lostShare } from './hint.ts'
import { type Review, reviewable, reviewMove } from './hint-review.ts'
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

/** Whether `played` lost clearly more of its playouts than `hint` (beyond chance). */
export const clearlyWorse = (played: Weighed, hint: Weighed): boolean =>
  clearlyFewerLosses(hint, played, LOOK_AGAIN_ERRORS)

/** The moves among `answers` that lost clearly more than the hint's (clearlyWorse), in order. */
export function lookAgain(
  lines: readonly MoveLine[],
  answers: ReadonlyMap<number, Answer>,
): LookAgain[] {
  const out: LookAgain[] = []
  for (const l of lines) {
    const a = answers.get(l.k)
    if (typeof a !== 'object' || a.same || a.hint === null || a.played === null) continue
    const chosen = chosenOf(a.hint)
    if (chosen && clearlyWorse(a.played, chosen)) {
      out.push({
        k: l.k,
        seat: l.seat,
        playedLost: lostShare(a.played),
        hintLost: lostShare(chosen),
      })
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
