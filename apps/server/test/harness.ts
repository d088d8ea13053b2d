// Starts a real server on a free port for a test, with real socket.io clients.
import pino from 'pino'
import { type Client, type ClientOptions, connect, must } from '../scripts/client.ts'
import { type App, buildApp, REDACT } from '../src/app.ts'
import { type Config, loadConfig } from '../src/config.ts'
import { MemoryStore, type TableStore } from '../src/store.ts'

export interface TestServer {
  readonly app: App
  readonly url: string
  readonly config: Config
  /** Every client connected through `client()`, closed by `stop()`. */
  client(opts?: ClientOptions): Promise<Client>
  stop(): Promise<void>
}

/** Per-address limits far above what a test does (every test client shares one address). */
export const LOOSE_LIMITS = {
  CONNECTIONS_PER_ADDRESS: '100000',
  ACCEPTS_PER_SECOND: '1000000',
  TABLES_PER_ADDRESS_PER_MINUTE: '100000',
  TABLES_PER_ADDRESS_PER_HOUR: '100000',
  LOOKUPS_PER_ADDRESS_PER_MINUTE: '100000',
  SPECTATORS_PER_TABLE: '100000',
  HARD_BOTS_PER_NODE: '1000',
}

/** A server for tests: port 0, test deals on, generous rate limits unless overridden. */
export async function startServer(
  env: Record<string, string> = {},
  opts: { store?: TableStore; logs?: string[] } = {},
): Promise<TestServer> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    KORTBORD_TEST_DEALS: '1',
    RATE_BURST: '1000',
    RATE_PER_SECOND: '1000',
    SOLVER: '0',
    // Every test client comes from 127.0.0.1: the per-address limits are tested on their own.
    ...LOOSE_LIMITS,
    ...env,
  })
  const lines = opts.logs
  const logger = pino(
    { level: config.logLevel, redact: { paths: REDACT, censor: '[redacted]' } },
    { write: (s: string) => void lines?.push(s) },
  )
  const app = buildApp(config, {
    // Frozen records: a write to a stored record anywhere in the server throws and fails a test.
    store: opts.store ?? new MemoryStore({ freeze: true }),
    logger,
  })
  const port = await app.listen()
  const url = `http://127.0.0.1:${port}`
  const clients: Client[] = []
  return {
    app,
    url,
    config,
    async client(opts?: ClientOptions) {
      const c = await connect(url, opts)
      clients.push(c)
      return c
    },
    async stop() {
      for (const c of clients) c.close()
      await app.close()
    },
  }
}

/** The players' names at a test table, seat by seat. */
export const NAMES = ['Astrid', 'Bo', 'Cecilia', 'Dag'] as const

export interface IdiotTableOptions {
  /** Seats at the table (2 unless told). */
  seats?: number
  /** The host's name (Astrid unless told). */
  name?: string
  /** Left out: the server's default, as a client that does not say. */
  spectators?: boolean
  /** Left out: the server's default clock; null: none. */
  turnSeconds?: number | null
  /** Left out: the server's default (off): hints for every player (docs/rules.md, hints). */
  hints?: boolean
  entropy?: string
}

/** `host` creates an Idiot table; its code, the host's seat token and the table's version. */
export async function createIdiot(host: Client, o: IdiotTableOptions = {}) {
  const made = must(
    await host.send('table:create', {
      game: 'idiot',
      name: o.name ?? NAMES[0],
      ...(o.spectators === undefined ? {} : { spectators: o.spectators }),
      ...(o.entropy === undefined ? {} : { entropy: o.entropy }),
      options: {
        seats: o.seats ?? 2,
        ...(o.turnSeconds === undefined ? {} : { turnSeconds: o.turnSeconds }),
        ...(o.hints === undefined ? {} : { hints: o.hints }),
      },
    }),
  )
  return { code: made.table as string, token: made.token as string, version: made.version }
}

export interface SeatedIdiot {
  code: string
  /** Seat by seat, the host first. */
  players: Client[]
  tokens: string[]
  /** The table's version once every player has seen the last one sit down. */
  version: number
}

/**
 * A host creates an Idiot table of `seats` on `s`, with no turn clock unless told, and players
 * sit down until `fill` seats (all unless told) are taken, named from NAMES; it returns once every
 * player has seen the last join.
 */
export async function seatIdiot(
  s: TestServer,
  seats: number,
  o: Omit<IdiotTableOptions, 'seats'> & { fill?: number } = {},
): Promise<SeatedIdiot> {
  const host = await s.client()
  const made = await createIdiot(host, { ...o, seats, turnSeconds: o.turnSeconds ?? null })
  const players = [host]
  const tokens = [made.token]
  let version = made.version
  for (let i = 1; i < (o.fill ?? seats); i++) {
    const c = await s.client()
    const j = must(await c.send('table:join', { table: made.code, name: NAMES[i]! }))
    if (j.seat !== i) throw new Error(`${NAMES[i]} sat at seat ${String(j.seat)}, not ${i}`)
    players.push(c)
    tokens.push(j.token as string)
    version = j.version
  }
  await Promise.all(players.map((c) => c.atVersion(made.code, version)))
  return { code: made.code, players, tokens, version }
}
