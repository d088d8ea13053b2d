// What a table's members are sent of one version: built once per version and viewer, shared by
// every member in that seat (and the encoder serialises the shared table info once).
import type { Seat } from '@kortbord/engine'
import { type GameView, LOG_TAIL, type TableInfo, type TableUpdate } from '@kortbord/protocol'
import { fairInfo } from './game-records.ts'
import type { GameAdapter } from './games.ts'
import { isAway } from './seats.ts'
import type { TableRecord } from './store.ts'
import { newerThan } from './table-log.ts'

export class UpdateCache {
  private cache: {
    version: number
    spectators: number
    table: TableInfo
    views: Map<Seat | null, GameView | null>
    deltas: Map<Seat | null, TableUpdate>
    wholes: Map<Seat | null, TableUpdate>
  } | null = null

  constructor(
    private readonly adapter: GameAdapter,
    private readonly timeoutsForAway: number,
  ) {}

  /**
   * The update of `r` for one seat (or a spectator, null). With `logAfter` (this node committed
   * the version: the log seq before it) it carries only the entries the version added; otherwise
   * the latest {@link LOG_TAIL} entries.
   */
  updateFor(
    r: TableRecord,
    spectators: number,
    seat: Seat | null,
    logAfter: number | null,
  ): TableUpdate {
    let c = this.cache
    if (!c || c.version !== r.version || c.spectators !== spectators) {
      c = {
        version: r.version,
        spectators,
        table: this.info(r, spectators),
        views: new Map(),
        deltas: new Map(),
        wholes: new Map(),
      }
      this.cache = c
    }
    const updates = logAfter !== null ? c.deltas : c.wholes
    let u = updates.get(seat)
    if (!u) {
      let view = c.views.get(seat)
      if (view === undefined) {
        view =
          r.state === null ? null : this.adapter.view(r.state, seat === null ? 'spectator' : seat)
        c.views.set(seat, view)
      }
      u =
        logAfter !== null
          ? { table: c.table, seat, view, log: newerThan(r.log, logAfter), logAfter }
          : { table: c.table, seat, view, log: r.log.slice(-LOG_TAIL), logAfter: null }
      updates.set(seat, u)
    }
    return u
  }

  private info(r: TableRecord, spectators: number): TableInfo {
    const deadlines = r.seats.map((_, i) => r.deadlines?.[i] ?? null)
    let deadline: number | null = null
    for (const d of deadlines) if (d !== null && (deadline === null || d < deadline)) deadline = d
    return {
      code: r.code,
      game: r.game,
      settings: r.settings,
      host: r.host,
      seats: r.seats.map((s) => ({
        name: s.name,
        connected: s.connected,
        away: isAway(s, this.timeoutsForAway),
        graceUntil: s.graceUntil,
        gone: s.gone,
        bot: s.bot ?? null,
      })),
      spectators,
      allowSpectators: r.allowSpectators,
      status: r.status,
      gameNo: r.gameNo,
      tally: r.tally,
      deadline,
      deadlines,
      fair: fairInfo(r),
      rematch: r.seats.map((_, i) => r.rematch?.[i] ?? false),
      spectatorChat: r.spectatorChat ?? true,
      version: r.version,
    }
  }
}
