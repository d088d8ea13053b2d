// The table's log as appendLog keeps it (issue 13, finding 8): at most `keep` entries, of which
// at most `presenceKeep` are presence news, the oldest presence news going first. A commit that
// adds no presence news (a move) takes a shortcut that does not scan the log (issue 17's CPU):
// it must keep exactly what the full count keeps.
import { Rng } from '@kortbord/engine'
import type { LogEntry } from '@kortbord/protocol'
import { describe, expect, it } from 'vitest'
import { appendLog } from '../src/table-log.ts'

const isPresence = (e: LogEntry) => e.t === 'away' || e.t === 'back'

/** The rule spelled out: append, drop the oldest presence news beyond the bound, keep the last. */
function reference(log: readonly LogEntry[], added: readonly LogEntry[], keep: number, pk: number) {
  let out = [...log, ...added]
  let extra = out.filter(isPresence).length - pk
  out = out.filter((e) => !(isPresence(e) && extra-- > 0))
  return out.slice(Math.max(0, out.length - keep))
}

function entry(rng: Rng, seq: number): LogEntry {
  const at = 1_000 + seq
  switch (rng.int(4)) {
    case 0:
      return { t: 'away', seat: rng.int(4), name: 'Bo', seq, at }
    case 1:
      return { t: 'back', seat: rng.int(4), name: 'Bo', seq, at }
    default:
      return { t: 'game', e: { t: 'ready', seat: rng.int(4) }, seq, at } as LogEntry
  }
}

describe('appendLog (finding 8)', () => {
  it('over 2,000 random commits of 0-3 entries (moves, presence, both): what the rule keeps, in order', () => {
    const rng = Rng.seeded('table-log')
    for (const [keep, pk] of [
      [40, 8],
      [5, 2],
      [3, 8],
    ] as const) {
      let log: readonly LogEntry[] = []
      let seq = 0
      for (let i = 0; i < 2_000; i++) {
        const n = rng.int(4)
        const added = Array.from({ length: n }, () => entry(rng, ++seq))
        const want = reference(log, added, keep, pk)
        log = appendLog(log, added, keep, pk)
        expect(log).toEqual(want)
        expect(log.filter(isPresence).length).toBeLessThanOrEqual(pk)
        expect(log.length).toBeLessThanOrEqual(keep)
      }
    }
  })

  it('more entries added at once than are kept: the last `keep` of them', () => {
    const added = Array.from(
      { length: 7 },
      (_, i) => ({ t: 'game', e: { t: 'ready', seat: 0 }, seq: i + 1, at: 1 }) as LogEntry,
    )
    expect(appendLog(added.slice(0, 2), added.slice(2), 3, 8)).toEqual(added.slice(-3))
  })
})
