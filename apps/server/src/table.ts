import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Deal, DuelState, IdiotState, Seat } from '@kortbord/engine'
import { type BotLevel, botMove, type IdiotView, Rng, withBest } from '@kortbord/engine'
import {
  type CreateTableMsg,
  type GameView,
  LOG_TAIL,
  type LogEntry,
  type TableInfo,
  type TableUpdate,
  type TestDealMsg,
  type WireError,
} from '@kortbord/protocol'
import type { Logger } from 'pino'
import { ADAPTERS, type AnyState, type GameAdapter } from './games.ts'
import { type SeatRecord, type TableRecord, type TableStore, VersionConflict } from './store.ts'

/** The answer to a command: the acknowledgement the client receives. */
export type Outcome<T extends object = object> =
  | ({ ok: true; version: number } & T)
  | { ok: false; error: WireError }

export const fail = (code: string, message: string): { ok: false; error: WireError } => ({
  ok: false,
  error: { code, message },
})

/** A member of a table is one connection: a seated player or a spectator. */
export type MemberId = string

export interface TableConfig {
  /** How long a disconnected player keeps their seat, ms. */
  readonly graceMs: number
  /** Consecutive timer expiries after which a player is shown as away. */
  readonly timeoutsForAway: number
  /** Whether commands may fix the deal (tests only). */
  readonly testDeals: boolean
  /** How many log entries a table keeps. */
  readonly logKeep: number
  /** Tests only: scales turn timers. */
  readonly timerScale: number
  /** Tests only: the deck of every game started without a deal. */
  readonly testDeck?: readonly number[] | null
  /** How long a bot waits before its move, ms (a person's pace; a quarter of it when swapping). */
  readonly botDelayMs?: number
  /** How long the hard bot may think, ms. */
  readonly botThinkMs?: number
}

export interface TableDeps {
  readonly store: TableStore
  readonly config: TableConfig
  readonly log: Logger
  /**
   * Sends every member its update (on every node); called after every change. `welcome` is a
   * connection that just became a member: it gets the whole update (`updateFor(seat, true)`)
   * instead of the delta the others get.
   */
  publish(table: Table, welcome?: { member: MemberId; seat: Seat | null }): void
  /** Puts a connection (on any node) among the table's members in a seat, or as a spectator. */
  attach(member: MemberId, code: string, seat: Seat | null): void
  /** Takes a connection (on any node) out of the table's members. */
  detach(member: MemberId, code: string): void
  /** Tells a connection (on any node) it is no longer at the table, and detaches it. */
  evict(member: MemberId, code: string, reason: 'replaced'): void
  /** This node's id, recorded with the connections it serves. */
  readonly node?: string
  /** Tells the other nodes that the table changed (they reload it). */
  changed?(code: string, version: number): void
  /** computes the best possible result of a finished Aces Up game, or null. */
  solve?(
    deck: readonly number[],
    piles: 4 | 5 | 8,
  ): Promise<{ best: number; proven: 'all' | 'closed' } | null>
  /** Counts an applied or refused command (metrics). */
  onCommand?(kind: string, seconds: number, code: string | null): void
  now(): number
}

/** Thrown inside a command when the store holds a newer version: reload and run it again. */
class StaleRecord extends Error {}
/** How often a command is re-run on a fresher record before giving up. */
const MAX_ATTEMPTS = 6

export const newToken = (): string => randomBytes(32).toString('base64url')
export const hashToken = (token: string): string =>
  createHash('sha256').update(token, 'utf8').digest('hex')

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex')
  const y = Buffer.from(b, 'hex')
  return x.length === y.length && timingSafeEqual(x, y)
}

const openSeat: SeatRecord = {
  name: null,
  tokenHash: null,
  connected: false,
  holder: null,
  graceUntil: null,
  gone: false,
  timeouts: 0,
}

type LogBody = LogEntry extends infer E
  ? E extends unknown
    ? Omit<E, 'seq' | 'at'>
    : never
  : never

/**
 * The authority over one table: every command goes through its queue, one at a time, is checked
 * against the engine, saved to the store with the version it was based on, then published. It
 * knows nothing of socket.io (ARCHITECTURE.md: a Table takes a game, a store and a publish).
 */
