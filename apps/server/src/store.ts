import type { Deal, GameRecord, RecordMove, Seat } from '@kortbord/engine'
import type { GameId, LogEntry, TableSettings, TableStatus } from '@kortbord/protocol'
import type { AnyState } from './games.ts'
import type { LiveNodes, WatchStore } from './presence.ts'

/** One seat as stored: the token only as a hash (a leaked store does not leak seats). */
export interface SeatRecord {
  readonly name: string | null
  /** sha256 of the seat token, hex; null for an open seat. */
  readonly tokenHash: string | null
  readonly connected: boolean
  /** The connection holding the seat (any node's); null while nobody does. */
  readonly holder: string | null
  /** The node serving that connection (for noticing connections lost with a crashed node). */
  readonly node?: string | null
  /** A computer player plays this seat (issue 7). */
  readonly bot?: 'easy' | 'normal' | 'hard' | null
  /** Epoch ms when a disconnected player's grace period ends; null when connected or expired. */
  readonly graceUntil: number | null
  /** True once the player left or their grace period ran out. */
  readonly gone: boolean
  /** Consecutive turn-timer expiries (I-16); two or more mark the player away. */
  readonly timeouts: number
  /**
   * The number of the first game this player plays in: the one being played when they sat down
   * during it (they take over its cards), else the next one. Absent: from the table's first game.
   */
  readonly since?: number
}

/** What one viewer (a seat, or the spectators) is shown of a table's versions (shown.ts). */
export interface ShownOf {
  /** Its version: one more at every change it can see. */
  readonly n: number
  /** The table versions its latest changes made (at most SHOWN_KEEP), the last one `n`'s. */
  readonly at: readonly number[]
  /** The chain head (as TableInfo.fair shows it) at its latest change. */
  readonly head: string | null
}

/** Per viewer: the seats in order, then the spectators. */
export type Shown = readonly ShownOf[]

/**
 * Everything a table is, as plain JSON: the unit a store keeps and the only thing a node needs to
 * take over a table. The engine state inside is secret; it leaves only through the engine's view.
 */
export interface TableRecord {
  readonly code: string
  readonly game: GameId
  readonly settings: TableSettings
  readonly allowSpectators: boolean
  readonly host: Seat
  readonly seats: readonly SeatRecord[]
  readonly status: TableStatus
  readonly gameNo: number
  readonly tally: readonly number[]
  readonly state: AnyState | null
  /** Bumped on every change; commands name the version they were made against. */
  readonly version: number
  /**
   * staleBefore[seat]: the oldest version a game command of that seat may be made against.
   * A move that changes what a seat may do raises it, so a command made before is refused.
   */
  readonly staleBefore: readonly number[]
  /**
   * deadlines[seat]: epoch ms when that seat's turn timer runs out, or null (I-16). A seat's
   * clock starts when it has to act and restarts when it acts; others' moves leave it running.
   * Records saved before per-seat timers have none (undefined): no timer runs.
   */
  readonly deadlines?: readonly (number | null)[]
  readonly log: readonly LogEntry[]
  readonly logSeq: number
  readonly createdAt: number
  readonly updatedAt: number
  /**
   * The verifiable shuffle (issue 14): the secret seed of the next game and its commitment
   * (published), and the deal of the game being played (revealed in its record when it ends).
   * Never sent to anyone. Records saved before issue 14 have none: the next start makes one.
   */
  readonly fair?: {
    readonly next: { readonly seed: string; readonly commitment: string }
    readonly current: Deal | null
  }
  /** entropy[seat]: that seat's contribution to the next shuffle ('' for none); public. */
  readonly entropy?: readonly string[]
  /**
   * The record of the game being played or the last one, as it stands (its moves are kept by
   * the store, {@link RecordEffects}); `moves` here is empty.
   */
  readonly gameRecord?: GameRecord | null
  /** How many moves that record holds (the store has them). */
  readonly gameRecordMoves?: number
  /** rematch[seat]: that player asked for the next game (issue 15). */
  readonly rematch?: readonly boolean[]
  /** Whether spectators may chat (default yes; the host decides). */
  readonly spectatorChat?: boolean
  /**
   * A table whose game hides some moves from some viewers (a same-deal duel): the version each
   * viewer is shown, seats then spectators (shown.ts). Absent: everyone is shown `version`.
   */
  readonly shown?: Shown
}

