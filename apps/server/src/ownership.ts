// A table lives on one node at a time (issue 17). Which node is decided the same way by every
// node, with nothing to coordinate: rendezvous (highest random weight) hashing of the table's
// code over the nodes alive now. The owner serves the table's members, runs its timers and bots,
// and writes its record (still compare-and-set on the version: two nodes that briefly disagree
// about who owns a table never both write the same version). Another node that receives a member
// of the table answers MOVED with the owner's id and address, and the client goes there. When a
// node dies its tables' owners become other nodes (each a different share of them); when one
// joins it takes its share over.
import { createHash } from 'node:crypto'

export interface NodeAddress {
  readonly node: string
  /** Where a client reaches the node directly (NODE_URL), or null behind a routing proxy. */
  readonly url: string | null
}

export class Ownership {
  constructor(
    /** This node. */
    readonly self: NodeAddress,
    /** The nodes taken as alive (their addresses); null with one node (the memory store). */
    private readonly live: () => ReadonlyMap<string, string | null> | null,
  ) {}

  /** The owner of `code` among the live nodes (this node when it is the only one it knows). */
  ownerOf(code: string): NodeAddress {
    const nodes = this.live()
    if (!nodes || nodes.size === 0) return this.self
    let best: string | null = null
    let bestWeight = ''
    for (const n of nodes.keys()) {
      const w = weight(code, n)
      if (best === null || w > bestWeight) {
        best = n
        bestWeight = w
      }
    }
    if (best === null || best === this.self.node) return this.self
    return { node: best, url: nodes.get(best) ?? null }
  }

  owns(code: string): boolean {
    return this.ownerOf(code).node === this.self.node
  }
}

/** A table's weight on a node: the first 8 bytes of SHA-1 of "code|node", as hex (comparable). */
function weight(code: string, node: string): string {
  return createHash('sha1').update(`${code}|${node}`).digest('hex').slice(0, 16)
}

/** Thrown when a node is asked for a table another node owns. */
export class TableMoved extends Error {
  constructor(
    readonly code: string,
    readonly owner: NodeAddress,
  ) {
    super(`table ${code} is served by node ${owner.node}`)
    this.name = 'TableMoved'
  }
}
