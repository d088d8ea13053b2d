// The game at a table: starting it (by the host, or by agreement for the next one), the moves of
// its players (and those the table makes itself: the turn timer's, a bot's), and each seat's
// contribution to the next shuffle. Every change goes through the table's queue and commit
// (TableHost); who may act is the members' say (TableMembers.actor).
import type { Deal, IdiotState, RecordMove, Seat } from '@kortbord/engine'
import type { TestDealMsg, TimeoutAction } from '@kortbord/protocol'
import { newFair, nextDeal, openRecord, recordMove, withEntropy } from './game-records.ts'
import type { AnyState, GameAdapter } from './games.ts'
import { nextHost, openSeat, withSeat } from './seats.ts'
import type { LogBody } from './table-log.ts'
import type { TableMembers } from './table-membership.ts'
import { allStale, fail, type MemberId, type Outcome, type TableHost } from './table-types.ts'

/** The public log entries of a game's latest events. */
function gameLog(state: AnyState): LogBody[] {
  // Idiot's events are public by I-15. The duel's are kept to its views: with the same deal,
  // A-15 hides an opponent's game until one has played one's own.
  if (state.game !== 'idiot') return []
  return (state as IdiotState).recent.map((e) => ({ t: 'game' as const, e }))
}

/**
 * The end of a game that is not Idiot's, for the log: in those games the tally counts wins, so
 * the winner is the one seat whose count went up (none: a draw, or alone a game lost).
 */
function ended(gameNo: number, before: readonly number[], after: readonly number[]): LogBody {
  const up = after.flatMap((n, i) => (n > (before[i] ?? 0) ? [i] : []))
  return { t: 'ended', gameNo, winner: up.length === 1 ? up[0]! : null }
}

export class TableGame {
  constructor(
    private readonly h: TableHost,
    private readonly members: TableMembers,
    /** The game changed (dealt, or a move): A-16 may have a finished game to figure. */
    private readonly onGameChange: () => void,
  ) {}

