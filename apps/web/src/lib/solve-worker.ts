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
import { answerRequests, type WorkerFailed } from './worker-call.ts'

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
  | WorkerFailed

answerRequests(({ deck, piles, maxNodes }: SolveRequest) => {
  const r = solveAcesUp(deck, piles, { maxNodes })
  return { best: r.best, proven: r.proven, line: r.line }
})
