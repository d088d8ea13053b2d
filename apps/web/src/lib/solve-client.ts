// Asks a fresh Web Worker (solve-worker.ts) for a deal's best way, and ends it after its answer
// or after a time limit: the page never waits on the search, and a search cut short says so.
import type { AcesUpPiles, Card } from '@kortbord/engine'
import type { SolveReply, SolveRequest } from './solve-worker.ts'
import { askWorker } from './worker-call.ts'

/** The node budget of the browser's search: as large as the server's background proof. */
export const BROWSER_MAX_NODES = 5_000_000
const TIME_LIMIT_MS = 120_000

export function solveInWorker(deck: readonly Card[], piles: AcesUpPiles): Promise<SolveReply> {
  const worker = new Worker(new URL('./solve-worker.ts', import.meta.url), { type: 'module' })
  const req: SolveRequest = { deck: deck.slice(), piles, maxNodes: BROWSER_MAX_NODES }
  return askWorker<SolveReply>(worker, req, TIME_LIMIT_MS)
}
