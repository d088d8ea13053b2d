// `pnpm bench:load`: the load benchmark of the kortbord server (issue 6). See docs/performance.md.
//
// For each store (memory, then Redis) it starts the real server as its own process
// (`node --import tsx src/main.ts`), then a load generator process (bench/loadgen.ts) that opens
// real socket.io-client connections: Idiot tables of 4 players and Idioten för två tables of 2,
// each with spectators, bots playing legal moves at a steady rate. Then the same load against a
// baseline (bench/baseline.ts: plain socket.io, the same rooms, an update of kortbord's average
// size, no validation, engine or views). It measures latencies (from the generator), server CPU
// and RSS (from /proc), event-loop delay (from /metrics), prints a table and writes JSON.
//
// Options, as KEY=value arguments or environment variables:
//   TABLES=500 DUEL_TABLES=50 SPECTATORS=1  tables and spectators per table
//   RATE=1                                  commands per table per second
//   WARMUP=30 DURATION=20                   seconds before and of the measurement (the warm-up
//                                           lets the tables' logs fill: updates carry 40 entries)
//   STORES=memory,redis  BASELINE=1         what to run
//   NODES=1,2,3                             instead: the scale-out runs (issue 17), the same load
//                                           on 1, 2, 3 nodes sharing a Redis, each table's members
//                                           on its node; CPU per command per node from each
//                                           node's own count of commands (/metrics), measured on
//                                           a quiet machine like the others; JSON under `scale`
//   DELTAS=1                                clients take delta updates (DELTAS=0: whole ones)
//   KNEE=1  KNEE_FACTOR=1.5 KNEE_WARMUP=3 KNEE_SECONDS=10 KNEE_STEPS=8 KNEE_REFINE=2 KNEE_P99=100
//                                           step the rate (from RATE) until p99 command → last
//                                           view crosses KNEE_P99 ms, then bisect; the knee is
//                                           the highest rate under it. KNEE_BASELINE=1: also
//                                           for the baseline (the load generator's ceiling)
//   PROFILE=1  GEN_PROFILE=1                --cpu-prof the kortbord servers (summarised over the
//                                           measured window) / the load generator
//   NOISY_PCT=20 QUIET_WAIT=30 RETRIES=2    a window in which other programs used more than
//                                           NOISY_PCT % of a core is measured again; before each,
//                                           wait up to QUIET_WAIT s for the machine to be quiet
//   GC_TRACE=1 IDLE_SECONDS=10              --trace-gc on the servers; CPU with no commands
//   SERVER_NODE_ARGS='--max-semi-space-size=32'   node flags for both servers (kortbord, baseline)
//   OUT=bench-results/load-<time>.json      the JSON (next to it: each server's log tail)
//   CONNECT_BATCH=200 SETUP_BATCH=100 ACK_TIMEOUT_MS=10000 SEED=bench HEARTBEAT_MS=5000
//   UPDATE_BYTES=3000 (the baseline's update size when no kortbord run measured one)
//   MAX_SECONDS (hard stop; by default computed from the above)

import { type ChildProcess, execSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createClient } from 'redis'
import { LOOSE_LIMITS } from '../test/harness.ts'
import { canConnect, freePort } from '../test/ports.ts'
import {
  type FinalResult,
  type FromGen,
  type GenConfig,
  machineBusyMs,
  type PhaseResult,
  procStats,
  settings,
  type ToGen,
} from './common.ts'
import { formatSummary, type ProfileSummary, summariseProfile } from './profile-summary.ts'