export class Table {
  private queue: Promise<unknown> = Promise.resolve()
  private readonly members = new Map<MemberId, Seat | null>()
  private timer: NodeJS.Timeout | null = null
  private botTimer: NodeJS.Timeout | null = null
  private readonly graceTimers = new Map<Seat, NodeJS.Timeout>()
  private readonly solving = new Set<string>()
  /** What members are sent of one version: built once per version and viewer. */
  private cache: {
    version: number
    spectators: number
    table: TableInfo
    views: Map<Seat | null, GameView | null>
    deltas: Map<Seat | null, TableUpdate>
    wholes: Map<Seat | null, TableUpdate>
  } | null = null
  /** The version this node committed last and the log seq before it: its updates carry a delta. */
  private delta: { version: number; logAfter: number } | null = null
  /** A connection admitted by the command being committed: it gets a whole update. */
  private welcome: { member: MemberId; seat: Seat | null } | null = null
  private closed = false
  readonly adapter: GameAdapter
  readonly log: Logger

  constructor(
    private record: TableRecord,
    private readonly deps: TableDeps,
  ) {
    this.adapter = ADAPTERS[record.game]
    this.log = deps.log.child({ table: record.code })
  }

  /** A new table with its creator in seat 0 as host. */
  static create(
    code: string,
    msg: CreateTableMsg,
    token: string,
    now: number,
    creator: MemberId,
    node: string | null = null,
  ): TableRecord {
    const adapter = ADAPTERS[msg.game]
    const n = adapter.seats(msg.options)
    const seats: SeatRecord[] = Array.from({ length: n }, () => openSeat)
    seats[0] = {
      ...openSeat,
      name: msg.name,
      tokenHash: hashToken(token),
      connected: true,
      holder: creator,
      node,
    }
    return {
      code,
      game: msg.game,
      settings: msg.options,
      allowSpectators: msg.spectators,
      host: 0,
      seats,
      status: 'waiting',
      gameNo: 0,
      tally: Array.from({ length: n }, () => 0),
      state: null,
      version: 1,
      staleBefore: Array.from({ length: n }, () => 0),
      deadline: null,
      spectators: 0,
      log: [{ seq: 1, at: now, t: 'joined', seat: 0, name: msg.name }],
      logSeq: 1,
      createdAt: now,
      updatedAt: now,
    }
  }

  get code(): string {
    return this.record.code
  }
  get version(): number {
    return this.record.version
  }
  /** The record as it stands (for tests and the store); never sent to clients. */
  snapshot(): TableRecord {
    return this.record
  }
  /** The connections at this table on this node. */
  memberIds(): MemberId[] {
    return [...this.members.keys()]
  }
  /**
   * Where a connection of this node sits: a seat, null as a spectator, undefined if not at the
   * table. A seat counts only while the record names this connection as its holder (another
   * node may have handed the seat to a newer connection).
   */
  memberSeat(m: MemberId): Seat | null | undefined {
    const seat = this.members.get(m)
    if (seat === undefined || seat === null) return seat
    if (this.record.seats[seat]?.holder !== m) {
      this.members.delete(m)
      return undefined
    }
    return seat
  }
  get seatCount(): number {
    return this.record.seats.length
  }
  get spectators(): number {
    return this.record.spectators
  }
  /** Nobody is connected on this node and no timer is pending: safe to drop from memory. */
  get idle(): boolean {
    return (
      this.members.size === 0 &&
      this.timer === null &&
      this.botTimer === null &&
      this.graceTimers.size === 0 &&
      this.solving.size === 0
    )
  }

  /**
   * Runs `fn` after every command before it: one command at a time per table on this node. When
   * another node saved first, the record is reloaded and `fn` runs again on it (compare-and-set
   * retry), so no two nodes ever apply a command to the same version.
   */
  private run<T>(fn: () => Promise<T>): Promise<T> {
    const attempt = async (): Promise<T> => {
      for (let i = 1; ; i++) {
        try {
          return await fn()
        } catch (e) {
          if (!(e instanceof StaleRecord) || i >= MAX_ATTEMPTS) throw e
          await this.reload()
        }
      }
    }
    const p = this.queue.then(attempt, attempt)
    this.queue = p.catch(() => undefined)
    return p
  }

  /** Takes the stored record (another node changed it); re-arms timers. False if it is gone. */
  private async reload(): Promise<boolean> {
    const r = await this.deps.store.load(this.record.code)
    if (!r) {
      this.close()
      return false
    }
    if (r.version >= this.record.version) {
      this.record = r
      this.resume()
    }
    return true
  }

  private recovering = false

  /** After a failed write: reload until the store answers, then publish whatever is stored. */
  private recoverLater(): void {
    if (this.recovering || this.closed) return
    this.recovering = true
    const attempt = () => {
      if (this.closed) {
        this.recovering = false
        return
      }
      void this.run(async () => {
        const before = this.record.version
        await this.reload()
        this.recovering = false
        if (this.record.version !== before) this.deps.publish(this)
      }).catch(() => {
        setTimeout(attempt, 1000).unref()
      })
    }
    setTimeout(attempt, 500).unref()
  }

