// A scripted kortbord client over the real protocol (socket.io-client): used by the play
// script, the tests and the load benchmark.
import {
  type Ack,
  applyDelta,
  type ClientToServerEvents,
  type LogEntry,
  mergeLog,
  PROTOCOL_VERSION,
  type ServerToClientEvents,
  type TableGone,
  type TableUpdate,
  type WireError,
} from '@kortbord/protocol'
import { io, type Socket } from 'socket.io-client'

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>

export interface ClientOptions {
  readonly transports?: ('websocket' | 'polling')[]
  readonly protocol?: number
  /** Extra HTTP headers of the handshake (tests: Origin, X-Forwarded-For). */
  readonly headers?: Record<string, string>
  /** Ask for delta updates (issue 17); default yes. */
  readonly deltas?: boolean
  /** This client may miss deltas (a test that makes it lose some): the fixture lets it. */
  readonly expectDeltaMisses?: boolean
}

/**
 * One client: sends commands with acks and keeps everything it receives. With several nodes it
 * follows its tables (issue 17): a command answered MOVED, or a table handed over to another
 * node, takes it to the node that serves the table, where it takes its seat back with the token
 * it holds (or watches again) and sends the command once more.
 */
export class Client {
  private current: ClientSocket
  /** The node this client is connected to now. */
  url: string
  private readonly opts: ClientOptions
  /** How to come back to each table on another node: a seat's token, or as a spectator. */
  private readonly places = new Map<string, { token: string } | { watch: true }>()
  /** Moves to another node so far. */
  moves = 0
  /**
   * Delta updates received, and those that did not fit the table held (another version, or a
   * checksum that differs): none expected unless `expectDeltaMisses`.
   */
  deltas = 0
  deltaMisses = 0
  /** Tables asked for whole after a delta miss, until the answer. */
  private readonly syncing = new Set<string>()
  /** Every update received, in order. */
  readonly updates: TableUpdate[] = []
  readonly gone: TableGone[] = []
  readonly errors: WireError[] = []
  /** The spectator count last told per table (`table:presence`), and how often it was told. */
  readonly watching = new Map<string, number>()
  presenceEvents = 0
  private readonly latest = new Map<string, TableUpdate>()
  private readonly logs = new Map<string, readonly LogEntry[]>()
  /** Updates whose log did not follow on from the entries held (none expected). */
  logGaps = 0
  private presenceWaiters: { code: string; n: number; resolve: () => void }[] = []
  private waiters: { pred: (u: TableUpdate) => boolean; resolve: (u: TableUpdate) => void }[] = []

  /** Told of every client made (the tests' fixture watches them for delta misses). */
  static onCreate: ((c: Client) => void) | null = null

  constructor(url: string, opts: ClientOptions = {}) {
    this.opts = opts
    this.url = url
    this.current = this.open(url)
    Client.onCreate?.(this)
  }

  /** Whether delta misses are to be expected of this client (ClientOptions.expectDeltaMisses). */
  get expectsDeltaMisses(): boolean {
    return this.opts.expectDeltaMisses === true
  }

  get socket(): ClientSocket {
    return this.current
  }

  private open(url: string): ClientSocket {
    const opts = this.opts
    const socket: ClientSocket = io(url, {
      transports: opts.transports ?? ['websocket'],
      auth: {
        protocol: 'protocol' in opts ? opts.protocol : PROTOCOL_VERSION,
        // Delta updates unless told otherwise: every test then checks views rebuilt from them.
        ...(opts.deltas === false ? {} : { deltas: 1 }),
      },
      reconnection: false,
      forceNew: true,
      ...(opts.headers ? { extraHeaders: opts.headers } : {}),
    })
    this.listen(socket)
    return socket
  }