const serverDir = fileURLToPath(new URL('..', import.meta.url))
const S = settings(process.argv.slice(2), process.env)
const opts = {
  tables: S.num('TABLES', 500),
  duelTables: S.num('DUEL_TABLES', 50),
  spectators: S.num('SPECTATORS', 1),
  rate: S.num('RATE', 1),
  // Long enough for the tables' logs to fill (an update carries the last 40 entries).
  warmup: S.num('WARMUP', 30),
  duration: S.num('DURATION', 20),
  stores: S.str('STORES', 'memory,redis')
    .split(',')
    .map((s) => s.trim())
    .filter((s): s is 'memory' | 'redis' => s === 'memory' || s === 'redis'),
  baseline: S.flag('BASELINE', true),
  knee: S.flag('KNEE', false),
  kneeBaseline: S.flag('KNEE_BASELINE', false),
  kneeFactor: S.num('KNEE_FACTOR', 1.5),
  kneeWarmup: S.num('KNEE_WARMUP', 3),
  kneeSeconds: S.num('KNEE_SECONDS', 10),
  kneeSteps: S.num('KNEE_STEPS', 8),
  kneeRefine: S.num('KNEE_REFINE', 2),
  kneeP99: S.num('KNEE_P99', 100),
  profile: S.flag('PROFILE', false),
  genProfile: S.flag('GEN_PROFILE', false),
  connectBatch: S.num('CONNECT_BATCH', 200),
  setupBatch: S.num('SETUP_BATCH', 100),
  ackTimeoutMs: S.num('ACK_TIMEOUT_MS', 10_000),
  seed: S.str('SEED', 'bench'),
  heartbeatMs: S.num('HEARTBEAT_MS', 1000),
  /** Clients ask kortbord for delta updates (issue 17); DELTAS=0 for whole updates. */
  deltas: S.flag('DELTAS', true),
  /** Scale-out runs (issue 17): e.g. NODES=1,2,3, each on Redis; none by default. */
  nodes: S.str('NODES', '')
    .split(',')
    .map((x) => Number(x.trim()))
    .filter((n) => Number.isInteger(n) && n > 0),
  idleSeconds: S.num('IDLE_SECONDS', 10),
  gcTrace: S.flag('GC_TRACE', true),
  serverNodeArgs: S.str('SERVER_NODE_ARGS', ''),
  noisyPct: S.num('NOISY_PCT', 20),
  quietWait: S.num('QUIET_WAIT', 30),
  retries: S.num('RETRIES', 2),
  out: resolve(
    serverDir,
    S.str('OUT', `bench-results/load-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
  ),
}
const tableCount = opts.tables + opts.duelTables
const socketCount = opts.tables * (4 + opts.spectators) + opts.duelTables * (2 + opts.spectators)
/** Generous time for connecting and seating everyone. */
const setupBudgetS = 60 + socketCount / 100
/** The longest a phase of `s` seconds can take: waits for quiet, retries, settling. */
const phaseS = (warmup: number, s: number) =>
  warmup + (opts.retries + 1) * (opts.quietWait + 2 + s + 6)
const perTargetS =
  setupBudgetS +
  phaseS(opts.warmup, opts.duration) +
  (opts.knee ? (opts.kneeSteps + opts.kneeRefine) * phaseS(opts.kneeWarmup, opts.kneeSeconds) : 0) +
  90
/** A scale-out run of `n` nodes (issue 17): starting them, setting up, one measured phase. */
const scaleTargetS = (n: number) =>
  30 * n + 20 + setupBudgetS + phaseS(opts.warmup, opts.duration) + 90
// NODES=… runs the scale-out runs instead of the usual ones.
const maxSeconds = S.num(
  'MAX_SECONDS',
  Math.ceil(
    opts.nodes.length > 0
      ? opts.nodes.reduce((a, n) => a + scaleTargetS(n), 0) + 60
      : perTargetS * (opts.stores.length + (opts.baseline ? 1 : 0)) + 60,
  ),
)
/** prom-client's (and the generator's) monitorEventLoopDelay resolution. */
const LOOP_RESOLUTION_MS = 10
/** What was measured: the commit, and whether the server's sources differ from it. */
const git = (() => {
  try {
    const head = execSync('git rev-parse --short HEAD', { cwd: serverDir, encoding: 'utf8' }).trim()
    const dirty = execSync('git status --porcelain -- src ../../packages', {
      cwd: serverDir,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((l) => l.trim() !== '')
    return { head, dirty }
  } catch {
    return { head: 'unknown', dirty: [] as string[] }
  }
})()
const clkTck = Number(execSync('getconf CLK_TCK', { encoding: 'utf8' }).trim()) || 100

// ---------------------------------------------------------------------------------------------
// Processes: every child is killed when this process ends, however it ends.

const children = new Set<ChildProcess>()
function killAll(): void {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
}
process.on('exit', killAll)
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    console.error(`\n${sig}: stopping every process of the benchmark`)
    killAll()
    process.exit(130)
  })
}
const hardStop = setTimeout(() => {
  console.error(`MAX_SECONDS=${maxSeconds} reached: stopping everything`)
  writeResults(true)
  killAll()
  process.exit(1)
}, maxSeconds * 1000)
hardStop.unref()

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const ms = (hr: bigint) => Number(hr / 1000n) / 1000
const monoUs = () => Number(process.hrtime.bigint() / 1000n)

/** The soft limit on open files this shell gives a child, raised to the hard limit if needed. */
const fdSoft = Number(execSync('sh -c "ulimit -n"', { encoding: 'utf8' }).trim()) || 1024
const fdHard = (() => {
  const h = execSync('sh -c "ulimit -Hn"', { encoding: 'utf8' }).trim()
  return h === 'unlimited' ? 1_048_576 : Number(h) || fdSoft
})()
const fdWant = socketCount + 2048

/** Spawns node with `args`, through `sh -c 'ulimit -n …; exec …'` when the limit is too low. */
function spawnNode(args: readonly string[], env: NodeJS.ProcessEnv, ipc: boolean): ChildProcess {
  const stdio: ('ignore' | 'pipe' | 'ipc')[] = ipc
    ? ['ignore', 'pipe', 'pipe', 'ipc']
    : ['ignore', 'pipe', 'pipe']
  const raise = fdSoft < fdWant
  const p = raise
    ? spawn(
        'sh',
        [
          '-c',
          'ulimit -n "$0" 2>/dev/null; exec "$@"',
          String(Math.min(fdHard, Math.max(fdWant, fdSoft))),
          process.execPath,
          ...args,
        ],
        { cwd: serverDir, env, stdio, serialization: 'advanced' },
      )
    : spawn(process.execPath, [...args], { cwd: serverDir, env, stdio, serialization: 'advanced' })
  children.add(p)
  p.once('exit', () => children.delete(p))
  return p
}

interface Proc {
  readonly name: string
  readonly proc: ChildProcess
  readonly pid: number
  /** The last chunks the process printed (for error messages). */
  readonly output: string[]
  /** --trace-gc lines seen so far, summed (servers only). */
  readonly gc: GcStats
  /** Log lines by message (pino's `msg`, else the line), counted. */
  readonly messages: Map<string, number>
  stop(timeoutMs?: number): Promise<void>
  /** Waits for the process to end by itself; SIGKILL after `timeoutMs`. */
  ended(timeoutMs: number): Promise<void>
}

interface GcStats {
  scavenges: number
  scavengeMs: number
  markCompacts: number
  markCompactMs: number
  /** The longest pause since the last reset. */
  maxPauseMs: number
}

const GC_LINE =
  /ms: (Scavenge|Minor Mark-Compact|Mark-Compact(?: \(reduce\))?|Mark-Sweep)\b[^,]*, ([\d.]+) \/ [\d.]+ ms/

function track(name: string, proc: ChildProcess): Proc {
  const output: string[] = []
  const gc: GcStats = {
    scavenges: 0,
    scavengeMs: 0,
    markCompacts: 0,
    markCompactMs: 0,
    maxPauseMs: 0,
  }
  const messages = new Map<string, number>()
  let partial = ''
  const keep = (d: Buffer) => {
    const text = d.toString()
    output.push(text)
    if (output.length > 200) output.shift()
    const lines = (partial + text).split('\n')
    partial = lines.pop() ?? ''
    for (const line of lines) {
      const g = GC_LINE.exec(line)
      if (g) {
        const pause = Number(g[2])
        if (g[1] === 'Scavenge') {
          gc.scavenges++
          gc.scavengeMs += pause
        } else {
          gc.markCompacts++
          gc.markCompactMs += pause
        }
        if (pause > gc.maxPauseMs) gc.maxPauseMs = pause
        continue
      }
      if (line.trim() === '') continue
      let msg = line.slice(0, 160)
      if (line.startsWith('{')) {
        try {
          msg = String((JSON.parse(line) as { msg?: unknown }).msg ?? msg)
        } catch {
          // not JSON after all
        }
      }
      if (messages.size < 200 || messages.has(msg)) messages.set(msg, (messages.get(msg) ?? 0) + 1)
    }
  }
  proc.stdout?.on('data', keep)
  proc.stderr?.on('data', keep)
  const exited = new Promise<void>((r) => {
    if (proc.exitCode !== null || proc.signalCode !== null) r()
    else proc.once('exit', () => r())
  })
  return {
    name,
    proc,
    pid: proc.pid!,
    output,
    gc,
    messages,
    async stop(timeoutMs = 20_000) {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM')
      const t = setTimeout(() => proc.kill('SIGKILL'), timeoutMs)
      await exited
      clearTimeout(t)
    },
    async ended(timeoutMs) {
      const t = setTimeout(() => proc.kill('SIGKILL'), timeoutMs)
      await exited
      clearTimeout(t)
    },
  }
}

async function startRedis(): Promise<Proc & { url: string }> {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'kortbord-bench-redis-'))
  const bin = process.env.REDIS_SERVER_BIN ?? 'redis-server'
  const proc = spawn(
    bin,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'no',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  children.add(proc)
  proc.once('exit', () => {
    children.delete(proc)
    rmSync(dir, { recursive: true, force: true })
  })
  const p = track('redis', proc)
  const until = Date.now() + 10_000
  while (!(await canConnect(port))) {
    if (proc.exitCode !== null || Date.now() > until)
      throw new Error(`redis-server did not start: ${p.output.join('')}`)
    await sleep(50)
  }
  return { ...p, url: `redis://127.0.0.1:${port}` }
}

/** /metrics needs a token now (issue 13): the benchmark's own. */
const BENCH_METRICS_TOKEN = 'bench-load-metrics-token'

async function startServer(
  kind: 'kortbord' | 'baseline',
  env: Record<string, string>,
  profileDir: string | null,
): Promise<Proc & { url: string }> {
  const port = await freePort()
  const entry = kind === 'kortbord' ? 'src/main.ts' : 'bench/baseline.ts'
  const args = [
    ...(opts.gcTrace ? ['--trace-gc'] : []),
    ...(opts.serverNodeArgs ? opts.serverNodeArgs.split(/\s+/).filter(Boolean) : []),
    // SIGUSR2 runs a full collection (the live heap at the end: liveMemory).
    '--expose-gc',
    '--import',
    'tsx',
    '--import',
    './bench/gc-on-signal.ts',
    ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
    entry,
  ]
  const proc = spawnNode(
    args,
    {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      KORTBORD_TEST_DEALS: '1',
      SOLVER: '0',
      // Bots send far faster than people, all from one address; limits are not what is
      // measured here (pnpm bench:abuse measures them).
      RATE_BURST: '100000',
      RATE_PER_SECOND: '100000',
      ...LOOSE_LIMITS,
      METRICS_TOKEN: BENCH_METRICS_TOKEN,
      WEB_DIST: '',
      HEARTBEAT_MS: String(opts.heartbeatMs),
      // Several nodes send clients of a table served elsewhere here (issue 17).
      NODE_URL: `http://127.0.0.1:${port}`,
      ...env,
    },
    false,
  )
  const p = track(kind, proc)
  const url = `http://127.0.0.1:${port}`
  const until = Date.now() + 30_000
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${kind} exited at start:\n${p.output.join('')}`)
    try {
      const r = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) })
      if (r.status === 200) break
    } catch {
      // not listening yet
    }
    if (Date.now() > until) {
      proc.kill('SIGKILL')
      throw new Error(`${kind} not ready after 30 s:\n${p.output.join('')}`)
    }
    await sleep(100)
  }
  return { ...p, url }
}

/** The event-loop delay figures of a server's /metrics (prom-client resets them per scrape). */
async function loopDelay(url: string): Promise<{ p99: number; max: number; mean: number } | null> {
  try {
    const r = await fetch(`${url}/metrics`, {
      signal: AbortSignal.timeout(5000),
      headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` },
    })
    const text = await r.text()
    const get = (name: string): number => {
      const m = new RegExp(
        `^[a-z]+_nodejs_eventloop_lag_${name}_seconds(?:\\{[^}]*\\})? ([0-9.eE+-]+)$`,
        'm',
      ).exec(text)
      return m ? Number(m[1]) * 1000 : Number.NaN
    }
    // monitorEventLoopDelay records whole timer intervals: subtract its 10 ms resolution
    // (prom-client's default) to get the delay itself.
    const excess = (x: number) => Math.max(0, x - LOOP_RESOLUTION_MS)
    return { p99: excess(get('p99')), max: excess(get('max')), mean: excess(get('mean')) }
  } catch {
    return null
  }
}

