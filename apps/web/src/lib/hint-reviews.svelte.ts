// The answers of a replay's hint reviews, kept while the page is open: one move at a time when
// asked, or every move in turn ("Check every move"), with the moves to look at again: those whose
// playouts did clearly worse than the hint's move. The game's own part is its Reviewer: Idiot's
// (lib/hint-review.ts) or Idioten's (lib/aces-review.ts).
import type { Lang } from './i18n.ts'
import type { MoveLine } from './replay.ts'

/** How one game's moves are compared with its hint, and said. */
export interface Reviewer<R extends { readonly same: boolean }> {
  /** Whether `line`'s move can be compared with the hint: a move its player made. */
  reviewable(line: MoveLine | null): boolean
  /** The hint from the position `line`'s move was made in, beside the move made. */
  review(line: MoveLine): Promise<R>
  /**
   * The figures of a move that did clearly worse than the hint's, beyond chance (the move made's,
   * then the hint's), or null.
   */
  behind(review: R): { readonly played: number; readonly hint: number } | null
  /** How many reviews a check of every move may have under way at once (default 1). */
  readonly lanes?: number
  /** Lets go of what the reviews hold (a worker), when the page goes. */
  end?(): void
  words(lang: Lang, names: readonly string[]): ReviewWords<R>
}

/** How a game's reviews are said (the screen reader hears the same). */
export interface ReviewWords<R> {
  /** The hint's move, and whether the player did the same. */
  said(review: R, line: MoveLine): string
  /** How much the choice mattered there, in the hint's playouts (null: nothing played out). */
  odds(review: R): string | null
  /** What the hint is. */
  readonly about: string
  /** The heading of the moves to look at again, and what is said when there are none. */
  readonly lookAgain: string
  readonly allGood: string
  lookItem(a: LookAgain): string
}

export type Answer<R> = 'working' | 'failed' | R

/** A move that did clearly worse in the playouts than the hint's. */
export interface LookAgain {
  readonly k: number
  readonly seat: number
  /** The game's figure for the move made and for the hint's (lost %, or cards left). */
  readonly played: number
  readonly hint: number
}

/** The moves among `answers` that did clearly worse than the hint's (Reviewer.behind), in order. */
export function lookAgain<R extends { readonly same: boolean }>(
  reviewer: Reviewer<R>,
  lines: readonly MoveLine[],
  answers: ReadonlyMap<number, Answer<R>>,
): LookAgain[] {
  const out: LookAgain[] = []
  for (const l of lines) {
    const a = answers.get(l.k)
    if (a === undefined || a === 'working' || a === 'failed') continue
    const b = reviewer.behind(a)
    if (b !== null) out.push({ k: l.k, seat: l.seat, played: b.played, hint: b.hint })
  }
  return out
}

/** One player's moves checked against the hint. */
export interface SeatSummary {
  readonly seat: number
  /** Moves of theirs with an answer, and how many of those were the hint's own move. */
  readonly checked: number
  readonly same: number
  /** Of those, the moves to look at again (Reviewer.behind). */
  readonly again: number
}

/** Whether every move of `lines` that can be reviewed has its answer (or one under way). */
export function allAnswered<R extends { readonly same: boolean }>(
  reviewer: Reviewer<R>,
  lines: readonly MoveLine[],
  answers: ReadonlyMap<number, Answer<R>>,
): boolean {
  return lines.every((l) => !reviewer.reviewable(l) || answers.has(l.k))
}

/** Each player's moves among `answers`, in seat order (a player with none checked is left out). */
export function summaryBySeat<R extends { readonly same: boolean }>(
  reviewer: Reviewer<R>,
  lines: readonly MoveLine[],
  answers: ReadonlyMap<number, Answer<R>>,
): SeatSummary[] {
  const by = new Map<number, { checked: number; same: number; again: number }>()
  for (const l of lines) {
    const a = answers.get(l.k)
    if (a === undefined || a === 'working' || a === 'failed') continue
    const s = by.get(l.seat) ?? { checked: 0, same: 0, again: 0 }
    s.checked++
    if (a.same) s.same++
    if (reviewer.behind(a) !== null) s.again++
    by.set(l.seat, s)
  }
  return [...by.entries()].sort(([a], [b]) => a - b).map(([seat, s]) => ({ seat, ...s }))
}

export class HintReviews<R extends { readonly same: boolean }> {
  answers = $state.raw<ReadonlyMap<number, Answer<R>>>(new Map())
  /** While every move is checked: how far it has come. */
  checking = $state<{ readonly done: number; readonly of: number } | null>(null)
  /** Whether the last check came through every move it was given. */
  checkedAll = $state(false)
  /** Where a check the player stopped stood (null: none stopped since the last began). */
  paused = $state<{ readonly done: number; readonly of: number } | null>(null)
  #stopped = false
  #pausing = false

  constructor(readonly reviewer: Reviewer<R>) {}

  /** Works out the review of `line`'s move, unless it is known or under way. */
  async ask(line: MoveLine): Promise<void> {
    if (this.answers.has(line.k) || !this.reviewer.reviewable(line)) return
    this.#set(line.k, 'working')
    let answer: Answer<R>
    try {
      answer = await this.reviewer.review(line)
    } catch {
      answer = 'failed'
    }
    this.#set(line.k, answer)
  }

  /**
   * Reviews every move that can be and is not yet answered, in turn on each of the reviewer's
   * lanes (its workers side by side), giving the page a moment between two.
   */
  async checkAll(lines: readonly MoveLine[]): Promise<void> {
    if (this.checking !== null) return
    this.#pausing = false
    this.paused = null
    this.checkedAll = false
    const todo = lines.filter((l) => this.reviewer.reviewable(l) && !this.answers.has(l.k))
    const of = todo.length + this.#answeredOf(lines)
    const halted = () => this.#stopped || this.#pausing
    let next = 0
    const lane = async () => {
      while (!halted() && next < todo.length) {
        const l = todo[next++]!
        this.checking = { done: Math.min(of - 1, this.#answeredOf(lines)), of }
        await new Promise((r) => setTimeout(r, 0))
        if (!halted()) await this.ask(l)
      }
    }
    await Promise.all(Array.from({ length: Math.max(1, this.reviewer.lanes ?? 1) }, lane))
    this.checking = null
    if (this.#stopped) return
    const done = this.#answeredOf(lines)
    if (done === of) this.checkedAll = true
    else this.paused = { done, of }
  }

  /** How many of `lines`' reviewable moves have an answer (or one under way). */
  #answeredOf(lines: readonly MoveLine[]): number {
    return lines.filter((l) => this.reviewer.reviewable(l) && this.answers.has(l.k)).length
  }

  /**
   * The player stops the check: it ends after the move it is at. What it found stays, and a
   * check begun again goes on from there (moves already answered are not worked out again).
   */
  pause(): void {
    if (this.checking !== null) this.#pausing = true
  }

  /** The page goes: a check under way ends after the move it is at. */
  stop(): void {
    this.#stopped = true
    this.reviewer.end?.()
  }

  #set(k: number, a: Answer<R>): void {
    this.answers = new Map(this.answers).set(k, a)
  }
}