  private listen(socket: ClientSocket): void {
    socket.on('table:update', (raw) => this.take(raw))
    socket.on('table:delta', (d) => {
      // What changed since the version held (issue 17): rebuilt into the whole update, checked
      // by its checksum; a client that holds another version, or went astray, asks for the table
      // (once until it comes). Misses are counted: the tests' fixture fails a test that had one
      // it did not expect.
      this.deltas++
      const r = applyDelta(this.latest.get(d.code), d)
      if (r.ok) {
        this.take(r.update)
        return
      }
      this.deltaMisses++
      if (this.syncing.has(d.code)) return
      this.syncing.add(d.code)
      void this.send('table:sync', { table: d.code })
        .catch(() => undefined)
        .finally(() => this.syncing.delete(d.code))
    })
    socket.on('table:gone', (g) => {
      this.gone.push(g)
      // Handed over to another node: follow it there.
      if (g.reason === 'moved' && g.url) void this.moveTo(g.url).catch(() => undefined)
    })
    socket.on('table:presence', (p) => {
      this.presenceEvents++
      this.watching.set(p.table, p.spectators)
      for (const w of this.presenceWaiters.filter(
        (x) => x.code === p.table && x.n === p.spectators,
      ))
        w.resolve()
      this.presenceWaiters = this.presenceWaiters.filter(
        (x) => !(x.code === p.table && x.n === p.spectators),
      )
    })
    socket.on('protocol:error', (e) => this.errors.push(e))
  }

  connected(): Promise<void> {
    if (this.socket.connected) return Promise.resolve()
    return new Promise((resolve, reject) => {
      this.socket.once('connect', () => resolve())
      this.socket.once('connect_error', (e) => reject(e))
    })
  }

  /**
   * Emits a client event and resolves with its acknowledgement (rejects after `ms`). Answered
   * MOVED, it follows the table to the node that serves it and sends it there.
   */
  async send<E extends keyof ClientToServerEvents>(
    event: E,
    payload: Parameters<ClientToServerEvents[E]>[0],
    ms = 10_000,
  ): Promise<Ack<Record<string, unknown>>> {
    const until = Date.now() + ms
    for (let wait = 300; ; wait = Math.min(wait * 2, 2000)) {
      const a = await this.emit(event, payload, ms)
      if (a.ok) this.remember(event, payload, a)
      if (a.ok || a.error.code !== 'MOVED' || !a.error.url || Date.now() > until) return a
      // The node named may have just died (the others learn it within a few seconds): then
      // come back here, wait a little and ask again.
      const here = this.url
      try {
        await this.moveTo(a.error.url)
      } catch {
        await new Promise((r) => setTimeout(r, wait))
        await this.moveTo(here)
      }
    }
  }

  private emit(event: string, payload: unknown, ms: number): Promise<Ack<Record<string, unknown>>> {
    return (
      this.socket.timeout(ms) as unknown as {
        emitWithAck(e: string, p: unknown): Promise<Ack<Record<string, unknown>>>
      }
    ).emitWithAck(event, payload)
  }

  /** What it takes to come back to a table: the seat's token, or watching. */
  private remember(event: string, payload: unknown, a: Record<string, unknown>): void {
    const p = payload as { table?: string; token?: string }
    const code = typeof a.table === 'string' ? a.table : p.table
    if (!code) return
    if (typeof a.token === 'string') this.places.set(code, { token: a.token })
    else if (event === 'table:reclaim' && p.token) this.places.set(code, { token: p.token })
    else if (event === 'table:watch') this.places.set(code, { watch: true })
    else if (event === 'table:leave') this.places.delete(code)
  }

  /**
   * An update (whole, or rebuilt from a delta). Updates carry log deltas (logAfter): keep every
   * update with the whole log this connection has seen so far, as tests read it.
   */
  private take(raw: TableUpdate): void {
    const held = this.logs.get(raw.table.code) ?? []
    const merged = mergeLog(held, raw, Number.POSITIVE_INFINITY)
    if (merged.gap) this.logGaps++
    this.logs.set(raw.table.code, merged.log)
    const u: TableUpdate = { ...raw, log: merged.log }
    this.updates.push(u)
    const prev = this.latest.get(u.table.code)
    if (!prev || prev.table.version <= u.table.version) this.latest.set(u.table.code, u)
    const ready = this.waiters.filter((w) => w.pred(u))
    this.waiters = this.waiters.filter((w) => !w.pred(u))
    for (const w of ready) w.resolve(u)
  }