/** The average length of the stored JSON of up to 200 tables (what each save writes). */
async function recordSizes(url: string): Promise<number | null> {
  const client = createClient({ url })
  client.on('error', () => undefined)
  await client.connect()
  try {
    const keys: string[] = []
    for await (const batch of client.scanIterator({ MATCH: 'kortbord:table:*', COUNT: 200 })) {
      keys.push(...batch)
      if (keys.length >= 200) break
    }
    if (keys.length === 0) return null
    const sizes = await Promise.all(keys.slice(0, 200).map((k) => client.hStrLen(k, 'json')))
    return sizes.reduce((a, b) => a + Number(b), 0) / sizes.length
  } finally {
    await client.close().catch(() => undefined)
  }
}

// ---------------------------------------------------------------------------------------------
// The load generator

class Gen {
  readonly p: Proc
  private waiting: {
    pred: (m: FromGen) => boolean
    res: (m: FromGen) => void
    rej: (e: Error) => void
  }[] = []
  private fatal: string | null = null
  /** Messages that came before anyone waited for them. */
  private inbox: FromGen[] = []

  constructor(profileDir: string | null) {
    const prof = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []
    const proc = spawnNode(
      ['--max-old-space-size=8192', '--import', 'tsx', ...prof, 'bench/loadgen.ts'],
      process.env,
      true,
    )
    this.p = track('loadgen', proc)
    proc.on('message', (m: FromGen) => {
      if (m.t === 'log') console.log(`  [loadgen] ${m.msg}`)
      if (m.t === 'fatal') this.fail(`loadgen: ${m.msg}`)
      const w = this.waiting.find((x) => x.pred(m))
      if (w) {
        this.waiting = this.waiting.filter((x) => x !== w)
        w.res(m)
      } else if (m.t !== 'log') this.inbox.push(m)
    })
    proc.once('exit', (code, sig) =>
      this.fail(`loadgen exited (${code ?? sig}): ${this.p.output.join('').slice(-2000)}`),
    )
  }

  private fail(msg: string): void {
    this.fatal ??= msg
    for (const w of this.waiting) w.rej(new Error(msg))
    this.waiting = []
  }

  send(m: ToGen): void {
    if (this.p.proc.connected) this.p.proc.send(m)
  }

  /** Waits for a message of type `t` (rejects after `timeoutMs` or if the generator dies). */
  wait<T extends FromGen['t']>(
    t: T,
    timeoutMs: number,
    id?: number,
  ): Promise<Extract<FromGen, { t: T }>> {
    const pred = (m: FromGen) => m.t === t && (id === undefined || ('id' in m && m.id === id))
    const early = this.inbox.find(pred)
    if (early) {
      this.inbox = this.inbox.filter((m) => m !== early)
      return Promise.resolve(early as Extract<FromGen, { t: T }>)
    }
    if (this.fatal) return Promise.reject(new Error(this.fatal))
    return new Promise((res, rej) => {
      const timer = setTimeout(() => {
        this.waiting = this.waiting.filter((x) => x.res !== done)
        rej(new Error(`no '${t}' from the load generator within ${timeoutMs} ms`))
      }, timeoutMs)
      const done = (m: FromGen) => {
        clearTimeout(timer)
        res(m as Extract<FromGen, { t: T }>)
      }
      this.waiting.push({
        pred,
        res: done,
        rej: (e) => {
          clearTimeout(timer)
          rej(e)
        },
      })
    })
  }

  async exit(): Promise<void> {
    this.send({ t: 'exit' })
    await this.p.ended(10_000)
  }
}

// ---------------------------------------------------------------------------------------------
// A run: one server under the generator's load, one or more measured phases

interface Phase {
  readonly label: string
  /** Commands per table per second asked for. */
  readonly rate: number
  readonly targetPerSec: number
  /** Acked commands per second achieved. */
  readonly cmdsPerSec: number
  readonly serverCpuMsPerCmd: number
  readonly serverCpuPct: number
  readonly redisCpuMsPerCmd: number | null
  readonly genCpuPct: number
  /** CPU used by other processes on the machine during the window, % of one core. */
  readonly otherCpuPct: number
  readonly loop: { p99: number; max: number; mean: number } | null
  readonly rssEnd: number
  readonly gen: PhaseResult
  /** Monotonic µs of the window, for the profile. */
  readonly fromUs: number
  readonly toUs: number
  /** Windows measured (a window disturbed by other programs is measured again). */
  attempts: number
  /** Other programs used more than NOISY_PCT of a core even in the last attempt. */
  noisy: boolean
  /** The server's garbage collection in the window (--trace-gc). */
  gc: GcStats
}

interface Run {
  readonly name: string
  readonly kind: 'kortbord' | 'baseline'
  readonly store: 'memory' | 'redis' | null
  sockets: number
  tables: number
  failedTables: number
  connectMs: number
  setupMs: number
  rss: { idle: number; connected: number; end: number }
  /**
   * The server's memory at the end of the main window, while everyone is still connected and
   * the tables are in play: the V8 heap in use as found, then after a full collection (what is
   * alive), the heap V8 has reserved and RSS (MB). RSS less the reserved heap is the rest of the
   * process (code, buffers, the allocator's free pages).
   */
  memory: { heapUsed: number; heapLive: number; heapTotal: number; rss: number } | null
  /** The heap alive after a full collection before anyone connected (MB). */
  heapLiveIdle: number | null
  readonly phases: Phase[]
  final: FinalResult | null
  knee: { lastPass: Phase | null; firstFail: Phase | null; collapsed: boolean } | null
  profile: { file: string; summary: ProfileSummary } | null
  error: string | null
  /** The machine's 1-minute load average when the run began. */
  loadAvg: number
  /** Redis runs: the average size of a table's stored JSON (what every save writes). */
  storedRecordBytes: number | null
  /** Server CPU, % of a core, with everyone connected and seated but no commands. */
  idleCpuPct: number | null
  idleRedisCpuPct: number | null
  /** What the server printed, by message, most frequent first (GC lines apart). */
  serverMessages: [string, number][]
  /** A file with the last things the server printed. */
  serverLogTail: string | null
}

const runs: Run[] = []

function passes(ph: Phase): boolean {
  return (
    ph.gen.lastView.p99 < opts.kneeP99 &&
    ph.cmdsPerSec >= 0.9 * ph.targetPerSec &&
    ph.gen.incompleteViews === 0
  )
}

/** CPU of the machine not used by the benchmark's own processes over `ms`, % of one core. */
async function otherCpu(pids: readonly number[], ms: number): Promise<number> {
  const ours = () => pids.reduce((a, pid) => a + (procStats(pid, clkTck)?.cpuMs ?? 0), 0)
  const m0 = machineBusyMs(clkTck)
  const o0 = ours()
  const t0 = Date.now()
  await sleep(ms)
  return (100 * (machineBusyMs(clkTck) - m0 - (ours() - o0))) / Math.max(1, Date.now() - t0)
}

