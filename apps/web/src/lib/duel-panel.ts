// The line under a duel player's panel once their table is put away: whose games are all
// played, or who is playing now. The panel may be the viewer's own or the other player's.
import type { DuelOutcome } from '@kortbord/engine'
import type { Dict } from './i18n.ts'
import type { TableDict } from './i18n-table.ts'

export interface PanelNote {
  /** Games this panel's player has finished, and the match's games per player. */
  readonly played: number
  readonly games: number
  /** The seat playing now (taking turns), or null. */
  readonly turn: number | null
  /** Whether the panel is the viewer's own. */
  readonly mine: boolean
  /** The panel's seat, and every seat's name. */
  readonly seat: number
  readonly names: readonly string[]
}

type Words = Pick<Dict, 'allGamesPlayed' | 'allGamesPlayedBy' | 'waitingTurn'>

export function duelPanelNote(p: PanelNote, t: Words): string {
  if (p.played >= p.games)
    return p.mine ? t.allGamesPlayed : t.allGamesPlayedBy(p.names[p.seat] ?? '')
  return p.turn !== null ? t.waitingTurn(p.names[p.turn] ?? '') : ''
}

/**
 * A same-deal game the viewer may not see yet: why, and how far it has got (its deals,
 * the one thing of it that is shown). A player waits for their own game of that deal; a
 * spectator (who could be the other player in a second tab) for the other player's.
 */
export function hiddenGameNote(
  p: { readonly seat: number; readonly deals: number | null; readonly spectator: boolean },
  names: readonly string[],
  t: Pick<Dict, 'hidden' | 'hiddenUntil' | 'dealtSoFar'>,
): { readonly why: string; readonly dealt: string | null } {
  const why = p.spectator ? t.hiddenUntil(names[1 - p.seat] ?? '') : t.hidden
  return { why, dealt: p.deals === null ? null : t.dealtSoFar(names[p.seat] ?? '', p.deals) }
}

/**
 * What decided a match that points did not: fewer cards left over all games, or nothing
 * (a draw). "You win" at 3 points to 3 looks like a mistake unless it says so. Null when the
 * points decided it.
 */
export function matchDecidedBy(
  o: DuelOutcome,
  t: Pick<TableDict, 'onCardsLeft' | 'levelAll'>,
): string | null {
  const [a, b] = o.totals
  // Alone nothing is decided; points decide most matches without a word.
  if (o.decidedBy === 'points' || o.decidedBy === 'alone' || b === undefined) return null
  if (o.winner === null) return t.levelAll(a.points, a.left)
  const [w, l] = o.winner === 0 ? [a, b] : [b, a]
  return t.onCardsLeft(w.points, w.left, l.left)
}
