// Who is at a table, on this node (issue 13: seats are state, spectators presence): joining,
// watching, reclaiming a seat, leaving, a dropped connection and its grace period, connections
// lost with a node, and who may act at all. Every change of the seats goes through the table's
// queue and commit (TableHost); spectators change nothing in the record.
import type { Seat } from '@kortbord/engine'
import { distinctName, type TableUpdate } from '@kortbord/protocol'
import type { TableChat } from './chat.ts'
import { withEntropy } from './game-records.ts'
import type { NodeAddress } from './ownership.ts'
import { firstGame, hostPresent, nextHost, openSeat, withSeat } from './seats.ts'
import { shownVersion, tableVersion } from './shown.ts'
import type { LogBody } from './table-log.ts'
import type { TableTimers } from './table-timers.ts'
import {
  allStale,
  fail,
  hashToken,
  type MemberId,
  newToken,
  type Outcome,
  type Refusal,
  sameHash,
  type TableHost,
} from './table-types.ts'

type Welcome = { member: MemberId; seat: Seat | null }

export class TableMembers {
  /** This node's connections at the table: a seat, or null for a spectator. */
  private readonly members = new Map<MemberId, Seat | null>()
  /** A connection admitted by the command being committed: it gets a whole update. */
  private welcomed: Welcome | null = null
  private repairing = false

  constructor(
    private readonly h: TableHost,
    private readonly timers: TableTimers,
    private readonly talk: TableChat,
    /** The whole update for a seat, or a spectator (null). */
    private readonly updateFor: (seat: Seat | null, whole: boolean) => TableUpdate,
  ) {}

  /** Connections at the table on this node. */
  get size(): number {
    return this.members.size
  }

  /** The connections at this table on this node. */
  ids(): MemberId[] {
    return [...this.members.keys()]
  }

  /** The connection admitted by the commit just made, if any (taken once). */
  takeWelcome(): Welcome | undefined {
    const w = this.welcomed ?? undefined
    this.welcomed = null
    return w
  }

  /**
   * Where a connection of this node sits: a seat, null as a spectator, undefined if not at the
   * table. A seat counts only while the record names this connection as its holder (another
   * node may have handed the seat to a newer connection).
   */
  seatOf(m: MemberId): Seat | null | undefined {
    const seat = this.members.get(m)
    if (seat === undefined || seat === null) return seat
    if (this.h.record.seats[seat]?.holder !== m) {
      this.members.delete(m)
      return undefined
    }
    return seat
  }

  /** Every member of this node is told it is no longer at the table, and leaves it. */
  forget(reason: 'closed' | 'moved', to?: NodeAddress): void {
    for (const [m, seat] of this.members) {
      if (seat === null) this.h.deps.presence.remove(this.h.code, m)
      this.h.deps.evict(m, this.h.code, reason, to)
    }
    this.members.clear()
  }

  /** The creator's connection sits in seat 0 (the record was saved by the hub). */
  attachCreator(member: MemberId): void {
    this.members.set(member, 0)
    this.h.deps.attach(member, this.h.code, 0)
  }

  join(
    member: MemberId,
    name: string,
    entropy = '',
  ): Promise<Outcome<{ seat: Seat; token: string }>> {
    return this.h.run(async () => {
      if (this.seatOf(member) !== undefined)
        return fail('ALREADY_AT_TABLE', 'you are already at this table')
      const r = this.h.record
      const seat = r.seats.findIndex((s) => s.name === null)
      if (seat < 0) return fail('TABLE_FULL', 'every seat is taken; you can watch instead')
      const token = newToken()
      // Two of one name could not be told apart ("Waiting for Bo"): the second is "Bo 2".
      const named = distinctName(
        name,
        r.seats.map((s) => s.name),
      )
      const out = await this.h.commit(
        {
          seats: withSeat(r.seats, seat, {
            ...openSeat,
            name: named,
            tokenHash: hashToken(token),
            connected: true,
            holder: member,
            node: this.h.deps.node ?? null,
            since: firstGame(r),
          }),
          // Someone new in a seat changes what the others may do (e.g. start).
          staleBefore: allStale(r),
          // A table whose host has gone gets the newcomer as host.
          host: hostPresent(r.seats, r.host) ? r.host : seat,
          entropy: withEntropy(r, seat, entropy),
          rematch: r.seats.map((_, i) => i !== seat && (r.rematch?.[i] ?? false)),
        },
        [{ t: 'joined', seat, name: named }],
        { onSaved: () => this.admit(member, seat) },
      )
      if (!out.ok) return out
      return { ...out, seat, token }
    })
  }

