// A table's hint (docs/rules.md, hints; lib/hint.ts for Idiot, lib/aces-hint.ts for Idioten
// alone): the one asked for, which holds until the player's own situation changes.
import type { IdiotMove, IdiotPlayerView, IdiotView } from '@kortbord/engine'

/**
 * Where the player stands: a hint holds until this changes. In the swap, only the player's own
 * cards count (the others swap meanwhile, and that changes nothing of theirs); in play, any move.
 */
export function standingOf(v: IdiotView, mine: IdiotPlayerView | null): string {
  return v.phase === 'swap' && mine
    ? `swap ${mine.hand?.join(',')} ${mine.row.map((p) => p.faceUp).join(',')} ${mine.ready}`
    : `${v.phase} ${v.moves}`
}

/**
 * What completes a hint's move, for the keyboard's focus: Play with its cards chosen, the
 * face-up card to swap with, Pick up or Ready.
 */
export function completing(move: IdiotMove | null): string {
  if (move?.type === 'play') return '[data-testid="play"]'
  if (move?.type === 'swap') return `[data-testid="faceup-${move.faceUp}"]`
  if (move?.type === 'pickup') return '[data-testid="pickup"]'
  return '[data-testid="ready"]'
}

/**
 * A table's hint (Idiot's or Idioten alone's): the one asked for, which holds until the player's
 * own situation (`standing`) changes, and whether one is being worked out.
 */
export class TableHint<T> {
  #hint = $state.raw<{ at: string; thought: T | null } | null>(null)
  thinking = $state(false)

  constructor(private readonly standing: () => string) {}

  /** The hint for where the player stands (null: none asked for here). */
  get thought(): T | null {
    const h = this.#hint
    return h !== null && h.at === this.standing() ? h.thought : null
  }

  /**
   * Works out a hint with `work`; whether it is shown (not when its worker failed or did not
   * come, being offline, or the player's situation changed meanwhile).
   */
  async ask(work: () => Promise<T | null>): Promise<boolean> {
    if (this.thinking) return false
    const at = this.standing()
    // The work is done in a Web Worker: the page shows "Thinking…" meanwhile.
    this.thinking = true
    let found: T | null
    try {
      found = await work()
    } catch {
      return false
    } finally {
      this.thinking = false
    }
    if (this.standing() !== at) return false
    this.#hint = { at, thought: found }
    return true
  }
}
