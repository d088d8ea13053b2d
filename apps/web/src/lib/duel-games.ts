// A duel player's games as a view shows them: one hidden until its deal has been played
// by both, else its board; a finished one as its record, and its last table as a board.
import type { AcesUpView, DuelGameRecord, DuelHiddenGame } from '@kortbord/engine'

/** A game in play that the view shows (not held back). */
export const isShown = (g: AcesUpView | DuelHiddenGame | null): g is AcesUpView =>
  g !== null && !('hidden' in g)

/** A finished game that the view shows (not held back). */
export const isRecord = (r: DuelGameRecord | DuelHiddenGame | undefined): r is DuelGameRecord =>
  r !== undefined && !('hidden' in r)

/** A finished game's last table as a board (no stock, no heap: they are spent). */
export function finalView(rec: DuelGameRecord): AcesUpView {
  return {
    game: 'aces-up',
    viewer: 'spectator',
    pileCount: rec.piles,
    undo: 'none',
    piles: rec.final,
    stockCount: 0,
    nextDeal: 0,
    discard: [],
    undoUsed: true,
    canUndo: false,
    ended: true,
    deals: 0,
    moves: 0,
    recent: [],
    outcome: null,
    deck: null,
  }
}
