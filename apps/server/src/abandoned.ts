// A game whose table is gone (it expired, or was deleted, while the game was played) or plays
// another game now can never end by a move: its record is *abandoned*. The stores keep such a
// record as it was, header and moves; it is served closed, with the end { reason: 'abandoned' }
// and its deal revealed, so that it can be replayed and verified like any finished game
// (docs/fairness.md). While its table still plays the game the record stays as it is: its deal
// would tell a same-deal opponent what is coming.
import type { GameRecord } from '@kortbord/engine'
import { headAfter } from './game-records.ts'
import type { TableStore } from './store.ts'

/**
 * The record as it may be served: closed as abandoned if its game can no longer go on. A record
 * holding `maxMoves` moves (RECORD_MAX_MOVES) stopped growing before the game did: truncated.
 */
export async function settleAbandoned(
  store: TableStore,
  r: GameRecord,
  maxMoves: number,
): Promise<GameRecord> {
  if (r.end !== null) return r
  const secret = await store.loadRecordSecret(r.id)
  // No table's code (a record kept before it was): left as it is until it expires.
  if (secret === null || secret.table === null) return r
  const table = await store.load(secret.table)
  if (table !== null && table.gameRecord?.id === r.id) return r
  const endedAt = r.moves.at(-1)?.at ?? r.startedAt
  const cut = r.truncated === true || r.moves.length >= maxMoves
  return {
    ...r,
    deal: secret.deal,
    end: { reason: 'abandoned' },
    endedAt,
    head: headAfter(r),
    ...(cut ? { truncated: true } : {}),
  }
}
