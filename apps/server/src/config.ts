import { fileURLToPath } from 'node:url'
import { DEFAULT_MAX_NODES, parseCards } from '@kortbord/engine'
import { LOG_TAIL } from '@kortbord/protocol'
import { z } from 'zod'

const flag = z
  .enum(['0', '1', 'true', 'false', 'on', 'off', 'yes', 'no', ''])
  .transform((v) => v === '1' || v === 'true' || v === 'on' || v === 'yes')

/** Environment variables and their defaults: with none set, the server runs as is. */
const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * How long a disconnected player counts as briefly away, seconds. After it, a waiting room
   * frees their seat; during a game they stay seated (their cards are in play) but count as gone:
   * the host may remove them, and the seat frees when the game ends.
   */
  GRACE_SECONDS: z.coerce.number().min(0).max(86_400).default(120),
  /** Consecutive turn-timer expiries after which a player is marked away. */
  TIMEOUTS_FOR_AWAY: z.coerce.number().int().min(1).max(100).default(2),
  /** `memory` (embedded, the default) or `redis` (durable, and shared by several nodes). */
  STORE: z.enum(['memory', 'redis']).optional(),
  /**
   * Redis for the store (tables, records, node liveness, presence, shared limits); setting it
   * alone selects STORE=redis.
   */
  REDIS_URL: z.string().optional(),
  /** How long a bot waits before its move, ms (issue 7). */
  BOT_DELAY_MS: z.coerce.number().int().min(0).max(10_000).default(700),
  /** How long the hard bot may think per move, ms (it blocks its node meanwhile). */
  BOT_THINK_MS: z.coerce.number().int().min(1).max(2000).default(60),
  /**
   * How often a node marks itself alive, ms; a mark lasts 3 periods, and a node whose mark has
   * been missing for 2 more (at least 1.5 s) is gone: its tables move to other nodes, 2.5-3.5 s
   * after a crash at the default (liveness.ts, docs/operations.md "Failover").
   */
  HEARTBEAT_MS: z.coerce.number().int().min(100).max(60_000).default(500),
  /** This node's id among several (e.g. node1; a proxy routes ?node=<id> to it); default random. */
  NODE_ID: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,40}$/, 'NODE_ID is letters, digits, - and _')
    .optional(),
  /** Where clients reach this node directly, if they can (sent with MOVED); default: unset. */
  NODE_URL: z.string().url().optional(),
  /** Prefix of every Redis key (several deployments can share a Redis). */
  REDIS_PREFIX: z.string().default('kortbord:'),
  /** Off unless set: lets `table:start` fix the deal (tests, replays). Never on in production. */
  KORTBORD_TEST_DEALS: flag.default(false),
  /** Per-connection rate limit: a burst, refilled at a sustained rate per second. */
  RATE_BURST: z.coerce.number().int().min(1).default(40),
  RATE_PER_SECOND: z.coerce.number().min(0.1).default(20),
  /** Refusals for rate within one burst window after which the connection is dropped. */
  RATE_STRIKES: z.coerce.number().int().min(1).default(20),
  /** socket.io's largest accepted message, bytes. */
  MAX_PAYLOAD_BYTES: z.coerce.number().int().min(1024).max(1_000_000).default(16_384),
  /**
   * Tests only, with KORTBORD_TEST_DEALS: the deck every game deals from when the start names no
   * deal, in card notation ("2C 3D … AS"); lets a browser test play a known game.
   */
  KORTBORD_TEST_DECK: z.string().optional(),
  /** Tests only: multiplies turn timer durations (0.01 makes a 15 s timer 150 ms). */
  KORTBORD_TIMER_SCALE: z.coerce.number().min(0.0001).max(1).default(1),
  /** A-16 best possible after each duel game, in the worker pool. */
  SOLVER: flag.default(true),
  /** The table's solve: its time limit, queueing included, and its node budget (keeps). */
  SOLVER_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  SOLVER_NODES: z.coerce.number().int().min(0).default(DEFAULT_MAX_NODES),
  /**
   * The background proof of a figure the table's solve could not prove: its time limit and node
   * budget, far larger but bounded, on a worker thread of its own.
   */
  SOLVER_PROOF_TIMEOUT_MS: z.coerce.number().int().min(100).default(120_000),
  SOLVER_PROOF_NODES: z.coerce.number().int().min(1).default(20_000_000),
  /**
   * Starts a deal's background proof as soon as its game is dealt (when the background queue has
   * room to spare), held in memory until the game ends; off: only at the end, after the table's
   * solve.
   */
  SOLVER_EARLY_PROOF: flag.default(true),
  /** Tests only: the background proof waits this long before it starts (to see "≤ n" first). */
  KORTBORD_TEST_PROOF_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  /** Worker threads for the solver and hard bots (default: the machine's cores less one, ≥ 1). */
  WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  /** Jobs that may wait for a worker; beyond it a solve gets no figure, a hard bot plays normal. */
  WORKER_QUEUE: z.coerce.number().int().min(1).default(64),
  /** Tables untouched this long are deleted (abandoned or long finished), hours. */
  TABLE_TTL_HOURS: z.coerce.number().min(0.001).default(24),
  /**
   * A table no person is connected to (every seat empty, a bot's, or disconnected) is deleted
   * after this many hours untouched, even with a game in play, hours (at most TABLE_TTL_HOURS).
   */
  IDLE_TABLE_HOURS: z.coerce.number().min(0.001).default(2),
  /** The address players use, for the links in a new table's acknowledgement. */
  PUBLIC_URL: z.string().url().optional(),
  /** The built web client to serve ('' to serve none); default: apps/web/dist of this checkout. */
  WEB_DIST: z.string().default(fileURLToPath(new URL('../../web/dist', import.meta.url))),
  /** Tables one connection may be at at once. */
  MAX_TABLES_PER_CONNECTION: z.coerce.number().int().min(1).default(8),
  // Limits per client address (docs/operations.md, "Limits"). An address is the TCP peer, or
  // with TRUST_PROXY the client address that the trusted proxies name in X-Forwarded-For.
  /** Connections one address may hold open on one node. */
  CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(30),
  /** New connections a node accepts per second, over every address (src/accept-guard.ts). */
  ACCEPTS_PER_SECOND: z.coerce.number().int().min(10).default(500),
  /** Tables one address may create per minute (over all nodes with STORE=redis). */
  TABLES_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  /**
   * Tables one address may create per hour (all nodes): with IDLE_TABLE_HOURS it bounds the
   * tables one address can leave behind with nobody at them.
   */
  TABLES_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).default(60),
  /** Joins, watches and reclaims by table code one address may try per minute (all nodes). */
  LOOKUPS_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** Tables a node holds at most: loaded ones, and with the memory store every stored one. */
  MAX_TABLES: z.coerce.number().int().min(1).default(5000),
  /** Spectators one table may have (over all nodes). */
  SPECTATORS_PER_TABLE: z.coerce.number().int().min(0).default(50),
  /** Hard bots (the costly level) seated on one node at once; beyond it a bot plays normal. */
  HARD_BOTS_PER_NODE: z.coerce.number().int().min(0).default(12),
  /**
   * Which proxies to believe about the client's address (X-Forwarded-For): '' believes none (the
   * default: the TCP peer is the client), or a comma list of addresses, CIDR ranges and the names
   * loopback, linklocal, uniquelocal (as fastify's trustProxy).
   */
  TRUST_PROXY: z.string().default(''),
  /**
   * Origins whose pages may open a socket, comma-separated (e.g. https://kortbord.example). The
   * server's own origin (the Host the request came to) and PUBLIC_URL's are always allowed; a
   * client that sends no Origin (bots, scripts) is too.
   */
  ALLOWED_ORIGINS: z.string().default(''),
  /** How long game records are kept after their last move, days (issue 14). */
  RECORD_TTL_DAYS: z.coerce.number().min(0.0001).max(3650).default(30),
  /** Moves a game record keeps at most; a longer game's record is marked as cut short. */
  RECORD_MAX_MOVES: z.coerce.number().int().min(10).default(5000),
  /** Records kept at most, by either store (the one changed longest ago goes first). */
  RECORDS_MAX: z.coerce.number().int().min(1).default(20_000),
  /**
   * Frames of a game in play served at most (GET /api/records/<id>/frames: the latest), and how
   * many records' frames a node keeps built (each a few hundred KB at most).
   */
  RECORD_FRAMES_MAX: z.coerce.number().int().min(10).default(1000),
  RECORD_FRAMES_CACHED: z.coerce.number().int().min(1).default(64),
  /** Records one address may fetch per minute (GET /api/records/…). */
  RECORD_READS_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  /** /metrics on a port of its own (e.g. 9464; 0 = a free one); unset = not on its own port. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Where the metrics port listens (default 127.0.0.1: the machine itself). */
  METRICS_HOST: z.string().default('127.0.0.1'),
  /** /metrics on the main port, for requests with `Authorization: Bearer <token>`. */
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN needs at least 16 characters').optional(),
})