/** Waits up to QUIET_WAIT s until programs but `pids` use less than NOISY_PCT % of a core. */
async function waitForQuiet(pids: readonly number[]): Promise<void> {
  const until = Date.now() + opts.quietWait * 1000
  for (;;) {
    const other = await otherCpu(pids, 2000)
    if (other < opts.noisyPct) return
    if (Date.now() > until) {
      console.log(
        `  (the machine is busy: other programs use ${other.toFixed(0)}% of a core; measuring anyway)`,
      )
      return
    }
  }
}

/**
 * Measures a phase on a quiet machine: waits (up to QUIET_WAIT s) until other programs use less
 * than NOISY_PCT % of a core, and measures again (up to RETRIES times) when they used more.
 */
async function measure(
  run: Run,
  gen: Gen,
  server: Proc & { url: string },
  redis: Proc | null,
  label: string,
  rate: number,
  warmupS: number,
  seconds: number,
  id: number,
): Promise<Phase> {
  gen.send({ t: 'rate', perTable: rate })
  await sleep(warmupS * 1000)
  const pids = [process.pid, server.pid, gen.p.pid, ...(redis ? [redis.pid] : [])]
  let ph: Phase | null = null
  for (let attempt = 0; attempt <= opts.retries; attempt++) {
    await waitForQuiet(pids)
    ph = await measureOnce(run, gen, server, redis, label, rate, seconds, id * 10 + attempt)
    ph.attempts = attempt + 1
    if (ph.otherCpuPct < opts.noisyPct) return ph
    console.log(
      `  (other programs used ${ph.otherCpuPct.toFixed(0)}% of a core meanwhile${attempt < opts.retries ? ': measuring again' : ''})`,
    )
  }
  ph!.noisy = true
  return ph!
}

async function measureOnce(
  run: Run,
  gen: Gen,
  server: Proc & { url: string },
  redis: Proc | null,
  label: string,
  rate: number,
  seconds: number,
  id: number,
): Promise<Phase> {
  await loopDelay(server.url) // resets the server's event-loop histogram
  gen.send({ t: 'measure', id })
  const t0 = process.hrtime.bigint()
  const fromUs = monoUs()
  const s0 = procStats(server.pid, clkTck)
  const r0 = redis ? procStats(redis.pid, clkTck) : null
  const g0 = procStats(gen.p.pid, clkTck)
  const m0 = machineBusyMs(clkTck)
  const gc0 = { ...server.gc }
  server.gc.maxPauseMs = 0
  await sleep(seconds * 1000)
  const m1 = machineBusyMs(clkTck)
  const s1 = procStats(server.pid, clkTck)
  const r1 = redis ? procStats(redis.pid, clkTck) : null
  const g1 = procStats(gen.p.pid, clkTck)
  const wall = ms(process.hrtime.bigint() - t0)
  const toUs = monoUs()
  gen.send({ t: 'endMeasure', id })
  const loop = await loopDelay(server.url)
  const { result } = await gen.wait('phase', opts.ackTimeoutMs + 30_000, id)
  if (!s0 || !s1) throw new Error(`${run.name}: the server process is gone`)
  const acked = Math.max(1, result.acked)
  const ph: Phase = {
    label,
    rate,
    targetPerSec: run.tables * rate,
    cmdsPerSec: result.acked / result.seconds,
    serverCpuMsPerCmd: (s1.cpuMs - s0.cpuMs) / acked,
    serverCpuPct: (100 * (s1.cpuMs - s0.cpuMs)) / wall,
    redisCpuMsPerCmd: r0 && r1 ? (r1.cpuMs - r0.cpuMs) / acked : null,
    genCpuPct: g0 && g1 ? (100 * (g1.cpuMs - g0.cpuMs)) / wall : Number.NaN,
    // Everything else the machine did meanwhile (another program would distort the figures).
    otherCpuPct:
      (100 *
        (m1 -
          m0 -
          (s1.cpuMs - s0.cpuMs) -
          (g0 && g1 ? g1.cpuMs - g0.cpuMs : 0) -
          (r0 && r1 ? r1.cpuMs - r0.cpuMs : 0))) /
      wall,
    loop,
    rssEnd: s1.rss,
    gen: result,
    fromUs,
    toUs,
    attempts: 1,
    noisy: false,
    gc: {
      scavenges: server.gc.scavenges - gc0.scavenges,
      scavengeMs: server.gc.scavengeMs - gc0.scavengeMs,
      markCompacts: server.gc.markCompacts - gc0.markCompacts,
      markCompactMs: server.gc.markCompactMs - gc0.markCompactMs,
      maxPauseMs: server.gc.maxPauseMs,
    },
  }
  const v = result.lastView
  console.log(
    `  ${label}: ${ph.cmdsPerSec.toFixed(0)}/${ph.targetPerSec.toFixed(0)} cmds/s, ack p99 ${f1(result.ack.p99)} ms, last view p50/p99/max ${f1(v.p50)}/${f1(v.p99)}/${f1(v.max)} ms (${v.n} of ${result.acked}), server CPU ${ph.serverCpuPct.toFixed(0)}% (${ph.serverCpuMsPerCmd.toFixed(3)} ms/cmd), loadgen CPU ${ph.genCpuPct.toFixed(0)}%, other CPU ${ph.otherCpuPct.toFixed(0)}%, lost ${result.lost}${result.disconnects > 0 ? `, ${result.disconnects} SOCKETS DROPPED` : ''}`,
  )
  return ph
}

async function kneeSearch(
  run: Run,
  gen: Gen,
  server: Proc & { url: string },
  redis: Proc | null,
  first: Phase,
): Promise<void> {
  let lastPass: Phase | null = passes(first) ? first : null
  let firstFail: Phase | null = passes(first) ? null : first
  let id = 100
  // Connections dropped (socket.io ping timeouts under overload): nothing after it means much.
  const collapsed = (ph: Phase) => ph.gen.disconnects > 0
  if (collapsed(first)) {
    run.knee = { lastPass, firstFail, collapsed: true }
    return
  }
  const step = async (rate: number) => {
    const ph = await measure(
      run,
      gen,
      server,
      redis,
      `knee ${rate.toFixed(2)}/table/s`,
      rate,
      opts.kneeWarmup,
      opts.kneeSeconds,
      id++,
    )
    run.phases.push(ph)
    return ph
  }
  // Up (or down, if the base rate already fails) by KNEE_FACTOR until the verdict flips.
  for (let i = 0; i < opts.kneeSteps; i++) {
    if (lastPass && firstFail) break
    const rate = lastPass ? lastPass.rate * opts.kneeFactor : firstFail!.rate / opts.kneeFactor
    const ph = await step(rate)
    if (passes(ph)) {
      if (!lastPass || ph.rate > lastPass.rate) lastPass = ph
    } else if (!firstFail || ph.rate < firstFail.rate) firstFail = ph
    if (collapsed(ph)) {
      run.knee = { lastPass, firstFail, collapsed: true }
      return
    }
  }
  // Then halve the interval a few times.
  for (let i = 0; i < opts.kneeRefine && lastPass && firstFail; i++) {
    const ph = await step(Math.sqrt(lastPass.rate * firstFail.rate))
    if (passes(ph)) lastPass = ph
    else firstFail = ph
    if (collapsed(ph)) {
      run.knee = { lastPass, firstFail, collapsed: true }
      return
    }
  }
  run.knee = { lastPass, firstFail, collapsed: false }
}

