/**
 * What a pool worker runs (see pool.ts). Pure engine calls; the worker has its own clock for the
 * hard bot's thinking time. Two kinds exist for the pool's own tests only (a job that runs long,
 * a worker that dies) and are refused unless the pool was built with `testTasks`.
 */
import { workerData } from 'node:worker_threads'
import {
  type AcesUpPiles,
  type BotLevel,
  botMove,
  type IdiotMove,
  type IdiotView,
  type Proven,
  Rng,
  type SolverMove,
  solveAcesUp,
} from '@kortbord/engine'

export interface SolveTask {
  readonly kind: 'solve'
  readonly deck: readonly number[]
  readonly piles: AcesUpPiles
  readonly maxNodes?: number
}

export interface BotTask {
  readonly kind: 'bot'
  readonly level: BotLevel
  readonly view: IdiotView
  readonly seed: string
  readonly thinkMs: number
  readonly rollouts: number
}

/** Test-only: busy for `ms`, end the worker thread abruptly, or fill its heap until it fails. */
export type TestTask =
  | { readonly kind: 'spin'; readonly ms: number }
  | { readonly kind: 'exit' }
  | { readonly kind: 'hog' }

export type Task = SolveTask | BotTask | TestTask

export interface SolveOutcome {
  readonly best: number
  readonly proven: Proven
  readonly line: readonly SolverMove[]
}

const testTasks = (workerData as { testTasks?: boolean } | null)?.testTasks === true

export function runTask(task: Task): SolveOutcome | IdiotMove | null {
  switch (task.kind) {
    case 'solve': {
      const r = solveAcesUp(
        task.deck,
        task.piles,
        task.maxNodes === undefined ? {} : { maxNodes: task.maxNodes },
      )
      return { best: r.best, proven: r.proven, line: r.line }
    }
    case 'bot': {
      const now = () => performance.now()
      return botMove(task.level, task.view, Rng.seeded(task.seed), {
        rollouts: task.rollouts,
        now,
        deadline: now() + task.thinkMs,
      })
    }
    case 'spin': {
      if (!testTasks) throw new Error('test tasks are off')
      const end = performance.now() + task.ms
      while (performance.now() < end) {
        // busy on purpose: a job that only a time limit stops
      }
      return null
    }
    case 'exit': {
      if (!testTasks) throw new Error('test tasks are off')
      process.exit(3) // in a worker thread this ends the thread, not the server
      return null
    }
    case 'hog': {
      if (!testTasks) throw new Error('test tasks are off')
      const kept: number[][] = []
      for (;;) kept.push(Array.from({ length: 100_000 }, (_, i) => i + kept.length))
    }
    default:
      throw new Error(`unknown task ${JSON.stringify((task as { kind?: unknown }).kind)}`)
  }
}
