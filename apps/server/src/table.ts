import type { BotLevel, Deal, IdiotState, RecordMove, Seat } from '@kortbord/engine'
import type {
  CreateTableMsg,
  LogEntry,
  Reaction,
  TableDelta,
  TableSettings,
  TableUpdate,
  TestDealMsg,
  TimeoutAction,
} from '@kortbord/protocol'
import type { Logger } from 'pino'
import { TableBest } from './best.ts'
import { TableChat } from './chat.ts'
import {
  endRecord,
  newFair,
  nextDeal,
  openRecord,
  recordMove,
  withEntropy,
} from './game-records.ts'
import { ADAPTERS, type AnyState, type GameAdapter } from './games.ts'
import { type NodeAddress, TableMoved } from './ownership.ts'
import { deserted, isAway, nextHost, openSeat, withSeat } from './seats.ts'
import { type SeatRecord, type TableRecord, VersionConflict } from './store.ts'
import { deadlinesAfter, TableClock } from './table-clock.ts'
import { appendLog, type LogBody } from './table-log.ts'
import { TableMembers } from './table-membership.ts'
import { TableTimers } from './table-timers.ts'
import {
  allStale,
  type CommitOptions,
  fail,
  logCode,
  type MemberId,
  newTableRecord,
  type Outcome,
  type RecordChange,
  type Refusal,
  type TableDeps,
  TableGone,
  type TableHost,
} from './table-types.ts'
import { UpdateCache } from './updates.ts'

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
 * Spectators are presence (deps.presence), timers live in {@link TableTimers}, the update cache
 * in {@link UpdateCache}.
 */
