// Who is watching: presence, not state. Spectators come and go without a new
// version of the table: each node counts its own, writes its count to the store at most once a
// second per table, and sums the counts of the nodes that are alive; the players hear the total
// at most once a second.
import type { Logger } from 'pino'

/** The nodes alive (anything that answers `has`), or null with one node. */
export type LiveNodes = { has(node: string): boolean } | null

/** Where nodes keep their spectator counts (the table store, memory or Redis). */
export interface WatchStore {
  /** Records how many spectators `node` serves at `code` (0 removes the node's count). */
  setWatchers(code: string, node: string, n: number): Promise<void>
  /** The sum over the nodes in `live` (null: every node counted). */
  watchers(code: string, live: LiveNodes): Promise<number>
}

export interface PresenceDeps {
  readonly store: WatchStore
  readonly node: string
  readonly log: Logger
  /** The nodes alive now (null with one node). */
  live(): LiveNodes
  /** Tells the table's members (on every node) the new total. */
  publish(code: string, spectators: number): void
  /** Tells one connection the total. */
  send(member: string, code: string, spectators: number): void
  /** The shortest time between two counts of one table reaching its players, ms (1000). */
  readonly intervalMs?: number
}

/** Totals of tables without spectators here that a node remembers at most. */
const KNOWN_MAX = 10_000

interface Watch {
  readonly members: Set<string>
  /** The sum over the nodes at the last count, and this node's part of it then. */
  counted: number
  countedHere: number
  /** The total the players were told last. */
  told: number
  lastFlush: number
  timer: NodeJS.Timeout | null
}

export class Presence {
  private readonly tables = new Map<string, Watch>()
  /** Totals learned for tables this node serves no spectator of (bounded, oldest forgotten). */
  private readonly known = new Map<string, number>()
  private readonly interval: number

  constructor(private readonly deps: PresenceDeps) {
    this.interval = deps.intervalMs ?? 1000
  }

  /** A connection of this node watches `code`. */
  add(code: string, member: string): void {
    let w = this.tables.get(code)
    if (!w) {
      w = this.entry()
      this.tables.set(code, w)
    }
    w.members.add(member)
    this.schedule(code, w)
  }

  /** It stopped watching (left or dropped); false if it was not watching. */
  remove(code: string, member: string): boolean {
    const w = this.tables.get(code)
    if (!w?.members.delete(member)) return false
    this.schedule(code, w)
    return true
  }

  has(code: string, member: string): boolean {
    return this.tables.get(code)?.members.has(member) ?? false
  }

  /** Spectators of `code` on this node. */
  local(code: string): number {
    return this.tables.get(code)?.members.size ?? 0
  }

  /** Spectators of `code` on every node, as last counted and changed here since. */
  total(code: string): number {
    const w = this.tables.get(code)
    if (!w) return this.known.get(code) ?? 0
    return Math.max(w.members.size, w.counted - w.countedHere + w.members.size)
  }

  /** Counts the spectators of `code` on every node now (the store's count); on failure, {@link total}. */
  async fresh(code: string): Promise<number> {
    try {
      const n = await this.deps.store.watchers(code, this.deps.live())
      this.learn(code, n)
      return this.total(code)
    } catch {
      return this.total(code)
    }
  }

  /** A total read from the store: remembered as this node's count of the table. */
  private learn(code: string, n: number): void {
    const w = this.tables.get(code)
    if (w) {
      // The store has this node's count as last written: the rest are other nodes'.
      w.counted = n
      return
    }
    this.known.delete(code)
    this.known.set(code, n)
    if (this.known.size > KNOWN_MAX) this.known.delete(this.known.keys().next().value!)
  }

  /**
   * Tells a connection that just came to the table (or asked for the whole table again) how many
   * watch it, over every node: its node may serve none of them, and the counts it missed were
   * sent before it came.
   */
  welcome(code: string, member: string): void {
    void this.fresh(code).then((n) => this.deps.send(member, code, n))
  }

  /** Spectators on this node, over all tables (a metric). */
  get size(): number {
    let n = 0
    for (const w of this.tables.values()) n += w.members.size
    return n
  }

  /**
   * A node was found gone: its spectators no longer count. Counts the tables watched here and
   * `codes` (the tables this node serves players of) again, and tells their members the total
   * even if this node thinks it unchanged: the count they were told came from the dead node.
   */
  recount(codes: Iterable<string>): void {
    for (const code of codes) if (!this.tables.has(code)) this.tables.set(code, this.entry())
    for (const [code, w] of this.tables) {
      w.told = -1
      this.schedule(code, w)
    }
  }

  private entry(): Watch {
    return { members: new Set(), counted: 0, countedHere: 0, told: 0, lastFlush: 0, timer: null }
  }

  private schedule(code: string, w: Watch): void {
    if (w.timer) return
    // A little later than due, by a random part of a fifth of the interval: when a crowd comes
    // or goes on many tables at once, their counts then go out one table after another instead
    // of all in one turn of the event loop (a stall every player of the node would feel:
    // 1,000 spectators leaving 21 tables at once held the loop for 70 ms), and the first count
    // after a quiet spell takes in the rest of its crowd.
    const jitter = Math.random() * this.interval * 0.2
    const wait = Math.max(0, w.lastFlush + this.interval - performance.now()) + jitter
    w.timer = setTimeout(() => void this.flush(code, w), wait)
    w.timer.unref()
  }

  private async flush(code: string, w: Watch): Promise<void> {
    w.lastFlush = performance.now()
    const here = w.members.size
    try {
      await this.deps.store.setWatchers(code, this.deps.node, here)
      w.counted = await this.deps.store.watchers(code, this.deps.live())
      w.countedHere = here
    } catch (e) {
      // The store is away: the count stays as it was; try again once it may be back.
      this.deps.log.debug({ err: e }, 'spectator count not stored')
      w.timer = null
      if (this.tables.get(code) === w) this.schedule(code, w)
      return
    }
    w.timer = null
    const total = this.total(code)
    if (total !== w.told) {
      w.told = total
      this.deps.publish(code, total)
    }
    if (w.members.size !== here) this.schedule(code, w)
    else if (here === 0 && this.tables.get(code) === w) {
      this.tables.delete(code)
      this.learn(code, w.counted)
    }
  }

  /** Stops the timers (the counts in the store expire with the node's liveness). */
  close(): void {
    for (const w of this.tables.values()) if (w.timer) clearTimeout(w.timer)
    this.tables.clear()
  }
}
