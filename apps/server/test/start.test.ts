// main.ts: a start that fails ends the process with exit code 1 and one line saying why, instead
// of an "uncaught exception (kept running)" and an empty process that exits with 0.
import { spawn } from 'node:child_process'
import { createServer, type Server, type Socket } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const serverDir = fileURLToPath(new URL('..', import.meta.url))

/** Runs main.ts with `env` until it exits (killed after 20 s): its exit code and last log line. */
function run(env: Record<string, string>): Promise<{ code: number | null; msg: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'info', WEB_DIST: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  proc.stdout.on('data', (d: Buffer) => {
    out += d.toString()
  })
  const killer = setTimeout(() => proc.kill('SIGKILL'), 20_000)
  return new Promise((resolve) => {
    proc.once('exit', (code) => {
      clearTimeout(killer)
      const lines = out.trim().split('\n')
      const last = JSON.parse(lines[lines.length - 1] ?? '{}') as { msg?: string; level?: number }
      resolve({ code, msg: `${last.level}: ${last.msg}` })
    })
  })
}

describe('starting the server', () => {
  let busy: Server
  let port = 0
  const sockets = new Set<Socket>()
  beforeAll(async () => {
    busy = createServer((s) => {
      sockets.add(s)
      s.on('error', () => {})
    })
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()))
    port = (busy.address() as { port: number }).port
  })
  afterAll(async () => {
    for (const s of sockets) s.destroy()
    await new Promise((r) => busy.close(r))
  })

  it('on a port already in use: exit code 1, and the port and what to do in the log', async () => {
    const r = await run({ PORT: String(port) })
    expect(r.code).toBe(1)
    // 60: pino's fatal.
    expect(r.msg).toBe(
      `60: kortbord could not start: port ${port} on 127.0.0.1 is already in use: stop what listens there, or start with PORT set to another port (METRICS_PORT for the metrics)`,
    )
  })

  it('with a Redis that does not answer: exit code 1, and which Redis in the log', async () => {
    const r = await run({
      PORT: '0',
      STORE: 'redis',
      REDIS_URL: `redis://127.0.0.1:${port}`,
    })
    expect(r.code).toBe(1)
    expect(r.msg).toMatch(
      /^60: kortbord could not start: could not connect to redis at redis:\/\/127\.0\.0\.1:\d+/,
    )
  })
})