async function runTarget(
  name: string,
  kind: 'kortbord' | 'baseline',
  store: 'memory' | 'redis' | null,
  updateBytes: GenConfig['updateBytes'],
): Promise<Run> {
  const run: Run = {
    name,
    kind,
    store,
    sockets: 0,
    tables: 0,
    failedTables: 0,
    connectMs: 0,
    setupMs: 0,
    rss: { idle: 0, connected: 0, end: 0 },
    memory: null,
    heapLiveIdle: null,
    phases: [],
    final: null,
    knee: null,
    profile: null,
    error: null,
    loadAvg: loadavg()[0] ?? 0,
    storedRecordBytes: null,
    idleCpuPct: null,
    idleRedisCpuPct: null,
    serverMessages: [],
    serverLogTail: null,
  }
  runs.push(run)
  console.log(
    `\n== ${name}: ${opts.tables} Idiot + ${opts.duelTables} duel tables, ${opts.spectators} spectator(s) each, ${socketCount} sockets`,
  )
  let redis: (Proc & { url: string }) | null = null
  let server: (Proc & { url: string }) | null = null
  let gen: Gen | null = null
  const profileDir =
    kind === 'kortbord' && opts.profile
      ? join(dirname(opts.out), `profile-${name}-${Date.now()}`)
      : null
  try {
    if (store === 'redis') redis = await startRedis()
    if (profileDir) mkdirSync(profileDir, { recursive: true })
    server = await startServer(
      kind,
      store === 'redis' && redis
        ? { STORE: 'redis', REDIS_URL: redis.url }
        : kind === 'kortbord'
          ? { STORE: 'memory' }
          : {},
      profileDir,
    )
    await sleep(1000)
    run.heapLiveIdle = (await liveMemory(server).catch(() => null))?.heapLive ?? null
    run.rss.idle = procStats(server.pid, clkTck)?.rss ?? 0
    gen = new Gen(
      opts.genProfile ? join(dirname(opts.out), `profile-loadgen-${name}-${Date.now()}`) : null,
    )
    gen.send({
      t: 'init',
      cfg: {
        mode: kind,
        url: server.url,
        tables: opts.tables,
        duelTables: opts.duelTables,
        spectators: opts.spectators,
        connectBatch: opts.connectBatch,
        setupBatch: opts.setupBatch,
        seed: opts.seed,
        ackTimeoutMs: opts.ackTimeoutMs,
        ...(updateBytes ? { updateBytes } : {}),
        hardDeadlineMs: maxSeconds * 1000,
        deltas: kind === 'kortbord' && opts.deltas,
      },
    })
    const ready = await gen.wait('ready', setupBudgetS * 1000)
    run.sockets = ready.sockets
    run.tables = ready.tables
    run.failedTables = ready.failedTables
    run.connectMs = ready.connectMs
    run.setupMs = ready.setupMs
    // Settle first: the setup's own work (GC, the Redis adapter reading its stream) ends.
    await sleep(5000)
    run.rss.connected = procStats(server.pid, clkTck)?.rss ?? 0
    // What everyone being connected costs with no commands at all (heartbeats, pings, timers).
    const i0 = procStats(server.pid, clkTck)
    const ri0 = redis ? procStats(redis.pid, clkTck) : null
    await sleep(opts.idleSeconds * 1000)
    const i1 = procStats(server.pid, clkTck)
    const ri1 = redis ? procStats(redis.pid, clkTck) : null
    if (i0 && i1) run.idleCpuPct = (i1.cpuMs - i0.cpuMs) / (10 * opts.idleSeconds)
    if (ri0 && ri1) run.idleRedisCpuPct = (ri1.cpuMs - ri0.cpuMs) / (10 * opts.idleSeconds)
    console.log(
      `  ${ready.sockets} sockets connected in ${(ready.connectMs / 1000).toFixed(1)} s, ${ready.tables} tables seated in ${(ready.setupMs / 1000).toFixed(1)} s${ready.failedTables ? ` (${ready.failedTables} FAILED)` : ''}; server RSS ${(run.rss.idle / 2 ** 20).toFixed(0)} → ${(run.rss.connected / 2 ** 20).toFixed(0)} MB; CPU with no commands ${f1(run.idleCpuPct)}%${redis ? ` (redis ${f1(run.idleRedisCpuPct)}%)` : ''}`,
    )
    const main = await measure(
      run,
      gen,
      server,
      redis,
      `rate ${opts.rate}/table/s`,
      opts.rate,
      opts.warmup,
      opts.duration,
      1,
    )
    run.phases.push(main)
    run.rss.end = main.rssEnd
    run.memory = await liveMemory(server).catch(() => null)
    if (run.memory)
      console.log(
        `  memory at the end: heap in use ${run.memory.heapUsed.toFixed(0)} MB, alive after a full GC ${run.memory.heapLive.toFixed(0)} MB (${liveKBPerSocket(run)} KB/socket above idle), heap reserved ${run.memory.heapTotal.toFixed(0)} MB, RSS ${run.memory.rss.toFixed(0)} MB`,
      )
    if (redis) {
      run.storedRecordBytes = await recordSizes(redis.url).catch(() => null)
      if (run.storedRecordBytes)
        console.log(
          `  a stored table record averages ${run.storedRecordBytes.toFixed(0)} B of JSON (sampled from Redis)`,
        )
    }
    if (opts.knee && (kind === 'kortbord' || opts.kneeBaseline))
      await kneeSearch(run, gen, server, redis, main)
    gen.send({ t: 'stop' })
    run.final = (await gen.wait('final', opts.ackTimeoutMs + 30_000)).result
  } catch (e) {
    run.error = (e as Error).message
    console.error(`  ${name} FAILED: ${run.error}`)
    if (server) console.error(server.output.join('').slice(-3000))
  } finally {
    await server?.stop(20_000)
    await gen?.exit()
    await redis?.stop(5000)
  }
  if (server) {
    const log = `${opts.out.replace(/\.json$/, '')}-${name}-server.log`
    mkdirSync(dirname(log), { recursive: true }) // bench-results/ is not in a fresh clone
    writeFileSync(log, server.output.join(''))
    run.serverLogTail = log
    run.serverMessages = [...server.messages.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15)
    if (run.serverMessages.length > 0) {
      console.log('  the server printed (count × message):')
      for (const [m, n] of run.serverMessages.slice(0, 6))
        console.log(`    ${String(n).padStart(7)} × ${m}`)
    }
  }
  if (profileDir) {
    // The main thread's profile is the largest (tsx's loader thread writes one too).
    const file = readdirSync(profileDir)
      .filter((f) => f.endsWith('.cpuprofile'))
      .sort((a, b) => statSync(join(profileDir, b)).size - statSync(join(profileDir, a)).size)[0]
    if (file) {
      const path = join(profileDir, file)
      const main = run.phases[0]
      const summary = summariseProfile(path, {
        top: 25,
        ...(main ? { from: main.fromUs, to: main.toUs } : {}),
      })
      run.profile = { file: path, summary }
      console.log(`\n  profile of the measured window (${path}):\n`)
      console.log(formatSummary(summary).replace(/^/gm, '    '))
    } else console.log(`  no .cpuprofile in ${profileDir} (did the server exit cleanly?)`)
  }
  return run
}

// ---------------------------------------------------------------------------------------------
// Report

const f1 = (x: number | null | undefined) =>
  x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(1)
const f3 = (x: number | null | undefined) =>
  x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(3)
