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
 * The record as it may be served: closed as abandoned if its game can no longer go on. A record
 * holding `maxMoves` moves (RECORD_MAX_MOVES) stopped growing before the game did: truncated.
 * An open record's secret is read once, for both.
 */
export async function settleAbandoned(
  store: TableStore,
  r: GameRecord,
  maxMoves: number,
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
    head: headAfter({ ...r, deal: secret.deal }),
    ...(cut ? { truncated: true } : {}),
  }
  return { record, deal: secret.deal }
}
