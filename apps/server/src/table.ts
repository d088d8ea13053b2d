import type { BotLevel, Seat } from '@kortbord/engine'
import type {
  CreateTableMsg,
  LogEntry,
  PeekAck,
  Reaction,
  TableDelta,
  TableUpdate,
  TestDealMsg,
} from '@kortbord/protocol'
import type { Logger } from 'pino'
import { TableBest } from './best.ts'
import { TableChat } from './chat.ts'
import { fairInfo } from './game-records.ts'
import { ADAPTERS, type GameAdapter } from './games.ts'
import { type NodeAddress, TableMoved } from './ownership.ts'
import { deserted, seatedTally } from './seats.ts'
import { nextShown, perViewer, seenBy, shownVersion, staleFor } from './shown.ts'
import { type TableRecord, VersionConflict } from './store.ts'
import { deadlinesAfter, TableClock } from './table-clock.ts'
import { TableControl } from './table-control.ts'
import { TableGame } from './table-game.ts'
import { appendLog, type LogBody } from './table-log.ts'
import { TableMembers } from './table-membership.ts'
import { TableTimers } from './table-timers.ts'
import {
  type CommitOptions,
  fail,
  logCode,
  type MemberId,
  newTableRecord,
  type Outcome,
  peekOf,
  type RecordChange,
  type TableDeps,
  TableGone,
  type TableHost,
} from './table-types.ts'
import { tableInfo, UpdateCache } from './updates.ts'

export {
  fail,
  hashToken,
  logCode,
  type MemberId,
  newTableRecord,
  newToken,
  type Outcome,
  type Refusal,
  type TableConfig,
  type TableDeps,
  TableGone,
} from './table-types.ts'

/** Thrown inside a command when the store holds a newer version: reload and run it again. */
class StaleRecord extends Error {}

/** How often a command is re-run on a fresher record before giving up. */
const MAX_ATTEMPTS = 6
/** Presence news (away/back) kept in the log at most, so that they never push out the game. */
const PRESENCE_KEEP = 8

/**
 * The authority over one table: every command goes through its queue, one at a time, is checked
 * against the engine, saved to the store with the version it was based on, then published. It
 * knows nothing of socket.io: it takes a game, a store and a publish function.
 *
 * This class keeps the queue, the record and its one way to change (commit), what members are
 * sent, and the table's life on this node (reload, recovery, hand-over, retirement). Its parts
 * work through {@link TableHost}: {@link TableMembers} (who is at the table; spectators are
 * presence, deps.presence), {@link TableGame} (the game), {@link TableControl} (settings, bots,
 * forfeits, chat), {@link TableClock} (the turn timer and the bots, timed by
 * {@link TableTimers}) and {@link TableBest}; the update cache is {@link UpdateCache}.
 * The public methods below are what the hub and the sockets call.
 */
export class Table {
  private queue: Promise<unknown> = Promise.resolve()
  private readonly members: TableMembers
  private readonly timers: TableTimers
  private readonly updates: UpdateCache
  private readonly talk: TableChat
  private readonly best: TableBest
  private readonly clock: TableClock
  private readonly game: TableGame
  private readonly control: TableControl
  /** What the table's parts see of it. */
  private readonly host: TableHost
  /** The version this node committed last and the log seq before it: its updates carry a delta. */
  private delta: { version: number; logAfter: number } | null = null
  /**
   * With versions per viewer (shown.ts): who could see the change this node committed last
   * (seats, then spectators); null: everyone (another node's version, or another game).
   */
  private visible: readonly boolean[] | null = null
  /** What each viewer sees of a record, for telling who can see a change (shown.ts). */
  private readonly seen: (r: TableRecord, viewer: Seat | null) => string
  private closed = false
  /**
   * Every player left and the record was deleted (commands are answered NO_SUCH_TABLE), or
   * another node serves the table now (MOVED, with the owner).
   */
  private retired: false | 'gone' | { moved: NodeAddress } = false
  private recovering = false
  readonly adapter: GameAdapter
  readonly log: Logger