  /**
   * A connection watches: presence, not a change of the table (no version, nothing saved), so
   * spectators coming and going cost the players nothing (issue 13, finding 4).
   */
  watch(member: MemberId): Promise<Outcome> {
    return this.h.run(async () => {
      if (this.seatOf(member) !== undefined)
        return fail('ALREADY_AT_TABLE', 'you are already at this table')
      if (!this.h.record.allowSpectators)
        return fail('SPECTATORS_OFF', 'the host has turned watching off at this table')
      const limit = this.h.deps.config.spectatorsPerTable ?? Number.POSITIVE_INFINITY
      // Counted over every node (the store's count), not only this node's spectators.
      if ((await this.h.deps.presence.fresh(this.h.code)) >= limit)
        return fail('SPECTATORS_FULL', `this table has ${limit} spectators already; try later`)
      this.members.set(member, null)
      this.h.deps.attach(member, this.h.code, null)
      this.h.deps.presence.add(this.h.code, member)
      this.h.deps.send(member, this.updateFor(null, true))
      this.resent(member)
      return { ok: true, version: this.h.record.version }
    })
  }

  reclaim(member: MemberId, token: string): Promise<Outcome<{ seat: Seat }>> {
    return this.h.run(async () => {
      const h = hashToken(token)
      const seat = this.h.record.seats.findIndex(
        (s) => s.tokenHash !== null && sameHash(s.tokenHash, h),
      )
      if (seat < 0) return fail('BAD_TOKEN', 'that seat token does not hold a seat at this table')
      const mine = this.seatOf(member)
      if (mine !== undefined && mine !== seat) {
        return fail('ALREADY_AT_TABLE', 'you are already at this table in another place')
      }
      const was = this.h.record.seats[seat]!
      // Asking again for the seat this connection holds changes nothing: no new version, and a
      // player the timer has shown as away stays away (only a move of their own brings them
      // back, I-16); otherwise re-sending the token would wipe the others' right to act.
      if (mine === seat && was.holder === member && was.connected && !was.bot) {
        this.h.deps.send(member, this.updateFor(seat, true))
        this.resent(member)
        return { ok: true, version: this.h.record.version, seat }
      }
      const seats = withSeat(this.h.record.seats, seat, {
        connected: true,
        holder: member,
        node: this.h.deps.node ?? null,
        // A bot that kept the seat warm steps aside; it has been acting for the seat, so the
        // seat's timeouts start again. A reconnection keeps them: coming back is not a move.
        bot: null,
        graceUntil: null,
        gone: false,
        timeouts: was.bot ? 0 : was.timeouts,
      })
      const r = await this.h.commit(
        // A table left without a host gets the returning player as host.
        { seats, host: nextHost(seats, this.h.record.host) },
        // Back: a connection that had dropped, or a player taking their seat back from a bot.
        was.connected && !was.bot ? [] : [{ t: 'back', seat, name: was.name ?? '' }],
        {
          mover: was.bot ? seat : null,
          onSaved: () => {
            // The newest connection wins: the old one (another tab, a dead phone, any node) is
            // told so and leaves the table's rooms.
            const old = was.holder
            if (old !== null && old !== member) {
              this.members.delete(old)
              this.h.deps.evict(old, this.h.code, 'replaced')
            }
            this.timers.clearGrace(seat)
            this.admit(member, seat)
          },
        },
      )
      if (!r.ok) return r
      return { ...r, seat }
    })
  }

