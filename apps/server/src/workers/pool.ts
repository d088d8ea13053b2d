/**
 * A worker_threads pool (piscina) for the CPU-heavy jobs that must never run on a table's event
 * loop: the A-16 solver and the hard Idiot bot's move. One pool per server process.
 *
 * - Sized to the machine: `os.availableParallelism() - 1` threads (at least 1), leaving a core to
 *   the event loop; configurable.
 * - Bounded queue: a job that finds `maxQueue` jobs already waiting is refused at once (resolves
 *   null, counted in `refused`), so a flood of solves cannot build an unbounded backlog.
 * - Time limit per job: a job still queued or running after its limit is aborted; piscina then
 *   terminates the worker running it and starts a fresh one, so the pool keeps its size. The job
 *   resolves null (counted in `timedOut`). A caller's signal stops a job the same way (counted in
 *   `cancelled`).
 * - A worker that dies (a crash, process.exit in the thread) fails its job with null (counted in
 *   `failed`) and piscina replaces it.
 * - Memory per worker: its JavaScript heap is capped (`maxHeapMb`, 256 MB, where Node would let
 *   a thread grow as large as the process's own heap), so a job that runs away ends its worker
 *   early (ERR_WORKER_OUT_OF_MEMORY, counted in `failed`; piscina replaces it) and the node keeps
 *   its memory for its tables. The solver keeps its tables in typed arrays outside that heap
 *   (8 MB of heap in a 2.3-million-node proof); their size is bounded by the job's node budget
 *   (engine README, issue 16).
 * Jobs never reject: a caller gets a result or null and decides what to show without one.
 */
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import type { AcesUpPiles, BotLevel, IdiotMove, IdiotView } from '@kortbord/engine'
import { Piscina } from 'piscina'
import type { SolveOutcome, Task } from './tasks.ts'

export type { SolveOutcome } from './tasks.ts'

export interface WorkerPoolOptions {
  /** Worker threads (default: available parallelism - 1, at least 1). */
  readonly threads?: number
  /** Jobs allowed to wait for a free worker; beyond that a job is refused (default 64). */
  readonly maxQueue?: number
  /** Time limit of a solve, queueing included (default 10,000 ms). */
  readonly solveTimeoutMs?: number
  /** Extra time a bot move may take beyond its thinking time, queueing included (default 1,000 ms). */
  readonly botGraceMs?: number
  /** Playouts the hard bot may use per move (default 400, as at a table). */
  readonly botRollouts?: number
  /** Old-generation heap of each worker, in MB (default 256). */
  readonly maxHeapMb?: number
  /** Enables the test-only tasks (a long job, a dying worker). Tests only. */
  readonly testTasks?: boolean
  /**
   * Linux only: the workers lower their own thread's scheduling priority to this nice value
   * (0 … 19), so that a long background job yields the CPU to the event loop and to the other
   * pool's workers. Elsewhere (where it would lower the whole process) it is ignored.
   */
  readonly nice?: number
}

export interface WorkerPoolStats {
  readonly threads: number
  /** Jobs waiting for a worker. */
  readonly queued: number
  /** Jobs being run by a worker. */
  readonly running: number
  readonly completed: number
  /** Jobs refused because the queue was full (or the pool closed). */
  readonly refused: number
  /** Jobs aborted by their time limit. */
  readonly timedOut: number
  /** Jobs stopped by their caller (a signal), waiting or running. */
  readonly cancelled: number
  /** Jobs whose worker failed or threw. */
  readonly failed: number
}

export const defaultThreads = (): number => Math.max(1, availableParallelism() - 1)

const ENTRY = fileURLToPath(new URL('./worker-entry.mjs', import.meta.url))

export class WorkerPool {
  private readonly pool: Piscina
  private readonly maxQueue: number
  private readonly solveTimeoutMs: number
  private readonly botGraceMs: number
  private readonly botRollouts: number
  /** Jobs handed to piscina and not settled yet (waiting or running). */
  private inFlight = 0
  private completed = 0
  private refused = 0
  private timedOut = 0
  private cancelled = 0
  private failed = 0
  private closed = false