  /** Host only: starts the first game, or the next one once a game is over (I-16). */
  start(member: MemberId, version: number, deal?: TestDealMsg, entropy?: string): Promise<Outcome> {
    return this.h.run(async () => {
      const seat = await this.members.actor(member, version)
      if (typeof seat !== 'number') return seat
      const r = this.h.record
      if (seat !== r.host) return fail('NOT_HOST', 'only the host can start a game')
      if (r.status === 'playing') return fail('GAME_IN_PROGRESS', 'a game is being played')
      if (r.seats.some((s) => s.name === null))
        return fail('SEATS_NOT_FILLED', 'every seat needs a player before the game starts')
      if (deal !== undefined && !this.h.deps.config.testDeals)
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
    return this.h.run(async () => {
      const seat = await this.members.actor(member, version)
      if (typeof seat !== 'number') return seat
      const r = this.h.record
      if (r.status === 'playing') return fail('GAME_IN_PROGRESS', 'a game is being played')
      const asked = r.seats.map((_, i) => i === seat || (r.rematch?.[i] ?? false))
      const log: LogBody = { t: 'rematch', seat, name: r.seats[seat]?.name ?? '' }
      const all = r.seats.every((s, i) => s.name !== null && (s.bot || asked[i]))
      const out = all
        ? await this.begin(seat, undefined, entropy, [log])
        : await this.h.commit(
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
    const r = this.h.record
    const testDeck = this.h.deps.config.testDeck
    const fixed: Deal | null = deal ?? (testDeck ? { deck: testDeck } : null)
    const gameNo = r.gameNo + 1
    // The starting player's contribution may come with the start (issue 14).
    const dealt = entropy === undefined ? r : { ...r, entropy: withEntropy(r, seat, entropy) }
    const d = nextDeal(dealt, gameNo, fixed)
    const options = this.h.adapter.options(r.settings, r.state)
    let state: AnyState
    try {
      state = this.h.adapter.setup(options, r.settings, d)
    } catch (e) {
      return fail('BAD_DEAL', e instanceof Error ? e.message : 'that deal cannot be dealt')
    }
    const header = openRecord(dealt, gameNo, options, d, this.h.deps.now())
    const out = await this.h.commit(
      {
        state,
        status: 'playing',
        gameNo,
        staleBefore: allStale(this.h.record),
        seats: r.seats.map((s) => ({ ...s, timeouts: 0 })),
        entropy: dealt.entropy,
        // The next game's seed is chosen (and committed to) now; this one's waits to be revealed.
        fair: { next: newFair(), current: d },
        gameRecord: header,
        gameRecordMoves: 0,
        rematch: r.seats.map(() => false),
      },
      [...before, { t: 'started', gameNo }, ...gameLog(state)],
      { records: { header, deal: d } },
    )
    if (out.ok) this.onGameChange()
    return out
  }

  /**
   * A seated player's contribution to the next game's shuffle (issue 14), between games; the
   * game being played was dealt with the contributions it started with.
   */
  setEntropy(member: MemberId, entropy: string): Promise<Outcome> {
    return this.h.run(async () => {
      const seat = await this.members.actor(member, this.h.record.version)
      if (typeof seat !== 'number') return seat
      if (this.h.record.status === 'playing')
        return fail('GAME_IN_PROGRESS', 'this game was dealt already; the next one takes it')
      if ((this.h.record.entropy?.[seat] ?? '') === entropy)
        return { ok: true, version: this.h.record.version }
      return this.h.commit({ entropy: withEntropy(this.h.record, seat, entropy) })
    })
  }

  /** A game move of the member's seat, made against `version`. */
  move(member: MemberId, version: number, rawMove: unknown): Promise<Outcome> {
    return this.h.run(async () => {
      const seat = await this.members.actor(member, version)
      if (typeof seat !== 'number') return seat
      const r = this.h.record
      if (r.status !== 'playing' || r.state === null)
        return fail(
          'NOT_PLAYING',
          r.status === 'over' ? 'the game is over' : 'the game has not started',
        )
      if (r.seats[seat]?.bot)
        return fail('BOT_PLAYING', 'a bot plays your seat; take it back first')
      const parsed = this.h.adapter.moveSchema.safeParse(rawMove)
      if (!parsed.success) return fail('BAD_REQUEST', `not a move of ${r.game}`)
      return this.applyMove(seat, parsed.data, null)
    })
  }

  /**
   * Applies a move of `seat`: a person's (`by` null), one the turn timer made for them (with the
   * action it took), or a bot's. It goes into the game's record with who made it.
   */
  async applyMove(
    seat: Seat,
    move: Parameters<GameAdapter['apply']>[2],
    timeout: TimeoutAction | null,
    by: 'bot' | null = null,
  ): Promise<Outcome> {
    const r = this.h.record
    const before = r.state!
    const res = this.h.adapter.apply(before, seat, move)
    if (!res.ok) return fail(res.error.code, res.error.message)
    const after = res.value
    const over = this.h.adapter.isOver(after)
    const now = this.h.deps.now()
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
      over ? { reason: 'over', outcome: this.h.adapter.outcome(after) } : null,
      this.h.deps.config.recordMaxMoves ?? 5000,
    )
    const stale = this.h.adapter.staleAfter(before, after, seat)
    const staleBefore = r.staleBefore.slice()
    for (const s of stale) staleBefore[s] = r.version + 1
    const timeouts = timeout === null ? 0 : (r.seats[seat]?.timeouts ?? 0) + 1
    const logs: LogBody[] = []
    if (timeout !== null) logs.push({ t: 'timeout', seat, action: timeout })
    logs.push(...gameLog(after))
    const tally = over ? this.h.adapter.tally(after, r.tally) : r.tally
    if (over && after.game !== 'idiot') logs.push(ended(r.gameNo, r.tally, tally))
    if (timeouts === this.h.deps.config.timeoutsForAway)
      logs.push({ t: 'away', seat, name: r.seats[seat]?.name ?? '' })
    let seats = withSeat(this.h.record.seats, seat, { timeouts })
    // Players who left during the game give up their seats once it is over; a game's timeouts
    // end with it (nobody is away for the next one).
    if (over) seats = seats.map((x) => (x.gone ? openSeat : { ...x, timeouts: 0 }))
    const out = await this.h.commit(
      {
        state: after,
        staleBefore,
        status: over ? 'over' : 'playing',
        tally,
        seats,
        host: over ? nextHost(seats, r.host) : r.host,
        ...(recorded
          ? { gameRecord: recorded.gameRecord, gameRecordMoves: recorded.gameRecordMoves }
          : {}),
      },
      logs,
      { mover: seat, records: recorded?.effects },
    )
    if (out.ok) this.onGameChange()
    return out
  }
}
