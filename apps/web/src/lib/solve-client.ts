// Asks a fresh Web Worker (solve-worker.ts) for a deal's best way, and ends it after its answer
// or after a time limit: the page never waits on the search, and a search cut short says so.
import type { AcesUpPiles, Card } from '@kortbord/engine'
import type { SolveReply, SolveRequest } from './solve-worker.ts'

/** The node budget of the browser's search: as large as the server's background proof. */
export const BROWSER_MAX_NODES = 5_000_000
const TIME_LIMIT_MS = 120_000

export function solveInWorker(deck: readonly Card[], piles: AcesUpPiles): Promise<SolveReply> {
  const worker = new Worker(new URL('./solve-worker.ts', import.meta.url), { type: 'module' })
  return new Promise((resolve) => {
    const done = (reply: SolveReply) => {
      clearTimeout(timer)
      worker.terminate()
      resolve(reply)
    }
    const timer = setTimeout(() => done({ ok: false, error: 'time limit' }), TIME_LIMIT_MS)
    worker.onmessage = (e: MessageEvent<SolveReply>) => done(e.data)
    worker.onerror = (e) => done({ ok: false, error: e.message || 'worker failed' })
    const req: SolveRequest = { deck: deck.slice(), piles, maxNodes: BROWSER_MAX_NODES }
    worker.postMessage(req)
  })
}
