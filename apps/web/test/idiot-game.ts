// Shared by the hint tests: a seeded Idiot game played by normal bots, as a replay has it (the
// state after each move and each move's line), for the hint and its reviews to be tried on.
import {
  applyIdiot,
  botMove,
  type IdiotMove,
  type IdiotState,
  idiotLegalMovesFromView,
  idiotView,
  Rng,
  setupIdiot,
} from '@kortbord/engine'
import type { MoveLine } from '../src/lib/replay.ts'

export interface PlayedGame {
  /** states[k]: the state after move k (states[0]: the deal). */
  readonly states: IdiotState[]
  /** Move k's line is lines[k - 1]; every move is its player's own (`by` null). */
  readonly lines: (MoveLine & { move: IdiotMove })[]
}

/** Up to `moves` moves of a game of `seats` players dealt from `seed`, the same every run. */
export function playedGame(seed: string, seats: number, moves = 400): PlayedGame {
  let s = setupIdiot({}, seats, { seed })
  const states = [s]
  const lines: (MoveLine & { move: IdiotMove })[] = []
  const rng = Rng.seeded(`${seed}-play`)
  for (let k = 1; k <= moves && s.phase !== 'over'; k++) {
    const actors = s.phase === 'swap' ? s.players.map((_, i) => i) : [s.turn!]
    const seat = actors.find((i) => idiotLegalMovesFromView(idiotView(s, i)).length > 0)
    if (seat === undefined) break
    const move = botMove('normal', idiotView(s, seat), rng)!
    const r = applyIdiot(s, seat, move)
    if (!r.ok) throw new Error(r.error.message)
    s = r.value
    states.push(s)
    lines.push({ k, seat, text: '', move, by: null })
  }
  return { states, lines }
}
