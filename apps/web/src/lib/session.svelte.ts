// One TableClient per open table: it owns the socket, keeps the latest update from the server
// ($state.raw, replaced wholesale) and sends the player's intentions. No rules run here.
import {
  type Ack,
  type ClientToServerEvents,
  type CreateTableInput,
  mergeLog,
  PROTOCOL_VERSION,
  type ServerToClientEvents,
  type TableGone,
  type TableUpdate,
  type WireError,
} from '@kortbord/protocol/wire'
import { io, type Socket } from 'socket.io-client'
import { load, save, tokenKey } from './storage.ts'

export type Role = 'player' | 'spectator'

export interface Transport {
  readonly socket: Socket<ServerToClientEvents, ClientToServerEvents>
}

/** Opens the one socket of this page (same origin: the server serves the page). */
export function openSocket(url?: string): Socket<ServerToClientEvents, ClientToServerEvents> {
  const opts = {
    auth: { protocol: PROTOCOL_VERSION },
    transports: ['websocket', 'polling'],
    // Where websockets are blocked, fall back to long-polling.
    tryAllTransports: true,
    reconnectionDelay: 500,
    reconnectionDelayMax: 4000,
  }
  return url ? io(url, opts) : io(opts)
}

export class TableClient {
  online = $state(false)
  update = $state.raw<TableUpdate | null>(null)
  role = $state<Role | null>(null)
  /** Set when the table needs a decision from the person: join with a name, or watch. */
  needsJoin = $state(false)
  gone = $state<TableGone['reason'] | null>(null)
  /** The last refusal, for the page to put into words. */
  error = $state.raw<WireError | null>(null)
  busy = $state(false)
  private watchWanted: boolean

  constructor(
    readonly socket: Socket<ServerToClientEvents, ClientToServerEvents>,
    readonly code: string,
    opts: { watch: boolean },
  ) {
    this.watchWanted = opts.watch
    this.online = socket.connected
    socket.on('connect', () => {
      this.online = true
      void this.resume()
    })
    socket.on('disconnect', (reason) => {
      this.online = false
      // A server going down for a restart disconnects on purpose; socket.io does not come back
      // by itself after that, so knock again (the next node, or this one once it is back).
      if (reason === 'io server disconnect')
        setTimeout(() => socket.connect(), 500 + Math.random() * 1000)
    })
    socket.on('connect_error', (e) => {
      if (e.message === 'PROTOCOL_MISMATCH')
        this.error = { code: 'PROTOCOL_MISMATCH', message: e.message }
    })
    socket.on('table:update', (u) => {
      if (u.table.code !== this.code) return
      const cur = this.update
      // Views arrive in order; never step back to an older version.
      if (cur && u.table.version < cur.table.version) return
      // The log comes as deltas after the first update: append, and fetch the whole tail again
      // if an update was missed (it never is on one connection, but a cluster may reorder).
      const merged = mergeLog(cur?.log ?? [], u)
      this.update = merged.log === u.log ? u : { ...u, log: merged.log }
      if (merged.gap) void this.call('table:sync', { table: this.code })
      this.role = u.seat === null ? 'spectator' : 'player'
    })
    socket.on('table:gone', (g) => {
      if (g.table !== this.code) return
      this.gone = g.reason
      this.role = null
    })
    if (socket.connected) void this.resume()
  }

  get token(): string | null {
    return load(tokenKey(this.code))
  }

  /** After (re)connecting: reclaim the seat with its token, or watch again, or ask. */
  async resume(): Promise<void> {
    if (this.gone === 'replaced') return
    const token = this.token
    if (token) {
      const r = await this.call('table:reclaim', { table: this.code, token })
      if (r.ok) {
        this.needsJoin = false
        return
      }
      if (r.error.code !== 'BAD_TOKEN') return
      save(tokenKey(this.code), null)
    }
    if (this.watchWanted || this.role === 'spectator') {
      await this.watch()
      return
    }
    this.needsJoin = true
  }

  async join(name: string): Promise<boolean> {
    const r = await this.call('table:join', { table: this.code, name })
    if (!r.ok) return false
    save(tokenKey(this.code), String(r.token))
    this.needsJoin = false
    this.role = 'player'
    return true
  }

  async watch(): Promise<boolean> {
    this.watchWanted = true
    const r = await this.call('table:watch', { table: this.code })
    if (r.ok || r.error.code === 'ALREADY_AT_TABLE') {
      this.needsJoin = false
      this.role = 'spectator'
      return true
    }
    return false
  }

