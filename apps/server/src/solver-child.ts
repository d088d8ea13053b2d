// The A-16 solver in its own process: a deep search must never block a table's event loop.
import { type AcesUpPiles, solveAcesUp } from '@kortbord/engine'

interface Job {
  readonly id: number
  readonly deck: readonly number[]
  readonly piles: AcesUpPiles
}

process.on('message', (job: Job) => {
  try {
    const r = solveAcesUp(job.deck, job.piles)
    process.send?.({ id: job.id, best: r.best, proven: r.proven })
  } catch (e) {
    process.send?.({ id: job.id, error: e instanceof Error ? e.message : String(e) })
  }
})