/** What a save does to the game records at the same time, all or nothing with it (issue 14). */
export interface RecordEffects {
  /**
   * A record's header (its fields but the moves): stored or replaced; `ttlSeconds` is how long
   * the record is kept from now.
   */
  readonly header?: GameRecord
  /** A move appended to the moves of record `id`. */
  readonly move?: { readonly id: string; readonly entry: RecordMove }
  /**
   * The deal of the game `header` opens, kept beside the record and never served: while the
   * game is played the server replays the public frames from it (public-frames.ts). It goes
   * when a header that ends the game replaces the open one (the record then reveals it).
   */
  readonly deal?: Deal
}

/** What a store keeps apart from a record while its game is played ({@link RecordEffects.deal}). */
export interface RecordSecret {
  readonly deal: Deal
  readonly table: string | null
}

/** Refused because another writer saved a newer version first. */
export class VersionConflict extends Error {
  constructor(readonly code: string) {
    super(`table ${code} was changed by another writer`)
    this.name = 'VersionConflict'
  }
}

/**
 * Where tables live. The memory store is the embedded default; a Redis store (issue 5) keeps the
 * same contract: `save` succeeds only if the stored version is `expected` (null: must not exist).
 */
export interface TableStore extends WatchStore {
  load(code: string): Promise<TableRecord | null>
  /** Saves `record` if the stored version is `expected`, and applies `effects` with it. */
  save(record: TableRecord, expected: number | null, effects?: RecordEffects): Promise<void>
  /** A game record: its header and every move appended so far; null when unknown or expired. */
  loadRecord(id: string): Promise<GameRecord | null>
  /**
   * The secret deal of a record whose game is being played ({@link RecordEffects.deal}), with the
   * code of the table that plays it (never served; `table` null for a record kept before it was),
   * or null once the game is over. One read for both: see abandoned.ts.
   */
  loadRecordSecret(id: string): Promise<RecordSecret | null>
  delete(code: string): Promise<void>
  /**
   * Node liveness for a cluster: a node renews its mark every few seconds; `liveNodes` lists the
   * nodes whose mark has not expired, or null when the store serves one process only.
   */
  heartbeat(node: string, ttlMs: number, url?: string | null): Promise<void>
  /** The nodes alive now and the address each serves at (null: not told). */
  liveNodes(): Promise<ReadonlyMap<string, string | null> | null>
  /** Whether the store can take writes now (for /readyz). */
  ready(): Promise<boolean>
  /**
   * Deletes tables not changed since `before` (epoch ms), and those no person is connected to
   * ({@link nobodyThere}) not changed since `idleBefore` (default `before`), except those in
   * `keep`; returns how many.
   */
  sweep(before: number, keep?: ReadonlySet<string>, idleBefore?: number): Promise<number>
  /** How many tables the store holds, when that is cheap to know (memory), else null. */
  count(): number | null
  close(): Promise<void>
}

/** How long records are kept and how many, in any store. */
export interface RecordRetention {
  /** Seconds a record is kept after its last change (RECORD_TTL_DAYS). */
  readonly ttlSeconds: number
  /** Records the memory store keeps at most; the oldest go first (RECORDS_MAX). */
  readonly maxRecords: number
}

/**
 * No person is at the table now: every seat is open, a bot's, or held by someone disconnected.
 * Such a table waits for its players (its clocks stop), but only IDLE_TABLE_HOURS.
 */
export const nobodyThere = (seats: readonly SeatRecord[]): boolean =>
  seats.every((s) => s.name === null || (s.bot ?? null) !== null || !s.connected)

export const DEFAULT_RETENTION: RecordRetention = { ttlSeconds: 30 * 86_400, maxRecords: 20_000 }

export class MemoryStore implements TableStore {
  // Records are immutable values: every change makes a new one that shares the unchanged parts,
  // and nothing writes to a record once made, so the store keeps them as they are (a copy would
  // serialize the whole record, log and all, on every move). With `freeze` (the tests use it)
  // every saved record is deep-frozen, so a write to a stored record anywhere throws and fails
  // a test; it costs a walk over what each save added, about 10% of the server's CPU under load.
  private readonly tables = new Map<string, TableRecord>()
  private readonly watching = new Map<string, Map<string, number>>()
  /** Records by id, oldest first (a Map keeps insertion order; a change moves one to the end). */
  private readonly records = new Map<
    string,
    {
      header: GameRecord
      moves: RecordMove[]
      until: number
      deal: Deal | null
      table: string | null
    }
  >()
  private readonly freeze: boolean
  private readonly retention: RecordRetention

