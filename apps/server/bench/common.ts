// Shared by the load benchmark's orchestrator (load.ts), its load generator (loadgen.ts) and the
// baseline server (baseline.ts): the IPC messages, the result shapes and small helpers.
import { readFileSync } from 'node:fs'

/** What the load generator is told at start (IPC `init`). */
export interface GenConfig {
  /** `kortbord`: the real protocol and bots; `baseline`: the minimal server of baseline.ts. */
  readonly mode: 'kortbord' | 'baseline'
  readonly url: string
  /** Idiot tables of 4 players. */
  readonly tables: number
  /** Idioten för två tables of 2 players. */
  readonly duelTables: number
  /** Spectators per table (both kinds). */
  readonly spectators: number
  /** Sockets connecting at once while connecting (pacing). */
  readonly connectBatch: number
  /** Tables being set up at once. */
  readonly setupBatch: number
  /** Seeds the bots' choices and the deals. */
  readonly seed: string
  /** A command without an acknowledgement after this long counts as lost. */
  readonly ackTimeoutMs: number
  /** Baseline only: the JSON size of an update to send, per table kind (kortbord's averages). */
  readonly updateBytes?: { readonly idiot: number; readonly duel: number }
  /** The generator exits by itself after this long, whatever happens. */
  readonly hardDeadlineMs: number
  /** Ask kortbord for delta updates (issue 17); the baseline sends whole updates. */
  readonly deltas?: boolean
  /** Several nodes: table i is made on, and all its members connect to, urls[i % n]. */
  readonly urls?: readonly string[]
}

/** Orchestrator → load generator. */
export type ToGen =
  | { readonly t: 'init'; readonly cfg: GenConfig }
  /** Commands per table per second (0: stop sending). */
  | { readonly t: 'rate'; readonly perTable: number }
  /** A measurement window opens now. */
  | { readonly t: 'measure'; readonly id: number }
  /** The window closes now; answer with a `phase` once its commands have finished. */
  | { readonly t: 'endMeasure'; readonly id: number }
  /** Stop sending, settle, answer `final`. */
  | { readonly t: 'stop' }
  | { readonly t: 'exit' }

/** Load generator → orchestrator. */
export type FromGen =
  | { readonly t: 'log'; readonly msg: string }
  | {
      readonly t: 'ready'
      readonly sockets: number
      readonly tables: number
      readonly failedTables: number
      readonly connectMs: number
      readonly setupMs: number
    }
  | { readonly t: 'phase'; readonly id: number; readonly result: PhaseResult }
  | { readonly t: 'final'; readonly result: FinalResult }
  | { readonly t: 'fatal'; readonly msg: string }

export interface Summary {
  readonly n: number
  readonly mean: number
  readonly p50: number
  readonly p95: number
  readonly p99: number
  readonly max: number
}

/** One measurement window as the load generator saw it. */
export interface PhaseResult {
  readonly seconds: number
  /** Commands sent in the window (moves and game starts). */
  readonly sent: number
  /** Of those, acknowledged with ok. */
  readonly acked: number
  readonly starts: number
  /** Refusals by code. */
  readonly refused: Record<string, number>
  readonly ackTimeouts: number
  /** Send → acknowledgement, ms. */
  readonly ack: Summary
  /** Send → the last member of the table (players and spectators) has the acked version, ms. */
  readonly lastView: Summary
  /** Commands of the window whose views had not all arrived when the window was settled. */
  readonly incompleteViews: number
  /** Ticks that found the table's previous command still in flight (sent late). */
  readonly deferred: number
  /** Ticks dropped because the previous tick's command had not been sent yet. */
  readonly missed: number
  /** Updates received by all sockets. */
  readonly updates: number
  readonly lost: number
  readonly duplicated: number
  readonly outOfOrder: number
  /** Delta updates that did not fit the update held (issue 17; the whole table asked for). */
  readonly deltaMisses: number
  /** Average JSON size of the updates received, bytes (sampled), by table kind. */
  readonly updateBytes: { readonly idiot: number; readonly duel: number; readonly all: number }
  /** Kortbord Idiot updates: average bytes of `table`, `view` and `log`, and log entries. */
  readonly idiotUpdateParts: {
    readonly table: number
    readonly view: number
    readonly log: number
    readonly logEntries: number
  }
  /** Event-loop delay of the load generator itself, ms (p99 / max). */
  readonly genLoopP99: number
  readonly genLoopMax: number
  readonly disconnects: number
}