const mb = (b: number) => (b / 2 ** 20).toFixed(0)

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)))
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`
  return [
    line(rows[0]!),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...rows.slice(1).map(line),
  ].join('\n')
}

function report(): { text: string; comparison: Record<string, unknown> } {
  const main = runs.filter((r) => r.phases.length > 0).map((r) => ({ r, ph: r.phases[0]! }))
  const lat = [
    [
      'run',
      'sockets',
      'cmds/s (target)',
      'ack p50 / p95 / p99 / max ms',
      'last view p50 / p95 / p99 / max ms',
    ],
    ...main.map(({ r, ph }) => [
      ph.noisy ? `${r.name} (noisy)` : r.name,
      String(r.sockets),
      `${ph.cmdsPerSec.toFixed(0)} (${ph.targetPerSec.toFixed(0)})`,
      `${f1(ph.gen.ack.p50)} / ${f1(ph.gen.ack.p95)} / ${f1(ph.gen.ack.p99)} / ${f1(ph.gen.ack.max)}`,
      `${f1(ph.gen.lastView.p50)} / ${f1(ph.gen.lastView.p95)} / ${f1(ph.gen.lastView.p99)} / ${f1(ph.gen.lastView.max)}`,
    ]),
  ]
  const res = [
    [
      'run',
      'CPU ms/cmd',
      'server CPU',
      'redis ms/cmd',
      'RSS idle → conn → end MB',
      'RSS KB/socket',
      'loop p99 / max ms',
      'GC ms/s (max pause)',
      'lost / dup / ooo',
      'dropped sockets',
      'refused',
      'update B',
      'loadgen CPU / loop p99',
      'other CPU',
    ],
    ...main.map(({ r, ph }) => {
      const fin = r.final
      const refused = Object.entries(fin?.refused ?? ph.gen.refused)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')
      return [
        r.name,
        f3(ph.serverCpuMsPerCmd),
        `${ph.serverCpuPct.toFixed(0)}% (idle ${f1(r.idleCpuPct)}%)`,
        f3(ph.redisCpuMsPerCmd),
        `${mb(r.rss.idle)} → ${mb(r.rss.connected)} → ${mb(r.rss.end)}`,
        `${f1((r.rss.connected - r.rss.idle) / 1024 / Math.max(1, r.sockets))} / ${f1((r.rss.end - r.rss.idle) / 1024 / Math.max(1, r.sockets))}`,
        `${f1(ph.loop?.p99)} / ${f1(ph.loop?.max)}`,
        opts.gcTrace
          ? `${f1((ph.gc.scavengeMs + ph.gc.markCompactMs) / ph.gen.seconds)} (${f1(ph.gc.maxPauseMs)})`
          : '–',
        `${(fin?.lost ?? ph.gen.lost) + (fin?.missingAtEnd ?? 0)} / ${fin?.duplicated ?? ph.gen.duplicated} / ${fin?.outOfOrder ?? ph.gen.outOfOrder}`,
        fin && fin.disconnects > 0
          ? `${fin.disconnects} (${Object.entries(fin.disconnectReasons)
              .map(([k, v]) => `${k} ${v}`)
              .join(', ')})`
          : '0',
        refused || '0',
        r.kind === 'kortbord' ? ph.gen.updateBytes.all.toFixed(0) : '(same)',
        `${ph.genCpuPct.toFixed(0)}% / ${f1(Math.max(0, ph.gen.genLoopP99 - LOOP_RESOLUTION_MS))} ms`,
        `${ph.otherCpuPct.toFixed(0)}%`,
      ]
    }),
  ]
  const base = main.find(({ r }) => r.kind === 'baseline')
  const comparison: Record<string, unknown> = {}
  const ratioRows = [
    [
      'run',
      'CPU/cmd ÷ baseline',
      'p99 last view ÷ baseline',
      'p99 ack ÷ baseline',
      'RSS/socket − baseline KB (conn / end)',
    ],
  ]
  for (const { r, ph } of main) {
    if (r.kind !== 'kortbord' || !base || ph.gen.acked === 0 || base.ph.gen.acked === 0) continue
    const perSock = (x: Run, at: number) => (at - x.rss.idle) / 1024 / Math.max(1, x.sockets)
    const c = {
      cpuPerCmd: ph.serverCpuMsPerCmd / base.ph.serverCpuMsPerCmd,
      p99LastView: ph.gen.lastView.p99 / base.ph.gen.lastView.p99,
      p99Ack: ph.gen.ack.p99 / base.ph.gen.ack.p99,
      rssPerSocketAboveKBConnected:
        perSock(r, r.rss.connected) - perSock(base.r, base.r.rss.connected),
      rssPerSocketAboveKBEnd: perSock(r, r.rss.end) - perSock(base.r, base.r.rss.end),
    }
    comparison[r.name] = c
    ratioRows.push([
      r.name,
      `${c.cpuPerCmd.toFixed(2)}×`,
      `${c.p99LastView.toFixed(2)}×`,
      `${c.p99Ack.toFixed(2)}×`,
      `${f1(c.rssPerSocketAboveKBConnected)} / ${f1(c.rssPerSocketAboveKBEnd)}`,
    ])
  }
  const knees = runs
    .filter((r) => r.knee)
    .map((r) => {
      const k = r.knee!
      const noisy = (p: Phase) => (p.noisy ? ', NOISY' : '')
      const pass = k.lastPass
        ? `${k.lastPass.cmdsPerSec.toFixed(0)} cmds/s (${k.lastPass.rate.toFixed(2)}/table/s, p99 ${f1(k.lastPass.gen.lastView.p99)} ms${noisy(k.lastPass)})`
        : 'none'
      const fail = k.firstFail
        ? `${k.firstFail.targetPerSec.toFixed(0)} asked → ${k.firstFail.cmdsPerSec.toFixed(0)} cmds/s, p99 ${f1(k.firstFail.gen.lastView.p99)} ms${noisy(k.firstFail)}`
        : 'not reached'
      return `  ${r.name}: knee (p99 command → last view < ${opts.kneeP99} ms) at ${pass}; above it: ${fail}${k.collapsed ? ' (the connections dropped: search stopped)' : ''}`
    })
  const scale = scaleTable()
  const scaleParts = scaleRows.find((r): r is ScaleRow => !('error' in r) && r.idiotUpdateBytes > 0)
  const text = [
    '',
    `kortbord ${git.head}${git.dirty.length > 0 ? ` with ${git.dirty.length} uncommitted source files` : ''}; ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}.`,
    `Load: ${opts.tables} Idiot tables (4 players) + ${opts.duelTables} duel tables (2 players), ${opts.spectators} spectator(s) each; ${opts.rate} command/table/s; ${opts.warmup} s warm-up, ${opts.duration} s measured.`,
    ...(main.length > 0 ? ['', table(lat), '', table(res)] : []),
    ...(ratioRows.length > 1 ? ['', table(ratioRows)] : []),
    ...(knees.length > 0 ? ['', 'Knee:', ...knees] : []),
    ...(runs.some((r) => r.memory)
      ? [
          '',
          'Memory at the end of the main window (everyone connected), MB: heap in use / alive after a full GC / heap reserved / RSS:',
          ...runs
            .filter((r) => r.memory)
            .map(
              (r) =>
                `  ${r.name}: ${r.memory!.heapUsed.toFixed(0)} / ${r.memory!.heapLive.toFixed(0)} / ${r.memory!.heapTotal.toFixed(0)} / ${r.memory!.rss.toFixed(0)} (alive: ${liveKBPerSocket(r)} KB/socket above the idle server's ${f1(r.heapLiveIdle)} MB)`,
            ),
        ]
      : []),
    ...main
      .filter(({ r, ph }) => r.kind === 'kortbord' && ph.gen.updateBytes.idiot > 0)
      .slice(0, 1)
      .map(({ ph }) => {
        const p = ph.gen.idiotUpdateParts
        return `\nAn Idiot update averages ${ph.gen.updateBytes.idiot.toFixed(0)} B of JSON${opts.deltas ? ' (deltas: patches)' : ''}: table ${p.table.toFixed(0)} B, view ${p.view.toFixed(0)} B, log ${p.log.toFixed(0)} B (${p.logEntries.toFixed(1)} entries); a duel update ${ph.gen.updateBytes.duel.toFixed(0)} B.`
      }),
    ...(scale
      ? [
          '',
          `Scale-out (NODES=${opts.nodes.join(',')}): one Redis, each table's members on the node that serves it${opts.deltas ? ', delta updates' : ''}.`,
          '',
          scale,
          ...(scaleParts
            ? [
                `\nAn Idiot update averages ${scaleParts.idiotUpdateBytes.toFixed(0)} B of JSON${opts.deltas ? ' (deltas: patches)' : ''}: table ${scaleParts.idiotParts.table.toFixed(0)} B, view ${scaleParts.idiotParts.view.toFixed(0)} B, log ${scaleParts.idiotParts.log.toFixed(0)} B (${scaleParts.idiotParts.logEntries.toFixed(1)} entries; ${scaleParts.nodes} node(s)).`,
              ]
            : []),
          "per node ms/cmd it served: a node's CPU ÷ the commands it answered ok (game:move, table:start: its kortbord_commands_total). ÷ 1 node: CPU ms/cmd over all nodes.",
        ]
      : []),
    ...scaleRows
      .filter((r): r is { nodes: number; error: string } => 'error' in r)
      .map((r) => `${r.nodes} node(s) FAILED: ${r.error}`),
    '',
    ...(main.length > 0
      ? [
          'CPU ms/cmd: server process user+sys ÷ acked commands in the window. RSS KB/socket: (after connecting | at the end) − idle, ÷ sockets.',
          'loop: event-loop delay from /metrics, less the 10 ms sampling interval.',
        ]
      : []),
    'lost = version gaps + versions acked but never received at the end; dup: a version received twice; ooo: an older version after a newer one.',
  ].join('\n')
  return { text, comparison }
}

