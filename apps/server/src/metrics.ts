import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'

/** What the gauges read when scraped; set by the app once its parts exist. */
export interface MetricSources {
  /** Tables loaded on this node. */
  tables(): number
  /** Tables the store holds, when it can count them cheaply (the memory store), else null. */
  storedTables(): number | null
  sockets(): number
  /** Spectators connected to this node. */
  spectators(): number
  /** Hard bots seated at tables loaded on this node. */
  hardBots(): number
  /** The worker pool's jobs (solver, hard bots), or null before its first job. */
  workers(): {
    queued: number
    running: number
    refused: number
    timedOut: number
    failed: number
  } | null
}

/**
 * Prometheus metrics of one app instance (its own registry, so tests can build many apps).
 * Created before the app (main.ts counts escaped errors from the first moment); the app sets the
 * gauges' sources.
 */
export function createMetrics() {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'kortbord_' })
  let sources: MetricSources | null = null
  const gauge = (name: string, help: string, read: (s: MetricSources) => number | null) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const v = sources ? read(sources) : null
        if (v !== null) this.set(v)
      },
    })
  gauge('kortbord_tables', 'Tables loaded on this node', (s) => s.tables())
  gauge('kortbord_tables_stored', 'Tables in the store (memory store only)', (s) =>
    s.storedTables(),
  )
  gauge('kortbord_sockets', 'Connected sockets', (s) => s.sockets())
  gauge('kortbord_spectators', 'Spectators connected to this node', (s) => s.spectators())
  gauge('kortbord_hard_bots', 'Hard bots at tables loaded on this node', (s) => s.hardBots())
  gauge(
    'kortbord_worker_jobs_queued',
    'Worker pool jobs waiting (solver, hard bots)',
    (s) => s.workers()?.queued ?? 0,
  )
  gauge(
    'kortbord_worker_jobs_running',
    'Worker pool jobs running',
    (s) => s.workers()?.running ?? 0,
  )
  gauge(
    'kortbord_worker_jobs_refused',
    'Worker pool jobs refused: queue full (since start)',
    (s) => s.workers()?.refused ?? 0,
  )
  gauge(
    'kortbord_worker_jobs_timed_out',
    'Worker pool jobs over their time limit (since start)',
    (s) => s.workers()?.timedOut ?? 0,
  )
  const commands = new Counter({
    name: 'kortbord_commands_total',
    help: 'Client messages handled, by event and result',
    labelNames: ['event', 'result'] as const,
    registers: [registry],
  })
  const refused = new Counter({
    name: 'kortbord_refused_total',
    help: 'Refused client messages, by error code',
    labelNames: ['code'] as const,
    registers: [registry],
  })
  const limited = new Counter({
    name: 'kortbord_limited_total',
    help: 'Refusals by a limit (connections, creations, lookups, spectators, …), by limit',
    labelNames: ['limit'] as const,
    registers: [registry],
  })
  const escaped = new Counter({
    name: 'kortbord_escaped_errors_total',
    help: 'Unhandled rejections and uncaught exceptions caught by the process guard (bugs)',
    labelNames: ['kind'] as const,
    registers: [registry],
  })
  const redisErrors = new Counter({
    name: 'kortbord_redis_errors_total',
    help: 'Errors of the Redis connection (the store, which liveness, presence and limits share), by source',
    labelNames: ['source'] as const,
    registers: [registry],
  })
  const latency = new Histogram({
    name: 'kortbord_command_seconds',
    help: 'Time from receiving a client message to its acknowledgement',
    labelNames: ['event'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [registry],
  })
  return {
    registry,
    setSources(s: MetricSources): void {
      sources = s
    },
    command(event: string, seconds: number, code: string | null): void {
      commands.inc({ event, result: code === null ? 'ok' : 'refused' })
      if (code !== null) refused.inc({ code })
      latency.observe({ event }, seconds)
    },
    limited(limit: string): void {
      limited.inc({ limit })
    },
    escaped(kind: 'rejection' | 'exception'): void {
      escaped.inc({ kind })
    },
    redisError(source: string): void {
      redisErrors.inc({ source })
    },
  }
}

export type Metrics = ReturnType<typeof createMetrics>
