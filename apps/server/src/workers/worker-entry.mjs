// The entry of every pool worker. The server runs its TypeScript sources under tsx, and a worker
// thread does not inherit the main thread's module hooks, so the worker registers tsx's loader
// itself before it loads the tasks (the child process of solver.ts does the same with --import).
import { register } from 'tsx/esm/api'

register()
const { runTask } = await import('./tasks.ts')

export default runTask