  /** Another node saved `version`: catch up, in turn with the commands of this node. */
  refresh(version: number): Promise<void> {
    return this.run(async () => {
      if (version > this.record.version) await this.reload().catch(() => undefined)
    }).catch(() => undefined)
  }

  // -------------------------------------------------------------------------------------------
  // What members see

  private info(): TableInfo {
    const r = this.record
    return {
      code: r.code,
      game: r.game,
      settings: r.settings,
      host: r.host,
      seats: r.seats.map((s) => ({
        name: s.name,
        connected: s.connected,
        away: s.name !== null && (!s.connected || s.timeouts >= this.deps.config.timeoutsForAway),
        graceUntil: s.graceUntil,
        gone: s.gone,
        bot: s.bot ?? null,
      })),
      spectators: this.spectators,
      allowSpectators: r.allowSpectators,
      status: r.status,
      gameNo: r.gameNo,
      tally: r.tally,
      deadline: r.deadline,
      version: r.version,
    }
  }

  /**
   * The update for one seat (or a spectator, null): built once per version and viewer. Its log
   * holds only the entries this version added (when this node committed it), or with `whole`
   * (or after a reload) the latest {@link LOG_TAIL} entries.
   */
  updateFor(seat: Seat | null, whole = false): TableUpdate {
    const r = this.record
    const spectators = this.spectators
    let c = this.cache
    if (!c || c.version !== r.version || c.spectators !== spectators) {
      c = {
        version: r.version,
        spectators,
        table: this.info(),
        views: new Map(),
        deltas: new Map(),
        wholes: new Map(),
      }
      this.cache = c
    }
    const d = this.delta
    const delta = !whole && d !== null && d.version === r.version
    const updates = delta ? c.deltas : c.wholes
    let u = updates.get(seat)
    if (!u) {
      let view = c.views.get(seat)
      if (view === undefined) {
        view =
          r.state === null ? null : this.adapter.view(r.state, seat === null ? 'spectator' : seat)
        c.views.set(seat, view)
      }
      u = delta
        ? { table: c.table, seat, view, log: newerThan(r.log, d.logAfter), logAfter: d.logAfter }
        : { table: c.table, seat, view, log: r.log.slice(-LOG_TAIL), logAfter: null }
      updates.set(seat, u)
    }
    return u
  }

  // -------------------------------------------------------------------------------------------
  // Changing the record

  private entry(body: LogBody, seq: number): LogEntry {
    return { ...body, seq, at: this.deps.now() } as LogEntry
  }

  /** Saves `next` as the following version, then publishes. The store decides; nothing half-applies. */
  private async commit(
    change: Omit<Partial<TableRecord>, 'version' | 'log' | 'logSeq' | 'deadline'>,
    logs: readonly LogBody[] = [],
    onSaved?: () => void,
  ): Promise<Outcome> {
    const cur = this.record
    let seq = cur.logSeq
    const added = logs.map((b) => this.entry(b, ++seq))
    const keep = this.deps.config.logKeep
    const log = added.length === 0 ? cur.log : cur.log.concat(added).slice(-keep)
    const next: TableRecord = {
      ...cur,
      ...change,
      version: cur.version + 1,
      log,
      logSeq: seq,
      updatedAt: this.deps.now(),
      deadline: this.deadlineAfter(cur, change),
    }
    try {
      await this.deps.store.save(next, cur.version)
    } catch (e) {
      if (e instanceof VersionConflict) throw new StaleRecord()
      this.log.error({ err: e }, 'store refused a write')
      // A write that timed out may still land: find out once the store answers again, and tell
      // everyone what the table then is.
      this.recoverLater()
      return fail('UNAVAILABLE', 'the table could not be saved just now; try again in a moment')
    }
    this.record = next
    this.delta = { version: next.version, logAfter: cur.logSeq }
    this.armTimer()
    this.welcome = null
    onSaved?.()
    const welcome = this.welcome ?? undefined
    this.welcome = null
    this.deps.publish(this, welcome)
    this.deps.changed?.(next.code, next.version)
    return { ok: true, version: next.version }
  }

  private setSeat(seat: Seat, s: Partial<SeatRecord>): SeatRecord[] {
    const seats = this.record.seats.slice()
    seats[seat] = { ...seats[seat]!, ...s }
    return seats
  }

  // -------------------------------------------------------------------------------------------
  // Commands

