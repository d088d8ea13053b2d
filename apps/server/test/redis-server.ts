// A private redis-server for tests: its own free port and data folder, stopped with the tests.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { canConnect, freePort } from './ports.ts'

export const REDIS_BIN = process.env.REDIS_SERVER_BIN ?? 'redis-server'

export interface TestRedis {
  readonly url: string
  readonly port: number
  /** The data folder (kept across restarts, removed by dispose). */
  readonly dir: string
  /** Graceful stop (SIGTERM: the append-only file, if on, is flushed); resolves once exited. */
  stop(): Promise<void>
  /** Hard stop (SIGKILL). */
  kill(): Promise<void>
  /** Starts again on the same port and folder; resolves once it takes connections. */
  restart(): Promise<void>
  /** SIGSTOP / SIGCONT: Redis keeps its connections but answers nothing (a hung server). */
  pause(): void
  resume(): void
  /** Stops it if running and removes its folder. */
  dispose(): Promise<void>
}

/**
 * Why the Redis tests cannot run here, or null when they can. Under CI=true a missing
 * redis-server is an error, never a skip: CI must run the Redis tests.
 */
export function redisMissing(): string | null {
  const r = spawnSync(REDIS_BIN, ['--version'], { encoding: 'utf8' })
  if (!r.error && r.status === 0) return null
  const why = `${REDIS_BIN} is not installed or does not run (${r.error?.message ?? r.stderr})`
  if (process.env.CI === 'true') {
    throw new Error(
      `${why}. CI=true: the Redis store tests must run, not skip; install redis-server (apt-get install redis-server).`,
    )
  }
  console.warn(`Skipping the Redis store tests: ${why}`)
  return why
}

const running = new Set<ChildProcess>()
process.once('exit', () => {
  for (const p of running) p.kill('SIGKILL')
})

/** Starts redis-server on a free port; `appendonly` keeps data across stop/restart. */
export async function startRedis(opts: { appendonly?: boolean } = {}): Promise<TestRedis> {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'kortbord-redis-'))
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    opts.appendonly ? 'yes' : 'no',
    '--appendfsync',
    'always',
    '--daemonize',
    'no',
    '--loglevel',
    'warning',
  ]
  let proc: ChildProcess | null = null
  let exited: Promise<void> = Promise.resolve()

  async function launch(): Promise<void> {
    const p = spawn(REDIS_BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    proc = p
    running.add(p)
    let output = ''
    p.stdout?.on('data', (d: Buffer) => {
      output += d.toString()
    })
    p.stderr?.on('data', (d: Buffer) => {
      output += d.toString()
    })
    let gone = false
    exited = new Promise((resolve) => {
      p.once('exit', () => {
        gone = true
        running.delete(p)
        resolve()
      })
    })
    const until = Date.now() + 10_000
    while (Date.now() < until) {
      if (gone) throw new Error(`redis-server exited at start on port ${port}:\n${output}`)
      if (await canConnect(port)) return
      await new Promise((r) => setTimeout(r, 20))
    }
    p.kill('SIGKILL')
    throw new Error(`redis-server did not start on port ${port} in 10 s:\n${output}`)
  }

  async function end(signal: NodeJS.Signals): Promise<void> {
    const p = proc
    if (!p || p.exitCode !== null || p.signalCode !== null) return
    p.kill('SIGCONT')
    p.kill(signal)
    await exited
    proc = null
  }

  await launch()
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
    async restart() {
      await end('SIGTERM')
      await launch()
    },
    pause() {
      proc?.kill('SIGSTOP')
    },
    resume() {
      proc?.kill('SIGCONT')
    },
    async dispose() {
      await end('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
