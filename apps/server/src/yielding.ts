/**
 * Work that may wait a moment so that the players' commands do not (issue 13, finding 4): a
 * crowd of spectators coming or going at once (1,000 `table:watch` or `table:leave` arriving in
 * one read of the sockets) is started a batch at a time, one batch per turn of the event loop,
 * so a move that arrives meanwhile is handled between two batches instead of after the crowd.
 *
 * - Only the events in {@link YIELDING} wait; every other command starts at once, as before.
 * - A connection's messages keep their order: while one of its messages waits, the ones after
 *   it wait too (behind it).
 * - Bounded: at most `max` jobs wait; beyond that a job is refused (the caller answers
 *   `RATE_LIMITED`), never queued. Each connection's own rate limit comes first.
 */

/** The events that yield to the others: presence, not play. */
export const YIELDING: ReadonlySet<string> = new Set(['table:watch', 'table:leave'])

/** Jobs started per turn of the event loop. */
const BATCH = 32

export class Yielding {
  private readonly jobs: { owner: string; run: () => void }[] = []
  private head = 0
  /** Jobs waiting per connection (to keep a connection's order). */
  private readonly waiting = new Map<string, number>()
  private scheduled = false

  constructor(private readonly max = 20_000) {}

  /** Jobs waiting now (a metric, and for tests). */
  get size(): number {
    return this.jobs.length - this.head
  }

  /** Whether a message of `owner` must wait behind one already waiting. */
  busy(owner: string): boolean {
    return this.waiting.has(owner)
  }

  /** Queues `run` for `owner`; false when the queue is full (nothing queued). */
  defer(owner: string, run: () => void): boolean {
    if (this.size >= this.max) return false
    this.jobs.push({ owner, run })
    this.waiting.set(owner, (this.waiting.get(owner) ?? 0) + 1)
    if (!this.scheduled) {
      this.scheduled = true
      setImmediate(() => this.drain())
    }
    return true
  }

  private drain(): void {
    this.scheduled = false
    const end = Math.min(this.jobs.length, this.head + BATCH)
    while (this.head < end) {
      const job = this.jobs[this.head]!
      this.jobs[this.head++] = undefined as never
      const n = (this.waiting.get(job.owner) ?? 1) - 1
      if (n > 0) this.waiting.set(job.owner, n)
      else this.waiting.delete(job.owner)
      try {
        job.run()
      } catch {
        // A job answers for itself (the caller's run catches); nothing may stop the others.
      }
    }
    if (this.head === this.jobs.length) {
      this.jobs.length = 0
      this.head = 0
    } else {
      if (this.head > 1024 && this.head * 2 > this.jobs.length) {
        this.jobs.splice(0, this.head)
        this.head = 0
      }
      this.scheduled = true
      setImmediate(() => this.drain())
    }
  }
}
