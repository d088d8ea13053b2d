/**
 * A `table:delta` made (the server) and applied (every client): what changed at a table from one
 * version to the next (issue 17, docs/protocol.md "Delta updates"). A delta leaves out whatever
 * the client can work out from what it holds: the version it applies to (the one before), the
 * seat, the earliest deadline, and of the log entries their numbers, their time when it is the
 * version's, and an Idiot move's events, which are the view's `recent` already. The turn clocks
 * travel as times after the version's (`dl`), and the hash chain's head (`h`) only every
 * {@link HEAD_EVERY}th version and when the game's fairness info or status changes.
 */
import { applyPatch, checksum, diff, jsonEqual, type Patch } from './delta.ts'
import type {
  DeltaLogEntry,
  FairInfo,
  GameView,
  LogEntry,
  TableDelta,
  TableInfo,
  TableUpdate,
} from './wire.ts'

/**
 * A delta carries the head of the record's hash chain (`fair.head`) when its version is a
 * multiple of this, and whenever the rest of `fair` or the table's status changes (a game starts
 * or ends); whole updates always carry it. So a client's head is at most this many versions
 * minus one behind, and exact at a game's end (docs/fairness.md).
 */
export const HEAD_EVERY = 8

/** When the earliest running turn timer runs out (TableInfo.deadline), else null. */
export function earliestDeadline(deadlines: readonly (number | null)[]): number | null {
  let out: number | null = null
  for (const d of deadlines) if (d !== null && (out === null || d < out)) out = d
  return out
}

const headless = (f: FairInfo): FairInfo => ({ ...f, head: null })

/**
 * What a delta's `t` patches: the table info without what the client sets itself (`version`,
 * `deadline`) or is sent apart (`deadlines`: `dl`; `fair.head`: `h`).
 */
const patchable = (t: TableInfo): TableInfo => ({
  ...t,
  version: 0,
  deadline: null,
  deadlines: [],
  fair: headless(t.fair),
})

/** The patch `t` of a delta from the table info `before` to `after`. */
export function tablePatch(before: TableInfo, after: TableInfo): Patch {
  return diff(patchable(before), patchable(after))
}

/**
 * The `h` of a delta to `after` (version `after.version`) from `before`: the head, when the
 * version is a multiple of {@link HEAD_EVERY} or the fairness info (but its head) or the status
 * changed; otherwise nothing (the client keeps the head it has).
 */
export function headChange(before: TableInfo, after: TableInfo): { h?: string | null } {
  // No game yet: no head, before nor now (a head never goes back to null but with a new record).
  if (after.fair.head === null && before.fair.head === null) return {}
  const due =
    after.version % HEAD_EVERY === 0 ||
    before.status !== after.status ||
    !jsonEqual(headless(before.fair), headless(after.fair))
  return due ? { h: after.fair.head } : {}
}

/**
 * The `dl` of a delta from `before` to `after`, when the turn clocks changed: a flat list of
 * pairs `seat, deadline − base` for each running clock (every other seat's is null); `base` is
 * the delta's `at`, or 0 when it has none.
 */
export function deadlinesChange(
  before: TableInfo,
  after: TableInfo,
  base: number,
): { dl?: number[] } {
  if (jsonEqual(before.deadlines, after.deadlines)) return {}
  const dl: number[] = []
  after.deadlines.forEach((d, seat) => {
    if (d !== null) dl.push(seat, d - base)
  })
  return { dl }
}

/** The deadlines a delta's `dl` stands for, at a table of `seats` seats. Throws when they do not fit. */
function deadlinesOf(dl: readonly number[], seats: number, base: number): (number | null)[] {
  const out: (number | null)[] = Array.from({ length: seats }, () => null)
  if (dl.length % 2 !== 0) throw new Error('dl: not pairs')
  for (let i = 0; i < dl.length; i += 2) {
    const seat = dl[i]!
    if (!Number.isInteger(seat) || seat < 0 || seat >= seats) throw new Error('dl: no such seat')
    out[seat] = base + dl[i + 1]!
  }
  return out
}

