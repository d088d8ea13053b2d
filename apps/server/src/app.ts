import { randomBytes, timingSafeEqual } from 'node:crypto'
import helmet from '@fastify/helmet'
import { checkName } from '@kortbord/protocol'
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify'
import pino, { type Logger } from 'pino'
import { Server } from 'socket.io'
import { AcceptGuard } from './accept-guard.ts'
import { admission } from './admission.ts'
import type { Config } from './config.ts'
import { Hub } from './hub.ts'
import { Limits, trustFunction } from './limits.ts'
import { Liveness } from './liveness.ts'
import { createMetrics, type Metrics } from './metrics.ts'
import { Ownership } from './ownership.ts'
import { pagePreviews } from './page-preview.ts'
import { jsonParser } from './parser.ts'
import { Presence } from './presence.ts'
import { sharedReadiness } from './readiness.ts'
import { serveRecords } from './record-routes.ts'
import { attachSockets, type KortbordServer, roomsFor } from './sockets.ts'
import { MemoryStore, type TableStore } from './store.ts'
import { serveWeb } from './web-routes.ts'
import { defaultThreads, WorkerPool } from './workers/pool.ts'
import { bestSolvers, PROOF_QUEUE } from './workers/solvers.ts'

export interface App {
  readonly fastify: FastifyInstance
  readonly io: KortbordServer
  readonly hub: Hub
  readonly store: TableStore
  readonly metrics: Metrics
  readonly presence: Presence
  readonly limits: Limits
  readonly log: Logger
  /** Listens on config.port (0: a free port); resolves to the port. */
  listen(): Promise<number>
  /** The metrics port, once listening (null when METRICS_PORT is not set). */
  readonly metricsPort: number | null
  /** Graceful stop: refuses new commands, lets queued ones finish, closes sockets and store. */
  close(): Promise<void>
  /** What runs every minute: idle tables leave memory, expired ones the store (never throws). */
  housekeeping(): Promise<void>
}

export interface BuildOptions {
  /** A store other than the configured default (tests). */
  readonly store?: TableStore
  /** A logger other than pino to stdout (tests). */
  readonly logger?: Logger
  /** A clock (tests). */
  readonly now?: () => number
  /** Called when the app closes, after the store (e.g. to quit the adapter's Redis client). */
  readonly onClose?: () => Promise<void>
  /** The metrics to count into (main.ts makes them first, for its process guard). */
  readonly metrics?: Metrics
  /** The limits' Redis connection (the Redis store's), to count across nodes. */
  readonly limitsRedis?: ConstructorParameters<typeof Limits>[1]
}

/** Seat tokens never reach a log line. */
export const REDACT = ['token', '*.token', '*.*.token', 'msg.token', 'tokenHash', '*.tokenHash']

/**
 * The page's security headers (issue 13, finding 10): only this origin's scripts (the built
 * client has no inline script), no framing by any page, no sniffing, no referrer across origins.
 * Inline styles stay allowed: Svelte writes style attributes (card positions, sizes).
 */
const SECURITY_HEADERS = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      // The replay page's "show the best way" runs the solver in a Web Worker of our own (issue 16).
      workerSrc: ["'self'"],
      manifestSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  frameguard: { action: 'deny' as const },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' as const },
  // Plain http on a LAN is a supported way to play: don't pin browsers to https.
  strictTransportSecurity: false,
}

