// The table's public log as this page keeps it for the history panel (issue 14): everything since
// the page opened, up to HISTORY_KEEP entries, where the protocol's mergeLog keeps only the
// server's tail. A whole tail (a reconnection, a sync) that joins up with what the page holds
// continues it instead of replacing it.
import { type LogEntry, mergeLog, type TableUpdate } from '@kortbord/protocol/wire'

export const HISTORY_KEEP = 500

export function keepLog(
  held: readonly LogEntry[],
  u: Pick<TableUpdate, 'log' | 'logAfter'>,
  keep: number = HISTORY_KEEP,
): { readonly log: readonly LogEntry[]; readonly gap: boolean } {
  if (u.logAfter !== null) return mergeLog(held, u, keep)
  const first = u.log[0]
  const last = held[held.length - 1]
  // Nothing held, or a tail that does not reach back to it (entries were missed): the tail.
  if (
    first === undefined ||
    last === undefined ||
    first.seq > last.seq + 1 ||
    first.seq <= held[0]!.seq
  )
    return mergeLog(held, u, keep)
  const log = held.filter((e) => e.seq < first.seq).concat(u.log)
  return { log: log.length > keep ? log.slice(-keep) : log, gap: false }
}
