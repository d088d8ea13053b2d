// Node liveness for a cluster: this node marks itself alive in the store, with the address it
// serves at; the nodes alive decide which node owns which table (ownership.ts). Connections held
// on nodes that stopped marking themselves (a crash) are treated as dropped, and their
// spectators stop counting. With the memory store there is one node and nothing to judge.
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

export class Liveness {
  private timer: NodeJS.Timeout | null = null
  /** After the store was unreachable, every node's mark may have lapsed: wait before judging. */
  private judgeAfter: number
  private failing = false
  private readonly missingSince = new Map<string, { since: number; url: string | null }>()
  private marked: ReadonlyMap<string, string | null> | null = null
  private members: ReadonlyMap<string, string | null> | null = null
  /** A node counts as gone once its mark has been missing this long (NODE_GONE_MS). */
  private readonly goneMs: number
  private first: Promise<void> | null = null

  constructor(private readonly deps: LivenessDeps) {
    this.judgeAfter = deps.now() + deps.heartbeatMs * 3
    this.goneMs = Math.max(deps.heartbeatMs * 2, 2000)
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
      await store.heartbeat(node, heartbeatMs * 3, this.deps.url)
    } catch (e) {
      this.failing = true
      throw e
    }
    if (this.failing) {
      this.failing = false
      this.judgeAfter = now() + heartbeatMs * 3
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

  /** The owning nodes from the marks: missing ones are kept for `goneMs`, this node always. */
  private updateOwners(marked: ReadonlyMap<string, string | null>): void {
    const t = this.deps.now()
    const owners = new Map(marked)
    for (const [n, url] of this.members ?? []) {
      if (marked.has(n) || this.missingSince.has(n)) continue
      this.missingSince.set(n, { since: t, url })
    }
    for (const [n, m] of [...this.missingSince]) {
      if (marked.has(n) || t - m.since >= this.goneMs) this.missingSince.delete(n)
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