  /** Connects to another node instead, and comes back to every table there. */
  async moveTo(url: string): Promise<void> {
    this.moves++
    const old = this.current
    this.url = url
    this.current = this.open(url)
    old.disconnect()
    await this.connected().catch((e: unknown) => {
      this.current.disconnect()
      throw e
    })
    for (const [table, place] of this.places) {
      const a =
        'token' in place
          ? await this.emit('table:reclaim', { table, token: place.token }, 10_000)
          : await this.emit('table:watch', { table }, 10_000)
      if (!a.ok && a.error.code !== 'MOVED') this.places.delete(table)
    }
  }

  /** Sends anything at all, for bad-input tests. */
  raw(event: string, ...args: unknown[]): void {
    ;(this.socket as unknown as { emit(e: string, ...a: unknown[]): void }).emit(event, ...args)
  }

  rawAck(event: string, payload: unknown, ms = 5_000): Promise<Ack<Record<string, unknown>>> {
    return (
      this.socket.timeout(ms) as unknown as {
        emitWithAck(e: string, p: unknown): Promise<Ack<Record<string, unknown>>>
      }
    ).emitWithAck(event, payload)
  }

  /** Asks the server for the table's current update and returns it. */
  async sync(code: string): Promise<TableUpdate> {
    const before = this.updates.length
    const r = await this.send('table:sync', { table: code })
    if (!r.ok) throw new Error(`sync refused: ${r.error.code}`)
    return this.waitFor(code, () => this.updates.length > before)
  }

  /** The newest update for a table. */
  state(code: string): TableUpdate | undefined {
    return this.latest.get(code)
  }

  /** Resolves with the first update (already received or future) that satisfies `pred`. */
  waitFor(code: string, pred: (u: TableUpdate) => boolean, ms = 10_000): Promise<TableUpdate> {
    const cur = this.latest.get(code)
    if (cur && pred(cur)) return Promise.resolve(cur)
    return new Promise((resolve, reject) => {
      const w = {
        pred: (u: TableUpdate) => u.table.code === code && pred(u),
        resolve: (u: TableUpdate) => {
          clearTimeout(timer)
          resolve(u)
        },
      }
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w)
        reject(new Error(`timed out waiting for an update of ${code}`))
      }, ms)
      this.waiters.push(w)
    })
  }

  /** Waits until this client has seen `version` of the table. */
  atVersion(code: string, version: number, ms = 10_000): Promise<TableUpdate> {
    return this.waitFor(code, (u) => u.table.version >= version, ms)
  }

  /** Resolves once this client has been told that `n` watch the table (rejects after `ms`). */
  spectators(code: string, n: number, ms = 10_000): Promise<void> {
    if (this.watching.get(code) === n) return Promise.resolve()
    return new Promise((resolve, reject) => {
      const w = {
        code,
        n,
        resolve: () => {
          clearTimeout(timer)
          resolve()
        },
      }
      const timer = setTimeout(() => {
        this.presenceWaiters = this.presenceWaiters.filter((x) => x !== w)
        reject(new Error(`timed out waiting for ${n} spectators at ${code}`))
      }, ms)
      this.presenceWaiters.push(w)
    })
  }

  close(): void {
    this.socket.disconnect()
  }
}

/** Connects a client and waits for the connection. */
export async function connect(url: string, opts?: ClientOptions): Promise<Client> {
  const c = new Client(url, opts)
  await c.connected()
  return c
}

/** Throws unless the ack is ok; returns it typed. */
export function must<T extends Record<string, unknown>>(
  a: Ack<T>,
): { ok: true; version: number } & T {
  if (!a.ok) throw new Error(`refused: ${a.error.code} ${a.error.message}`)
  return a
}
