/**
 * What the searches of exact.ts, pile-bound.ts and high-cards.ts look up in their inner loops:
 * each card id's suit and rank (two decks: ids 0 … 103), as typed arrays.
 */
import { rankOf, suitOf } from '../cards.ts'

export const SUIT = new Uint8Array(104)
export const RANK = new Uint8Array(104)
for (let c = 0; c < 104; c++) {
  SUIT[c] = suitOf(c)
  RANK[c] = rankOf(c)
}

/** "None yet" or "unbounded" in the searches' Int32Array tables. */
export const INF = 0x3fffffff
