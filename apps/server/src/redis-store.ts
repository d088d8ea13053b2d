import { createHash } from 'node:crypto'
import type { Deal, GameRecord } from '@kortbord/engine'
import { createClient } from 'redis'
import type { LiveNodes } from './presence.ts'
import {
  DEFAULT_RETENTION,
  nobodyThere,
  type RecordEffects,
  type RecordSecret,
  type TableRecord,
  type TableStore,
  VersionConflict,
} from './store.ts'

/** Logs state changes of the connection; a pino logger fits. */
export interface StoreLog {
  info(obj: object, msg: string): void
  warn(obj: object, msg: string): void
}

export interface RedisStoreOptions {
  /** redis://[user:pass@]host:port[/db] or rediss://… */
  readonly url: string
  /** Put before every key (default 'kortbord:'). */
  readonly prefix?: string
  /** Every save sets the table's TTL to this: an abandoned table expires (default 7 days). */
  readonly ttlSeconds?: number
  /** The TTL set by a save of a finished table, status 'over' (default 1 day). */
  readonly finishedTtlSeconds?: number
  /**
   * The TTL set by a save of a table no person is connected to ({@link nobodyThere}), when
   * shorter than the others (IDLE_TABLE_HOURS; default 2 hours).
   */
  readonly idleTtlSeconds?: number
  /** How long a game record is kept after its last change (default 30 days). */
  readonly recordTtlSeconds?: number
  /**
   * Records kept at most (RECORDS_MAX, default 20,000): past it the record changed longest ago
   * goes, header, moves and deal, as in the memory store.
   */
  readonly maxRecords?: number
  /** How long any call may wait for Redis before it rejects (default 1000 ms). */
  readonly commandTimeoutMs?: number
  /** Longest wait between reconnection attempts (default 2000 ms). */
  readonly maxReconnectDelayMs?: number
  readonly log?: StoreLog
  /** Called on every error of the connection (for a metric). */
  readonly onError?: () => void
}

/**
 * Redis could not be reached or did not answer in time. `maybeApplied` says whether the call may
 * still have changed something: false when it was refused before anything was sent (not
 * connected, closed), true when it was sent and its answer lost (a timeout, a connection reset):
 * Redis may have run it all the same.
 */
export class StoreUnavailable extends Error {
  readonly maybeApplied: boolean
  constructor(message: string, options?: { cause?: unknown; maybeApplied?: boolean }) {
    super(message, options)
    this.name = 'StoreUnavailable'
    this.maybeApplied = options?.maybeApplied ?? false
  }
}

const DAY = 86_400

/**
 * KEYS[1] the table's hash; ARGV: expected version ('' = must not exist), new version, the
 * record's JSON, updatedAt, TTL in seconds. Compare-and-set in one script: Redis runs it whole
 * or not at all, so two writers can never both replace the same version and a failed call
 * leaves nothing half-written. Returns 1 when saved, 0 on a version conflict.
 *
 * With a game record's effects (issue 14), also KEYS[2] the record's header, KEYS[3] its moves
 * (a list), KEYS[4] its secret deal, and ARGV[6] the header's JSON or '', ARGV[7] a move's JSON
 * or '', ARGV[8] the record's TTL, ARGV[9] the deal with its table's code as JSON ({ table,
 * deal }) or '', ARGV[10] '1' when the header ends the game (the deal, revealed in it, is no
 * longer kept apart): an acknowledged move is always a recorded move, and the record's keys
 * expire together. KEYS[5] is the index of records (a sorted set of ids, ARGV[11] this one's, by
 * the time of their last change): past ARGV[12] records the one changed longest ago goes, its
 * three keys named from ARGV[13] (the prefix). Those keys are not in KEYS: kortbord runs on one
 * Redis, not a cluster. A move for a record that is gone is not kept (nor is it in memory).
 */