  /** A connection becomes a member: locally, and in the table's rooms on every node. */
  private admit(member: MemberId, seat: Seat | null): void {
    this.members.set(member, seat)
    this.h.deps.attach(member, this.h.code, seat)
    this.welcomed = { member, seat }
    this.h.deps.presence.welcome(this.h.code, member)
    this.talk.welcome(member)
  }

  /** A member asked for the whole table again: the counts and the chat come with it. */
  resent(member: MemberId): void {
    this.h.deps.presence.welcome(this.h.code, member)
    this.talk.welcome(member)
  }

  leave(member: MemberId): Promise<Outcome> {
    return this.h.run(async () => {
      const seat = this.seatOf(member)
      if (seat === undefined) return fail('NOT_AT_TABLE', 'you are not at this table')
      if (seat === null) {
        this.dropSpectator(member)
        this.h.deps.detach(member, this.h.code)
        return { ok: true, version: this.h.record.version }
      }
      // Still a member until the store has the change: a refused leave changes nothing.
      return this.vacate(seat, 'left', () => {
        this.members.delete(member)
        this.h.deps.detach(member, this.h.code)
      })
    })
  }

  private dropSpectator(member: MemberId): void {
    this.members.delete(member)
    this.h.deps.presence.remove(this.h.code, member)
  }

  /** A member's connection dropped. Players keep their seat for the grace period. */
  disconnect(member: MemberId): Promise<void> {
    const local = this.members.get(member)
    if (local === undefined) return Promise.resolve()
    if (local === null) {
      this.dropSpectator(member)
      return Promise.resolve()
    }
    // The connection is gone whatever the store says; the record follows below.
    this.members.delete(member)
    return this.h
      .run(async () => {
        await this.dropOrphans()
      })
      .catch((e: unknown) => {
        this.h.log.warn({ err: e }, 'disconnect not recorded')
        this.repairLater()
      })
  }

  /**
   * Seats held by connections of this node that are not at the table here (any more): a player
   * whose connection dropped, whose drop could not be saved before (Redis away), or whose join
   * landed although its answer was lost. They are recorded as dropped, so they show as away and
   * their grace period runs; a save that fails is tried again until it succeeds.
   */
  async dropOrphans(): Promise<void> {
    const node = this.h.deps.node ?? null
    const lost = this.h.record.seats.flatMap((s, seat) =>
      s.holder !== null && (s.node ?? null) === node && !this.members.has(s.holder) ? [seat] : [],
    )
    if (lost.length === 0) return
    const until = this.h.deps.now() + this.h.deps.config.graceMs
    let seats = this.h.record.seats
    for (const seat of lost)
      seats = withSeat(seats, seat, { connected: false, holder: null, graceUntil: until })
    const r = await this.h.commit(
      { seats },
      lost.map((seat) => ({ t: 'away' as const, seat, name: seats[seat]!.name ?? '' })),
    )
    if (r.ok) for (const seat of lost) this.timers.graceUntil(seat, until)
    else this.repairLater()
  }

  /** Tries {@link dropOrphans} again in a second (the store was away). */
  private repairLater(): void {
    if (this.repairing || this.h.closed) return
    this.repairing = true
    setTimeout(() => {
      this.repairing = false
      if (this.h.closed) return
      void this.h.run(() => this.dropOrphans()).catch(() => this.repairLater())
    }, 1000).unref()
  }

