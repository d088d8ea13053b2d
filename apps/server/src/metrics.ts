import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'

/** Prometheus metrics of one app instance (its own registry, so tests can build many apps). */
export function createMetrics(sources: { tables: () => number; sockets: () => number }) {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'kortbord_' })
  new Gauge({
    name: 'kortbord_tables',
    help: 'Tables loaded on this node',
    registers: [registry],
    collect() {
      this.set(sources.tables())
    },
  })
  new Gauge({
    name: 'kortbord_sockets',
    help: 'Connected sockets',
    registers: [registry],
    collect() {
      this.set(sources.sockets())
    },
  })
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
  const latency = new Histogram({
    name: 'kortbord_command_seconds',
    help: 'Time from receiving a client message to its acknowledgement',
    labelNames: ['event'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [registry],
  })
  return {
    registry,
    command(event: string, seconds: number, code: string | null): void {
      commands.inc({ event, result: code === null ? 'ok' : 'refused' })
      if (code !== null) refused.inc({ code })
      latency.observe({ event }, seconds)
    },
  }
}

export type Metrics = ReturnType<typeof createMetrics>