  /** Comes back after "replaced": this tab takes the seat again. */
  async takeBack(): Promise<void> {
    this.gone = null
    await this.resume()
  }

  move(move: unknown): Promise<boolean> {
    const version = this.update?.table.version ?? 0
    return this.ok('game:move', { table: this.code, version, move })
  }

  start(): Promise<boolean> {
    const version = this.update?.table.version ?? 0
    return this.ok('table:start', { table: this.code, version })
  }

  /** Host: a computer player takes an open seat, or keeps a gone player's seat (issue 7). */
  seatBot(seat: number, level: 'easy' | 'normal' | 'hard'): Promise<boolean> {
    const version = this.update?.table.version ?? 0
    return this.ok('table:bot', { table: this.code, version, seat, level })
  }

  remove(seat: number): Promise<boolean> {
    const version = this.update?.table.version ?? 0
    return this.ok('table:remove', { table: this.code, version, seat })
  }

  async leave(): Promise<boolean> {
    const ok = await this.ok('table:leave', { table: this.code })
    if (ok) save(tokenKey(this.code), null)
    return ok
  }

  private async ok(event: keyof ClientToServerEvents, payload: unknown): Promise<boolean> {
    return (await this.call(event, payload)).ok
  }

  /** Sends with an acknowledgement; a refusal lands in `error` for the page to show. */
  async call(
    event: keyof ClientToServerEvents,
    payload: unknown,
  ): Promise<Ack<Record<string, unknown>>> {
    if (!this.socket.connected) {
      const error = { code: 'offline', message: 'not connected' }
      this.error = error
      return { ok: false, error }
    }
    this.busy = true
    try {
      const r = (await (
        this.socket.timeout(10_000) as unknown as {
          emitWithAck(e: string, p: unknown): Promise<Ack<Record<string, unknown>>>
        }
      ).emitWithAck(event, payload)) as Ack<Record<string, unknown>>
      this.error = r.ok ? null : r.error
      // The seat slipped away from this connection (a node judged it gone): take it back.
      if (!r.ok && r.error.code === 'NOT_AT_TABLE' && event !== 'table:leave') void this.resume()
      return r
    } catch {
      const error = { code: 'offline', message: 'no answer from the server' }
      this.error = error
      return { ok: false, error }
    } finally {
      this.busy = false
    }
  }

  close(): void {
    this.socket.off('table:update')
    this.socket.off('table:gone')
  }
}

/** Creates a table: the creator takes seat 0 and becomes host. Returns the code, or an error. */
export async function createTable(
  socket: Socket<ServerToClientEvents, ClientToServerEvents>,
  msg: CreateTableInput,
): Promise<{ ok: true; code: string } | { ok: false; error: WireError }> {
  try {
    const r = (await (
      socket.timeout(10_000) as unknown as {
        emitWithAck(e: string, p: unknown): Promise<Ack<Record<string, unknown>>>
      }
    ).emitWithAck('table:create', msg)) as Ack<Record<string, unknown>>
    if (!r.ok) return r
    const code = String(r.table)
    save(tokenKey(code), String(r.token))
    return { ok: true, code }
  } catch {
    return { ok: false, error: { code: 'offline', message: 'no answer from the server' } }
  }
}

/**
 * Practice in one tap: a four-seat Idiot table with three bots, started at once (issue 7).
 * Returns the code, or the refusal that stopped it.
 */
export async function practiseTable(
  socket: Socket<ServerToClientEvents, ClientToServerEvents>,
  name: string,
  level: 'easy' | 'normal' | 'hard' = 'normal',
): Promise<{ ok: true; code: string } | { ok: false; error: WireError }> {
  const created = await createTable(socket, { game: 'idiot', name, options: { seats: 4 } })
  if (!created.ok) return created
  const code = created.code
  const send = async (event: string, payload: unknown) =>
    (await (
      socket.timeout(10_000) as unknown as {
        emitWithAck(e: string, p: unknown): Promise<Ack<Record<string, unknown>>>
      }
    ).emitWithAck(event, payload)) as Ack<Record<string, unknown>>
  try {
    let version = 1
    for (const seat of [1, 2, 3]) {
      const r = await send('table:bot', { table: code, version, seat, level })
      if (!r.ok) return r
      version = r.version
    }
    const r = await send('table:start', { table: code, version })
    if (!r.ok) return r
    return { ok: true, code }
  } catch {
    return { ok: false, error: { code: 'offline', message: 'no answer from the server' } }
  }
}
