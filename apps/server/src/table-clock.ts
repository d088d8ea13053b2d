// A table's clocks (I-16): each seat's turn deadline after a change, the bots' pace, and what
// happens when they run out — the timer plays for a seat whose clock ran out, a bot whose pause
// is over moves. The deadlines are part of the record (they survive a restart); TableTimers only
// keeps time on this node.
import {
  type BotLevel,
  botMove,
  type IdiotMove,
  type IdiotView,
  Rng,
  type Seat,
} from '@kortbord/engine'
import type { TimeoutAction } from '@kortbord/protocol'
import type { GameAdapter } from './games.ts'
import type { TableRecord } from './store.ts'
import type { TableTimers } from './table-timers.ts'
import { type CommitOptions, type Outcome, someoneHere, type TableHost } from './table-types.ts'

/** The turn timer's setting of a table, or null: none (off, or a patience alone). */
export function turnSeconds(adapter: GameAdapter, r: TableRecord): number | null {
  if (!adapter.timed(r.settings)) return null
  return (r.settings as { turnSeconds?: number | null }).turnSeconds ?? null
}

/**
 * Each seat's turn clock after a change from `cur` to `next` (I-16: a live table handles
 * stalling): a seat that has to act gets a fresh clock when it starts having to, when it acts,
 * and when the setting changes; it keeps its running clock while others act (the swap phase, the
 * simultaneous duel). No clocks outside play, and none while nobody connected is waiting.
 */
export function deadlinesAfter(
  adapter: GameAdapter,
  cur: TableRecord,
  next: TableRecord,
  opts: CommitOptions,
  now: number,
  timerScale: number,
): (number | null)[] {
  const none = next.seats.map(() => null)
  const seconds = turnSeconds(adapter, next)
  if (seconds === null || next.status !== 'playing' || next.state === null) return none
  // Nobody connected is waiting for anyone: no clock runs until someone is back.
  if (!someoneHere(next.seats)) return none
  const prev = cur.deadlines ?? []
  const unchanged = next.state === cur.state && !opts.timerChanged && opts.mover == null
  if (unchanged && someoneHere(cur.seats)) return next.seats.map((_, i) => prev[i] ?? null)
  const before = new Set(
    cur.status === 'playing' && cur.state ? adapter.activeSeats(cur.state) : [],
  )
  const after = new Set(adapter.activeSeats(next.state))
  const fresh = now + Math.round(seconds * 1000 * timerScale)
  return next.seats.map((_, seat) => {
    if (!after.has(seat)) return null
    const running = prev[seat] ?? null
    const restart =
      opts.timerChanged || seat === opts.mover || !before.has(seat) || running === null
    return restart ? fresh : running
  })
}

/**
 * How long until a bot whose turn it is moves (a person's pace, `baseMs`; a quarter of it when
 * swapping), or null if none is due. Bots play Idiot only, and never for an empty room.
 */
export function botDelay(adapter: GameAdapter, r: TableRecord, baseMs: number): number | null {
  if (r.status !== 'playing' || r.state === null || r.game !== 'idiot') return null
  const due = adapter.activeSeats(r.state).some((seat) => r.seats[seat]?.bot)
  // Bots play for people, not for an empty room: they wait for someone to come back.
  if (!due || !someoneHere(r.seats)) return null
  return (r.state as { phase: string }).phase === 'swap' ? baseMs / 4 : baseMs
}

/** Applies a move of `seat` that the table makes itself: the timer's (with its action) or a bot's. */
export type ApplyMove = (
  seat: Seat,
  move: Parameters<GameAdapter['apply']>[2],
  timeout: TimeoutAction | null,
  by?: 'bot' | null,
) => Promise<Outcome>

/** The turn timer and the bots of one table: what they do when their time comes. */
export class TableClock {
  constructor(
    private readonly h: TableHost,
    private readonly timers: TableTimers,
    private readonly apply: ApplyMove,
  ) {}

  /** Arms the turn timer and the bots' pause for the record as it now stands. */
  arm(): void {
    const r = this.h.record
    this.timers.turnAt(r.deadlines ?? [])
    const base = this.h.deps.config.botDelayMs ?? 700
    this.timers.botsIn(this.h.closed ? null : botDelay(this.h.adapter, r, base))
  }

  /**
   * A bot whose turn it is moves. It thinks outside the table's queue (a hard bot in the worker
   * pool: never on the event loop), then moves only if the table is still where it thought.
   */
  async botTurn(): Promise<void> {
    try {
      const r = this.h.record
      if (r.status !== 'playing' || r.state === null) return
      for (const seat of this.h.adapter.activeSeats(r.state)) {
        const level = r.seats[seat]?.bot
        if (!level) continue
        // A bot sees what a person in its seat would see: the view, never the state.
        const view = this.h.adapter.view(r.state, seat) as IdiotView
        const move = await this.think(level, view, `${r.code}/${r.version}/${seat}`)
        if (!move) continue
        await this.h.run(async () => {
          // The table moved on meanwhile: its bots are due again from where it is now.
          if (this.h.record.version !== r.version) return
          const out = await this.apply(seat, move, null, 'bot')
          if (!out.ok) this.h.log.warn({ seat, error: out.error }, 'bot move refused')
        })
        return
      }
    } catch (e) {
      this.h.log.warn({ err: e }, 'bot turn failed')
    }
  }

  /** A bot's move: a hard one from the worker pool; without an answer from it, a normal one. */
  private async think(level: BotLevel, view: IdiotView, seed: string): Promise<IdiotMove | null> {
    const deps = this.h.deps
    const think = deps.config.botThinkMs ?? 60
    if (level === 'hard' && deps.botMove) {
      const m = await deps.botMove(level, view, seed, think)
      if (m) return m
      // Refused (the pool is full), too slow or failed: the table never stalls for it.
      level = 'normal'
    }
    const now = () => performance.now()
    return botMove(level, view, Rng.seeded(seed), { rollouts: 400, now, deadline: now() + think })
  }

  /** The seats whose clocks have run out play what the timer plays for them (I-16). */
  onTurnTimer(): Promise<void> {
    const h = this.h
    return h
      .run(async () => {
        const now = h.deps.now()
        const due = (h.record.deadlines ?? []).flatMap((d, seat) =>
          d !== null && d <= now ? [seat] : [],
        )
        if (due.length === 0) {
          // Early by the wall clock: wait out the rest.
          this.timers.turnAt(h.record.deadlines ?? [])
          return
        }
        for (const seat of due) {
          const cur = h.record
          const d = cur.deadlines?.[seat] ?? null
          if (cur.status !== 'playing' || cur.state === null || d === null || d > now) continue
          const t = h.adapter.timeoutMove(cur.state, seat)
          if (!t) continue
          const out = await this.apply(seat, t.move, t.action)
          if (!out.ok) h.log.warn({ seat, error: out.error }, 'timer move refused')
        }
        // Clocks the timer could do nothing for stay as they are until the next change.
        this.timers.turnAt(
          (h.record.deadlines ?? []).map((d) => (d !== null && d > now ? d : null)),
        )
      })
      .catch((e: unknown) => h.log.warn({ err: e }, 'timer move failed'))
  }
}