  constructor(
    private record: TableRecord,
    private readonly deps: TableDeps,
  ) {
    this.adapter = ADAPTERS[record.game]
    this.log = deps.log.child({ table: logCode(record.code) })
    this.updates = new UpdateCache(this.adapter, deps.config.timeoutsForAway)
    const away = deps.config.timeoutsForAway
    this.seen = seenBy(this.adapter, (r) => tableInfo(r, 0, away))
    this.talk = new TableChat(record.code, { ...deps.chat, now: deps.now })
    this.host = this.hostView()
    this.timers = new TableTimers({
      turn: () => void this.clock.onTurnTimer(),
      bots: () => void this.clock.botTurn(),
      grace: (seat) => void this.members.onGrace(seat),
      now: deps.now,
    })
    this.members = new TableMembers(this.host, this.timers, this.talk, (seat, whole) =>
      this.updateFor(seat, whole),
    )
    this.best = new TableBest(this.host)
    this.game = new TableGame(this.host, this.members, () => this.best.request())
    this.control = new TableControl(this.host, this.members, this.timers, this.talk)
    this.clock = new TableClock(this.host, this.timers, (seat, move, timeout, by) =>
      this.game.applyMove(seat, move, timeout, by),
    )
  }

  /** The table as its parts see it: the record, the queue and commit (TableHost). */
  private hostView(): TableHost {
    const table = this
    return {
      get code() {
        return table.record.code
      },
      get record() {
        return table.record
      },
      get closed() {
        return table.closed
      },
      deps: this.deps,
      adapter: this.adapter,
      log: this.log,
      run: (fn) => this.run(fn),
      commit: (change, logs, opts) => this.commit(change, logs, opts),
      reload: () => this.reload(),
    }
  }

  /** A new table's record with its creator in seat 0 as host (see newTableRecord). */
  static create(
    code: string,
    msg: CreateTableMsg,
    token: string,
    now: number,
    creator: MemberId,
    node: string | null = null,
  ): TableRecord {
    return newTableRecord(code, msg, token, now, creator, node)
  }

  get code(): string {
    return this.record.code
  }
  get version(): number {
    return this.record.version
  }
  /** The version a viewer (a seat, or null: a spectator) is shown (shown.ts). */
  shownVersion(viewer: Seat | null): number {
    return shownVersion(this.record, viewer)
  }
  /** Whether a viewer is sent the current version: it can see what changed (shown.ts). */
  sees(viewer: Seat | null): boolean {
    const v = this.visible
    return v === null || v[viewer ?? this.record.seats.length] !== false
  }
  /** The record as it stands (for tests and the store); never sent to clients. */
  snapshot(): TableRecord {
    return this.record
  }
  /** The connections at this table on this node. */
  memberIds(): MemberId[] {
    return this.members.ids()
  }
  /**
   * Where a connection of this node sits: a seat, null as a spectator, undefined if not at the
   * table (TableMembers.seatOf).
   */
  memberSeat(m: MemberId): Seat | null | undefined {
    return this.members.seatOf(m)
  }
  /** What `table:peek` tells anyone with the code (peekOf). */
  peek(): PeekAck {
    return peekOf(this.record)
  }
  get seatCount(): number {
    return this.record.seats.length
  }
  /** Spectators over every node, as this node knows them. */
  get spectators(): number {
    return this.deps.presence.total(this.code)
  }
  /** Hard bots seated here (for the node's limit). */
  get hardBots(): number {
    return this.record.seats.filter((s) => s.bot === 'hard').length
  }
  /** An A-16 solve or proof this table asked for is under way on this node (tests). */
  get solving(): boolean {
    return this.best.busy
  }
  /** Nobody is connected on this node and no timer is pending: safe to drop from memory. */
  get idle(): boolean {
    return this.members.size === 0 && this.timers.idle && !this.best.busy
  }