let written = false
function writeResults(partial: boolean): void {
  if (written) return
  written = true
  const { text, comparison } = report()
  console.log(text)
  mkdirSync(dirname(opts.out), { recursive: true })
  const strip = (r: Run) => ({
    ...r,
    profile: r.profile ? { file: r.profile.file, summary: r.profile.summary } : null,
  })
  writeFileSync(
    opts.out,
    `${JSON.stringify(
      {
        partial,
        command: `pnpm bench:load ${process.argv.slice(2).join(' ')}`.trim(),
        at: new Date().toISOString(),
        git,
        machine: {
          cpus: cpus().length,
          model: cpus()[0]?.model,
          memGiB: totalmem() / 2 ** 30,
          node: process.version,
          clkTck,
          fdSoft,
        },
        options: opts,
        runs: runs.map(strip),
        scale: scaleRows,
        comparison,
        table: text,
      },
      null,
      2,
    )}\n`,
  )
  console.log(`\nJSON: ${opts.out}`)
}

// ---------------------------------------------------------------------------------------------
// Scale-out (issue 17): the same load on 1, 2, 3 … nodes sharing one Redis, every table's
// members connected to the node it was made on (which serves it).

interface ScaleRow {
  nodes: number
  cmdsPerSec: number
  /** Acknowledged commands in the window (the load generator's count). */
  acked: number
  /** Commands each node answered ok in the window (game:move and table:start, its /metrics). */
  servedPerNode: number[]
  /** Server CPU of all nodes per acknowledged command, and each node's per command it served. */
  cpuMsPerCmd: number
  perNodeMsPerCmd: number[]
  redisCpuMsPerCmd: number
  redisOpsPerCmd: number
  /** Bytes of updates sent per command (average update size × updates per command). */
  wireBytesPerCmd: number
  updateBytes: number
  idiotUpdateBytes: number
  idiotParts: PhaseResult['idiotUpdateParts']
  lastViewP99: number
  /** The window's views: gaps, repeats and steps back, and deltas that did not fit. */
  lost: number
  duplicated: number
  outOfOrder: number
  deltaMisses: number
  /** The whole run's (after the load stops): lost counts versions never received as well. */
  final: Pick<FinalResult, 'duplicated' | 'outOfOrder' | 'deltaMisses'> & { lost: number }
  rssMB: number[]
  heapMB: number[]
  failedTables: number
  /** CPU of other programs in the window, % of a core; windows measured; still noisy. */
  otherCpuPct: number
  attempts: number
  noisy: boolean
}

const scaleRows: (ScaleRow | { nodes: number; error: string })[] = []

/** Redis's count of calls, over all commands (INFO commandstats). */
async function redisCalls(url: string): Promise<number> {
  const client = createClient({ url })
  await client.connect()
  try {
    const info = await client.info('commandstats')
    let n = 0
    for (const m of info.matchAll(/calls=(\d+)/g)) n += Number(m[1])
    return n
  } finally {
    await client.close().catch(() => undefined)
  }
}

