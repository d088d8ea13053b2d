// Turn clocks as the player sees them (docs/rules.md I-16). The server sends each seat's deadline
// as an epoch time of its own clock; this page's clock may run ahead or behind. A clock is
// therefore turned into a local end time once, when its deadline first arrives, never longer than
// the table's turn: a 15 s timer never shows "16" because this computer's clock lags.

/** When a clock whose server deadline is `deadline` ends on this page's clock (ms). */
export function localEnd(deadline: number, limitMs: number | null, now: number): number {
  const left = deadline - now
  return now + Math.max(0, limitMs === null ? left : Math.min(left, limitMs))
}

/** Whole seconds left, rounded up (a clock shows 1 until it has run out), never below 0. */
export function secondsLeft(end: number, now: number): number {
  return Math.max(0, Math.ceil((end - now) / 1000))
}

/**
 * The local end of each seat's clock. A deadline that is still the same as before keeps the end
 * it was given when it arrived, so that the countdown never jumps as later updates come in.
 */
export class TurnClocks {
  private held: { deadline: number; end: number }[] = []

  /** Local ends per seat (null: no clock) for the deadlines of an update received at `now`. */
  ends(
    deadlines: readonly (number | null)[],
    turnSeconds: number | null,
    now: number,
  ): (number | null)[] {
    const limit = turnSeconds === null ? null : turnSeconds * 1000
    const next = deadlines.map((d, seat) => {
      if (d === null) return null
      const h = this.held[seat]
      return h && h.deadline === d ? h : { deadline: d, end: localEnd(d, limit, now) }
    })
    this.held = next.map((h) => h ?? { deadline: Number.NaN, end: 0 })
    return next.map((h) => (h === null ? null : h.end))
  }
}
