import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify'
import pino, { type Logger } from 'pino'
import { Server, type ServerOptions } from 'socket.io'
import type { Config } from './config.ts'
import { Hub } from './hub.ts'
import { createMetrics, type Metrics } from './metrics.ts'
import { jsonParser } from './parser.ts'
import { attachSockets, type KortbordServer, roomsFor } from './sockets.ts'
import { SolverPool } from './solver.ts'
import { MemoryStore, type TableStore } from './store.ts'

export interface App {
  readonly fastify: FastifyInstance
  readonly io: KortbordServer
  readonly hub: Hub
  readonly store: TableStore
  readonly metrics: Metrics
  readonly log: Logger
  /** Listens on config.port (0: a free port); resolves to the port. */
  listen(): Promise<number>
  /** Graceful stop: refuses new commands, lets queued ones finish, closes sockets and store. */
  close(): Promise<void>
}

export interface BuildOptions {
  /** A store other than the configured default (tests). */
  readonly store?: TableStore
  /** A logger other than pino to stdout (tests). */
  readonly logger?: Logger
  /** A clock (tests). */
  readonly now?: () => number
  /** A socket.io adapter for several nodes (the Redis streams adapter), else in-memory. */
  readonly adapter?: ServerOptions['adapter']
  /** Called when the app closes, after the store (e.g. to quit the adapter's Redis client). */
  readonly onClose?: () => Promise<void>
}

/** Seat tokens never reach a log line (ARCHITECTURE.md). */
export const REDACT = ['token', '*.token', '*.*.token', 'msg.token', 'tokenHash', '*.tokenHash']