  /** The creator's connection joins seat 0 (the record was saved by the hub). */
  attachCreator(member: MemberId): void {
    this.members.set(member, 0)
    this.deps.attach(member, this.code, 0)
    this.deps.publish(this, { member, seat: 0 })
  }

  join(member: MemberId, name: string): Promise<Outcome<{ seat: Seat; token: string }>> {
    return this.run(async () => {
      if (this.memberSeat(member) !== undefined)
        return fail('ALREADY_AT_TABLE', 'you are already at this table')
      const seat = this.record.seats.findIndex((s) => s.name === null)
      if (seat < 0) {
        return fail('TABLE_FULL', 'every seat is taken; you can watch instead')
      }
      const token = newToken()
      const r = await this.commit(
        {
          seats: this.setSeat(seat, {
            ...openSeat,
            name,
            tokenHash: hashToken(token),
            connected: true,
            holder: member,
            node: this.deps.node ?? null,
          }),
          // Someone new in a seat changes what the others may do (e.g. start).
          staleBefore: this.record.staleBefore.map(() => this.record.version + 1),
          // A table whose host has gone gets the newcomer as host.
          host: this.hostPresent() ? this.record.host : seat,
        },
        [{ t: 'joined', seat, name }],
        () => this.admit(member, seat),
      )
      if (!r.ok) return r
      return { ...r, seat, token }
    })
  }

  watch(member: MemberId): Promise<Outcome> {
    return this.run(async () => {
      if (this.memberSeat(member) !== undefined)
        return fail('ALREADY_AT_TABLE', 'you are already at this table')
      if (!this.record.allowSpectators)
        return fail('SPECTATORS_OFF', 'the host has turned watching off at this table')
      return this.commit({ spectators: this.record.spectators + 1 }, [], () =>
        this.admit(member, null),
      )
    })
  }

  reclaim(member: MemberId, token: string): Promise<Outcome<{ seat: Seat }>> {
    return this.run(async () => {
      const h = hashToken(token)
      const seat = this.record.seats.findIndex(
        (s) => s.tokenHash !== null && sameHash(s.tokenHash, h),
      )
      if (seat < 0) return fail('BAD_TOKEN', 'that seat token does not hold a seat at this table')
      const mine = this.memberSeat(member)
      if (mine !== undefined && mine !== seat) {
        return fail('ALREADY_AT_TABLE', 'you are already at this table in another place')
      }
      const was = this.record.seats[seat]!
      const seats = this.setSeat(seat, {
        connected: true,
        holder: member,
        node: this.deps.node ?? null,
        // A bot that kept the seat warm steps aside.
        bot: null,
        graceUntil: null,
        gone: false,
        timeouts: 0,
      })
      const r = await this.commit(
        // A table left without a host gets the returning player as host.
        { seats, host: this.nextHost(seats, this.record.host) },
        was.connected ? [] : [{ t: 'back', seat, name: was.name ?? '' }],
        () => {
          // The newest connection wins: the old one (another tab, a dead phone, any node) is
          // told so and leaves the table's rooms.
          const old = was.holder
          if (old !== null && old !== member) {
            this.members.delete(old)
            this.deps.evict(old, this.code, 'replaced')
          }
          this.clearGrace(seat)
          this.admit(member, seat)
        },
      )
      if (!r.ok) return r
      return { ...r, seat }
    })
  }

  /** A connection becomes a member: locally, and in the table's rooms on every node. */
  private admit(member: MemberId, seat: Seat | null): void {
    this.members.set(member, seat)
    this.deps.attach(member, this.code, seat)
    this.welcome = { member, seat }
  }

  leave(member: MemberId): Promise<Outcome> {
    return this.run(async () => {
      const seat = this.memberSeat(member)
      if (seat === undefined) return fail('NOT_AT_TABLE', 'you are not at this table')
      // Still a member until the store has the change: a refused leave changes nothing.
      const gone = () => {
        this.members.delete(member)
        this.deps.detach(member, this.code)
      }
      if (seat === null) {
        return this.commit({ spectators: Math.max(0, this.record.spectators - 1) }, [], gone)
      }
      return this.vacate(seat, 'left', gone)
    })
  }