  /**
   * Connections held on nodes that are no longer alive (a crash: no disconnect ever came) count
   * as dropped: their players enter the grace period like anyone whose connection dropped.
   */
  holdersLost(live: ReadonlySet<string>): Promise<void> {
    return this.h
      .run(async () => {
        const lost = this.h.record.seats.flatMap((s, seat) =>
          // A connection of this node is alive whatever the marks say.
          s.holder !== null && s.node && !live.has(s.node) && !this.members.has(s.holder)
            ? [seat]
            : [],
        )
        if (lost.length === 0) return
        const until = this.h.deps.now() + this.h.deps.config.graceMs
        let seats = this.h.record.seats
        for (const seat of lost) {
          seats = withSeat(seats, seat, {
            connected: false,
            holder: null,
            node: null,
            graceUntil: until,
          })
        }
        const r = await this.h.commit(
          { seats },
          lost.map((seat) => ({ t: 'away' as const, seat, name: seats[seat]!.name ?? '' })),
        )
        if (r.ok) for (const seat of lost) this.timers.graceUntil(seat, until)
      })
      .catch((e: unknown) => this.h.log.warn({ err: e }, 'lost holders not recorded'))
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
    const r = this.h.record
    const s = r.seats[seat]!
    this.timers.clearGrace(seat)
    const logs: LogBody[] =
      why === 'left' || r.status !== 'playing' ? [{ t: 'left', seat, name: s.name ?? '' }] : []
    const freed = r.status !== 'playing'
    const seats = freed
      ? withSeat(r.seats, seat, openSeat)
      : withSeat(r.seats, seat, { connected: false, holder: null, graceUntil: null, gone: true })
    return this.h.commit(
      {
        seats,
        host: nextHost(seats, r.host),
        staleBefore: allStale(r),
        ...(freed
          ? {
              entropy: withEntropy(r, seat, ''),
              rematch: r.seats.map((_, i) => i !== seat && (r.rematch?.[i] ?? false)),
            }
          : {}),
      },
      logs,
      { onSaved },
    )
  }

  /** A dropped player's grace period is over: they leave (vacate), unless they are back. */
  onGrace(seat: Seat): Promise<void> {
    return this.h
      .run(async () => {
        const s = this.h.record.seats[seat]
        if (!s || s.connected || s.graceUntil === null) return
        // Timers may fire a little early by the wall clock: wait out the rest.
        if (s.graceUntil > this.h.deps.now()) {
          this.timers.graceUntil(seat, s.graceUntil)
          return
        }
        const r = await this.vacate(seat, 'expired')
        // Not saved (the store is away): try again in a second.
        if (!r.ok) this.timers.graceUntil(seat, this.h.deps.now() + 1000)
      })
      .catch((e: unknown) => {
        this.h.log.warn({ err: e }, 'grace expiry not recorded')
        if (!this.h.closed) this.timers.graceUntil(seat, this.h.deps.now() + 1000)
      })
  }

  /**
   * The seat of a member allowed to act on `version`, or the refusal. Whether the sender sits
   * here is asked before anything else: an outsider's command (or a spectator's) never makes the
   * table reload or touch a timer (issue 13, finding 5).
   */
  async actor(member: MemberId, version: number): Promise<Seat | Refusal> {
    const local = this.members.get(member)
    if (local === undefined) return fail('NOT_AT_TABLE', 'you are not at this table')
    if (local === null) return fail('SPECTATOR', 'spectators watch; they cannot act')
    // A client ahead of this node has seen a version another node saved: catch up first. (The
    // version is the one the member's seat is shown: shown.ts.)
    if (tableVersion(this.h.record, local, version) === 'future') await this.h.reload()
    const seat = this.seatOf(member)
    if (seat === undefined) return fail('NOT_AT_TABLE', 'you are not at this table')
    if (seat === null) return fail('SPECTATOR', 'spectators watch; they cannot act')
    const r = this.h.record
    const at = tableVersion(r, seat, version)
    if (at === 'future')
      return fail(
        'FUTURE_VERSION',
        `version ${version} does not exist yet (the table is at ${shownVersion(r, seat)})`,
      )
    if (at < (r.staleBefore[seat] ?? 0))
      return fail('STALE_VERSION', 'the table changed since that command was made; look again')
    return seat
  }
}