  /**
   * Runs `fn` after every command before it: one command at a time per table on this node. When
   * another node saved first, the record is reloaded and `fn` runs again on it (compare-and-set
   * retry), so no two nodes ever apply a command to the same version.
   */
  private run<T>(fn: () => Promise<T>): Promise<T> {
    const attempt = async (): Promise<T> => {
      for (let i = 1; ; i++) {
        if (this.retired === 'gone') throw new TableGone()
        if (this.retired) throw new TableMoved(this.code, this.retired.moved)
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

  /**
   * Takes the stored record (another node changed it); re-arms timers only when it is newer, so
   * that nothing an outsider can provoke restarts a timer. Throws TableGone if it is no more.
   */
  private async reload(): Promise<void> {
    const r = await this.deps.store.load(this.record.code)
    if (!r) {
      // Deleted (every player left, on another node) or expired: its members here are told.
      this.members.forget('closed')
      this.retired = 'gone'
      this.close()
      this.deps.retired?.(this)
      throw new TableGone()
    }
    if (r.version > this.record.version) {
      this.record = r
      this.visible = null
      this.resume()
    }
  }

  /** After a write whose outcome is unknown: reload until the store answers, then publish. */
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
        // A join that landed although its answer was lost holds a seat for a connection that
        // never became a member: it is recorded as dropped (its player never got the token).
        await this.members.dropOrphans()
      }).catch(() => {
        setTimeout(attempt, 1000).unref()
      })
    }
    setTimeout(attempt, 500).unref()
  }

  /**
   * Another node owns the table now (issue 17): once the commands in flight are done, its
   * members here are told where to go, its timers stop and it leaves this node. Its record is
   * in the store: the new owner picks it up from there.
   */
  handOver(owner: NodeAddress): Promise<void> {
    return this.run(async () => {
      this.members.forget('moved', owner)
      // Their connections here are gone: recorded as dropped, so that a player who does not
      // follow (a closed tab) is away and their grace runs, on the new owner.
      await this.members.dropOrphans().catch(() => undefined)
      this.retired = { moved: owner }
      this.close()
      this.deps.retired?.(this)
      this.log.info({ owner: owner.node }, 'table handed over')
    }).catch((e: unknown) => this.log.warn({ err: e }, 'hand-over'))
  }

  // -------------------------------------------------------------------------------------------
  // What members see

  /**
   * The update for one seat (or a spectator, null): built once per version and viewer. Its log
   * holds only the entries this version added (when this node committed it), or with `whole`
   * (or after a reload) the latest entries.
   */
  updateFor(seat: Seat | null, whole = false): TableUpdate {
    const d = this.delta
    const logAfter = !whole && d !== null && d.version === this.record.version ? d.logAfter : null
    return this.updates.updateFor(this.record, this.spectators, seat, logAfter)
  }

  /**
   * What changed for `seat` at this version, for members who take deltas (issue 17): null when
   * this node did not commit the version (or the one before), then they get the whole update.
   */
  deltaFor(seat: Seat | null): TableDelta | null {
    const d = this.delta
    if (!d || d.version !== this.record.version) return null
    return this.updates.deltaFor(this.record, this.spectators, seat, d.logAfter)
  }

  // -------------------------------------------------------------------------------------------
  // Changing the record

  /**
   * A change about to be saved, on a table with versions per viewer (shown.ts): each viewer's
   * version and who can see the change; a seat that cannot see it keeps its staleBefore.
   */
  private shownAfter(
    cur: TableRecord,
    next: TableRecord,
  ): { saved: TableRecord; visible: readonly boolean[] | null } {
    if (!perViewer(this.adapter, next)) return { saved: next, visible: null }
    const { shown, visible } = nextShown(cur, next, this.seen, (r) => fairInfo(r).head)
    return { saved: { ...next, shown, staleBefore: staleFor(cur, next, visible) }, visible }
  }

  /** Saves `change` as the following version, then publishes. The store decides; nothing half-applies. */
  private async commit(
    change: RecordChange,
    logs: readonly LogBody[] = [],
    opts: CommitOptions = {},
  ): Promise<Outcome> {
    const cur = this.record
    const now = this.deps.now()
    let seq = cur.logSeq
    const added = logs.map((b) => ({ ...b, seq: ++seq, at: now }) as LogEntry)
    const next: TableRecord = {
      ...cur,
      ...change,
      // Whoever sat in a seat that is open now took their tally with them (I-16).
      ...(change.seats ? { tally: seatedTally(change.seats, change.tally ?? cur.tally) } : {}),
      version: cur.version + 1,
      log: appendLog(cur.log, added, this.deps.config.logKeep, PRESENCE_KEEP),
      logSeq: seq,
      updatedAt: now,
    }
    const deadlines = deadlinesAfter(
      this.adapter,
      cur,
      next,
      opts,
      this.deps.now(),
      this.deps.config.timerScale,
    )
    const { saved, visible } = this.shownAfter(cur, { ...next, deadlines })
    try {
      await this.deps.store.save(saved, cur.version, opts.records)
    } catch (e) {
      if (e instanceof VersionConflict) throw new StaleRecord()
      return this.unsaved(e)
    }
    this.record = saved
    this.visible = visible
    this.delta = { version: saved.version, logAfter: cur.logSeq }
    // Saved: whatever happens from here, the answer is that it was (never INTERNAL, which
    // promises that nothing changed).
    try {
      this.clock.arm()
      // Only a connection this commit admits is welcomed (with a whole update).
      this.members.takeWelcome()
      opts.onSaved?.()
      const welcome = this.members.takeWelcome()
      this.deps.publish(this, welcome)
      if (saved.status !== 'playing' && deserted(saved.seats)) this.retire()
    } catch (e) {
      this.log.error({ err: e }, 'after a save')
    }
    return { ok: true, version: saved.version }
  }

  /**
   * A save that failed: refused before it reached the store (nothing changed: UNAVAILABLE), or
   * sent and not answered (it may still land: OUTCOME_UNKNOWN, and once the store answers again
   * everyone is told what the table then is).
   */
  private unsaved(e: unknown): Outcome {
    this.log.error({ err: e }, 'store refused a write')
    if ((e as { maybeApplied?: boolean })?.maybeApplied === false)
      return fail('UNAVAILABLE', 'the table could not be saved just now; try again in a moment')
    this.recoverLater()
    return fail(
      'OUTCOME_UNKNOWN',
      'the table may or may not have taken that; look at the table again before doing anything',
    )
  }

  /**
   * Every player has left: the table is no more. Its spectators are told, and the record goes
   * from the store at once rather than lingering for a day (issue 13, finding 2).
   */
  private retire(): void {
    const code = this.code
    this.members.forget('closed')
    this.retired = 'gone'
    this.close()
    this.deps.retired?.(this)
    this.deps.store.delete(code).catch((e: unknown) => {
      // It expires by itself: Redis's TTL, or the memory store's sweep.
      this.log.warn({ err: e }, 'could not delete a deserted table')
    })
    this.log.info('table closed: every player left')
  }

  // -------------------------------------------------------------------------------------------
  // Joining, watching, leaving (TableMembers)

  /** The creator's connection joins seat 0 (the record was saved by the hub). */
  attachCreator(member: MemberId): void {
    this.members.attachCreator(member)
    this.deps.publish(this, { member, seat: 0 })
    this.members.resent(member)
  }

  join(
    member: MemberId,
    name: string,
    entropy = '',
  ): Promise<Outcome<{ seat: Seat; token: string }>> {
    return this.members.join(member, name, entropy)
  }

  /** A connection watches: presence, not a change of the table (issue 13, finding 4). */
  watch(member: MemberId): Promise<Outcome> {
    return this.members.watch(member)
  }

  reclaim(member: MemberId, token: string): Promise<Outcome<{ seat: Seat }>> {
    return this.members.reclaim(member, token)
  }

  /** A member asked for the whole table again: the counts and the chat come with it. */
  resent(member: MemberId): void {
    this.members.resent(member)
  }

  leave(member: MemberId): Promise<Outcome> {
    return this.members.leave(member)
  }

  /** A member's connection dropped. Players keep their seat for the grace period. */
  disconnect(member: MemberId): Promise<void> {
    return this.members.disconnect(member)
  }

  /** Connections held on nodes that are no longer alive count as dropped. */
  holdersLost(live: ReadonlySet<string>): Promise<void> {
    return this.members.holdersLost(live)
  }

  // -------------------------------------------------------------------------------------------
  // The game (TableGame)

  /** Host only: starts the first game, or the next one once a game is over (I-16). */
  start(member: MemberId, version: number, deal?: TestDealMsg, entropy?: string): Promise<Outcome> {
    return this.game.start(member, version, deal, entropy)
  }

  /** A seated player asks for the next game; once everyone has, it starts (issue 15). */
  rematch(
    member: MemberId,
    version: number,
    entropy?: string,
  ): Promise<Outcome<{ started: boolean }>> {
    return this.game.rematch(member, version, entropy)
  }

  /** A seated player's contribution to the next game's shuffle (issue 14). */
  setEntropy(member: MemberId, entropy: string): Promise<Outcome> {
    return this.game.setEntropy(member, entropy)
  }

  /** A game move of the member's seat, made against `version`. */
  move(member: MemberId, version: number, rawMove: unknown): Promise<Outcome> {
    return this.game.move(member, version, rawMove)
  }

  // -------------------------------------------------------------------------------------------
  // Settings, seats given to bots or freed, forfeits, chat (TableControl)

  /** Host only: whether spectators may chat (players always may). */
  setSpectatorChat(member: MemberId, version: number, on: boolean): Promise<Outcome> {
    return this.control.setSpectatorChat(member, version, on)
  }

  /** A chat message of a member (issue 15): no version, nothing saved. */
  say(member: MemberId, text: string): Outcome {
    return this.control.say(member, text)
  }

  react(member: MemberId, reaction: Reaction): Outcome {
    return this.control.react(member, reaction)
  }

  /** Host only: frees the seat of a player who is not connected. */
  remove(member: MemberId, version: number, target: Seat): Promise<Outcome> {
    return this.control.remove(member, version, target)
  }

  /** A computer player sits down (issue 7; beyond the node's limit a hard bot plays normal). */
  seatBot(
    member: MemberId,
    version: number,
    target: Seat,
    wanted: BotLevel,
  ): Promise<Outcome<{ level: BotLevel }>> {
    return this.control.seatBot(member, version, target, wanted)
  }

  /** A seated player ends the game because `target` is away (I-16): that seat forfeits it. */
  forfeit(member: MemberId, version: number, target: Seat): Promise<Outcome> {
    return this.control.forfeit(member, version, target)
  }

  /** Host only: the turn timer from now on (I-16); every running clock restarts with it. */
  setTimer(member: MemberId, version: number, turnSeconds: number | null): Promise<Outcome> {
    return this.control.setTimer(member, version, turnSeconds)
  }

  // -------------------------------------------------------------------------------------------
  // Timers and bots (TableClock), A-16 (TableBest)

  /** After loading a record (a restart, another node): re-arm its timers. */
  resume(): void {
    this.clock.arm()
    // A bound recorded before a restart, or by another node, is still owed its proof.
    this.best.request()
    this.record.seats.forEach((s, seat) => {
      if (!s.connected && s.graceUntil !== null) this.timers.graceUntil(seat, s.graceUntil)
    })
  }

  /** Stops timers; the record stays in the store. */
  close(): void {
    this.closed = true
    this.timers.close()
    this.best.close()
  }

  /** Resolves once every queued command has finished. */
  drain(): Promise<void> {
    return this.run(async () => undefined)
  }
}