const recentOf = (view: GameView | null): readonly unknown[] | null => {
  const r = (view as { recent?: unknown } | null)?.recent
  return Array.isArray(r) ? r : null
}

/**
 * The entries a version added (those after `logAfter`), as a delta carries them to a viewer
 * whose view at that version is `view`: an entry's `seq` left out when it follows the one
 * before (the first: `logAfter` + 1), its `at` when it is the delta's `at`, and the k-th game
 * entry's event when it is the view's `recent[k]`. When that leaves one bare `{ t: 'game' }`
 * per event of `recent` and nothing else, `log` is left out altogether (an Idiot move's delta).
 */
export function compactLog(
  log: readonly LogEntry[],
  logAfter: number,
  view: GameView | null,
): { log?: DeltaLogEntry[]; at?: number } {
  const at = log[0]?.at
  const recent = recentOf(view)
  let prev = logAfter
  let k = 0
  const out = log.map((entry) => {
    const { seq, at: when, ...body } = entry
    const c: Record<string, unknown> = body
    if (entry.t === 'game') {
      if (recent !== null && k < recent.length && jsonEqual(recent[k], entry.e)) delete c.e
      k++
    }
    if (seq !== prev + 1) c.seq = seq
    if (when !== at) c.at = when
    prev = seq
    return c as DeltaLogEntry
  })
  if (at === undefined) return { log: out }
  const bare = (c: DeltaLogEntry) => c.t === 'game' && Object.keys(c).length === 1
  if (recent !== null && out.length === recent.length && out.every(bare)) return { at }
  return { log: out, at }
}

/** The entries of a delta's log as whole log entries, or null when they do not add up. */
function expandLog(d: TableDelta, view: GameView | null): LogEntry[] | null {
  const recent = recentOf(view)
  let seq = d.logAfter
  let k = 0
  const out: LogEntry[] = []
  const entries: readonly DeltaLogEntry[] =
    d.log ?? (recent ?? []).map((): DeltaLogEntry => ({ t: 'game' }))
  if (d.log === undefined && !recent?.length) return null
  for (const e of entries) {
    seq = e.seq ?? seq + 1
    const at = e.at ?? d.at
    if (at === undefined) return null
    if (e.t === 'game' && e.e === undefined) {
      const event = recent?.[k]
      if (event === undefined) return null
      out.push({ ...e, e: event, seq, at } as LogEntry)
    } else out.push({ ...e, seq, at } as LogEntry)
    if (e.t === 'game') k++
  }
  return out
}

/**
 * Applies delta `d` to the update a client holds of its table. `gap`: the client holds no
 * update, or another version than the one before `d.version`; `mismatch`: the patches do not
 * fit, or the view they make has another checksum than the server's. Either way the client
 * holds a wrong or old table and should ask for it whole (`table:sync`). The update returned
 * carries the version's log entries after `logAfter`, to merge as those of a `table:update`.
 */
export function applyDelta(
  held: TableUpdate | null | undefined,
  d: TableDelta,
): { ok: true; update: TableUpdate } | { ok: false; miss: 'gap' | 'mismatch' } {
  if (!held || held.table.version !== d.version - 1) return { ok: false, miss: 'gap' }
  try {
    const patched = applyPatch(patchable(held.table), d.t ?? [])
    const deadlines = d.dl
      ? deadlinesOf(d.dl, patched.seats.length, d.at ?? 0)
      : held.table.deadlines
    const head = d.h !== undefined ? d.h : held.table.fair.head
    const table: TableInfo = {
      ...patched,
      deadline: earliestDeadline(deadlines),
      deadlines,
      fair: { ...patched.fair, head },
      version: d.version,
    }
    const view = d.p ? applyPatch(held.view, d.p) : (d.view ?? null)
    if (checksum(view) !== d.sum) return { ok: false, miss: 'mismatch' }
    const log = expandLog(d, view)
    if (log === null) return { ok: false, miss: 'mismatch' }
    return { ok: true, update: { table, seat: held.seat, view, log, logAfter: d.logAfter } }
  } catch {
    return { ok: false, miss: 'mismatch' }
  }
}