/** Builds the whole server: fastify with socket.io attached, not yet listening. */
export function buildApp(config: Config, opts: BuildOptions = {}): App {
  // The first name check loads the grapheme segmenter's data (90 ms on a 2-core machine): at
  // start, not in the turn of the first player who sends a name.
  checkName('kortbord')
  const log =
    opts.logger ?? pino({ level: config.logLevel, redact: { paths: REDACT, censor: '[redacted]' } })
  const fastify = Fastify({
    loggerInstance: log as unknown as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
  }) as unknown as FastifyInstance
  const store =
    opts.store ??
    new MemoryStore({
      retention: { ttlSeconds: config.records.ttlSeconds, maxRecords: config.records.max },
    })
  const now = opts.now ?? Date.now
  // The worker pool (the A-16 solver, hard bots): started at its first job, never on the loop.
  let pool: WorkerPool | null = null
  const workers = () =>
    (pool ??= new WorkerPool({
      threads: config.workers.threads ?? defaultThreads(),
      maxQueue: config.workers.queue,
      solveTimeoutMs: config.solver.timeoutMs,
    }))
  // A-16's background proofs (issue 16): one thread of their own at the lowest priority; with
  // SOLVER_EARLY_PROOF the proofs of deals still in play on one more such thread, so that a
  // finished game's proof never waits behind them (best.ts).
  const proofThread = () =>
    new WorkerPool({
      threads: 1,
      maxQueue: PROOF_QUEUE,
      solveTimeoutMs: config.solver.proofTimeoutMs,
      nice: 19,
    })
  let proofPool: WorkerPool | null = null
  const proofs = () => (proofPool ??= proofThread())
  let earlyPool: WorkerPool | null = null
  const earlyProofs = () => (earlyPool ??= proofThread())
  const solvers = bestSolvers(config.solver, workers, proofs, earlyProofs)
  const metrics = opts.metrics ?? createMetrics()
  const limits = new Limits(config.limits, opts.limitsRedis)
  const trust = trustFunction(config.trustProxy)
  let io: KortbordServer | null = null
  let closing = false

  const rooms = roomsFor(() => io)
  /** This process's id among the nodes of a cluster (NODE_ID, or drawn at random). */
  const node = config.node.id ?? randomBytes(6).toString('hex')
  const liveness: Liveness = new Liveness({
    store,
    get hub() {
      return hub
    },
    node,
    url: config.node.url,
    heartbeatMs: config.heartbeatMs,
    log,
    now,
    onNodesGone: () => presence.recount([...hub.all()].map((t) => t.code)),
    onNodesChanged: () => {
      hub.rebalance().catch((e: unknown) => log.warn({ err: e }, 'rebalance'))
    },
  })
  // Which node serves which table (issue 17): with one node (the memory store), this one.
  const ownership = new Ownership({ node, url: config.node.url }, () => liveness.owners())
  const presence = new Presence({
    store,
    node,
    log,
    live: () => liveness.live(),
    publish: rooms.spectatorsAll,
    send: rooms.spectatorsTo,
  })
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
        spectatorsPerTable: config.limits.spectatorsPerTable,
        hardBotsPerNode: config.limits.hardBotsPerNode,
        recordMaxMoves: config.records.maxMoves,
        earlyProof: config.solver.earlyProof,
      },
      log,
      now,
      node,
      presence,
      ...rooms,
      solve: config.solver.enabled ? solvers.solve : undefined,
      prove: config.solver.enabled ? solvers.prove : undefined,
      proveEarly: config.solver.enabled ? solvers.proveEarly : undefined,
      // Read without starting the thread: none started yet, none waiting.
      earlyWaiting: () => earlyPool?.stats().queued ?? 0,
      botMove: (level, view, seed, thinkMs) => workers().botMove(level, view, seed, thinkMs),
    },
    config.publicUrl ?? '',
    config.limits.maxTables,
    ownership,
  )
  metrics.setSources({
    tables: () => hub.size,
    storedTables: () => store.count(),
    sockets: () => io?.engine.clientsCount ?? 0,
    spectators: () => presence.size,
    hardBots: () => hub.hardBots(),
    workers: () => pool?.stats() ?? null,
  })

  const gate = admission(config, limits, trust, metrics)
  // No cluster adapter: every member of a table is on its owner (issue 17), so an update goes
  // to this node's sockets only.
  io = new Server(fastify.server, {
    maxHttpBufferSize: config.maxPayloadBytes,
    parser: jsonParser,
    // Long-polling stays available for networks that block websockets; one node needs no stickiness.
    transports: ['websocket', 'polling'],
    pingInterval: 10_000,
    pingTimeout: 10_000,
    serveClient: false,
    allowRequest: gate.allowRequest,
  }) as KortbordServer
  io.engine.on('connection', gate.counted)
  const acceptGuard = new AcceptGuard(fastify.server, config.limits.acceptsPerSecond, () =>
    metrics.limited('accept_rate'),
  )
  attachSockets(io, {
    hub,
    config,
    log,
    metrics,
    limits,
    presence,
    trust,
    isClosing: () => closing,
  })

  void fastify.register(helmet, SECURITY_HEADERS)
  fastify.get('/healthz', async () => ({ ok: true }))
  const storeReadiness = sharedReadiness(
    () => store.ready(),
    () => performance.now(),
  )
  fastify.get('/readyz', async (_req, reply) => {
    const storeReady = await storeReadiness()
    const ready = storeReady && !closing
    // How many nodes this one counts as serving tables (issue 17), itself included.
    const nodes = liveness.owners()?.size ?? 1
    return reply
      .code(ready ? 200 : 503)
      .send({ ok: ready, store: storeReady, closing, nodes, node })
  })
  // /metrics: behind a token on the main port, or on a port of its own (finding 10).
  const metricsRoute = async (_req: unknown, reply: { header(k: string, v: string): void }) => {
    reply.header('content-type', metrics.registry.contentType)
    return metrics.registry.metrics()
  }
  const token = config.metrics.token
  if (token) {
    fastify.get('/metrics', async (req, reply) => {
      if (!bearerIs(req.headers.authorization, token))
        return reply.code(401).send({ ok: false, error: 'a bearer token is needed' })
      return metricsRoute(req, reply)
    })
  }
  let metricsServer: FastifyInstance | null = null
  let metricsPort: number | null = null
  if (config.metrics.port !== null) {
    metricsServer = Fastify({ logger: false }) as unknown as FastifyInstance
    metricsServer.get('/metrics', metricsRoute)
  }

  // Housekeeping: idle tables leave memory (the store keeps them); stale ones leave the store,
  // and so, sooner, do those nobody is at (IDLE_TABLE_HOURS).
  const housekeeping = async (): Promise<void> => {
    hub.evictIdle()
    // Tables still loaded here have someone at them (or a timer): never delete those.
    const loaded = new Set([...hub.all()].map((t) => t.code))
    await store
      .sweep(now() - config.tableTtlMs, loaded, now() - config.idleTableMs)
      .catch((e: unknown) => log.warn({ err: e }, 'sweep failed'))
  }
  const sweep = setInterval(() => void housekeeping(), 60_000)
  sweep.unref()

  serveRecords(fastify, store, limits, trust, {
    maxFrames: config.records.maxFrames,
    framesCached: config.records.framesCached,
    maxMoves: config.records.maxMoves,
  })
  serveWeb(
    fastify,
    {
      web: config.webDist,
      publicUrl: config.publicUrl,
      previews: pagePreviews(store, limits, trust),
    },
    log,
  )
  // Before serving, this node learns which nodes are alive: until then it would take itself for
  // the owner of every table (bounded: a store that does not answer does not hold it up).
  const started = Promise.race([
    liveness.start(),
    new Promise<void>((resolve) => setTimeout(resolve, 2000).unref()),
  ])

  fastify.addHook('preClose', async () => {
    liveness.stop()
    clearInterval(sweep)
    acceptGuard.close()
    closing = true
    await hub.drain()
    io?.local.disconnectSockets(true)
  })
  fastify.addHook('onClose', async () => {
    hub.close()
    presence.close()
    await pool?.close()
    await proofPool?.close()
    await earlyPool?.close()
    await metricsServer?.close()
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
    presence,
    limits,
    log,
    get metricsPort() {
      return metricsPort
    },
    async listen() {
      await started
      await fastify.listen({ port: config.port, host: config.host })
      if (metricsServer && config.metrics.port !== null) {
        await metricsServer.listen({ port: config.metrics.port, host: config.metrics.host })
        const m = metricsServer.server.address()
        metricsPort = typeof m === 'object' && m ? m.port : config.metrics.port
      }
      const addr = fastify.server.address()
      return typeof addr === 'object' && addr ? addr.port : config.port
    },
    close: () => fastify.close(),
    housekeeping,
  }
}

/** Whether an Authorization header carries exactly this bearer token (in constant time). */
function bearerIs(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '', 'utf8')
  const want = Buffer.from(token, 'utf8')
  return given.length === want.length && timingSafeEqual(given, want)
}
