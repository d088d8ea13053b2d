// "Show the best way" (issue 16, A-16): the solver's line for a finished duel game, replayed on
// the engine move by move, and the player's own game of that deal at the same point. Pure: the
// solve itself runs in a Web Worker (solve-worker.ts).
import {
  type AcesUpPiles,
  type AcesUpState,
  type AcesUpView,
  acesUpView,
  applyAcesUp,
  type Card,
  type DuelGameRecord,
  type DuelState,
  type SolverMove,
  startAcesUp,
} from '@kortbord/engine'

/** A finished game of a recorded match. */
export interface FinishedGame {
  readonly seat: 0 | 1
  readonly rec: DuelGameRecord
}

/** Every finished game of a match's last state, each player's in order. */
export function finishedGames(final: DuelState): FinishedGame[] {
  return final.players.flatMap((p, seat) => p.results.map((rec) => ({ seat: seat as 0 | 1, rec })))
}

/**
 * The states along a solver line: the deal, then one per move. The engine checks every move; a
 * line it refuses is a solver bug and throws. A line may end after the engine has ended the game
 * by itself (a trailing move changes nothing then).
 */
export function lineStates(
  deck: readonly Card[],
  piles: AcesUpPiles,
  line: readonly SolverMove[],
): AcesUpState[] {
  const out = [startAcesUp(deck, piles, 'none')]
  for (const m of line) {
    const cur = out[out.length - 1]!
    if (cur.ended) break
    const r = applyAcesUp(cur, 0, m)
    if (!r.ok) throw new Error(`the best way is not legal at move ${out.length}: ${r.error.code}`)
    out.push(r.value)
  }
  return out
}

/** Game `index` of `seat` as it was played: its states along a replay of the match's record. */
export function ownStates(states: readonly DuelState[], seat: 0 | 1, index: number): AcesUpState[] {
  const out: AcesUpState[] = []
  for (const s of states) {
    const p = s.players[seat]
    const cur = p && p.results.length === index ? p.current : null
    if (cur !== null && cur !== out[out.length - 1]) out.push(cur)
  }
  return out
}

/** The own game at the same point of the deal: the last state with no more deals than `deals`. */
export function atDeal(own: readonly AcesUpState[], deals: number): AcesUpState | null {
  let at: AcesUpState | null = null
  for (const s of own) if (s.deals <= deals) at = s
  return at
}

/**
 * The own game beside the best way's position after `deals` deals: where the best way has just
 * been dealt (`fresh`: the deal itself, before any move, or a deal just made), the own game just
 * after the same deal, so that both boards show the same moment; else its last position of that
 * deal (atDeal). An own game that ended before that deal shows its last position.
 */
export function ownAt(
  own: readonly AcesUpState[],
  deals: number,
  fresh: boolean,
): AcesUpState | null {
  const dealt = fresh ? own.find((s) => s.deals === deals) : undefined
  return dealt ?? atDeal(own, deals)
}

export const boardOf = (s: AcesUpState): AcesUpView => acesUpView(s, 'spectator')

/** What a move of the line does, for its words: the card it takes and where to. */
export type StepWords =
  | { readonly kind: 'deal' }
  | { readonly kind: 'discard'; readonly card: Card }
  | { readonly kind: 'move'; readonly card: Card; readonly to: number }

/** Move `k` (1-based) of the line, read from the state before it. */
export function stepWords(before: AcesUpState, m: SolverMove): StepWords {
  if (m.type === 'deal') return { kind: 'deal' }
  const pile = m.type === 'discard' ? m.pile : m.from
  const card = before.piles[pile]!.at(-1)!
  return m.type === 'discard' ? { kind: 'discard', card } : { kind: 'move', card, to: m.to }
}
