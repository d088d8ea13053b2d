// Node liveness for a cluster: this node marks itself alive in the store; connections held on
// nodes that stopped doing so (a crash) are treated as dropped, and their spectators stop
// counting. With the memory store there is one node and nothing to judge.
import type { Logger } from 'pino'
import type { Hub } from './hub.ts'
import type { TableStore } from './store.ts'

export interface LivenessDeps {
  readonly store: TableStore
  readonly hub: Hub
  readonly node: string
  readonly heartbeatMs: number
  readonly log: Logger
  now(): number
  /** The set of live nodes shrank: spectator counts must be summed again. */
  onNodesGone(): void
}

export class Liveness {
  private timer: NodeJS.Timeout | null = null
  /** After the store was unreachable, every node's mark may have lapsed: wait before judging. */
  private judgeAfter: number
  private failing = false
  private readonly missingSince = new Map<string, number>()
  private marked: ReadonlySet<string> | null = null
  /** A node counts as gone once its mark has been missing this long (NODE_GONE_MS). */
  private readonly goneMs: number

  constructor(private readonly deps: LivenessDeps) {
    this.judgeAfter = deps.now() + deps.heartbeatMs * 3
    this.goneMs = Math.max(deps.heartbeatMs * 3, 5000)
  }

  /** The nodes with a live mark at the last beat (null: one node, or not known yet). */
  live(): ReadonlySet<string> | null {
    return this.marked
  }

  start(): void {
    this.timer = setInterval(() => {
      this.beat().catch((e: unknown) => this.deps.log.debug({ err: e }, 'heartbeat failed'))
    }, this.deps.heartbeatMs)
    this.timer.unref()
    this.beat().catch(() => undefined)
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }

  private async beat(): Promise<void> {
    const { store, hub, node, heartbeatMs, now } = this.deps
    try {
      await store.heartbeat(node, heartbeatMs * 3)
    } catch (e) {
      this.failing = true
      throw e
    }
    if (this.failing) {
      this.failing = false
      this.judgeAfter = now() + heartbeatMs * 3
    }
    if (now() < this.judgeAfter) return
    const marked = await store.liveNodes()
    if (!marked) return
    const before = this.marked
    this.marked = marked
    if (before && [...before].some((n) => !marked.has(n))) this.deps.onNodesGone()
    // A node counts as gone only once its mark has been missing for a while: a slow beat under
    // load, or a node still reconnecting after a Redis outage, keeps its players.
    const live = new Set(marked)
    const t = now()
    for (const n of [...this.missingSince.keys()]) if (marked.has(n)) this.missingSince.delete(n)
    for (const table of hub.all()) {
      for (const s of table.snapshot().seats) {
        if (!s.node || marked.has(s.node)) continue
        const since = this.missingSince.get(s.node) ?? t
        this.missingSince.set(s.node, since)
        if (t - since < this.goneMs) live.add(s.node)
      }
    }
    for (const table of hub.all()) await table.holdersLost(live)
  }
}
