// Versions per viewer for a table whose game hides some moves from some viewers: a
// same-deal duel, where a player may not see the opponent's game of a deal they have yet to play
// (nor may a spectator, who could be that player in a second tab). Such a move changes nothing
// those viewers see, so they are sent nothing; but a table version that went up with it, or a head
// of the hash chain that changed, would still count it for them, and so tell roughly how many
// cards the opponent left on the deal they are still playing. So each viewer (each seat, and the
// spectators) has a version of its own, one more at each change it can see, and is shown the
// head as it was at that change. Commands name the version their seat was shown, which this module
// turns back into the table's. Every other table shows everyone the table's version.
import type { Seat } from '@kortbord/engine'
import { earliestDeadline, type TableInfo } from '@kortbord/protocol'
import type { GameAdapter } from './games.ts'
import type { Shown, ShownOf, TableRecord } from './store.ts'

/**
 * Versions a seat may name and still be understood: a command is made against one of its last
 * few (its client sends the newest it has seen); an older one is taken as stale.
 */
export const SHOWN_KEEP = 32

/** A viewer's place in {@link Shown}. */
const indexOf = (r: TableRecord, viewer: Seat | null): number =>
  viewer === null ? r.seats.length : viewer

/** Whether a record's table gives every viewer a version of its own. */
export const perViewer = (adapter: GameAdapter, r: TableRecord): boolean =>
  adapter.hidesMoves?.(r.settings) === true

/** The version `viewer` is shown of record `r`. */
export function shownVersion(r: TableRecord, viewer: Seat | null): number {
  return r.shown?.[indexOf(r, viewer)]?.n ?? r.version
}

/**
 * The table version of the version `v` that `seat` was shown: 'future' when it has not been
 * shown that yet; 0 (stale for any command) when it is older than SHOWN_KEEP of its changes.
 */
export function tableVersion(r: TableRecord, seat: Seat, v: number): number | 'future' {
  const of = r.shown?.[seat]
  if (!of) return v > r.version ? 'future' : v
  if (v > of.n) return 'future'
  return of.at[of.at.length - 1 - (of.n - v)] ?? 0
}

/**
 * The table info as `viewer` is shown it: its own version, the head at its latest change, and
 * no clock for a seat whose game it may not see (`hidden`: the game's seats hidden from it).
 */
export function shownInfo(
  info: TableInfo,
  r: TableRecord,
  viewer: Seat | null,
  hidden: readonly Seat[],
): TableInfo {
  const of = r.shown?.[indexOf(r, viewer)]
  if (!of) return info
  return { ...withoutClocks(info, hidden), version: of.n, fair: { ...info.fair, head: of.head } }
}

/** The info without the turn clocks of the `hidden` seats. */
function withoutClocks(info: TableInfo, hidden: readonly Seat[]): TableInfo {
  if (hidden.length === 0) return info
  const deadlines = info.deadlines.map((d, seat) => (hidden.includes(seat) ? null : d))
  return { ...info, deadlines, deadline: earliestDeadline(deadlines) }
}

/**
 * What `viewer` sees of record `r` that a change may alter, as text: its view of the game, and
 * the table info without the version, the head, the spectators' count (none of which makes a
 * version of its own) and the clocks of the seats whose game it may not see.
 */
export function seenBy(
  adapter: GameAdapter,
  infoOf: (r: TableRecord) => TableInfo,
): (r: TableRecord, viewer: Seat | null) => string {
  // A change compares the record before it, which the change before made: each text once.
  const made = new WeakMap<TableRecord, Map<Seat | null, string>>()
  return (r, viewer) => {
    let texts = made.get(r)
    if (!texts) {
      texts = new Map()
      made.set(r, texts)
    }
    let text = texts.get(viewer)
    if (text === undefined) {
      const view = r.state === null ? null : adapter.view(r.state, viewer ?? 'spectator')
      const hidden = view === null ? [] : (adapter.hiddenSeats?.(view) ?? [])
      const info = withoutClocks(infoOf(r), hidden)
      const shown = { ...info, version: 0, spectators: 0, fair: { ...info.fair, head: null } }
      text = JSON.stringify([view, shown])
      texts.set(viewer, text)
    }
    return text
  }
}

/** What the viewers are shown after a change: their versions, and who can see the change. */
export interface ShownChange {
  readonly shown: Shown
  /** visible[i]: viewer i (seats, then spectators) can see the change, and is sent it. */
  readonly visible: readonly boolean[]
}

/**
 * Who can see the change from `before` to `after` and the versions that makes: a viewer sees it
 * when what it is shown changes, the version and the head aside (`seen`: all of that, as text), or
 * when it adds to the log, which everyone reads.
 */
export function nextShown(
  before: TableRecord,
  after: TableRecord,
  seen: (r: TableRecord, viewer: Seat | null) => string,
  head: (r: TableRecord) => string | null,
): ShownChange {
  const viewers: (Seat | null)[] = [...before.seats.map((_, i) => i), null]
  const logged = after.logSeq !== before.logSeq
  const visible = viewers.map(
    (w) =>
      logged || before.seats.length !== after.seats.length || seen(before, w) !== seen(after, w),
  )
  const shown = viewers.map((_, i): ShownOf => {
    const of = before.shown?.[i] ?? { n: before.version, at: [before.version], head: head(before) }
    if (!visible[i]) return of
    return { n: of.n + 1, at: [...of.at, after.version].slice(-SHOWN_KEEP), head: head(after) }
  })
  return { shown, visible }
}

/**
 * staleBefore after a change on a table with versions per viewer: a seat that cannot see the
 * change keeps its own (nothing it may do changed; the moves of a game hidden from it are not
 * its concern), so that its commands against what it was last shown still go through.
 */
export function staleFor(
  before: TableRecord,
  after: TableRecord,
  visible: readonly boolean[],
): number[] {
  return after.staleBefore.map((v, seat) => (visible[seat] ? v : (before.staleBefore[seat] ?? v)))
}
