// The Web Worker that runs the A-16 solver for "show the best way" (issue 16): the solver's code
// is only in this worker's own chunk, loaded when a player asks for it, and the search never
// holds up the page. One request per worker.
import {
  type AcesUpPiles,
  type Card,
  type Proven,
  type SolverMove,
  solveAcesUp,
} from '@kortbord/engine'

export interface SolveRequest {
  readonly deck: readonly Card[]
  readonly piles: AcesUpPiles
  readonly maxNodes: number
}

export type SolveReply =
  | {
      readonly ok: true
      readonly best: number
      readonly proven: Proven
      readonly line: readonly SolverMove[]
    }
  | { readonly ok: false; readonly error: string }

addEventListener('message', (e: MessageEvent<SolveRequest>) => {
  let reply: SolveReply
  try {
    const { deck, piles, maxNodes } = e.data
    const r = solveAcesUp(deck, piles, { maxNodes })
    reply = { ok: true, best: r.best, proven: r.proven, line: r.line }
  } catch (err) {
    reply = { ok: false, error: String(err) }
  }
  postMessage(reply)
})