  constructor(opts: WorkerPoolOptions = {}) {
    const threads = opts.threads ?? defaultThreads()
    if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`threads: ${threads}`)
    this.maxQueue = opts.maxQueue ?? 64
    this.solveTimeoutMs = opts.solveTimeoutMs ?? 10_000
    this.botGraceMs = opts.botGraceMs ?? 1_000
    this.botRollouts = opts.botRollouts ?? 400
    this.pool = new Piscina({
      filename: ENTRY,
      minThreads: threads,
      maxThreads: threads,
      // Our own bound below decides refusals; piscina's must not reject first.
      maxQueue: this.maxQueue + threads,
      idleTimeout: Number.POSITIVE_INFINITY,
      resourceLimits: { maxOldGenerationSizeMb: opts.maxHeapMb ?? 256 },
      // The workers register tsx themselves (worker-entry.mjs); inheriting the parent's flags
      // would load it twice.
      execArgv: [],
      workerData: { testTasks: opts.testTasks === true, nice: opts.nice ?? 0 },
    })
  }

  /** A-16 for a finished deal: the solver's result, or null (refused, timed out, failed, closed). */
  solve(
    deck: readonly number[],
    piles: AcesUpPiles,
    opts: { maxNodes?: number; timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<SolveOutcome | null> {
    const task: Task =
      opts.maxNodes === undefined
        ? { kind: 'solve', deck: deck.slice(), piles }
        : { kind: 'solve', deck: deck.slice(), piles, maxNodes: opts.maxNodes }
    const timeoutMs = opts.timeoutMs ?? this.solveTimeoutMs
    return this.run(task, timeoutMs, opts.signal) as Promise<SolveOutcome | null>
  }

  /**
   * A bot's Idiot move from its seat's view (bots.ts `botMove`), thinking up to `thinkMs` in a
   * worker; null if it has nothing to do or the job did not complete.
   */
  botMove(
    level: BotLevel,
    view: IdiotView,
    seed: string,
    thinkMs: number,
  ): Promise<IdiotMove | null> {
    const task: Task = { kind: 'bot', level, view, seed, thinkMs, rollouts: this.botRollouts }
    return this.run(task, thinkMs + this.botGraceMs) as Promise<IdiotMove | null>
  }

  /** Runs a test-only task (see tasks.ts); the pool must have been built with `testTasks`. */
  runTestTask(task: Task, timeoutMs: number, signal?: AbortSignal): Promise<unknown> {
    return this.run(task, timeoutMs, signal)
  }

  stats(): WorkerPoolStats {
    return {
      threads: this.pool.threads.length,
      queued: this.pool.queueSize,
      running: Math.max(0, this.inFlight - this.pool.queueSize),
      completed: this.completed,
      refused: this.refused,
      timedOut: this.timedOut,
      cancelled: this.cancelled,
      failed: this.failed,
    }
  }

  /** Stops every worker; jobs waiting or running resolve null, and later jobs are refused. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.pool.destroy()
  }

  /** Runs `task` within `timeoutMs`; `cancel` (the caller's) stops it early, as the limit does. */
  private async run(task: Task, timeoutMs: number, cancel?: AbortSignal): Promise<unknown> {
    if (cancel?.aborted) {
      this.cancelled++
      return null
    }
    if (this.closed || this.pool.queueSize >= this.maxQueue) {
      this.refused++
      return null
    }
    const abort = new AbortController()
    let expired = false
    const timer = setTimeout(() => {
      expired = true
      abort.abort()
    }, timeoutMs)
    const stop = () => abort.abort()
    cancel?.addEventListener('abort', stop, { once: true })
    this.inFlight++
    try {
      const out: unknown = await this.pool.run(task, { signal: abort.signal })
      this.completed++
      return out
    } catch {
      if (expired) this.timedOut++
      else if (cancel?.aborted) this.cancelled++
      else if (!this.closed) this.failed++
      return null
    } finally {
      clearTimeout(timer)
      cancel?.removeEventListener('abort', stop)
      this.inFlight--
    }
  }
}