  /** A member's connection dropped. Players keep their seat for the grace period. */
  disconnect(member: MemberId): Promise<void> {
    const local = this.members.get(member)
    if (local === undefined) return Promise.resolve()
    // The connection is gone whatever the store says; the record follows below.
    this.members.delete(member)
    return this.run(async () => {
      if (local === null) {
        await this.commit({ spectators: Math.max(0, this.record.spectators - 1) })
        return
      }
      const s = this.record.seats[local]!
      // Another connection may hold the seat by now (a reclaim, on this node or another).
      if (s.holder !== member) return
      const until = this.deps.now() + this.deps.config.graceMs
      const r = await this.commit(
        {
          seats: this.setSeat(local, { connected: false, holder: null, graceUntil: until }),
        },
        [{ t: 'away', seat: local, name: s.name ?? '' }],
      )
      if (r.ok) this.armGrace(local, until)
    }).catch((e: unknown) => {
      this.log.warn({ err: e }, 'disconnect not recorded')
    })
  }

  /**
   * Connections held on nodes that are no longer alive (a crash: no disconnect ever came) count
   * as dropped: their players enter the grace period like anyone whose connection dropped.
   */
  holdersLost(live: ReadonlySet<string>): Promise<void> {
    return this.run(async () => {
      const lost = this.record.seats.flatMap((s, seat) =>
        // A connection of this node is alive whatever the marks say.
        s.holder !== null && s.node && !live.has(s.node) && !this.members.has(s.holder)
          ? [seat]
          : [],
      )
      if (lost.length === 0) return
      const until = this.deps.now() + this.deps.config.graceMs
      let seats = this.record.seats
      for (const seat of lost) {
        seats = seats.map((x, i) =>
          i === seat ? { ...x, connected: false, holder: null, node: null, graceUntil: until } : x,
        )
      }
      const r = await this.commit(
        { seats },
        lost.map((seat) => ({ t: 'away' as const, seat, name: seats[seat]!.name ?? '' })),
      )
      if (r.ok) for (const seat of lost) this.armGrace(seat, until)
    }).catch((e: unknown) => this.log.warn({ err: e }, 'lost holders not recorded'))
  }

  /** Whether the host's seat holds a player who has not left. */
  private hostPresent(
    seats: readonly SeatRecord[] = this.record.seats,
    host = this.record.host,
  ): boolean {
    const h = seats[host]
    return h !== undefined && h.name !== null && !h.gone
  }

  /** The host, or if they have gone, the first player still at the table (else unchanged). */
  private nextHost(seats: readonly SeatRecord[], host: Seat): Seat {
    if (this.hostPresent(seats, host)) return host
    const connected = seats.findIndex((x) => x.name !== null && !x.gone && x.connected)
    if (connected >= 0) return connected
    const any = seats.findIndex((x) => x.name !== null && !x.gone)
    return any >= 0 ? any : host
  }

  /**
   * A player who left, or whose grace ran out. Outside a game the seat is freed at once; during
   * a game it stays theirs (their cards are in play) until the game ends or the host removes
   * them. Either way the host role passes on if the host is the one who went.
   */
  private async vacate(
    seat: Seat,
    why: 'left' | 'expired',
    onSaved?: () => void,
  ): Promise<Outcome> {
    const r = this.record
    const s = r.seats[seat]!
    this.clearGrace(seat)
    const logs: LogBody[] =
      why === 'left' || r.status !== 'playing' ? [{ t: 'left', seat, name: s.name ?? '' }] : []
    if (r.status !== 'playing') {
      const seats = this.setSeat(seat, openSeat)
      return this.commit(
        {
          seats,
          host: this.nextHost(seats, r.host),
          staleBefore: r.staleBefore.map(() => r.version + 1),
        },
        logs,
        onSaved,
      )
    }
    const seats = this.setSeat(seat, {
      connected: false,
      holder: null,
      graceUntil: null,
      gone: true,
    })
    return this.commit(
      {
        seats,
        host: this.nextHost(seats, r.host),
        staleBefore: r.staleBefore.map(() => r.version + 1),
      },
      logs,
      onSaved,
    )
  }

  private armGrace(seat: Seat, until: number): void {
    this.clearGrace(seat)
    const t = setTimeout(
      () => {
        void this.run(async () => {
          if (this.graceTimers.get(seat) === t) this.graceTimers.delete(seat)
          const s = this.record.seats[seat]
          if (!s || s.connected || s.graceUntil === null) return
          // Timers may fire a little early by the wall clock: wait out the rest.
          if (s.graceUntil > this.deps.now()) {
            this.armGrace(seat, s.graceUntil)
            return
          }
          await this.vacate(seat, 'expired')
        })
      },
      Math.max(0, until - this.deps.now()),
    )
    t.unref()
    this.graceTimers.set(seat, t)
  }

  private clearGrace(seat: Seat): void {
    const t = this.graceTimers.get(seat)
    if (t) clearTimeout(t)
    this.graceTimers.delete(seat)
  }

