/**
 * A-16's solves for the duel's score sheet (issue 16): the table's, within its time limit and node
 * budget; the background proof of a figure the first could not prove, with a far larger budget
 * and time limit on a pool of its own (one low-priority thread), so that a long proof never holds
 * up a table's solve or a hard bot; and with SOLVER_EARLY_PROOF the same proof of a deal whose
 * game is in play, on a third pool (one low-priority thread), so that a proof of a finished game
 * never waits behind the proof of a deal still in play (best.ts). All resolve null without an
 * answer.
 */
import type { AcesUpPiles, DuelBest } from '@kortbord/engine'
import type { Config } from '../config.ts'
import type { SolveOutcome, WorkerPool } from './pool.ts'

/** Background proofs that may wait for the proof thread; beyond it a bound stays a bound. */
export const PROOF_QUEUE = 32

export interface BestSolvers {
  /** The table's solve: `proven` says whether the figure is the best or an upper bound. */
  solve(deck: readonly number[], piles: AcesUpPiles): Promise<DuelBest | null>
  /** The background proof. */
  prove(deck: readonly number[], piles: AcesUpPiles): Promise<DuelBest | null>
  /** The same proof of a deal in play, on the early proofs' pool; `signal` cancels it. */
  proveEarly(
    deck: readonly number[],
    piles: AcesUpPiles,
    signal: AbortSignal,
  ): Promise<DuelBest | null>
}

const figure = (r: SolveOutcome | null): DuelBest | null => r && { best: r.best, proven: r.proven }

const sleep = (ms: number) =>
  new Promise<void>((resolve) => (ms > 0 ? setTimeout(resolve, ms).unref() : resolve()))

export function bestSolvers(
  config: Config['solver'],
  table: () => WorkerPool,
  background: () => WorkerPool,
  early: () => WorkerPool,
): BestSolvers {
  const proof = { maxNodes: config.proofNodes, timeoutMs: config.proofTimeoutMs }
  return {
    solve: (deck, piles) =>
      table()
        .solve(deck, piles, { maxNodes: config.nodes, timeoutMs: config.timeoutMs })
        .then(figure),
    prove: async (deck, piles) => {
      await sleep(config.testProofDelayMs)
      return figure(await background().solve(deck, piles, proof))
    },
    proveEarly: (deck, piles, signal) =>
      early()
        .solve(deck, piles, { ...proof, signal })
        .then(figure),
  }
}
