// A scripted kortbord client over the real protocol (socket.io-client): used by the play
// script, the tests and the load benchmark.
import {
  type Ack,
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
}

/** One connection: sends commands with acks and keeps everything it receives. */
export class Client {
  readonly socket: ClientSocket
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

  constructor(url: string, opts: ClientOptions = {}) {
    this.socket = io(url, {
      transports: opts.transports ?? ['websocket'],
      auth: { protocol: 'protocol' in opts ? opts.protocol : PROTOCOL_VERSION },
      reconnection: false,
      forceNew: true,
      ...(opts.headers ? { extraHeaders: opts.headers } : {}),
    })
    this.socket.on('table:update', (raw) => {
      // Updates carry log deltas (TableUpdate.logAfter): keep every update with the whole log
      // this connection has seen so far, as tests read it.
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
    })
    this.socket.on('table:gone', (g) => this.gone.push(g))
    this.socket.on('table:presence', (p) => {
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
    this.socket.on('protocol:error', (e) => this.errors.push(e))
  }

  connected(): Promise<void> {
    if (this.socket.connected) return Promise.resolve()
    return new Promise((resolve, reject) => {
      this.socket.once('connect', () => resolve())
      this.socket.once('connect_error', (e) => reject(e))
    })
  }

  /** Emits a client event and resolves with its acknowledgement (rejects after `ms`). */
  send<E extends keyof ClientToServerEvents>(
    event: E,
    payload: Parameters<ClientToServerEvents[E]>[0],
    ms = 10_000,
  ): Promise<Ack<Record<string, unknown>>> {
    return (
      this.socket.timeout(ms) as unknown as {
        emitWithAck(e: string, p: unknown): Promise<Ack<Record<string, unknown>>>
      }
    ).emitWithAck(event, payload)
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
