/**
 * A `table:delta` made (the server) and applied (every client): what changed at a table from one
 * version to the next (issue 17, docs/protocol.md "Delta updates"). A delta leaves out whatever
 * the client can work out from what it holds: the version it applies to (the one before), the
 * seat, the earliest deadline, and of the log entries their numbers, their time when it is the
 * version's, and an Idiot move's events, which are the view's `recent` already.
 */
import { applyPatch, checksum, diff, jsonEqual, type Patch } from './delta.ts'
import type {
  DeltaLogEntry,
  GameView,
  LogEntry,
  TableDelta,
  TableInfo,
  TableUpdate,
} from './wire.ts'

/** When the earliest running turn timer runs out (TableInfo.deadline), else null. */
export function earliestDeadline(deadlines: readonly (number | null)[]): number | null {
  let out: number | null = null
  for (const d of deadlines) if (d !== null && (out === null || d < out)) out = d
  return out
}

/** What a delta's `t` patches: the table info without the two fields the client sets itself. */
const patchable = (t: TableInfo): TableInfo => ({ ...t, version: 0, deadline: null })

/** The patch `t` of a delta from the table info `before` to `after`. */
export function tablePatch(before: TableInfo, after: TableInfo): Patch {
  return diff(patchable(before), patchable(after))
}

const recentOf = (view: GameView | null): readonly unknown[] | null => {
  const r = (view as { recent?: unknown } | null)?.recent
  return Array.isArray(r) ? r : null
}

/**
 * The entries a version added (those after `logAfter`), as a delta carries them to a viewer
 * whose view at that version is `view`: an entry's `seq` left out when it follows the one
 * before (the first: `logAfter` + 1), its `at` when it is the delta's `at`, and the k-th game
 * entry's event when it is the view's `recent[k]`.
 */
export function compactLog(
  log: readonly LogEntry[],
  logAfter: number,
  view: GameView | null,
): { log: DeltaLogEntry[]; at?: number } {
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
  return at === undefined ? { log: out } : { log: out, at }
}

/** The entries of a delta's log as whole log entries, or null when they do not add up. */
function expandLog(d: TableDelta, view: GameView | null): LogEntry[] | null {
  const recent = recentOf(view)
  let seq = d.logAfter
  let k = 0
  const out: LogEntry[] = []
  for (const e of d.log) {
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
    const patched = applyPatch(patchable(held.table), d.t)
    const table: TableInfo = {
      ...patched,
      deadline: earliestDeadline(patched.deadlines),
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
