/**
 * A-16's two solves for the duel's score sheet (issue 16): the table's, within its time limit
 * and node budget, and the background proof of a figure the first could not prove, with a far
 * larger budget and time limit on a pool of its own (one low-priority thread), so that a long
 * proof never holds up a table's solve or a hard bot. Both resolve null without an answer.
 */
import type { AcesUpPiles, DuelBest } from '@kortbord/engine'
import type { Config } from '../config.ts'
import type { SolveOutcome, WorkerPool } from './pool.ts'

export interface BestSolvers {
  /** The table's solve: `proven` says whether the figure is the best or an upper bound. */
  solve(deck: readonly number[], piles: AcesUpPiles): Promise<DuelBest | null>
  /** The background proof. */
  prove(deck: readonly number[], piles: AcesUpPiles): Promise<DuelBest | null>
}

const figure = (r: SolveOutcome | null): DuelBest | null => r && { best: r.best, proven: r.proven }

const sleep = (ms: number) =>
  new Promise<void>((resolve) => (ms > 0 ? setTimeout(resolve, ms).unref() : resolve()))

export function bestSolvers(
  config: Config['solver'],
  table: () => WorkerPool,
  background: () => WorkerPool,
): BestSolvers {
  return {
    solve: (deck, piles) =>
      table()
        .solve(deck, piles, { maxNodes: config.nodes, timeoutMs: config.timeoutMs })
        .then(figure),
    prove: async (deck, piles) => {
      await sleep(config.testProofDelayMs)
      const r = await background().solve(deck, piles, {
        maxNodes: config.proofNodes,
        timeoutMs: config.proofTimeoutMs,
      })
      return figure(r)
    },
  }
}