  /** Host only: starts the first game, or the next one once a game is over (I-16). */
  start(member: MemberId, version: number, deal?: TestDealMsg): Promise<Outcome> {
    return this.run(async () => {
      const r = this.record
      // A client ahead of this node has seen a version another node saved: catch up first.
      if (version > this.record.version) await this.reload()
      const seat = this.memberSeat(member)
      const refused = this.checkActor(seat, version)
      if (refused) return refused
      if (seat !== r.host) return fail('NOT_HOST', 'only the host can start a game')
      if (r.status === 'playing') return fail('GAME_IN_PROGRESS', 'a game is being played')
      if (r.seats.some((s) => s.name === null))
        return fail('SEATS_NOT_FILLED', 'every seat needs a player before the game starts')
      if (deal !== undefined && !this.deps.config.testDeals)
        return fail('TEST_DEALS_OFF', 'this server does not take fixed deals')
      const fixed = this.deps.config.testDeck
      const d: Deal = deal ?? (fixed ? { deck: fixed } : { seed: randomBytes(16).toString('hex') })
      let state: AnyState
      try {
        state = this.adapter.setup(r.settings, d, r.state)
      } catch (e) {
        return fail('BAD_DEAL', e instanceof Error ? e.message : 'that deal cannot be dealt')
      }
      const gameNo = r.gameNo + 1
      const out = await this.commit(
        {
          state,
          status: 'playing',
          gameNo,
          staleBefore: r.staleBefore.map(() => r.version + 1),
          seats: r.seats.map((s) => ({ ...s, timeouts: 0 })),
        },
        [{ t: 'started', gameNo }, ...this.gameLog(state)],
      )
      if (out.ok) this.afterGameChange()
      return out
    })
  }

  /** Host only: frees the seat of a player who is not connected. */
  remove(member: MemberId, version: number, target: Seat): Promise<Outcome> {
    return this.run(async () => {
      const r = this.record
      // A client ahead of this node has seen a version another node saved: catch up first.
      if (version > this.record.version) await this.reload()
      const seat = this.memberSeat(member)
      const refused = this.checkActor(seat, version)
      if (refused) return refused
      if (seat !== r.host) return fail('NOT_HOST', 'only the host can remove a player')
      const t = r.seats[target]
      if (!t || t.name === null) return fail('SEAT_EMPTY', 'nobody sits there')
      if (target === r.host)
        return fail('CANNOT_REMOVE_SELF', 'the host cannot remove themselves; leave instead')
      if (t.connected && !t.bot) return fail('PLAYER_PRESENT', `${t.name} is at the table`)
      this.clearGrace(target)
      return this.commit(
        {
          seats: this.setSeat(target, openSeat),
          staleBefore: r.staleBefore.map(() => r.version + 1),
        },
        [{ t: 'removed', seat: target, name: t.name }],
      )
    })
  }

  /**
   * Host only: a computer player takes an open seat, or keeps the seat of a player who has gone
   * until they come back with their token (issue 7).
   */
  seatBot(member: MemberId, version: number, target: Seat, level: BotLevel): Promise<Outcome> {
    return this.run(async () => {
      if (version > this.record.version) await this.reload()
      const r = this.record
      const seat = this.memberSeat(member)
      const refused = this.checkActor(seat, version)
      if (refused) return refused
      if (seat !== r.host) return fail('NOT_HOST', 'only the host can seat a bot')
      if (r.game !== 'idiot') return fail('NOT_FOR_BOTS', 'bots play Idiot only')
      const t = r.seats[target]
      if (!t) return fail('SEAT_EMPTY', 'there is no such seat')
      if (t.name !== null && !t.gone && !t.bot)
        return fail('PLAYER_PRESENT', `${t.name} is at the table`)
      const n = r.seats.filter((x) => x.bot).length + 1
      const name = t.name ?? `Bot ${n}`
      return this.commit(
        {
          seats: this.setSeat(target, {
            name,
            bot: level,
            connected: true,
            holder: null,
            graceUntil: null,
            gone: false,
            timeouts: 0,
          }),
          staleBefore: r.staleBefore.map(() => r.version + 1),
        },
        [{ t: 'joined', seat: target, name }],
      )
    })
  }