/** After `stop`: the whole run's view accounting. */
export interface FinalResult {
  readonly lost: number
  readonly duplicated: number
  readonly outOfOrder: number
  readonly deltaMisses: number
  /** Versions acknowledged that some member never received (counted at the end). */
  readonly missingAtEnd: number
  readonly incompleteViews: number
  readonly refused: Record<string, number>
  readonly ackTimeouts: number
  readonly disconnects: number
  /** socket.io's reasons ('ping timeout', 'transport close', …), counted. */
  readonly disconnectReasons: Record<string, number>
  readonly gamesStarted: number
  readonly stuck: number
}

export function summarize(xs: readonly number[]): Summary {
  const n = xs.length
  if (n === 0)
    return {
      n: 0,
      mean: Number.NaN,
      p50: Number.NaN,
      p95: Number.NaN,
      p99: Number.NaN,
      max: Number.NaN,
    }
  const s = Float64Array.from(xs).sort()
  const at = (q: number) => s[Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1))]!
  let sum = 0
  for (const x of s) sum += x
  return { n, mean: sum / n, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: s[n - 1]! }
}

/** `KEY=value` / `--key=value` / `--key value` arguments, then the environment, then the default. */
export function settings(argv: readonly string[], env: NodeJS.ProcessEnv) {
  const fromArgv = new Map<string, string>()
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    const m = /^(?:--)?([A-Za-z][A-Za-z0-9_-]*)=(.*)$/.exec(a)
    if (m) fromArgv.set(m[1]!.toUpperCase().replaceAll('-', '_'), m[2]!)
    else if (a.startsWith('--')) {
      const key = a.slice(2).toUpperCase().replaceAll('-', '_')
      const next = argv[i + 1]
      if (next !== undefined && !next.startsWith('--')) {
        fromArgv.set(key, next)
        i++
      } else fromArgv.set(key, '1')
    }
  }
  const raw = (key: string): string | undefined => fromArgv.get(key) ?? env[key]
  return {
    raw,
    num(key: string, def: number): number {
      const v = raw(key)
      if (v === undefined || v === '') return def
      const n = Number(v)
      if (!Number.isFinite(n)) throw new Error(`${key} must be a number, not ${v}`)
      return n
    },
    flag(key: string, def: boolean): boolean {
      const v = raw(key)
      if (v === undefined || v === '') return def
      return ['1', 'true', 'yes', 'on'].includes(v.toLowerCase())
    },
    str(key: string, def: string): string {
      const v = raw(key)
      return v === undefined || v === '' ? def : v
    },
  }
}

/** Reads utime+stime (ms) and VmRSS (bytes) of a process from /proc. */
export function procStats(pid: number, clkTck: number): { cpuMs: number; rss: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // Fields after the name start at field 3 (state); utime is field 14, stime 15.
    const ticks = Number(after[11]) + Number(after[12])
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(status)
    return { cpuMs: (ticks * 1000) / clkTck, rss: m ? Number(m[1]) * 1024 : 0 }
  } catch {
    return null
  }
}

/** The whole machine's busy CPU time so far, ms (all cores; /proc/stat). */
export function machineBusyMs(clkTck: number): number {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!
    const v = line.trim().split(/\s+/).slice(1).map(Number)
    // user nice system idle iowait irq softirq steal …
    const total = v.slice(0, 8).reduce((a, b) => a + b, 0)
    return ((total - (v[3] ?? 0) - (v[4] ?? 0)) * 1000) / clkTck
  } catch {
    return Number.NaN
  }
}

/** Pads an object's JSON to about `bytes` with a `pad` string. */
export function padTo(base: Record<string, unknown>, bytes: number): string {
  const overhead = JSON.stringify({ ...base, pad: '' }).length
  return 'x'.repeat(Math.max(0, bytes - overhead))
}
