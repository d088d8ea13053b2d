// The thin entry point: configuration from the environment, the store, listen, stop on SIGTERM.
import pino from 'pino'
import { type BuildOptions, buildApp, REDACT } from './app.ts'
import { loadConfig } from './config.ts'
import { installProcessGuard } from './guard.ts'
import { createMetrics } from './metrics.ts'
import { connectRedisStore, redactUrl } from './redis-store.ts'

const config = loadConfig()
const log = pino({ level: config.logLevel, redact: { paths: REDACT, censor: '[redacted]' } })
const metrics = createMetrics()
installProcessGuard(log, (kind) => metrics.escaped(kind))

let opts: BuildOptions = { logger: log, metrics }
if (config.redis) {
  const { url, prefix } = config.redis
  const store = await connectRedisStore(url, {
    prefix,
    ttlSeconds: Math.round(config.tableTtlMs / 1000),
    recordTtlSeconds: config.records.ttlSeconds,
    log,
    onError: () => metrics.redisError('store'),
  })
  opts = {
    ...opts,
    store,
    // Limits count in the same Redis: an address is one address on every node.
    limitsRedis: { redis: store.redis, prefix },
  }
  log.info({ redis: redactUrl(url), prefix }, 'using the Redis store')
}

const app = buildApp(config, opts)
const port = await app.listen()
app.log.info({ port, store: config.store }, `kortbord is listening on http://localhost:${port}`)

let stopping = false
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return
    stopping = true
    app.log.info({ signal }, 'shutting down')
    const force = setTimeout(() => process.exit(1), 10_000)
    force.unref()
    app.close().then(
      () => process.exit(0),
      (e: unknown) => {
        app.log.error({ err: e }, 'shutdown failed')
        process.exit(1)
      },
    )
  })
}