  /** A game move of the member's seat, made against `version`. */
  move(member: MemberId, version: number, rawMove: unknown): Promise<Outcome> {
    return this.run(async () => {
      // A client ahead of this node has seen a version another node saved: catch up first.
      if (version > this.record.version) await this.reload()
      const seat = this.memberSeat(member)
      const refused = this.checkActor(seat, version)
      if (refused) return refused
      const r = this.record
      if (r.status !== 'playing' || r.state === null)
        return fail(
          'NOT_PLAYING',
          r.status === 'over' ? 'the game is over' : 'the game has not started',
        )
      const parsed = this.adapter.moveSchema.safeParse(rawMove)
      if (!parsed.success) return fail('BAD_REQUEST', `not a move of ${r.game}`)
      return this.applyMove(seat as Seat, parsed.data, null)
    })
  }

  /** Who may act, and whether their command is current. */
  private checkActor(seat: Seat | null | undefined, version: number): Outcome | null {
    if (seat === undefined) return fail('NOT_AT_TABLE', 'you are not at this table')
    if (seat === null) return fail('SPECTATOR', 'spectators watch; they cannot act')
    const r = this.record
    if (version > r.version)
      return fail(
        'FUTURE_VERSION',
        `version ${version} does not exist yet (the table is at ${r.version})`,
      )
    if (version < (r.staleBefore[seat] ?? 0))
      return fail('STALE_VERSION', 'the table changed since that command was made; look again')
    return null
  }

  private gameLog(state: AnyState): LogBody[] {
    // Idiot's events are public by I-15. The duel's are kept to its views: with the same deal,
    // A-15 hides an opponent's game until one has played one's own.
    if (state.game !== 'idiot') return []
    return (state as IdiotState).recent.map((e) => ({ t: 'game' as const, e }))
  }

  private async applyMove(
    seat: Seat,
    move: Parameters<GameAdapter['apply']>[2],
    timeout: 'pickup' | 'play' | 'ready' | null,
  ): Promise<Outcome> {
    const r = this.record
    const before = r.state!
    const res = this.adapter.apply(before, seat, move)
    if (!res.ok) return fail(res.error.code, res.error.message)
    const after = res.value
    const over = this.adapter.isOver(after)
    const stale = this.adapter.staleAfter(before, after, seat)
    const staleBefore = r.staleBefore.slice()
    for (const s of stale) staleBefore[s] = r.version + 1
    const timeouts = timeout === null ? 0 : (r.seats[seat]?.timeouts ?? 0) + 1
    const logs: LogBody[] = []
    if (timeout !== null) logs.push({ t: 'timeout', seat, action: timeout })
    logs.push(...this.gameLog(after))
    const awayNow = timeouts === this.deps.config.timeoutsForAway
    if (awayNow) logs.push({ t: 'away', seat, name: r.seats[seat]?.name ?? '' })
    let seats = this.setSeat(seat, { timeouts })
    if (over) {
      // Players who left during the game give up their seats once it is over.
      seats = seats.map((x) => (x.gone ? openSeat : x))
    }
    const out = await this.commit(
      {
        state: after,
        staleBefore,
        status: over ? 'over' : 'playing',
        tally: over ? this.adapter.tally(after, r.tally) : r.tally,
        seats,
        host: over ? this.nextHost(seats, r.host) : r.host,
      },
      logs,
    )
    if (out.ok) this.afterGameChange()
    return out
  }

  // -------------------------------------------------------------------------------------------
  // Timers and A-16

  private afterGameChange(): void {
    if (this.record.game === 'duel') this.requestBest()
  }

  private turnSeconds(): number | null {
    const r = this.record
    if (!this.adapter.timed) return null
    return (r.settings as { turnSeconds?: number | null }).turnSeconds ?? null
  }

  /**
   * The turn timer's deadline after a change (I-16: a live table handles stalling): a fresh one
   * whenever the game moves, none outside play, unchanged by other changes (joins, reconnects).
   */
  private deadlineAfter(cur: TableRecord, change: Partial<TableRecord>): number | null {
    const seconds = this.turnSeconds()
    const status = change.status ?? cur.status
    if (seconds === null || status !== 'playing') return null
    if (change.state !== undefined && change.state !== cur.state) {
      return this.deps.now() + Math.round(seconds * 1000 * this.deps.config.timerScale)
    }
    return cur.deadline
  }

  /** Bots whose turn it is move after a short, human-like pause (issue 7). */
  private scheduleBots(): void {
    if (this.botTimer) clearTimeout(this.botTimer)
    this.botTimer = null
    const r = this.record
    if (this.closed || r.status !== 'playing' || r.state === null || r.game !== 'idiot') return
    const due = this.adapter.activeSeats(r.state).filter((seat) => r.seats[seat]?.bot)
    if (due.length === 0) return
    const base = this.deps.config.botDelayMs ?? 700
    const delay = (r.state as { phase: string }).phase === 'swap' ? base / 4 : base
    this.botTimer = setTimeout(() => void this.botTurn(), delay)
    this.botTimer.unref()
  }