async function metricsText(url: string): Promise<string> {
  const r = await fetch(`${url}/metrics`, {
    signal: AbortSignal.timeout(5000),
    headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` },
  })
  return r.text()
}

/** A byte figure of a /metrics text (any prefix: kortbord_ or baseline_), in MB. */
function metricMB(text: string, name: string): number {
  const m = new RegExp(`^[a-z]+_${name} ([0-9.e+]+)$`, 'm').exec(text)
  return m ? Number(m[1]) / 2 ** 20 : Number.NaN
}

/** A server's heap and RSS (MB) from /metrics, before and after a full collection (SIGUSR2). */
async function liveMemory(server: Proc & { url: string }): Promise<NonNullable<Run['memory']>> {
  const before = await metricsText(server.url)
  process.kill(server.pid, 'SIGUSR2')
  await sleep(1500)
  const after = await metricsText(server.url)
  return {
    heapUsed: metricMB(before, 'nodejs_heap_size_used_bytes'),
    heapLive: metricMB(after, 'nodejs_heap_size_used_bytes'),
    heapTotal: metricMB(after, 'nodejs_heap_size_total_bytes'),
    rss: metricMB(after, 'process_resident_memory_bytes'),
  }
}

/** The live heap at the end less the idle server's, per socket (KB). */
function liveKBPerSocket(r: Run): string {
  if (!r.memory || r.heapLiveIdle === null) return '–'
  return (((r.memory.heapLive - r.heapLiveIdle) * 1024) / Math.max(1, r.sockets)).toFixed(1)
}

async function heapOf(url: string): Promise<number> {
  return metricMB(await metricsText(url), 'nodejs_heap_size_used_bytes')
}

/** The commands of the load a node has answered ok since it started (its own counter). */
async function servedBy(url: string): Promise<number> {
  const text = await metricsText(url)
  let n = 0
  for (const m of text.matchAll(/^kortbord_commands_total\{([^}]*)\} ([0-9.e+]+)$/gm)) {
    const labels = m[1]!
    if (/result="ok"/.test(labels) && /event="(game:move|table:start)"/.test(labels))
      n += Number(m[2])
  }
  return n
}

/** One measured window of a scale-out run. */
async function scaleWindow(
  n: number,
  servers: readonly (Proc & { url: string })[],
  redis: Proc & { url: string },
  gen: Gen,
  id: number,
): Promise<Omit<ScaleRow, 'final' | 'failedTables' | 'attempts' | 'noisy'>> {
  const k0 = await Promise.all(servers.map((sv) => servedBy(sv.url)))
  const c0 = await redisCalls(redis.url)
  const m0 = machineBusyMs(clkTck)
  const s0 = servers.map((sv) => procStats(sv.pid, clkTck)!)
  const r0 = procStats(redis.pid, clkTck)!
  const g0 = procStats(gen.p.pid, clkTck)
  const t0 = process.hrtime.bigint()
  gen.send({ t: 'measure', id })
  await sleep(opts.duration * 1000)
  const s1 = servers.map((sv) => procStats(sv.pid, clkTck)!)
  const r1 = procStats(redis.pid, clkTck)!
  const g1 = procStats(gen.p.pid, clkTck)
  const m1 = machineBusyMs(clkTck)
  const wall = ms(process.hrtime.bigint() - t0)
  gen.send({ t: 'endMeasure', id })
  const c1 = await redisCalls(redis.url)
  const k1 = await Promise.all(servers.map((sv) => servedBy(sv.url)))
  const { result } = await gen.wait('phase', opts.ackTimeoutMs + 30_000, id)
  const acked = Math.max(1, result.acked)
  const cpu = s1.map((x, i) => x.cpuMs - s0[i]!.cpuMs)
  const served = k1.map((k, i) => k - k0[i]!)
  const ours =
    cpu.reduce((a, b) => a + b, 0) + (r1.cpuMs - r0.cpuMs) + (g0 && g1 ? g1.cpuMs - g0.cpuMs : 0)
  return {
    nodes: n,
    cmdsPerSec: result.acked / result.seconds,
    acked: result.acked,
    servedPerNode: served,
    cpuMsPerCmd: cpu.reduce((a, b) => a + b, 0) / acked,
    // Each node's CPU over the commands it answered itself.
    perNodeMsPerCmd: cpu.map((c, i) => c / Math.max(1, served[i]!)),
    redisCpuMsPerCmd: (r1.cpuMs - r0.cpuMs) / acked,
    redisOpsPerCmd: (c1 - c0) / acked,
    updateBytes: result.updateBytes.all,
    idiotUpdateBytes: result.updateBytes.idiot,
    idiotParts: result.idiotUpdateParts,
    wireBytesPerCmd: (result.updateBytes.all * result.updates) / acked,
    lastViewP99: result.lastView.p99,
    lost: result.lost,
    duplicated: result.duplicated,
    outOfOrder: result.outOfOrder,
    deltaMisses: result.deltaMisses,
    rssMB: s1.map((x) => x.rss / 2 ** 20),
    heapMB: await Promise.all(servers.map((sv) => heapOf(sv.url))),
    otherCpuPct: (100 * (m1 - m0 - ours)) / wall,
  }
}

async function scaleRun(n: number): Promise<ScaleRow> {
  console.log(`\n== ${n} node(s) on Redis: ${opts.tables} Idiot + ${opts.duelTables} duel tables`)
  const redis = await startRedis()
  const servers: (Proc & { url: string })[] = []
  let gen: Gen | null = null
  try {
    for (let i = 0; i < n; i++)
      servers.push(
        await startServer(
          'kortbord',
          { STORE: 'redis', REDIS_URL: redis.url, NODE_ID: `node${i + 1}` },
          null,
        ),
      )
    // Every node knows every other before tables are made.
    for (const until = Date.now() + 20_000; ; ) {
      const seen = await Promise.all(
        servers.map(
          async (sv) =>
            ((await (await fetch(`${sv.url}/readyz`)).json()) as { nodes: number }).nodes,
        ),
      )
      if (seen.every((k) => k === n)) break
      if (Date.now() > until) throw new Error(`nodes did not find each other: ${seen.join(', ')}`)
      await sleep(200)
    }
    gen = new Gen(null)
    gen.send({
      t: 'init',
      cfg: {
        mode: 'kortbord',
        url: servers[0]!.url,
        urls: servers.map((sv) => sv.url),
        tables: opts.tables,
        duelTables: opts.duelTables,
        spectators: opts.spectators,
        connectBatch: opts.connectBatch,
        setupBatch: opts.setupBatch,
        seed: opts.seed,
        ackTimeoutMs: opts.ackTimeoutMs,
        hardDeadlineMs: maxSeconds * 1000,
        deltas: opts.deltas,
      },
    })
    const ready = await gen.wait('ready', setupBudgetS * 1000)
    if (ready.failedTables > 0) console.log(`  ${ready.failedTables} tables FAILED to set up`)
    gen.send({ t: 'rate', perTable: opts.rate })
    await sleep(opts.warmup * 1000)
    // As the other runs: measured on a quiet machine, again when other programs got in the way.
    const pids = [process.pid, gen.p.pid, redis.pid, ...servers.map((sv) => sv.pid)]
    let w: Awaited<ReturnType<typeof scaleWindow>> | null = null
    let attempts = 0
    for (let attempt = 0; attempt <= opts.retries; attempt++) {
      await waitForQuiet(pids)
      w = await scaleWindow(n, servers, redis, gen, n * 10 + attempt)
      attempts = attempt + 1
      if (w.otherCpuPct < opts.noisyPct) break
      console.log(
        `  (other programs used ${w.otherCpuPct.toFixed(0)}% of a core meanwhile${attempt < opts.retries ? ': measuring again' : ''})`,
      )
    }
    gen.send({ t: 'stop' })
    const fin = (await gen.wait('final', opts.ackTimeoutMs + 30_000)).result
    const row: ScaleRow = {
      ...w!,
      final: {
        lost: fin.lost + fin.missingAtEnd,
        duplicated: fin.duplicated,
        outOfOrder: fin.outOfOrder,
        deltaMisses: fin.deltaMisses,
      },
      failedTables: ready.failedTables,
      attempts,
      noisy: w!.otherCpuPct >= opts.noisyPct,
    }
    console.log(`  ${JSON.stringify(row)}`)
    return row
  } finally {
    await gen?.exit().catch(() => undefined)
    await Promise.all(servers.map((sv) => sv.stop(20_000)))
    await redis.stop(5000)
  }
}

async function scaleOut(): Promise<void> {
  for (const n of opts.nodes) {
    try {
      scaleRows.push(await scaleRun(n))
    } catch (e) {
      console.error(`  ${n} node(s) FAILED: ${(e as Error).message}`)
      scaleRows.push({ nodes: n, error: (e as Error).message })
    }
  }
}

/** The scale-out runs as a table (issue 17). */
function scaleTable(): string {
  const rows = scaleRows.filter((r): r is ScaleRow => !('error' in r))
  const one = rows.find((r) => r.nodes === 1) ?? rows[0]
  if (!one) return ''
  const head = [
    'nodes',
    'cmds/s',
    'CPU ms/cmd (all nodes)',
    'per node ms/cmd it served',
    'commands per node',
    '÷ 1 node',
    'Redis ms/cmd',
    'Redis ops/cmd',
    'update B',
    'wire B/cmd',
    'last view p99 ms',
    'lost / dup / ooo (run)',
    'delta misses',
    'RSS MB',
    'heap MB',
    'other CPU',
  ]
  const j = (xs: readonly number[], d: number) => xs.map((x) => x.toFixed(d)).join(' / ')
  return table([
    head,
    ...rows.map((r) => [
      r.noisy ? `${r.nodes} (noisy)` : String(r.nodes),
      r.cmdsPerSec.toFixed(0),
      f3(r.cpuMsPerCmd),
      j(r.perNodeMsPerCmd, 3),
      j(r.servedPerNode, 0),
      `${(r.cpuMsPerCmd / one.cpuMsPerCmd).toFixed(2)}`,
      f3(r.redisCpuMsPerCmd),
      f1(r.redisOpsPerCmd),
      r.updateBytes.toFixed(0),
      r.wireBytesPerCmd.toFixed(0),
      f1(r.lastViewP99),
      `${r.final.lost} / ${r.final.duplicated} / ${r.final.outOfOrder}`,
      String(r.final.deltaMisses),
      j(r.rssMB, 0),
      j(r.heapMB, 0),
      `${r.otherCpuPct.toFixed(0)}%`,
    ]),
  ])
}

// ---------------------------------------------------------------------------------------------

console.log(
  `kortbord load benchmark at ${git.head}${git.dirty.length > 0 ? ` (+${git.dirty.length} changed files)` : ''}: ${tableCount} tables, ${socketCount} sockets, ${opts.nodes.length > 0 ? `on ${opts.nodes.join(', ')} node(s) sharing a Redis` : `stores ${opts.stores.join(', ') || 'none'}${opts.baseline ? ' + baseline' : ''}`}${opts.knee ? ', knee search' : ''}${opts.profile ? ', profiled' : ''}; stops by itself within ${maxSeconds} s`,
)
if (fdSoft < fdWant) {
  const to = Math.min(fdHard, fdWant)
  console.log(
    `  open-file limit ${fdSoft} < ${fdWant}: children raise it to ${to}${to < fdWant ? ' (the hard limit: some sockets may fail)' : ''}`,
  )
}
if (opts.nodes.length > 0) {
  // pnpm bench:load NODES=1,2,3: the scale-out runs (issue 17) instead of the usual ones.
  await scaleOut()
  writeResults(false)
  clearTimeout(hardStop)
  process.exit(scaleRows.some((r) => 'error' in r) ? 1 : 0)
}
let bytes: GenConfig['updateBytes']
for (const store of opts.stores) {
  const r = await runTarget(store, 'kortbord', store, undefined)
  const b = r.phases[0]?.gen.updateBytes
  if (!bytes && b && b.all > 0) bytes = { idiot: b.idiot || b.all, duel: b.duel || b.all }
}
if (opts.baseline) {
  // Without a kortbord run in this invocation, an Idiot update is about 3 KB (set UPDATE_BYTES).
  const fallback = S.num('UPDATE_BYTES', 3000)
  await runTarget('baseline', 'baseline', null, bytes ?? { idiot: fallback, duel: fallback })
}
writeResults(false)
clearTimeout(hardStop)
process.exit(runs.some((r) => r.error) ? 1 : 0)
