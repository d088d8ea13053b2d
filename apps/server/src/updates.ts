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
import { shownInfo } from './shown.ts'
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
  /** With versions per viewer (shown.ts): the table info as each viewer is shown it. */
  readonly infos: Map<Seat | null, TableInfo>
}

export class UpdateCache {
  private cache: Built | null = null
  /** The version before, kept to diff against. */
  private prev: Built | null = null
  /**
   * With versions per viewer (shown.ts): the version each viewer was last sent a delta of, its
   * next delta's base (a viewer is sent nothing of a change it cannot see, so that is not always
   * the version before).
   */
  private readonly lastFor = new Map<Seat | null, Built>()

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
      table: tableInfo(r, spectators, this.timeoutsForAway),
      views: new Map(),
      deltas: new Map(),
      wholes: new Map(),
      patches: new Map(),
      infos: new Map(),
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
      const table = this.infoFor(c, seat)
      u =
        logAfter !== null
          ? { table, seat, view, log: newerThan(r.log, logAfter), logAfter }
          : { table, seat, view, log: r.log.slice(-LOG_TAIL), logAfter: null }
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
    const p = this.baseFor(c, seat)
    const d = p === null ? null : this.delta(p, c, seat, logAfter)
    c.patches.set(seat, d)
    return d
  }

  /**
   * The version `seat`'s delta to `c` goes from: the one before, or with versions per viewer the
   * one it was last sent; null when this node did not build that one.
   */
  private baseFor(c: Built, seat: Seat | null): Built | null {
    const p = c.record.shown ? this.lastFor.get(seat) : this.prev
    // With versions per viewer `c` is the next delta's base either way: the members who take
    // deltas get it as a delta or whole.
    if (c.record.shown) this.lastFor.set(seat, c)
    if (!p || this.infoFor(p, seat).version !== this.infoFor(c, seat).version - 1) return null
    return p
  }

  /** The delta from `p` to `c` for `seat`. */
  private delta(p: Built, c: Built, seat: Seat | null, logAfter: number): TableDelta {
    const r = c.record
    const before = this.infoFor(p, seat)
    const after = this.infoFor(c, seat)
    // One table change for every viewer, unless each has its own version (and its own base).
    const change = r.shown
      ? this.tableChange(before, after)
      : (c.tableChange ?? this.shared(c, this.tableChange(before, after)))
    const was = this.view(p, seat)
    const view = this.view(c, seat)
    const viewPatch = was === null || view === null ? null : diff(was, view, { rows: true })
    const whole = viewPatch === null || viewPatch.length > MAX_VIEW_OPS
    const log = compactLog(newerThan(r.log, logAfter), logAfter, view)
    return {
      code: r.code,
      version: after.version,
      ...change,
      ...deadlinesChange(before, after, log.at ?? 0),
      p: whole ? null : viewPatch,
      ...(whole ? { view } : {}),
      sum: checksum(view),
      ...(log.log ? { log: log.log } : {}),
      logAfter,
      ...(log.at !== undefined ? { at: log.at } : {}),
    }
  }

  /** Keeps a version's table change for every viewer's delta. */
  private shared(c: Built, change: TableChange): TableChange {
    c.tableChange = change
    return change
  }

  /** The table info as `seat` is shown it: its own version, with versions per viewer. */
  private infoFor(b: Built, seat: Seat | null): TableInfo {
    if (!b.record.shown) return b.table
    let info = b.infos.get(seat)
    if (!info) {
      const view = this.view(b, seat)
      const hidden = view === null ? [] : (this.adapter.hiddenSeats?.(view) ?? [])
      info = shownInfo(b.table, b.record, seat, hidden)
      b.infos.set(seat, info)
    }
    return info
  }

  private tableChange(before: TableInfo, after: TableInfo): TableChange {
    const t = tablePatch(before, after)
    return { ...(t.length > 0 ? { t } : {}), ...headChange(before, after) }
  }
}

/** The table info of record `r` as everyone is shown it (shown.ts shapes it per viewer). */
export function tableInfo(r: TableRecord, spectators: number, timeoutsForAway: number): TableInfo {
  const deadlines = r.seats.map((_, i) => r.deadlines?.[i] ?? null)
  return {
    code: r.code,
    game: r.game,
    settings: r.settings,
    host: r.host,
    seats: r.seats.map((s) => ({
      name: s.name,
      connected: s.connected,
      away: isAway(s, timeoutsForAway),
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