  private botTurn(): Promise<void> {
    this.botTimer = null
    return this.run(async () => {
      const r = this.record
      if (r.status !== 'playing' || r.state === null) return
      for (const seat of this.adapter.activeSeats(r.state)) {
        const level = this.record.seats[seat]?.bot
        const cur = this.record
        if (!level || cur.status !== 'playing' || cur.state === null) continue
        // A bot sees what a person in its seat would see: the view, never the state.
        const view = this.adapter.view(cur.state, seat) as IdiotView
        const think = this.deps.config.botThinkMs ?? 60
        const now = () => performance.now()
        const move = botMove(level, view, Rng.seeded(`${cur.code}/${cur.version}/${seat}`), {
          rollouts: 400,
          now,
          deadline: now() + think,
        })
        if (!move) continue
        const out = await this.applyMove(seat, move, null)
        if (!out.ok) this.log.warn({ seat, error: out.error }, 'bot move refused')
        return
      }
    }).catch((e: unknown) => this.log.warn({ err: e }, 'bot turn failed'))
  }

  /** Arms the timer for the record's deadline. */
  private armTimer(): void {
    this.scheduleBots()
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    const deadline = this.record.deadline
    if (deadline === null || this.closed) return
    this.timer = setTimeout(() => void this.onTimer(), Math.max(0, deadline - this.deps.now()))
    this.timer.unref()
  }

  /** After loading a record (a restart, another node): re-arm its timers. */
  resume(): void {
    this.armTimer()
    this.record.seats.forEach((s, seat) => {
      if (!s.connected && s.graceUntil !== null) this.armGrace(seat, s.graceUntil)
    })
  }

  private onTimer(): Promise<void> {
    this.timer = null
    return this.run(async () => {
      const r = this.record
      if (r.status !== 'playing' || r.state === null || r.deadline === null) return
      if (r.deadline > this.deps.now()) {
        // Early by the wall clock: wait out the rest.
        this.armTimer()
        return
      }
      for (const seat of this.adapter.activeSeats(r.state)) {
        const cur = this.record
        if (cur.status !== 'playing' || cur.state === null) break
        const t = this.adapter.timeoutMove(cur.state, seat)
        if (!t) continue
        const out = await this.applyMove(seat, t.move, t.action)
        if (!out.ok) this.log.warn({ seat, error: out.error }, 'timer move refused')
      }
    })
  }

  private requestBest(): void {
    const solve = this.deps.solve
    const st = this.record.state as DuelState | null
    if (!solve || !st) return
    st.players.forEach((p, seat) => {
      for (const rec of p.results) {
        const key = `${this.record.gameNo}/${seat}/${rec.index}`
        if (rec.best !== null || this.solving.has(key)) continue
        // Same deal: not before both have played this deal, so that neither the figure nor the
        // time it takes to arrive says anything about a deal someone has yet to play (I-15).
        if (st.settings.sameDeal && (st.players[1 - seat]?.results.length ?? 0) <= rec.index)
          continue
        this.solving.add(key)
        const gameNo = this.record.gameNo
        solve(rec.deck, rec.piles)
          .finally(() => this.solving.delete(key))
          .then((best) => {
            if (!best || this.closed) return
            return this.run(async () => {
              const cur = this.record.state as DuelState | null
              if (!cur || this.record.gameNo !== gameNo) return
              // With the same deal the figure would tell the opponent about a deal they have yet
              // to play: it travels only inside the records, which the views mask.
              const logs: LogBody[] = cur.settings.sameDeal
                ? []
                : [{ t: 'best', seat, index: rec.index, best: best.best }]
              await this.commit({ state: withBest(cur, seat, rec.index, best) }, logs)
            })
          })
          .catch((e: unknown) => this.log.warn({ err: e }, 'best-possible computation failed'))
      }
    })
  }

  /** Stops timers; the record stays in the store. */
  close(): void {
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    if (this.botTimer) clearTimeout(this.botTimer)
    for (const t of this.graceTimers.values()) clearTimeout(t)
    this.graceTimers.clear()
  }

  /** Resolves once every queued command has finished. */
  drain(): Promise<void> {
    return this.run(async () => undefined)
  }
}

/** The entries of a log (ordered by seq) with a seq greater than `after`. */
function newerThan(log: readonly LogEntry[], after: number): LogEntry[] {
  let i = log.length
  while (i > 0 && log[i - 1]!.seq > after) i--
  return log.slice(i)
}