export interface Config {
  readonly port: number
  readonly host: string
  readonly logLevel: string
  readonly graceMs: number
  readonly timeoutsForAway: number
  readonly store: 'memory' | 'redis'
  readonly redis: { readonly url: string; readonly prefix: string } | null
  readonly heartbeatMs: number
  readonly node: { readonly id: string | null; readonly url: string | null }
  readonly bots: { readonly delayMs: number; readonly thinkMs: number }
  readonly testDeals: boolean
  readonly timerScale: number
  readonly testDeck: readonly number[] | null
  readonly rate: { readonly burst: number; readonly perSecond: number; readonly strikes: number }
  readonly maxPayloadBytes: number
  readonly solver: {
    readonly enabled: boolean
    readonly timeoutMs: number
    readonly nodes: number
    readonly proofTimeoutMs: number
    readonly proofNodes: number
    /** SOLVER_EARLY_PROOF: the background proof starts when a game is dealt. */
    readonly earlyProof: boolean
    readonly testProofDelayMs: number
  }
  readonly workers: { readonly threads: number | null; readonly queue: number }
  readonly maxTablesPerConnection: number
  readonly limits: Limits
  /** proxy-addr's trust list; empty: the TCP peer is the client. */
  readonly trustProxy: readonly string[]
  readonly allowedOrigins: readonly string[]
  readonly records: {
    readonly ttlSeconds: number
    readonly maxMoves: number
    readonly max: number
    /** Frames of a game in play served at most, and records whose frames are kept built. */
    readonly maxFrames: number
    readonly framesCached: number
  }
  readonly metrics: {
    readonly port: number | null
    readonly host: string
    readonly token: string | null
  }
  readonly logKeep: number
  readonly tableTtlMs: number
  /** How long a table nobody is connected to is kept untouched (IDLE_TABLE_HOURS). */
  readonly idleTableMs: number
  readonly publicUrl: string | null
  readonly webDist: string | null
}

