// Node liveness for a cluster: this node marks itself alive in the store, with the address it
// serves at; the nodes alive decide which node owns which table (ownership.ts). Connections held
// on nodes that stopped marking themselves (a crash) are treated as dropped, and their
// spectators stop counting. With the memory store there is one node and nothing to judge.
//
// The timing (docs/operations.md "Failover"), with H = HEARTBEAT_MS (default 500): a node
// beats every H, and its mark lasts MARK_BEATS beats; every node looks at the marks at its own
// beat, and takes a node whose mark has been missing for GONE_MS (max(2 H, 1.5 s), to within
// half a beat) as gone. So a crashed node's tables move (T + one beat to notice + G after its last
// beat) 2.5-3.5 s after the crash at the default, while a live node may miss its beats for 2.5 s
// (an event loop stalled, a Redis connection lost) before it looks dead. After this node's own
// store failed, it judges nobody for SETTLE_MS: the other nodes' marks lapsed with the store,
// and their clients reconnect one after another.
import type { Logger } from 'pino'
import type { Hub } from './hub.ts'
import type { TableStore } from './store.ts'

export interface LivenessDeps {
  readonly store: TableStore
  readonly hub: Hub
  readonly node: string
  /** Where clients reach this node directly (NODE_URL), or null. */
  readonly url: string | null
  readonly heartbeatMs: number
  readonly log: Logger
  now(): number
  /** The set of live nodes shrank: spectator counts must be summed again. */
  onNodesGone(): void
  /** The nodes taken as alive changed: tables may have changed owners. */
  onNodesChanged(): void
}

/** How many beats a node's mark lasts. */
export const MARK_BEATS = 3

/** How long a node's mark must have been missing for the node to be gone. */
export const goneMs = (heartbeatMs: number): number => Math.max(heartbeatMs * 2, 1500)

/**
 * After the store failed under this node, how long it waits before it judges others: their marks
 * lapsed too, and each one's store client may take up to 2 s (its longest wait between
 * reconnection attempts) to be back.
 */
export const settleMs = (heartbeatMs: number): number => Math.max(heartbeatMs * MARK_BEATS, 2000)

export class Liveness {
  private timer: NodeJS.Timeout | null = null
  /** After the store was unreachable, every node's mark may have lapsed: wait before judging. */
  private judgeAfter: number
  private failing = false
  private readonly missingSince = new Map<string, { since: number; url: string | null }>()
  private marked: ReadonlyMap<string, string | null> | null = null
  private members: ReadonlyMap<string, string | null> | null = null
  /** A node counts as gone once its mark has been missing this long ({@link goneMs}). */
  private readonly goneMs: number
  private first: Promise<void> | null = null

  constructor(private readonly deps: LivenessDeps) {
    this.judgeAfter = deps.now() + deps.heartbeatMs * MARK_BEATS
    this.goneMs = goneMs(deps.heartbeatMs)
  }

  /** The nodes with a live mark at the last beat (null: one node, or not known yet). */
  live(): ReadonlyMap<string, string | null> | null {
    return this.marked
  }

  /**
   * The nodes that own tables: those marked alive, those whose mark has been missing only
   * briefly (a slow beat does not move tables), and this node whatever its mark says.
   */
  owners(): ReadonlyMap<string, string | null> | null {
    return this.members
  }

  /** Starts beating; resolves after the first beat (or its failure). */
  start(): Promise<void> {
    this.timer = setInterval(() => {
      this.beat().catch((e: unknown) => this.deps.log.debug({ err: e }, 'heartbeat failed'))
    }, this.deps.heartbeatMs)
    this.timer.unref()
    this.first = this.beat().catch(() => undefined)
    return this.first
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }

  private async beat(): Promise<void> {
    const { store, hub, node, heartbeatMs, now } = this.deps
    try {
      await store.heartbeat(node, heartbeatMs * MARK_BEATS, this.deps.url)
    } catch (e) {
      this.failing = true
      throw e
    }
    if (this.failing) {
      this.failing = false
      this.judgeAfter = now() + settleMs(heartbeatMs)
    }
    const marked = await store.liveNodes()
    if (!marked) return
    const before = this.marked
    this.marked = marked
    if (before && [...before.keys()].some((n) => !marked.has(n))) this.deps.onNodesGone()
    this.updateOwners(marked)
    if (now() < this.judgeAfter) return
    // Connections held on a node that is gone (its mark missing for a while, not just a slow
    // beat) count as dropped.
    const live = new Set(this.members?.keys() ?? [])
    for (const table of hub.all()) await table.holdersLost(live)
  }

  /**
   * The owning nodes from the marks: missing ones are kept for `goneMs` (to within half a beat:
   * it is measured between beats of this node, which a busy event loop may shift by a few ms),
   * and while this node settles after a store failure; this node always.
   */
  private updateOwners(marked: ReadonlyMap<string, string | null>): void {
    const t = this.deps.now()
    const settling = t < this.judgeAfter
    const owners = new Map(marked)
    for (const [n, url] of this.members ?? []) {
      if (marked.has(n) || this.missingSince.has(n)) continue
      if (settling) owners.set(n, url)
      else this.missingSince.set(n, { since: t, url })
    }
    const gone = this.goneMs - this.deps.heartbeatMs / 2
    for (const [n, m] of [...this.missingSince]) {
      if (marked.has(n) || (!settling && t - m.since >= gone)) this.missingSince.delete(n)
      else owners.set(n, m.url)
    }
    owners.set(this.deps.node, this.deps.url)
    const changed =
      !this.members ||
      this.members.size !== owners.size ||
      [...owners.keys()].some((n) => !this.members!.has(n))
    this.members = owners
    if (changed) this.deps.onNodesChanged()
  }
}
