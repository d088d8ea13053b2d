// What a table's members are sent of one version: built once per version and viewer, shared by
// every member in that seat (and the encoder serialises the shared parts once). A whole update
// (the table info, the viewer's view, the log) for a member who just came or asked for it; a
// delta against the previous version (issue 17) for the others, when they asked for deltas.
import type { Seat } from '@kortbord/engine'
import {
  checksum,
  compactLog,
  deadlinesChange,
  diff,
  earliestDeadline,
  type GameView,
  headChange,
  LOG_TAIL,
  type Patch,
  type TableDelta,
  type TableInfo,
  type TableUpdate,
  tablePatch,
} from '@kortbord/protocol'
import { fairInfo } from './game-records.ts'
import type { GameAdapter } from './games.ts'
import { isAway, shownPlayers } from './seats.ts'
import type { TableRecord } from './store.ts'
import { newerThan } from './table-log.ts'

/** A view patch with more operations than this is sent as the whole view instead. */
const MAX_VIEW_OPS = 48

/** The table info's part of a delta: its patch (absent when empty) and the chain head. */
interface TableChange {
  readonly t?: Patch
  readonly h?: string | null
}

/** One version as members see it: built on demand, per viewer. */
interface Built {
  readonly record: TableRecord
  readonly spectators: number
  readonly table: TableInfo
  readonly views: Map<Seat | null, GameView | null>
  readonly deltas: Map<Seat | null, TableUpdate>
  readonly wholes: Map<Seat | null, TableUpdate>
  readonly patches: Map<Seat | null, TableDelta | null>
  /** The table info's change from the previous version (shared by every viewer). */
  tableChange?: TableChange
}

export class UpdateCache {
  private cache: Built | null = null
  /** The version before, kept to diff against. */
  private prev: Built | null = null

  constructor(
    private readonly adapter: GameAdapter,
    private readonly timeoutsForAway: number,
  ) {}

  private built(r: TableRecord, spectators: number): Built {
    const c = this.cache
    if (c && c.record.version === r.version && c.spectators === spectators) return c
    if (c && c.record.version !== r.version) this.prev = c
    const next: Built = {
      record: r,
      spectators,
      table: this.info(r, spectators),
      views: new Map(),
      deltas: new Map(),
      wholes: new Map(),
      patches: new Map(),
    }
    this.cache = next
    return next
  }

  private view(b: Built, seat: Seat | null): GameView | null {
    let v = b.views.get(seat)
    if (v === undefined) {
      const s = b.record.state
      v = s === null ? null : this.adapter.view(s, seat === null ? 'spectator' : seat)
      b.views.set(seat, v)
    }
    return v
  }

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
    const c = this.built(r, spectators)
    const updates = logAfter !== null ? c.deltas : c.wholes
    let u = updates.get(seat)
    if (!u) {
      const view = this.view(c, seat)
      u =
        logAfter !== null
          ? { table: c.table, seat, view, log: newerThan(r.log, logAfter), logAfter }
          : { table: c.table, seat, view, log: r.log.slice(-LOG_TAIL), logAfter: null }
      updates.set(seat, u)
    }
    return u
  }

  /**
   * What changed for `seat` from the previous version to `r` (issue 17), or null when this node
   * did not build the previous version (then the member is sent the whole update).
   */
  deltaFor(
    r: TableRecord,
    spectators: number,
    seat: Seat | null,
    logAfter: number,
  ): TableDelta | null {
    const c = this.built(r, spectators)
    if (c.patches.has(seat)) return c.patches.get(seat)!
    const p = this.prev
    if (!p || p.record.version !== r.version - 1) {
      c.patches.set(seat, null)
      return null
    }
    c.tableChange ??= this.tableChange(p.table, c.table)
    const before = this.view(p, seat)
    const view = this.view(c, seat)
    const viewPatch = before === null || view === null ? null : diff(before, view, { rows: true })
    const whole = viewPatch === null || viewPatch.length > MAX_VIEW_OPS
    const log = compactLog(newerThan(r.log, logAfter), logAfter, view)
    const d: TableDelta = {
      code: r.code,
      version: r.version,
      ...c.tableChange,
      ...deadlinesChange(p.table, c.table, log.at ?? 0),
      p: whole ? null : viewPatch,
      ...(whole ? { view } : {}),
      sum: checksum(view),
      ...(log.log ? { log: log.log } : {}),
      logAfter,
      ...(log.at !== undefined ? { at: log.at } : {}),
    }
    c.patches.set(seat, d)
    return d
  }

  private tableChange(before: TableInfo, after: TableInfo): TableChange {
    const t = tablePatch(before, after)
    return { ...(t.length > 0 ? { t } : {}), ...headChange(before, after) }
  }

  private info(r: TableRecord, spectators: number): TableInfo {
    const deadlines = r.seats.map((_, i) => r.deadlines?.[i] ?? null)
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
      players: shownPlayers(r),
      deadline: earliestDeadline(deadlines),
      deadlines,
      fair: fairInfo(r),
      rematch: r.seats.map((_, i) => r.rematch?.[i] ?? false),
      spectatorChat: r.spectatorChat ?? true,
      version: r.version,
    }
  }
}
