// Starts real server processes (src/main.ts under tsx) for multi-node and fault tests.
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { LOOSE_LIMITS } from './harness.ts'
import { freePort } from './ports.ts'

export interface Node {
  readonly url: string
  readonly port: number
  readonly proc: ChildProcess
  /** Everything the process printed (pino JSON lines). */
  readonly output: string[]
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>
  /** SIGKILL: a crash. */
  kill(): Promise<void>
}

const serverDir = fileURLToPath(new URL('..', import.meta.url))

/**
 * /readyz of a node as soon as it answers `status`, asked every 50 ms for at most `ms` (a node
 * shares one answer of its store for READY_CACHE_MS, 250 ms, so a change shows within that);
 * the last answer if none did, for the caller's expect to show.
 */
export async function readyzOnceItIs(
  url: string,
  status: number,
  ms = 1000,
): Promise<{ status: number; body: unknown }> {
  const deadline = Date.now() + ms
  for (;;) {
    const r = await fetch(`${url}/readyz`)
    const answer = { status: r.status, body: await r.json() }
    if (r.status === status || Date.now() > deadline) return answer
    await new Promise((res) => setTimeout(res, 50))
  }
}

/** Starts one node and waits until /readyz answers 200 (or throws after `ms`). */
export async function startNode(env: Record<string, string>, ms = 20_000): Promise<Node> {
  const port = env.PORT ? Number(env.PORT) : await freePort()
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      KORTBORD_TEST_DEALS: '1',
      SOLVER: '0',
      RATE_BURST: '1000',
      RATE_PER_SECOND: '1000',
      WEB_DIST: '',
      ...LOOSE_LIMITS,
      // A node tells clients of a table served elsewhere where to go (issue 17): here, directly.
      NODE_URL: `http://127.0.0.1:${port}`,
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output: string[] = []
  proc.stdout?.on('data', (d: Buffer) => output.push(d.toString()))
  proc.stderr?.on('data', (d: Buffer) => output.push(d.toString()))
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + ms
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`node exited: ${output.join('')}`)
    try {
      const r = await fetch(`${url}/readyz`)
      if (r.status === 200) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      proc.kill('SIGKILL')
      throw new Error(`node not ready after ${ms} ms: ${output.join('')}`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  return {
    url,
    port,
    proc,
    output,
    async stop() {
      if (proc.exitCode === null) proc.kill('SIGTERM')
      await exited
    },
    async kill() {
      if (proc.exitCode === null) proc.kill('SIGKILL')
      await exited
    },
  }
}

/**
 * Waits until every node is ready and counts all of them as alive (issue 17: which node serves a
 * table depends on it; a node that just joined takes its tables over).
 */
export async function settled(nodes: readonly Node[], ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms
  for (;;) {
    const seen = await Promise.all(
      nodes.map(async (n) => {
        const r = await fetch(`${n.url}/readyz`).catch(() => null)
        return r?.status === 200 ? ((await r.json()) as { nodes: number }).nodes : -1
      }),
    )
    if (seen.every((k) => k === nodes.length)) return
    if (Date.now() > deadline) throw new Error(`nodes not settled: ${seen.join(', ')}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}
