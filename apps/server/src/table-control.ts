// What members do to a table besides playing: the host's settings (turn timer, spectators'
// chat), removing a player who is not there, seating a bot, ending a game a player has
// walked away from (I-16), and chat (issue 15: no version, nothing saved). Changes go through
// the table's queue and commit (TableHost); who may act is the members' say (TableMembers).
import type { BotLevel, Seat } from '@kortbord/engine'
import { botName, type Reaction, type TableSettings } from '@kortbord/protocol'
import type { TableChat } from './chat.ts'
import { endRecord } from './game-records.ts'
import { firstGame, isAway, nextHost, openSeat, withSeat } from './seats.ts'
import type { SeatRecord } from './store.ts'
import type { LogBody } from './table-log.ts'
import type { TableMembers } from './table-membership.ts'
import type { TableTimers } from './table-timers.ts'
import {
  allStale,
  fail,
  type MemberId,
  type Outcome,
  type Refusal,
  type TableHost,
} from './table-types.ts'

export class TableControl {
  constructor(
    private readonly h: TableHost,
    private readonly members: TableMembers,
    private readonly timers: TableTimers,
    private readonly talk: TableChat,
  ) {}

  /** Host only: whether spectators may chat (players always may). */
  setSpectatorChat(member: MemberId, version: number, on: boolean): Promise<Outcome> {
    return this.h.run(async () => {
      const seat = await this.members.actor(member, version)
      if (typeof seat !== 'number') return seat
      if (seat !== this.h.record.host) return fail('NOT_HOST', 'only the host can change that')
      return this.h.commit({ spectatorChat: on })
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
    return { ok: true, version: this.h.record.version }
  }

  react(member: MemberId, reaction: Reaction): Outcome {
    const who = this.speaker(member)
    if ('ok' in who) return who
    this.talk.react(who.seat, who.name, reaction)
    return { ok: true, version: this.h.record.version }
  }

  private speaker(member: MemberId): { seat: Seat | null; name: string } | Refusal {
    const seat = this.members.seatOf(member)
    if (seat === undefined) return fail('NOT_AT_TABLE', 'you are not at this table')
    if (seat === null) {
      if (!(this.h.record.spectatorChat ?? true))
        return fail('CHAT_OFF', 'the host has turned spectators’ chat off')
      return { seat: null, name: '' }
    }
    return { seat, name: this.h.record.seats[seat]?.name ?? '' }
  }

  /** Host only: frees the seat of a player who is not connected. */
  remove(member: MemberId, version: number, target: Seat): Promise<Outcome> {
    return this.h.run(async () => {
      const seat = await this.members.actor(member, version)
      if (typeof seat !== 'number') return seat
      const r = this.h.record
      if (seat !== r.host) return fail('NOT_HOST', 'only the host can remove a player')
      const t = r.seats[target]
      if (!t || t.name === null) return fail('SEAT_EMPTY', 'nobody sits there')
      if (target === r.host)
        return fail('CANNOT_REMOVE_SELF', 'the host cannot remove themselves; leave instead')
      if (t.connected && !t.bot) return fail('PLAYER_PRESENT', `${t.name} is at the table`)
      this.timers.clearGrace(target)
      return this.h.commit(
        {
          seats: withSeat(this.h.record.seats, target, openSeat),
          staleBefore: allStale(this.h.record),
        },
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
    return this.h.run(async () => {
      const seat = await this.members.actor(member, version)
      if (typeof seat !== 'number') return seat
      const r = this.h.record
      if (r.game !== 'idiot') return fail('NOT_FOR_BOTS', 'bots play Idiot only')
      const t = r.seats[target]
      if (!t) return fail('SEAT_EMPTY', 'there is no such seat')
      // A person's seat (a token holds it), played by them now or by a bot for them.
      const human = t.name !== null && t.tokenHash !== null
      const person = human && !t.bot
      const away = person && r.status === 'playing' && isAway(t, this.h.deps.config.timeoutsForAway)
      if (!away && seat !== r.host) {
        return fail(
          person ? 'NOT_AWAY' : 'NOT_HOST',
          person ? `${t.name} is playing` : 'only the host can seat a bot',
        )
      }
      if (person && !t.gone && !away) return fail('PLAYER_PRESENT', `${t.name} is at the table`)
      if (target === seat) return fail('NOT_AWAY', 'you are at the table yourself')
      const limit = this.h.deps.config.hardBotsPerNode ?? Number.POSITIVE_INFINITY
      const hard = (this.h.deps.hardBots?.() ?? 0) - (t.bot === 'hard' ? 1 : 0)
      const level: BotLevel = wanted === 'hard' && hard >= limit ? 'normal' : wanted
      const name = t.name ?? botName(r.seats.map((x) => x.name))
      // A person's seat keeps its token (they take it back). One who is only away keeps their
      // connection too (they watch their bot play and can take over); a seat that was given up
      // (gone) is the bot's until the game ends or its player comes back.
      const sit = { bot: level, connected: true, holder: null, graceUntil: null, gone: false }
      const patch: Partial<SeatRecord> =
        human && !t.gone ? { bot: level } : human ? sit : { ...sit, name, since: firstGame(r) }
      const seats = withSeat(this.h.record.seats, target, { ...patch, timeouts: 0 })
      const log: LogBody =
        human && !t.gone
          ? { t: 'bot', seat: target, name, level, by: seat }
          : { t: 'joined', seat: target, name }
      const out = await this.h.commit({ seats, staleBefore: allStale(this.h.record) }, [log])
      return out.ok ? { ok: true, version: out.version, level } : out
    })
  }

  /**
   * A seated player ends the game because `target` is away (I-16: timed out twice, or
   * disconnected): that seat forfeits it. Idiot: they are the Idiot; two players: the other wins.
   */
  forfeit(member: MemberId, version: number, target: Seat): Promise<Outcome> {
    return this.h.run(async () => {
      const seat = await this.members.actor(member, version)
      if (typeof seat !== 'number') return seat
      const r = this.h.record
      if (r.seats.length < 2)
        return fail('NOT_FOR_SOLO', 'a patience alone has nobody to forfeit to')
      if (r.status !== 'playing' || r.state === null)
        return fail('NOT_PLAYING', 'there is no game to end')
      const t = r.seats[target]
      if (!t || t.name === null) return fail('SEAT_EMPTY', 'nobody sits there')
      if (target === seat || !isAway(t, this.h.deps.config.timeoutsForAway))
        return fail('NOT_AWAY', `${t.name} is not away`)
      const seats = r.seats.map((x) => (x.gone ? openSeat : { ...x, timeouts: 0 }))
      const ended = endRecord(r, { reason: 'forfeit', seat: target }, this.h.deps.now())
      return this.h.commit(
        {
          status: 'over',
          tally: this.h.adapter.forfeitTally(r.tally, target),
          seats,
          host: nextHost(seats, r.host),
          staleBefore: allStale(this.h.record),
          ...(ended ? { gameRecord: ended.gameRecord } : {}),
        },
        [{ t: 'forfeit', seat: target, name: t.name, by: seat }],
        { records: ended?.effects },
      )
    })
  }

  /** Host only: the turn timer from now on (I-16); every running clock restarts with it. */
  setTimer(member: MemberId, version: number, turnSeconds: number | null): Promise<Outcome> {
    return this.h.run(async () => {
      const seat = await this.members.actor(member, version)
      if (typeof seat !== 'number') return seat
      const r = this.h.record
      if (seat !== r.host) return fail('NOT_HOST', 'only the host can change the timer')
      if (!this.h.adapter.timed(r.settings))
        return fail('NOT_FOR_SOLO', 'a patience alone has no turn timer')
      return this.h.commit(
        {
          settings: { ...r.settings, turnSeconds } as TableSettings,
          staleBefore: allStale(this.h.record),
        },
        [{ t: 'timer', turnSeconds }],
        { timerChanged: true },
      )
    })
  }
}