const SAVE = `
local cur = redis.call('HGET', KEYS[1], 'v')
if ARGV[1] == '' then
  if cur then return 0 end
elseif cur ~= ARGV[1] then
  return 0
end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'json', ARGV[3], 'u', ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
if #KEYS == 5 then
  -- A record gone (past RECORDS_MAX or its TTL) takes no more moves, as in the memory store.
  if ARGV[6] == '' and redis.call('EXISTS', KEYS[2]) == 0 then return 1 end
  if ARGV[6] ~= '' then redis.call('SET', KEYS[2], ARGV[6], 'EX', ARGV[8]) end
  if ARGV[9] ~= '' then redis.call('SET', KEYS[4], ARGV[9], 'EX', ARGV[8]) end
  if ARGV[10] == '1' then redis.call('DEL', KEYS[4]) end
  if ARGV[7] ~= '' then
    redis.call('RPUSH', KEYS[3], ARGV[7])
    redis.call('EXPIRE', KEYS[3], ARGV[8])
    redis.call('EXPIRE', KEYS[2], ARGV[8])
    redis.call('EXPIRE', KEYS[4], ARGV[8])
  end
  -- Redis's own clock (µs), strictly increasing, so that the order is the order of changes.
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
  local top = redis.call('ZRANGE', KEYS[5], -1, -1, 'WITHSCORES')
  if top[2] and tonumber(top[2]) >= now then now = tonumber(top[2]) + 1 end
  redis.call('ZADD', KEYS[5], string.format('%.0f', now), ARGV[11])
  redis.call('EXPIRE', KEYS[5], ARGV[8])
  local over = redis.call('ZCARD', KEYS[5]) - tonumber(ARGV[12])
  if over > 0 then
    local gone = redis.call('ZPOPMIN', KEYS[5], over)
    for i = 1, #gone, 2 do
      local k = ARGV[13] .. gone[i]
      redis.call('DEL', k, k .. ':moves', k .. ':deal')
    end
  end
end
return 1
`
const SAVE_SHA = createHash('sha1').update(SAVE).digest('hex')

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url)
    if (u.password) u.password = '***'
    return u.toString()
  } catch {
    return '(unparsable redis url)'
  }
}

/**
 * Tables in Redis (issue 5), one hash per table at `${prefix}table:${code}`:
 * { v: version, json: the record, u: updatedAt }. Seat tokens are in the record only as hashes.
 *
 * When Redis is down every call rejects at once (the client does not queue commands offline)
 * and a call that gets no answer rejects after `commandTimeoutMs` with StoreUnavailable; the
 * client reconnects by itself, with backoff, for as long as the store is open. A save that timed
 * out may still have been applied by Redis (the answer was lost, not the write): a later save
 * against the old version then gets VersionConflict, never a double apply.
 */
export class RedisStore implements TableStore {
  readonly prefix: string
  private readonly ttl: number
  private readonly finishedTtl: number
  private readonly idleTtl: number
  private readonly recordTtl: number
  private readonly maxRecords: number
  private readonly timeoutMs: number
  private readonly client: ReturnType<typeof createClient>
  private readonly log: StoreLog | undefined
  private closed = false
  private recycling = false
  /** When a call last got an answer (performance.now()), for telling a hang from a late loop. */
  private lastAnswer = 0
  private connected: Promise<void>
  /** Whether the last news of the connection was good; null before any. For logging changes. */
  private up: boolean | null = null

  constructor(opts: RedisStoreOptions) {
    this.prefix = opts.prefix ?? 'kortbord:'
    this.ttl = Math.max(1, Math.round(opts.ttlSeconds ?? 7 * DAY))
    this.finishedTtl = Math.max(1, Math.round(opts.finishedTtlSeconds ?? Math.min(DAY, this.ttl)))
    this.idleTtl = Math.max(1, Math.round(opts.idleTtlSeconds ?? Math.min(2 * 3600, this.ttl)))
    this.recordTtl = Math.max(1, Math.round(opts.recordTtlSeconds ?? 30 * DAY))
    this.maxRecords = Math.max(1, Math.floor(opts.maxRecords ?? DEFAULT_RETENTION.maxRecords))
    this.timeoutMs = opts.commandTimeoutMs ?? 1000
    this.log = opts.log
    const maxDelay = opts.maxReconnectDelayMs ?? 2000
    this.client = createClient({
      url: opts.url,
      // Commands while disconnected fail at once instead of waiting for a reconnect.
      disableOfflineQueue: true,
      // No per-command timeout (node-redis's default is 5 s): it makes an AbortSignal.timeout
      // for each command, a few % of a node's CPU under load (docs/performance.md). `call`
      // below bounds every wait, and replaces a connection that stops answering.
      commandOptions: { timeout: 0 },
      socket: {
        connectTimeout: this.timeoutMs,
        // Never give up: the store comes back by itself when Redis does.
        reconnectStrategy: (retries) =>
          Math.min(50 * 2 ** Math.min(retries, 10), maxDelay) + Math.floor(Math.random() * 50),
      },
    })
    // Without a listener an 'error' event would crash the process.
    this.client.on('error', (err: Error) => {
      opts.onError?.()
      if (this.up !== false) {
        const msg = this.up
          ? 'redis connection lost; reconnecting'
          : 'redis not reachable; retrying'
        this.up = false
        this.log?.warn({ err, url: redactUrl(opts.url) }, msg)
      }
    })
    this.client.on('ready', () => {
      this.up = true
      this.log?.info({ url: redactUrl(opts.url) }, 'redis connected')
    })
    this.connected = this.open()
  }