/** Builds the whole server: fastify with socket.io attached, not yet listening. */
export function buildApp(config: Config, opts: BuildOptions = {}): App {
  const log =
    opts.logger ?? pino({ level: config.logLevel, redact: { paths: REDACT, censor: '[redacted]' } })
  const fastify = Fastify({
    loggerInstance: log as unknown as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
  }) as unknown as FastifyInstance
  const store = opts.store ?? new MemoryStore()
  const now = opts.now ?? Date.now
  const solver = config.solver.enabled ? new SolverPool(config.solver.timeoutMs, log) : null
  let io: KortbordServer | null = null
  let closing = false

  const metrics = createMetrics({
    tables: () => hub.size,
    sockets: () => io?.engine.clientsCount ?? 0,
  })
  const rooms = roomsFor(() => io)
  /** This process's id among the nodes of a cluster. */
  const node = randomBytes(6).toString('hex')
  const hub: Hub = new Hub(
    store,
    {
      store,
      config: {
        graceMs: config.graceMs,
        timeoutsForAway: config.timeoutsForAway,
        testDeals: config.testDeals,
        logKeep: config.logKeep,
        timerScale: config.timerScale,
        testDeck: config.testDeck,
        botDelayMs: config.bots.delayMs,
        botThinkMs: config.bots.thinkMs,
      },
      log,
      now,
      node,
      ...rooms,
      // Other nodes holding the table catch up (only with a cluster adapter: one node has none).
      changed: opts.adapter
        ? (code, version) => io?.serverSideEmit('table:changed', code, version)
        : undefined,
      solve: solver ? (deck, piles) => solver.solve(deck, piles) : undefined,
    },
    config.publicUrl ?? '',
  )

  io = new Server(fastify.server, {
    ...(opts.adapter ? { adapter: opts.adapter } : {}),
    maxHttpBufferSize: config.maxPayloadBytes,
    parser: jsonParser,
    // Long-polling stays available for networks that block websockets; one node needs no stickiness.
    transports: ['websocket', 'polling'],
    pingInterval: 10_000,
    pingTimeout: 10_000,
    serveClient: false,
  }) as KortbordServer
  attachSockets(io, hub, config, log, metrics, () => closing)
  io.on('table:changed', (code, version) => hub.refresh(code, version))

  fastify.get('/healthz', async () => ({ ok: true }))
  fastify.get('/readyz', async (_req, reply) => {
    const storeReady = await store.ready().catch(() => false)
    const ready = storeReady && !closing
    return reply.code(ready ? 200 : 503).send({ ok: ready, store: storeReady, closing })
  })
  fastify.get('/metrics', async (_req, reply) => {
    reply.header('content-type', metrics.registry.contentType)
    return metrics.registry.metrics()
  })

  // Housekeeping: idle tables leave memory (the store keeps them); stale ones leave the store.
  const sweep = setInterval(() => {
    hub.evictIdle()
    // Tables still loaded here have someone at them (or a timer): never delete those.
    const loaded = new Set([...hub.all()].map((t) => t.code))
    store
      .sweep(now() - config.tableTtlMs, loaded)
      .catch((e: unknown) => log.warn({ err: e }, 'sweep failed'))
  }, 60_000)
  sweep.unref()

  // The web client: one process on one port is the whole product. Hashed assets are cached for
  // good; the page itself is revalidated so a deploy reaches every player at their next load.
  const web = config.webDist
  if (web && existsSync(join(web, 'index.html'))) {
    void fastify.register(fastifyStatic, {
      root: web,
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, path) {
        res.header(
          'cache-control',
          path.includes(`${join('assets', '')}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        )
      },
    })
    fastify.get('/t/:code', (_req, reply) =>
      reply.header('cache-control', 'no-cache').sendFile('index.html'),
    )
  } else if (web) {
    log.warn({ web }, 'no built web client here; run pnpm --filter @kortbord/web build')
  }

  // Liveness: this node marks itself alive; connections held on nodes that stopped doing so
  // (a crash) are treated as dropped. With the memory store there is one node and nothing to do.
  // After the store was unreachable, every node's mark may have lapsed meanwhile: wait one full
  // mark lifetime for the others to renew theirs before judging anyone gone.
  let judgeAfter = now() + config.heartbeatMs * 3
  let failing = false
  const beat = async () => {
    try {
      await store.heartbeat(node, config.heartbeatMs * 3)
    } catch (e) {
      failing = true
      throw e
    }
    if (failing) {
      failing = false
      judgeAfter = now() + config.heartbeatMs * 3
    }
    if (now() < judgeAfter) return
    const marked = await store.liveNodes()
    if (!marked) return
    // A node counts as gone only once its mark has been missing for a while (NODE_GONE_MS): a
    // slow beat under load, or a node still reconnecting after a Redis outage, keeps its players.
    const live = new Set(marked)
    const t = now()
    for (const n of [...missingSince.keys()]) if (marked.has(n)) missingSince.delete(n)
    for (const table of hub.all()) {
      for (const s of table.snapshot().seats) {
        if (!s.node || marked.has(s.node)) continue
        const since = missingSince.get(s.node) ?? t
        missingSince.set(s.node, since)
        if (t - since < nodeGoneMs) live.add(s.node)
      }
    }
    for (const table of hub.all()) await table.holdersLost(live)
  }
  const missingSince = new Map<string, number>()
  const nodeGoneMs = Math.max(config.heartbeatMs * 3, 5000)
  const heartbeat = setInterval(() => {
    beat().catch((e: unknown) => log.debug({ err: e }, 'heartbeat failed'))
  }, config.heartbeatMs)
  heartbeat.unref()
  void beat().catch(() => undefined)

  fastify.addHook('preClose', async () => {
    clearInterval(heartbeat)
    clearInterval(sweep)
    closing = true
    await hub.drain()
    io?.local.disconnectSockets(true)
  })
  fastify.addHook('onClose', async () => {
    hub.close()
    solver?.close()
    await new Promise<void>((resolve) => (io ? io.close(() => resolve()) : resolve()))
    await store.close()
    await opts.onClose?.()
  })

  return {
    fastify,
    get io() {
      return io as KortbordServer
    },
    hub,
    store,
    metrics,
    log,
    async listen() {
      await fastify.listen({ port: config.port, host: config.host })
      const addr = fastify.server.address()
      return typeof addr === 'object' && addr ? addr.port : config.port
    },
    close: () => fastify.close(),
  }
}