export interface Limits {
  readonly recordReadsPerAddressPerMinute: number
  readonly connectionsPerAddress: number
  readonly acceptsPerSecond: number
  readonly tablesPerAddressPerMinute: number
  readonly tablesPerAddressPerHour: number
  readonly lookupsPerAddressPerMinute: number
  readonly maxTables: number
  readonly spectatorsPerTable: number
  readonly hardBotsPerNode: number
}

const list = (s: string): string[] =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '')

/** Reads the configuration; throws with every bad variable named. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const r = Env.safeParse(env)
  if (!r.success) {
    const msg = r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')
    throw new Error(`bad configuration: ${msg}`)
  }
  const e = r.data
  const store = e.STORE ?? (e.REDIS_URL ? 'redis' : 'memory')
  if (e.KORTBORD_TEST_DECK && !e.KORTBORD_TEST_DEALS) {
    throw new Error('bad configuration: KORTBORD_TEST_DECK needs KORTBORD_TEST_DEALS')
  }
  return {
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    graceMs: Math.round(e.GRACE_SECONDS * 1000),
    timeoutsForAway: e.TIMEOUTS_FOR_AWAY,
    store,
    heartbeatMs: e.HEARTBEAT_MS,
    node: { id: e.NODE_ID ?? null, url: e.NODE_URL?.replace(/\/+$/, '') ?? null },
    bots: { delayMs: e.BOT_DELAY_MS, thinkMs: e.BOT_THINK_MS },
    redis:
      store === 'redis'
        ? { url: e.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix: e.REDIS_PREFIX }
        : null,
    testDeals: e.KORTBORD_TEST_DEALS,
    timerScale: e.KORTBORD_TIMER_SCALE,
    testDeck: e.KORTBORD_TEST_DECK ? parseCards(e.KORTBORD_TEST_DECK) : null,
    rate: { burst: e.RATE_BURST, perSecond: e.RATE_PER_SECOND, strikes: e.RATE_STRIKES },
    maxPayloadBytes: e.MAX_PAYLOAD_BYTES,
    solver: {
      enabled: e.SOLVER,
      timeoutMs: e.SOLVER_TIMEOUT_MS,
      nodes: e.SOLVER_NODES,
      proofTimeoutMs: e.SOLVER_PROOF_TIMEOUT_MS,
      proofNodes: e.SOLVER_PROOF_NODES,
      earlyProof: e.SOLVER_EARLY_PROOF,
      testProofDelayMs: e.KORTBORD_TEST_PROOF_DELAY_MS,
    },
    workers: { threads: e.WORKERS ?? null, queue: e.WORKER_QUEUE },
    maxTablesPerConnection: e.MAX_TABLES_PER_CONNECTION,
    limits: {
      recordReadsPerAddressPerMinute: e.RECORD_READS_PER_ADDRESS_PER_MINUTE,
      connectionsPerAddress: e.CONNECTIONS_PER_ADDRESS,
      acceptsPerSecond: e.ACCEPTS_PER_SECOND,
      tablesPerAddressPerMinute: e.TABLES_PER_ADDRESS_PER_MINUTE,
      tablesPerAddressPerHour: e.TABLES_PER_ADDRESS_PER_HOUR,
      lookupsPerAddressPerMinute: e.LOOKUPS_PER_ADDRESS_PER_MINUTE,
      maxTables: e.MAX_TABLES,
      spectatorsPerTable: e.SPECTATORS_PER_TABLE,
      hardBotsPerNode: e.HARD_BOTS_PER_NODE,
    },
    trustProxy: list(e.TRUST_PROXY),
    allowedOrigins: list(e.ALLOWED_ORIGINS).map((o) => o.replace(/\/+$/, '')),
    metrics: { port: e.METRICS_PORT ?? null, host: e.METRICS_HOST, token: e.METRICS_TOKEN ?? null },
    records: {
      ttlSeconds: Math.round(e.RECORD_TTL_DAYS * 86_400),
      maxMoves: e.RECORD_MAX_MOVES,
      max: e.RECORDS_MAX,
      maxFrames: e.RECORD_FRAMES_MAX,
      framesCached: e.RECORD_FRAMES_CACHED,
    },
    // Only what a client can be sent (LOG_TAIL): a longer log would only make every save bigger.
    logKeep: LOG_TAIL,
    tableTtlMs: Math.round(e.TABLE_TTL_HOURS * 3_600_000),
    idleTableMs: Math.round(Math.min(e.IDLE_TABLE_HOURS, e.TABLE_TTL_HOURS) * 3_600_000),
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, '') ?? null,
    webDist: e.WEB_DIST === '' ? null : e.WEB_DIST,
  }
}
