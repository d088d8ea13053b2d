// The table's public log as stored: appending entries and trimming it to what clients are sent.
import type { LogEntry } from '@kortbord/protocol'

/** A log entry before the table numbers and dates it. */
export type LogBody = LogEntry extends infer E
  ? E extends unknown
    ? Omit<E, 'seq' | 'at'>
    : never
  : never

/** Presence news: someone's connection came or went. Frequent, and never part of the game. */
const isPresence = (e: LogEntry): boolean => e.t === 'away' || e.t === 'back'

/**
 * The log with `added` appended, trimmed to `keep` entries of which at most `presenceKeep` are
 * presence news (away/back). A player whose connection flaps, or who reconnects in a loop, thus
 * pushes out only older presence news, never the game's events (issue 13, finding 8).
 *
 * Every log this makes holds at most `presenceKeep` presence entries, so when `added` holds none
 * (a move: nearly every commit) there is nothing to count and the log is not scanned.
 */
export function appendLog(
  log: readonly LogEntry[],
  added: readonly LogEntry[],
  keep: number,
  presenceKeep: number,
): readonly LogEntry[] {
  if (added.length === 0) return log
  if (!added.some(isPresence)) {
    const drop = log.length + added.length - keep
    if (drop <= 0) return log.concat(added)
    return drop >= log.length ? added.slice(-keep) : log.slice(drop).concat(added)
  }
  let out = log.concat(added)
  let presence = 0
  for (const e of out) if (isPresence(e)) presence++
  if (presence > presenceKeep) {
    let drop = presence - presenceKeep
    out = out.filter((e) => !(isPresence(e) && drop-- > 0))
  }
  return out.length > keep ? out.slice(-keep) : out
}

/** The entries of a log (ordered by seq) with a seq greater than `after`. */
export function newerThan(log: readonly LogEntry[], after: number): LogEntry[] {
  let i = log.length
  while (i > 0 && log[i - 1]!.seq > after) i--
  return log.slice(i)
}
