// The thin entry point: configuration from the environment, listen, stop on SIGTERM/SIGINT.
import { buildApp } from './app.ts'
import { loadConfig } from './config.ts'

const config = loadConfig()
const app = buildApp(config)
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
