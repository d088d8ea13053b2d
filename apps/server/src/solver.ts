import { type ChildProcess, fork } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Logger } from 'pino'

export interface Best {
  readonly best: number
  readonly proven: 'all' | 'closed'
}

interface Pending {
  readonly id: number
  readonly deck: readonly number[]
  readonly piles: 4 | 5 | 8
  resolve(b: Best | null): void
}

/**
 * Runs the A-16 solver in one child process, one job at a time, each with a time limit: a deal
 * the search cannot finish in time gets no figure (null) rather than stalling the others.
 */
export class SolverPool {
  private child: ChildProcess | null = null
  private readonly queue: Pending[] = []
  private current: { job: Pending; timer: NodeJS.Timeout } | null = null
  private nextId = 1
  private closed = false

  constructor(
    private readonly timeoutMs: number,
    private readonly log: Logger,
  ) {}

  solve(deck: readonly number[], piles: 4 | 5 | 8): Promise<Best | null> {
    if (this.closed) return Promise.resolve(null)
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, deck, piles, resolve })
      this.pump()
    })
  }

  private spawn(): ChildProcess {
    const require = createRequire(import.meta.url)
    const loader = pathToFileURL(require.resolve('tsx')).href
    const file = fileURLToPath(new URL('./solver-child.ts', import.meta.url))
    const child = fork(file, [], {
      execArgv: ['--import', loader],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    })
    child.on(
      'message',
      (m: { id: number; best?: number; proven?: 'all' | 'closed'; error?: string }) => {
        const cur = this.current
        if (!cur || cur.job.id !== m.id) return
        clearTimeout(cur.timer)
        this.current = null
        if (m.error !== undefined || m.best === undefined || m.proven === undefined) {
          this.log.warn({ error: m.error }, 'solver failed')
          cur.job.resolve(null)
        } else cur.job.resolve({ best: m.best, proven: m.proven })
        this.pump()
      },
    )
    child.on('exit', () => {
      if (this.child === child) this.child = null
      const cur = this.current
      if (cur) {
        clearTimeout(cur.timer)
        this.current = null
        cur.job.resolve(null)
        this.pump()
      }
    })
    child.unref()
    child.channel?.unref()
    return child
  }

  private pump(): void {
    if (this.current || this.closed) return
    const job = this.queue.shift()
    if (!job) return
    this.child ??= this.spawn()
    const child = this.child
    const timer = setTimeout(() => {
      this.log.info({ piles: job.piles }, 'solver ran out of time; no best-possible figure')
      child.kill('SIGKILL')
    }, this.timeoutMs)
    timer.unref()
    this.current = { job, timer }
    child.send({ id: job.id, deck: job.deck, piles: job.piles })
  }

  close(): void {
    this.closed = true
    for (const j of this.queue.splice(0)) j.resolve(null)
    if (this.current) {
      clearTimeout(this.current.timer)
      this.current.job.resolve(null)
      this.current = null
    }
    this.child?.kill('SIGKILL')
    this.child = null
  }
}
