// Stepping through a replay (issue 14): the move shown, playing at a speed, what is shown (what
// the table saw, or every card), and the page's own keys for it.
import { stepMs } from './replay.ts'

/** The moves one can step through: [first, last]; `can`: there is a replay to step through. */
export interface StepRange {
  readonly first: number
  readonly last: number
  readonly can: boolean
}

export class ReplayStepper {
  /** The move shown. */
  k = $state(0)
  playing = $state(false)
  speed = $state<number>(1)
  /** Every card shown, not only what the table showed. */
  all = $state(false)

  /** Must be made while a component is initialised: it plays with an effect of it. */
  constructor(private readonly range: () => StepRange) {
    $effect(() => {
      if (!this.playing) return
      const timer = setInterval(() => {
        if (this.k < this.last) this.k++
        // Stopped at the last move, not a step later.
        if (this.k >= this.last) this.playing = false
      }, stepMs(this.speed))
      return () => clearInterval(timer)
    })
  }

  get first(): number {
    return this.range().first
  }

  get last(): number {
    return this.range().last
  }

  /** A new record or game in play: shown from move `k`, stopped, with every card or not. */
  reset(k: number, all: boolean): void {
    this.k = k
    this.playing = false
    this.all = all
  }

  go(to: number): void {
    this.k = Math.max(this.first, Math.min(this.last, to))
  }

  /** A step asked for by a key: playing stops. */
  jump(to: number): void {
    this.playing = false
    this.go(to)
  }

  togglePlay(): void {
    if (!this.playing && this.k >= this.last) this.k = this.first
    this.playing = !this.playing
  }

  /**
   * The arrow keys step through the game (Home and End: to its start and end) wherever the page
   * has no other use for them: not in a field, a list of choices or the slider, which step
   * themselves, and not with a modifier (the browser's and the screen reader's own keys).
   * True when the key stepped.
   */
  key(e: KeyboardEvent): boolean {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.defaultPrevented) return false
    const el = e.target as HTMLElement | null
    if (el?.closest('input, select, textarea, [contenteditable="true"]')) return false
    const k = this.k
    const to = { ArrowRight: k + 1, ArrowLeft: k - 1, Home: this.first, End: this.last }[e.key]
    if (to === undefined || !this.range().can) return false
    e.preventDefault()
    this.jump(to)
    return true
  }
}