  /** Starts connecting; resolves when connected or when given up (closed), never rejects. */
  private open(): Promise<void> {
    return this.client.connect().then(
      () => undefined,
      () => undefined,
    )
  }

  /** Resolves once connected; rejects after `timeoutMs` (the store keeps trying). */
  async waitReady(timeoutMs: number): Promise<void> {
    if (this.client.isReady) return
    let timer: NodeJS.Timeout | undefined
    try {
      await Promise.race([
        this.connected,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new StoreUnavailable(`redis not reachable within ${timeoutMs} ms`)),
            timeoutMs,
          )
        }),
      ])
    } finally {
      clearTimeout(timer)
    }
    if (!this.client.isReady) throw new StoreUnavailable('redis store closed before it connected')
  }

  key(code: string): string {
    return `${this.prefix}table:${code}`
  }

  /**
   * Runs one Redis call, failing fast when disconnected and after `timeoutMs` without an
   * answer. A timeout on a connection that looks alive means Redis (or the path to it) hangs:
   * the connection is then replaced so that service can return without waiting for TCP.
   */
  private async call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    if (this.closed) throw new StoreUnavailable('the store is closed')
    if (!this.client.isReady) throw new StoreUnavailable(`redis is not connected (${what})`)
    let timer: NodeJS.Timeout | undefined
    let timedOut = false
    const p = new Promise<T>((resolve) => resolve(fn()))
    // Any answer, even a late one, shows the connection alive (lost races must not become
    // unhandled rejections either).
    let settled = false
    const answered = () => {
      settled = true
      this.lastAnswer = performance.now()
    }
    p.then(answered, answered)
    try {
      return await Promise.race([
        p,
        new Promise<never>((_, reject) => {
          // The wait counts only time the loop was free to read the answer: a timer that fires
          // late (the loop was busy: an overloaded node) gives Redis another full period, since
          // the command may not even have left this process yet. A late loop is no outage.
          const arm = (ms: number, late: number) => {
            const due = performance.now() + ms
            timer = setTimeout(() => {
              const lateBy = performance.now() - due
              if (lateBy > this.timeoutMs / 2 && late < 3) {
                arm(this.timeoutMs, late + 1)
                return
              }
              // Timers run before the loop reads its sockets: the answer may be waiting there.
              // Decide after the next read (setImmediate runs after it).
              setImmediate(() => {
                if (settled) return
                timedOut = true
                reject(
                  new StoreUnavailable(`redis did not answer ${what} within ${this.timeoutMs} ms`, {
                    maybeApplied: true,
                  }),
                )
              })
            }, ms)
          }
          arm(this.timeoutMs, 0)
        }),
      ])
    } catch (e) {
      if (e instanceof VersionConflict || e instanceof StoreUnavailable) {
        // Replace the connection only when Redis has stopped answering altogether. A node whose
        // own event loop is late (overloaded) sees its calls time out while answers keep
        // arriving: replacing the connection then would fail every call in flight with it.
        if (timedOut && performance.now() - this.lastAnswer > this.timeoutMs) this.recycle()
        throw e
      }
      // Refused by the client before sending (offline, closed): nothing reached Redis. Any other
      // failure (a reset connection, an error reply) may have come after Redis ran the command.
      const unsent = e instanceof Error && /^Client(Offline|Closed)Error$/.test(e.constructor.name)
      throw new StoreUnavailable(`redis ${what} failed: ${(e as Error)?.message ?? e}`, {
        cause: e,
        maybeApplied: !unsent,
      })
    } finally {
      clearTimeout(timer)
    }
  }

  private recycle(): void {
    if (this.recycling || this.closed || !this.client.isReady) return
    this.recycling = true
    this.up = false
    this.log?.warn({}, 'redis stopped answering; reconnecting')
    try {
      this.client.destroy()
    } catch {
      // already gone
    }
    this.connected = this.open().then(() => {
      this.recycling = false
    })
  }

  async load(code: string): Promise<TableRecord | null> {
    const json = await this.call('load', () => this.client.hGet(this.key(code), 'json'))
    return json == null ? null : (JSON.parse(json) as TableRecord)
  }

  async save(record: TableRecord, expected: number | null, effects?: RecordEffects): Promise<void> {
    const kept = record.status === 'over' ? this.finishedTtl : this.ttl
    const ttl = nobodyThere(record.seats) ? Math.min(kept, this.idleTtl) : kept
    const id = effects?.header?.id ?? effects?.move?.id
    const args = {
      keys: id
        ? [
            this.key(record.code),
            this.recordKey(id),
            `${this.recordKey(id)}:moves`,
            `${this.recordKey(id)}:deal`,
            this.recordIndexKey(),
          ]
        : [this.key(record.code)],
      arguments: [
        expected === null ? '' : String(expected),
        String(record.version),
        JSON.stringify(record),
        String(record.updatedAt),
        String(ttl),
        ...(id
          ? [
              effects?.header ? JSON.stringify(effects.header) : '',
              effects?.move ? JSON.stringify(effects.move.entry) : '',
              String(this.recordTtl),
              effects?.deal ? JSON.stringify({ table: record.code, deal: effects.deal }) : '',
              effects?.header && effects.header.end !== null ? '1' : '',
              id,
              String(this.maxRecords),
              this.recordKey(''),
            ]
          : []),
      ],
    }
    const saved = await this.call('save', async () => {
      try {
        return await this.client.evalSha(SAVE_SHA, args)
      } catch (e) {
        // Not cached yet (first use, or Redis restarted): send the script itself.
        if (!(e as Error)?.message?.startsWith('NOSCRIPT')) throw e
        return await this.client.eval(SAVE, args)
      }
    })
    if (saved !== 1) throw new VersionConflict(record.code)
  }

  recordKey(id: string): string {
    return `${this.prefix}record:${id}`
  }

  /** The sorted set of record ids by the time of their last change (RECORDS_MAX). */
  recordIndexKey(): string {
    return `${this.prefix}records`
  }

  async loadRecord(id: string): Promise<GameRecord | null> {
    const [header, moves] = await this.call('record', () =>
      Promise.all([
        this.client.get(this.recordKey(id)),
        this.client.lRange(`${this.recordKey(id)}:moves`, 0, -1),
      ]),
    )
    if (header == null) return null
    return { ...(JSON.parse(header) as GameRecord), moves: moves.map((m) => JSON.parse(m)) }
  }

  /** Stored as { table, deal } (before the table's code was kept: the deal alone). */
  async loadRecordSecret(id: string): Promise<RecordSecret | null> {
    const json = await this.call('record', () => this.client.get(`${this.recordKey(id)}:deal`))
    if (json == null) return null
    const v = JSON.parse(json) as { table?: unknown; deal?: Deal }
    return v.deal !== undefined && typeof v.table === 'string'
      ? { table: v.table, deal: v.deal }
      : { table: null, deal: v as Deal }
  }

  async delete(code: string): Promise<void> {
    await this.call('delete', () => this.client.del([this.key(code), this.watchKey(code)]))
  }

  private watchKey(code: string): string {
    return `${this.prefix}watch:${code}`
  }

  async setWatchers(code: string, node: string, n: number): Promise<void> {
    const key = this.watchKey(code)
    await this.call('watchers', async () => {
      if (n > 0) {
        await this.client.multi().hSet(key, node, String(n)).expire(key, this.ttl).exec()
      } else await this.client.hDel(key, node)
    })
  }

  async watchers(code: string, live: LiveNodes): Promise<number> {
    const all = await this.call('watchers', () => this.client.hGetAll(this.watchKey(code)))
    let n = 0
    const dead: string[] = []
    for (const [node, k] of Object.entries(all)) {
      if (live && !live.has(node)) dead.push(node)
      else n += Number(k) || 0
    }
    // The counts of nodes that died with spectators on them: nobody else will remove them.
    if (dead.length > 0) void this.client.hDel(this.watchKey(code), dead).catch(() => undefined)
    return n
  }

  /** Unknown without scanning every key: the metric of stored tables is the memory store's. */
  count(): null {
    return null
  }

  /** The connection, for rate limits kept in the same Redis (fails fast when offline). */
  get redis(): ReturnType<typeof createClient> {
    return this.client
  }

  /**
   * Marks `node` alive until `ttlMs` from now, with the address it serves at: a sorted set of
   * nodes by the time their mark runs out (one O(log n) call, never a scan of the keyspace) and
   * a hash of their addresses.
   */
  async heartbeat(node: string, ttlMs: number, url: string | null = null): Promise<void> {
    const until = Date.now() + Math.max(1, Math.round(ttlMs))
    await this.call('heartbeat', () =>
      this.client
        .multi()
        .zAdd(`${this.prefix}nodes`, { score: until, value: node })
        .hSet(`${this.prefix}node-urls`, node, url ?? '')
        .exec(),
    )
  }

  async liveNodes(): Promise<ReadonlyMap<string, string | null>> {
    const now = Date.now()
    const [, live, urls] = await this.call('live nodes', () =>
      this.client
        .multi()
        .zRemRangeByScore(`${this.prefix}nodes`, '-inf', now)
        .zRangeByScore(`${this.prefix}nodes`, now, '+inf')
        .hGetAll(`${this.prefix}node-urls`)
        .exec(),
    )
    const address = urls as unknown as Record<string, string>
    const found = new Map<string, string | null>()
    for (const n of live as unknown as string[]) found.set(n, address[n] || null)
    // The addresses of nodes long gone go too.
    const gone = Object.keys(address).filter((n) => !found.has(n))
    if (gone.length > 0)
      void this.client.hDel(`${this.prefix}node-urls`, gone).catch(() => undefined)
    return found
  }

  async ready(): Promise<boolean> {
    try {
      return (await this.call('ping', () => this.client.ping())) === 'PONG'
    } catch {
      return false
    }
  }

  /**
   * Redis expires tables by itself: every save sets the key's TTL (`ttlSeconds`, or
   * `finishedTtlSeconds` once a game is over), so `before` is not needed and nothing is
   * deleted here (returns 0). Tables in `keep` (loaded on this node, someone is there) get
   * their TTL renewed, so a quiet table in use does not expire under its players; renewed to
   * the idle TTL, since a table no node holds any more has nobody at it (a save sets more).
   */
  async sweep(_before: number, keep: ReadonlySet<string> = new Set()): Promise<number> {
    if (keep.size === 0) return 0
    await this.call('sweep', () =>
      Promise.all([...keep].map((code) => this.client.expire(this.key(code), this.idleTtl))),
    )
    return 0
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    if (!this.client.isOpen) return
    let timer: NodeJS.Timeout | undefined
    try {
      if (!this.client.isReady) throw new Error('not connected')
      // Lets commands in flight finish, then QUIT; bounded, then cut.
      await Promise.race([
        this.client.close(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('close timed out')), this.timeoutMs)
        }),
      ])
    } catch {
      try {
        this.client.destroy()
      } catch {
        // already gone
      }
    } finally {
      clearTimeout(timer)
    }
  }
}

/**
 * For the server's startup: a Redis store that has connected, or an error after
 * `connectTimeoutMs` (default 5000) — nothing is left running then.
 */
export async function connectRedisStore(
  url: string,
  opts: Omit<RedisStoreOptions, 'url'> & { connectTimeoutMs?: number } = {},
): Promise<RedisStore> {
  const store = new RedisStore({ ...opts, url })
  const ms = opts.connectTimeoutMs ?? 5000
  try {
    await store.waitReady(ms)
  } catch (e) {
    await store.close()
    throw new StoreUnavailable(`could not connect to redis at ${redactUrl(url)} within ${ms} ms`, {
      cause: e,
    })
  }
  return store
}
