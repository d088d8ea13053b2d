// The line under a duel player's panel once their table is put away: whose games are all
// played, or who is playing now. The panel may be the viewer's own or the other player's.
import type { Dict } from './i18n.ts'

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
