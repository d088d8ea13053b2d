// Limits per client address (issue 13): connections held open on this node, tables created per
// minute and table codes looked up per minute (the latter two over every node when the store is
// Redis). Counting is rate-limiter-flexible's; this module only says what is counted where.
import type { IncomingMessage } from 'node:http'
import proxyAddr from '@fastify/proxy-addr'
import type { WireError } from '@kortbord/protocol'
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible'
import type { createClient } from 'redis'
import type { Limits as LimitSettings } from './config.ts'

export interface LimitsBackend {
  /** Redis to count in across nodes (the store's connection); none: this process counts. */
  readonly redis?: ReturnType<typeof createClient>
  readonly prefix?: string
}

const refusal = (code: string, message: string): WireError => ({ code, message })

/** A limit counted in Redis across nodes (`shared`) with this node's own count as a fallback. */
interface Limiter {
  readonly shared: RateLimiterMemory | RateLimiterRedis
  readonly alone: RateLimiterMemory
}

/** How long a limit waits for Redis before this node counts alone, ms. */
const LIMIT_WAIT_MS = 250

/**
 * The address a connection is counted under: the TCP peer, or behind trusted proxies the client
 * they name in X-Forwarded-For (proxy-addr, as fastify decides it). IPv6 addresses count by their
 * /64: one household or phone gets a whole /64, so a single address there means little.
 */
export function clientAddress(
  req: IncomingMessage,
  trust: ((addr: string, i: number) => boolean) | null,
): string {
  const raw = trust ? proxyAddr(req, trust) : (req.socket.remoteAddress ?? 'unknown')
  return addressKey(raw)
}

/** IPv4 (also IPv4-mapped IPv6) as is; IPv6 as its /64 prefix. */
export function addressKey(raw: string): string {
  const v4 = /^(?:::ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(raw)
  if (v4) return v4[1]!
  if (!raw.includes(':')) return raw
  const [head = '', tail = ''] = raw.split('%')[0]!.split('::')
  const h = head === '' ? [] : head.split(':')
  const t = tail === '' ? [] : tail.split(':')
  const groups = raw.includes('::')
    ? [...h, ...Array<string>(Math.max(0, 8 - h.length - t.length)).fill('0'), ...t]
    : h
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`
}

/** Compiles TRUST_PROXY for proxy-addr; null when no proxy is trusted. */
export function trustFunction(
  list: readonly string[],
): ((addr: string, i: number) => boolean) | null {
  return list.length === 0 ? null : proxyAddr.compile([...list])
}

export class Limits {
  private readonly open = new Map<string, number>()
  private readonly creates: Limiter
  private readonly hourlyCreates: Limiter
  private readonly lookups: Limiter
  private readonly recordReads: Limiter

  constructor(
    readonly settings: LimitSettings,
    backend: LimitsBackend = {},
  ) {
    const make = (name: string, points: number, duration = 60): Limiter => {
      const opts = {
        keyPrefix: `${backend.prefix ?? 'kortbord:'}limit:${name}`,
        points,
        duration,
      }
      const memory = new RateLimiterMemory(opts)
      if (!backend.redis) return { shared: memory, alone: memory }
      // Across nodes in Redis; while Redis is away (or slow) each node counts alone.
      const shared = new RateLimiterRedis({
        ...opts,
        storeClient: backend.redis,
        useRedisPackage: true,
        rejectIfRedisNotReady: true,
        insuranceLimiter: memory,
      })
      return { shared, alone: memory }
    }
    this.creates = make('create', settings.tablesPerAddressPerMinute)
    this.hourlyCreates = make('create-hour', settings.tablesPerAddressPerHour, 3600)
    this.lookups = make('lookup', settings.lookupsPerAddressPerMinute)
    this.recordReads = make('record', settings.recordReadsPerAddressPerMinute)
  }

  /** One game record fetched by `address`: null, or the refusal. */
  recordRead(address: string): Promise<WireError | null> {
    return this.consume(this.recordReads, address, (s) =>
      refusal(
        'TOO_MANY_LOOKUPS',
        `one address can fetch ${this.settings.recordReadsPerAddressPerMinute} records a minute; try again in ${s} s`,
      ),
    )
  }

  /** Counts a new connection of `address`; false (and not counted) past the limit. */
  connect(address: string): boolean {
    const n = this.open.get(address) ?? 0
    if (n >= this.settings.connectionsPerAddress) return false
    this.open.set(address, n + 1)
    return true
  }

  /** Whether one more connection of `address` would be within the limit (a pre-check). */
  roomFor(address: string): boolean {
    return (this.open.get(address) ?? 0) < this.settings.connectionsPerAddress
  }

  disconnect(address: string): void {
    const n = (this.open.get(address) ?? 1) - 1
    if (n <= 0) this.open.delete(address)
    else this.open.set(address, n)
  }

  /** Addresses with connections open (bounded by the connections themselves). */
  get addresses(): number {
    return this.open.size
  }

  /**
   * One table created by `address`: null, or the refusal. Counted per minute (a burst) and per
   * hour (what an address can leave behind before idle tables are swept, IDLE_TABLE_HOURS).
   */
  async create(address: string): Promise<WireError | null> {
    const minute = await this.consume(this.creates, address, (s) =>
      refusal(
        'TOO_MANY_NEW_TABLES',
        `one address can create ${this.settings.tablesPerAddressPerMinute} tables a minute; try again in ${s} s`,
      ),
    )
    if (minute) return minute
    return this.consume(this.hourlyCreates, address, (s) =>
      refusal(
        'TOO_MANY_NEW_TABLES',
        `one address can create ${this.settings.tablesPerAddressPerHour} tables an hour; try again in ${Math.ceil(s / 60)} min`,
      ),
    )
  }

  /** One table code looked up (join, watch, reclaim) by `address`: null, or the refusal. */
  lookup(address: string): Promise<WireError | null> {
    return this.consume(this.lookups, address, (s) =>
      refusal(
        'TOO_MANY_LOOKUPS',
        `one address can open ${this.settings.lookupsPerAddressPerMinute} tables a minute; try again in ${s} s`,
      ),
    )
  }

  private async consume(
    limiter: Limiter,
    key: string,
    refuse: (seconds: number) => WireError,
  ): Promise<WireError | null> {
    const answer = (e: unknown): WireError | null =>
      e instanceof RateLimiterRes ? refuse(Math.max(1, Math.ceil(e.msBeforeNext / 1000))) : null
    let timer: NodeJS.Timeout | undefined
    try {
      if (limiter.shared === limiter.alone) {
        await limiter.alone.consume(key)
        return null
      }
      // A Redis that hangs must not hold the command: past the wait this node counts alone.
      const slow = new Promise<'slow'>((resolve) => {
        timer = setTimeout(() => resolve('slow'), LIMIT_WAIT_MS)
      })
      const shared = limiter.shared.consume(key)
      shared.catch(() => undefined)
      if ((await Promise.race([shared, slow])) === 'slow') await limiter.alone.consume(key)
      return null
    } catch (e) {
      // Neither Redis nor this node could count: let it through rather than lock people out.
      return answer(e)
    } finally {
      clearTimeout(timer)
    }
  }
}
