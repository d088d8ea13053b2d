// A game whose table is gone (it expired, or was deleted, while the game was played) or plays
// another game now can never end by a move: its record is *abandoned*. The stores keep such a
// record as it was, header and moves; it is served closed, with the end { reason: 'abandoned' }
// and its deal revealed, so that it can be replayed and verified like any finished game
// (docs/fairness.md). While its table still plays the game the record stays as it is: its deal
// would tell a same-deal opponent what is coming.
import type { Deal, GameRecord } from '@kortbord/engine'
import { headAfter } from './game-records.ts'
import type { TableStore } from './store.ts'

/** A record as it may be served, and its deal (for the frames; never served while played). */
export interface Settled {
  readonly record: GameRecord
  /** Revealed in a finished record, kept apart by the store while it is played; null: not kept. */
  readonly deal: Deal | null
}

/**
 * The heads of abandoned records, computed once: an abandoned record never gains a move, and its
 * head is a hash per move (about 14 ms for 5,000 moves, on the event loop), so a reader asking
 * for it again must not cost that again. Keyed by id and move count; the least recently asked of
 * at most `entries` goes first.
 */
export class AbandonedHeads {
  private readonly heads = new Map<string, string>()
  /** Heads computed so far (for tests). */
  computed = 0

  constructor(private readonly entries = 1024) {}

  of(r: GameRecord, deal: Deal): string {
    const key = `${r.id}/${r.moves.length}`
    let head = this.heads.get(key)
    this.heads.delete(key)
    if (head === undefined) {
      head = headAfter({ ...r, deal })
      this.computed++
    }
    this.heads.set(key, head)
    while (this.heads.size > this.entries) {
      const oldest = this.heads.keys().next().value
      if (oldest === undefined) break
      this.heads.delete(oldest)
    }
    return head
  }

  get size(): number {
    return this.heads.size
  }
}

/**
 * The record as it may be served: closed as abandoned if its game can no longer go on. A record
 * holding `maxMoves` moves (RECORD_MAX_MOVES) stopped growing before the game did: truncated.
 * An open record's secret is read once, for both.
 */
export async function settleAbandoned(
  store: TableStore,
  r: GameRecord,
  maxMoves: number,
  heads: AbandonedHeads = new AbandonedHeads(1),
): Promise<Settled> {
  if (r.end !== null) return { record: r, deal: r.deal }
  const secret = await store.loadRecordSecret(r.id)
  if (secret === null) return { record: r, deal: null }
  // No table's code (a record kept before it was): left as it is until it expires.
  if (secret.table === null) return { record: r, deal: secret.deal }
  const table = await store.load(secret.table)
  if (table !== null && table.gameRecord?.id === r.id) return { record: r, deal: secret.deal }
  const endedAt = r.moves.at(-1)?.at ?? r.startedAt
  const cut = r.truncated === true || r.moves.length >= maxMoves
  const record: GameRecord = {
    ...r,
    deal: secret.deal,
    end: { reason: 'abandoned' },
    endedAt,
    head: heads.of(r, secret.deal),
    ...(cut ? { truncated: true } : {}),
  }
  return { record, deal: secret.deal }
}