export class Table {
  private queue: Promise<unknown> = Promise.resolve()
  private readonly members: TableMembers
  private readonly timers: TableTimers
  private readonly updates: UpdateCache
  private readonly talk: TableChat
  private readonly best: TableBest
  private readonly clock: TableClock
  /** What the table's parts see of it. */
  private readonly host: TableHost
  /** The version this node committed last and the log seq before it: its updates carry a delta. */
  private delta: { version: number; logAfter: number } | null = null
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
    this.clock = new TableClock(this.host, this.timers, (seat, move, timeout, by) =>
      this.applyMove(seat, move, timeout, by),
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
    const saved: TableRecord = { ...next, deadlines }
    try {
      await this.deps.store.save(saved, cur.version, opts.records)
    } catch (e) {
      if (e instanceof VersionConflict) throw new StaleRecord()
      return this.unsaved(e)
    }
    this.record = saved
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

  private setSeat(seat: Seat, s: Partial<SeatRecord>): SeatRecord[] {
    return withSeat(this.record.seats, seat, s)
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
  // Joining, watching, leaving

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
  // Commands of seated players

  /** Host only: starts the first game, or the next one once a game is over (I-16). */
  start(member: MemberId, version: number, deal?: TestDealMsg, entropy?: string): Promise<Outcome> {
    return this.run(async () => {
      const seat = await this.members.actor(member, version)
      if (typeof seat !== 'number') return seat
      const r = this.record
      if (seat !== r.host) return fail('NOT_HOST', 'only the host can start a game')
      if (r.status === 'playing') return fail('GAME_IN_PROGRESS', 'a game is being played')
      if (r.seats.some((s) => s.name === null))
        return fail('SEATS_NOT_FILLED', 'every seat needs a player before the game starts')
      if (deal !== undefined && !this.deps.config.testDeals)
        return fail('TEST_DEALS_OFF', 'this server does not take fixed deals')
      return this.begin(seat, deal, entropy, [])
    })
  }

  /**
   * A seated player asks for the next game (issue 15: a rematch by agreement). Once every seated
   * player has asked (bots agree by themselves), the game starts in the same step.
   */
  rematch(
    member: MemberId,
    version: number,
    entropy?: string,
  ): Promise<Outcome<{ started: boolean }>> {
    return this.run(async () => {
      const seat = await this.members.actor(member, version)
      if (typeof seat !== 'number') return seat
      const r = this.record
      if (r.status === 'playing') return fail('GAME_IN_PROGRESS', 'a game is being played')
      const asked = r.seats.map((_, i) => i === seat || (r.rematch?.[i] ?? false))
      const log: LogBody = { t: 'rematch', seat, name: r.seats[seat]?.name ?? '' }
      const all = r.seats.every((s, i) => s.name !== null && (s.bot || asked[i]))
      const out = all
        ? await this.begin(seat, undefined, entropy, [log])
        : await this.commit(
            {
              rematch: asked,
              ...(entropy === undefined ? {} : { entropy: withEntropy(r, seat, entropy) }),
            },
            [log],
          )
      return out.ok ? { ok: true, version: out.version, started: all } : out
    })
  }

  /** Deals and starts the next game; `seat` (the host, or the last to agree) may contribute. */
  private async begin(
    seat: Seat,
    deal: TestDealMsg | undefined,
    entropy: string | undefined,
    before: readonly LogBody[],
  ): Promise<Outcome> {
    const r = this.record
    const testDeck = this.deps.config.testDeck
    const fixed: Deal | null = deal ?? (testDeck ? { deck: testDeck } : null)
    const gameNo = r.gameNo + 1
    // The starting player's contribution may come with the start (issue 14).
    const dealt = entropy === undefined ? r : { ...r, entropy: withEntropy(r, seat, entropy) }
    const d = nextDeal(dealt, gameNo, fixed)
    const options = this.adapter.options(r.settings, r.state)
    let state: AnyState
    try {
      state = this.adapter.setup(options, r.settings, d)
    } catch (e) {
      return fail('BAD_DEAL', e instanceof Error ? e.message : 'that deal cannot be dealt')
    }
    const header = openRecord(dealt, gameNo, options, d, this.deps.now())
    const out = await this.commit(
      {
        state,
        status: 'playing',
        gameNo,
        staleBefore: allStale(this.record),
        seats: r.seats.map((s) => ({ ...s, timeouts: 0 })),
        entropy: dealt.entropy,
        // The next game's seed is chosen (and committed to) now; this one's waits to be revealed.
        fair: { next: newFair(), current: d },
        gameRecord: header,
        gameRecordMoves: 0,
        rematch: r.seats.map(() => false),
      },
      [...before, { t: 'started', gameNo }, ...this.gameLog(state)],
      { records: { header, deal: d } },
    )
    if (out.ok) this.best.request()
    return out
  }

  /** Host only: whether spectators may chat (players always may). */
  setSpectatorChat(member: MemberId, version: number, on: boolean): Promise<Outcome> {
    return this.run(async () => {
      const seat = await this.members.actor(member, version)
      if (typeof seat !== 'number') return seat
      if (seat !== this.record.host) return fail('NOT_HOST', 'only the host can change that')
      return this.commit({ spectatorChat: on })
    })
  }

  /**
   * A chat message of a member (issue 15): text only, already checked (checkChat); a spectator's
   * only while the host allows it. Not a change of the table: no version, nothing saved.
   */
  say(member: MemberId, text: string): Outcome {
    const who = this.speaker(member)
    if ('ok' in who) return who
    this.talk.say(who.seat, who.name, text)
    return { ok: true, version: this.record.version }
  }

  react(member: MemberId, reaction: Reaction): Outcome {
    const who = this.speaker(member)
    if ('ok' in who) return who
    this.talk.react(who.seat, who.name, reaction)
    return { ok: true, version: this.record.version }
  }

  private speaker(member: MemberId): { seat: Seat | null; name: string } | Refusal {
    const seat = this.members.seatOf(member)
    if (seat === undefined) return fail('NOT_AT_TABLE', 'you are not at this table')
    if (seat === null) {
      if (!(this.record.spectatorChat ?? true))
        return fail('CHAT_OFF', 'the host has turned spectators’ chat off')
      return { seat: null, name: '' }
    }
    return { seat, name: this.record.seats[seat]?.name ?? '' }
  }

  /** Host only: frees the seat of a player who is not connected. */
  remove(member: MemberId, version: number, target: Seat): Promise<Outcome> {
    return this.run(async () => {
      const seat = await this.members.actor(member, version)
      if (typeof seat !== 'number') return seat
      const r = this.record
      if (seat !== r.host) return fail('NOT_HOST', 'only the host can remove a player')
      const t = r.seats[target]
      if (!t || t.name === null) return fail('SEAT_EMPTY', 'nobody sits there')
      if (target === r.host)
        return fail('CANNOT_REMOVE_SELF', 'the host cannot remove themselves; leave instead')
      if (t.connected && !t.bot) return fail('PLAYER_PRESENT', `${t.name} is at the table`)
      this.timers.clearGrace(target)
      return this.commit(
        { seats: this.setSeat(target, openSeat), staleBefore: allStale(this.record) },
        [{ t: 'removed', seat: target, name: t.name }],
      )
    })
  }

  /**
   * A computer player sits down (issue 7): the host seats one in an open seat, or in the seat of
   * a player who has gone, until they come back with their token. During a game any player may
   * also hand the seat of a player who is away (I-16: timed out twice, or disconnected) to a bot;
   * the player takes it back with their token (`table:reclaim`). Hard bots are costly: beyond
   * the node's limit a bot plays normal, and the ack says which level sat down.
   */
  seatBot(
    member: MemberId,
    version: number,
    target: Seat,
    wanted: BotLevel,
  ): Promise<Outcome<{ level: BotLevel }>> {
    return this.run(async () => {
      const seat = await this.members.actor(member, version)
      if (typeof seat !== 'number') return seat
      const r = this.record
      if (r.game !== 'idiot') return fail('NOT_FOR_BOTS', 'bots play Idiot only')
      const t = r.seats[target]
      if (!t) return fail('SEAT_EMPTY', 'there is no such seat')
      // A person's seat (a token holds it), played by them now or by a bot for them.
      const human = t.name !== null && t.tokenHash !== null
      const person = human && !t.bot
      const away = person && r.status === 'playing' && isAway(t, this.deps.config.timeoutsForAway)
      if (!away && seat !== r.host) {
        return fail(
          person ? 'NOT_AWAY' : 'NOT_HOST',
          person ? `${t.name} is playing` : 'only the host can seat a bot',
        )
      }
      if (person && !t.gone && !away) return fail('PLAYER_PRESENT', `${t.name} is at the table`)
      if (target === seat) return fail('NOT_AWAY', 'you are at the table yourself')
      const limit = this.deps.config.hardBotsPerNode ?? Number.POSITIVE_INFINITY
      const hard = (this.deps.hardBots?.() ?? 0) - (t.bot === 'hard' ? 1 : 0)
      const level: BotLevel = wanted === 'hard' && hard >= limit ? 'normal' : wanted
      const name = t.name ?? `Bot ${r.seats.filter((x) => x.bot).length + 1}`
      // A person's seat keeps its token (they take it back). One who is only away keeps their
      // connection too (they watch their bot play and can take over); a seat that was given up
      // (gone) is the bot's until the game ends or its player comes back.
      const sit = { bot: level, connected: true, holder: null, graceUntil: null, gone: false }
      const patch: Partial<SeatRecord> =
        human && !t.gone ? { bot: level } : human ? sit : { ...sit, name }
      const seats = this.setSeat(target, { ...patch, timeouts: 0 })
      const log: LogBody =
        human && !t.gone
          ? { t: 'bot', seat: target, name, level, by: seat }
          : { t: 'joined', seat: target, name }
      const out = await this.commit({ seats, staleBefore: allStale(this.record) }, [log])
      return out.ok ? { ok: true, version: out.version, level } : out
    })
  }

  /**
   * A seated player ends the game because `target` is away (I-16: timed out twice, or
   * disconnected): that seat forfeits it. Idiot: they are the Idiot; two players: the other wins.
   */
  forfeit(member: MemberId, version: number, target: Seat): Promise<Outcome> {
    return this.run(async () => {
      const seat = await this.members.actor(member, version)
      if (typeof seat !== 'number') return seat
      const r = this.record
      if (r.seats.length < 2)
        return fail('NOT_FOR_SOLO', 'a patience alone has nobody to forfeit to')
      if (r.status !== 'playing' || r.state === null)
        return fail('NOT_PLAYING', 'there is no game to end')
      const t = r.seats[target]
      if (!t || t.name === null) return fail('SEAT_EMPTY', 'nobody sits there')
      if (target === seat || !isAway(t, this.deps.config.timeoutsForAway))
        return fail('NOT_AWAY', `${t.name} is not away`)
      const seats = r.seats.map((x) => (x.gone ? openSeat : { ...x, timeouts: 0 }))
      const ended = endRecord(r, { reason: 'forfeit', seat: target }, this.deps.now())
      return this.commit(
        {
          status: 'over',
          tally: this.adapter.forfeitTally(r.tally, target),
          seats,
          host: nextHost(seats, r.host),
          staleBefore: allStale(this.record),
          ...(ended ? { gameRecord: ended.gameRecord } : {}),
        },
        [{ t: 'forfeit', seat: target, name: t.name, by: seat }],
        { records: ended?.effects },
      )
    })
  }

  /** Host only: the turn timer from now on (I-16); every running clock restarts with it. */
  setTimer(member: MemberId, version: number, turnSeconds: number | null): Promise<Outcome> {
    return this.run(async () => {
      const seat = await this.members.actor(member, version)
      if (typeof seat !== 'number') return seat
      const r = this.record
      if (seat !== r.host) return fail('NOT_HOST', 'only the host can change the timer')
      if (!this.adapter.timed(r.settings))
        return fail('NOT_FOR_SOLO', 'a patience alone has no turn timer')
      return this.commit(
        {
          settings: { ...r.settings, turnSeconds } as TableSettings,
          staleBefore: allStale(this.record),
        },
        [{ t: 'timer', turnSeconds }],
        { timerChanged: true },
      )
    })
  }

  /**
   * A seated player's contribution to the next game's shuffle (issue 14), between games; the
   * game being played was dealt with the contributions it started with.
   */
  setEntropy(member: MemberId, entropy: string): Promise<Outcome> {
    return this.run(async () => {
      const seat = await this.members.actor(member, this.record.version)
      if (typeof seat !== 'number') return seat
      if (this.record.status === 'playing')
        return fail('GAME_IN_PROGRESS', 'this game was dealt already; the next one takes it')
      if ((this.record.entropy?.[seat] ?? '') === entropy)
        return { ok: true, version: this.record.version }
      return this.commit({ entropy: withEntropy(this.record, seat, entropy) })
    })
  }

  /** A game move of the member's seat, made against `version`. */
  move(member: MemberId, version: number, rawMove: unknown): Promise<Outcome> {
    return this.run(async () => {
      const seat = await this.members.actor(member, version)
      if (typeof seat !== 'number') return seat
      const r = this.record
      if (r.status !== 'playing' || r.state === null)
        return fail(
          'NOT_PLAYING',
          r.status === 'over' ? 'the game is over' : 'the game has not started',
        )
      if (r.seats[seat]?.bot)
        return fail('BOT_PLAYING', 'a bot plays your seat; take it back first')
      const parsed = this.adapter.moveSchema.safeParse(rawMove)
      if (!parsed.success) return fail('BAD_REQUEST', `not a move of ${r.game}`)
      return this.applyMove(seat, parsed.data, null)
    })
  }

  private gameLog(state: AnyState): LogBody[] {
    // Idiot's events are public by I-15. The duel's are kept to its views: with the same deal,
    // A-15 hides an opponent's game until one has played one's own.
    if (state.game !== 'idiot') return []
    return (state as IdiotState).recent.map((e) => ({ t: 'game' as const, e }))
  }

  /**
   * Applies a move of `seat`: a person's (`by` null), one the turn timer made for them (with the
   * action it took), or a bot's. It goes into the game's record with who made it.
   */
  private async applyMove(
    seat: Seat,
    move: Parameters<GameAdapter['apply']>[2],
    timeout: TimeoutAction | null,
    by: 'bot' | null = null,
  ): Promise<Outcome> {
    const r = this.record
    const before = r.state!
    const res = this.adapter.apply(before, seat, move)
    if (!res.ok) return fail(res.error.code, res.error.message)
    const after = res.value
    const over = this.adapter.isOver(after)
    const now = this.deps.now()
    const entry: RecordMove = {
      seat,
      move,
      v: r.version + 1,
      at: now,
      ...(timeout !== null ? { by: 'timer' as const } : by ? { by } : {}),
    }
    const recorded = recordMove(
      r,
      entry,
      over ? { reason: 'over', outcome: this.adapter.outcome(after) } : null,
      this.deps.config.recordMaxMoves ?? 5000,
    )
    const stale = this.adapter.staleAfter(before, after, seat)
    const staleBefore = r.staleBefore.slice()
    for (const s of stale) staleBefore[s] = r.version + 1
    const timeouts = timeout === null ? 0 : (r.seats[seat]?.timeouts ?? 0) + 1
    const logs: LogBody[] = []
    if (timeout !== null) logs.push({ t: 'timeout', seat, action: timeout })
    logs.push(...this.gameLog(after))
    if (timeouts === this.deps.config.timeoutsForAway)
      logs.push({ t: 'away', seat, name: r.seats[seat]?.name ?? '' })
    let seats = this.setSeat(seat, { timeouts })
    // Players who left during the game give up their seats once it is over; a game's timeouts
    // end with it (nobody is away for the next one).
    if (over) seats = seats.map((x) => (x.gone ? openSeat : { ...x, timeouts: 0 }))
    const out = await this.commit(
      {
        state: after,
        staleBefore,
        status: over ? 'over' : 'playing',
        tally: over ? this.adapter.tally(after, r.tally) : r.tally,
        seats,
        host: over ? nextHost(seats, r.host) : r.host,
        ...(recorded
          ? { gameRecord: recorded.gameRecord, gameRecordMoves: recorded.gameRecordMoves }
          : {}),
      },
      logs,
      { mover: seat, records: recorded?.effects },
    )
    if (out.ok) this.best.request()
    return out
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
  }

  /** Resolves once every queued command has finished. */
  drain(): Promise<void> {
    return this.run(async () => undefined)
  }
}
