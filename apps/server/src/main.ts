// The thin entry point: configuration from the environment, the store, listen, stop on SIGTERM.
import { createAdapter } from '@socket.io/redis-streams-adapter'
import pino from 'pino'
import { createClient } from 'redis'
import { type BuildOptions, buildApp, REDACT } from './app.ts'
import { loadConfig } from './config.ts'
import { connectRedisStore, redactUrl } from './redis-store.ts'

const config = loadConfig()
const log = pino({ level: config.logLevel, redact: { paths: REDACT, censor: '[redacted]' } })

let opts: BuildOptions = { logger: log }
if (config.redis) {
  const { url, prefix } = config.redis
  const store = await connectRedisStore(url, {
    prefix,
    ttlSeconds: Math.round(config.tableTtlMs / 1000),
    log,
  })
  // The adapter's own client: it may queue while Redis is away (its reads block and resume),
  // while the store's client fails fast so that commands are answered at once.
  // No per-command timeout (node-redis's default is 5 s, an AbortSignal per command, and each
  // update is a command here): its blocking reads of the stream come back by themselves.
  const adapterClient = createClient({ url, commandOptions: { timeout: 0 } })
  adapterClient.on('error', (e: Error) => log.warn({ err: e.message }, 'adapter redis client'))
  await adapterClient.connect()
  opts = {
    ...opts,
    store,
    adapter: createAdapter(adapterClient, {
      streamName: `${prefix}socket.io`,
      channelPrefix: `${prefix}socket.io`,
      // kortbord sends only JSON: no search for binary attachments, no msgpack.
      onlyPlaintext: true,
    }),
    onClose: async () => {
      await adapterClient.close().catch(() => undefined)
    },
  }
  log.info({ redis: redactUrl(url), prefix }, 'using the Redis store and adapter')
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
