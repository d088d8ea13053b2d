// The entry of every pool worker. The server runs its TypeScript sources under tsx, and a worker
// thread does not inherit the main thread's module hooks, so the worker registers tsx's loader
// itself before it loads the tasks (the child process of solver.ts does the same with --import).
import { setPriority } from 'node:os'
import { workerData } from 'node:worker_threads'
import { register } from 'tsx/esm/api'

// A background pool's workers yield to everything else (pool.ts `nice`). On Linux a thread's
// priority is its own: setpriority on "this process" (pid 0) changes only the calling thread.
const nice = workerData?.nice ?? 0
if (nice > 0 && process.platform === 'linux') {
  try {
    setPriority(0, nice)
  } catch {
    // Not permitted here: the worker runs at the process's priority.
  }
}
register()
const { runTask } = await import('./tasks.ts')

export default runTask
