// The thin entry point: configuration from the environment, the store, listen, stop on SIGTERM.
import pino from 'pino'
import { type BuildOptions, buildApp, REDACT } from './app.ts'
import { loadConfig } from './config.ts'
import { installProcessGuard } from './guard.ts'
import { createMetrics } from './metrics.ts'
import { connectRedisStore, redactUrl } from './redis-store.ts'
import { startProblem } from './start-problem.ts'

const config = loadConfig()
const log = pino({ level: config.logLevel, redact: { paths: REDACT, censor: '[redacted]' } })
const metrics = createMetrics()
installProcessGuard(log, (kind) => metrics.escaped(kind))

/** Opens the store and listens; what it returns is the running app. */
async function start() {
  let opts: BuildOptions = { logger: log, metrics }
  if (config.redis) {
    const { url, prefix } = config.redis
    const store = await connectRedisStore(url, {
      prefix,
      ttlSeconds: Math.round(config.tableTtlMs / 1000),
      idleTtlSeconds: Math.round(config.idleTableMs / 1000),
      recordTtlSeconds: config.records.ttlSeconds,
      maxRecords: config.records.max,
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
  const built = buildApp(config, opts)
  const port = await built.listen()
  built.log.info({ port, store: config.store }, `kortbord is listening on http://localhost:${port}`)
  return built
}

// A start that fails (the port is taken, Redis cannot be reached) is the end of this process:
// said in one line, with exit code 1. The process guard would otherwise log it and keep an
// empty process running until it exits with 0.
const app = await start().catch((err: unknown) => {
  log.fatal({ err }, `kortbord could not start: ${startProblem(err)}`)
  process.exit(1)
})

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
