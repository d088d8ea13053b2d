// The timers of one table on this node: the turn timer (I-16), the bots' pause before a move,
// and each disconnected player's grace period. It only keeps time; the table decides what
// happens when one fires.
import type { Seat } from '@kortbord/engine'

export interface TimerHandlers {
  /** The earliest turn deadline has passed (or nearly: wall clocks drift). */
  turn(): void
  /** A bot's pause is over. */
  bots(): void
  /** A seat's grace period is over. */
  grace(seat: Seat): void
  now(): number
}

export class TableTimers {
  private turnTimer: NodeJS.Timeout | null = null
  private botTimer: NodeJS.Timeout | null = null
  private readonly graceTimers = new Map<Seat, NodeJS.Timeout>()
  private closed = false

  constructor(private readonly on: TimerHandlers) {}

  /** Arms the turn timer for the earliest of `deadlines` (epoch ms), or stops it. */
  turnAt(deadlines: readonly (number | null)[]): void {
    if (this.turnTimer) clearTimeout(this.turnTimer)
    this.turnTimer = null
    let first: number | null = null
    for (const d of deadlines) if (d !== null && (first === null || d < first)) first = d
    if (first === null || this.closed) return
    this.turnTimer = setTimeout(
      () => {
        this.turnTimer = null
        this.on.turn()
      },
      Math.max(0, first - this.on.now()),
    )
    this.turnTimer.unref()
  }

  /** A bot moves after `ms`; null: no bot is due. Replaces any pause already running. */
  botsIn(ms: number | null): void {
    if (this.botTimer) clearTimeout(this.botTimer)
    this.botTimer = null
    if (ms === null || this.closed) return
    this.botTimer = setTimeout(() => {
      this.botTimer = null
      this.on.bots()
    }, ms)
    this.botTimer.unref()
  }

  /** Whether a bot's pause is running (a reload must not restart it: finding 5 of issue 13). */
  get botPending(): boolean {
    return this.botTimer !== null
  }

  graceUntil(seat: Seat, until: number): void {
    this.clearGrace(seat)
    if (this.closed) return
    const t = setTimeout(
      () => {
        if (this.graceTimers.get(seat) === t) this.graceTimers.delete(seat)
        this.on.grace(seat)
      },
      Math.max(0, until - this.on.now()),
    )
    t.unref()
    this.graceTimers.set(seat, t)
  }

  clearGrace(seat: Seat): void {
    const t = this.graceTimers.get(seat)
    if (t) clearTimeout(t)
    this.graceTimers.delete(seat)
  }

  /** No timer is pending. */
  get idle(): boolean {
    return this.turnTimer === null && this.botTimer === null && this.graceTimers.size === 0
  }

  close(): void {
    this.closed = true
    if (this.turnTimer) clearTimeout(this.turnTimer)
    if (this.botTimer) clearTimeout(this.botTimer)
    for (const t of this.graceTimers.values()) clearTimeout(t)
    this.turnTimer = null
    this.botTimer = null
    this.graceTimers.clear()
  }
}