  constructor(opts: { readonly freeze?: boolean; readonly retention?: RecordRetention } = {}) {
    this.freeze = opts.freeze ?? false
    this.retention = opts.retention ?? DEFAULT_RETENTION
  }

  async load(code: string): Promise<TableRecord | null> {
    return this.tables.get(code) ?? null
  }

  async save(record: TableRecord, expected: number | null, effects?: RecordEffects): Promise<void> {
    const current = this.tables.get(record.code)?.version ?? null
    if (current !== expected) throw new VersionConflict(record.code)
    this.tables.set(record.code, this.freeze ? deepFreeze(record) : record)
    if (effects) this.applyRecordEffects(record.code, effects)
  }

  private applyRecordEffects(code: string, e: RecordEffects): void {
    const until = Date.now() + this.retention.ttlSeconds * 1000
    const touch = (id: string) => {
      const r = this.records.get(id)
      if (!r) return undefined
      this.records.delete(id)
      this.records.set(id, r)
      r.until = until
      return r
    }
    if (e.header) {
      const r = touch(e.header.id)
      const deal = e.header.end !== null ? null : (e.deal ?? r?.deal ?? null)
      const table = deal === null ? null : code
      if (r) {
        r.header = e.header
        r.deal = deal
        r.table = table
      } else this.records.set(e.header.id, { header: e.header, moves: [], until, deal, table })
    }
    if (e.move) touch(e.move.id)?.moves.push(e.move.entry)
    // The oldest beyond the bound go.
    while (this.records.size > this.retention.maxRecords) {
      const oldest = this.records.keys().next().value
      if (oldest === undefined) break
      this.records.delete(oldest)
    }
  }

  async loadRecord(id: string): Promise<GameRecord | null> {
    const r = this.records.get(id)
    if (!r || r.until < Date.now()) return null
    return { ...r.header, moves: r.moves.slice() }
  }

  async loadRecordSecret(id: string): Promise<RecordSecret | null> {
    const r = this.records.get(id)
    if (!r || r.until < Date.now() || r.deal === null) return null
    return { deal: r.deal, table: r.table }
  }

  /** Records kept now (for tests and the metric). */
  get recordCount(): number {
    return this.records.size
  }

  async delete(code: string): Promise<void> {
    this.tables.delete(code)
    this.watching.delete(code)
  }

  async setWatchers(code: string, node: string, n: number): Promise<void> {
    const m = this.watching.get(code)
    if (n > 0) {
      if (m) m.set(node, n)
      else this.watching.set(code, new Map([[node, n]]))
    } else if (m) {
      m.delete(node)
      if (m.size === 0) this.watching.delete(code)
    }
  }

  async watchers(code: string, live: LiveNodes): Promise<number> {
    let n = 0
    for (const [node, k] of this.watching.get(code) ?? []) if (!live || live.has(node)) n += k
    return n
  }

  count(): number {
    return this.tables.size
  }

  async ready(): Promise<boolean> {
    return true
  }

  async heartbeat(): Promise<void> {}

  /** One process: every holder is on a live node. */
  async liveNodes(): Promise<null> {
    return null
  }

  async sweep(
    before: number,
    keep: ReadonlySet<string> = new Set(),
    idleBefore = before,
  ): Promise<number> {
    const now = Date.now()
    for (const [id, r] of this.records) if (r.until < now) this.records.delete(id)
    let n = 0
    for (const [code, t] of this.tables) {
      const limit = nobodyThere(t.seats) ? Math.max(before, idleBefore) : before
      if (t.updatedAt < limit && !keep.has(code)) {
        this.tables.delete(code)
        this.watching.delete(code)
        n++
      }
    }
    return n
  }

  async close(): Promise<void> {}

  get size(): number {
    return this.tables.size
  }
}

/** Freezes `v` and everything it reaches, skipping what is already frozen (shared, saved before). */
export function deepFreeze<T>(v: T): T {
  if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return v
  Object.freeze(v)
  if (Array.isArray(v)) {
    // Mostly arrays of cards (numbers): look only at elements that are objects.
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i]
      if (typeof x === 'object' && x !== null) deepFreeze(x)
    }
  } else {
    for (const k in v) {
      const x: unknown = (v as Record<string, unknown>)[k]
      if (typeof x === 'object' && x !== null) deepFreeze(x)
    }
  }
  return v
}
