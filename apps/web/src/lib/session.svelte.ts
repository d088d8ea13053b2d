// One TableClient per open table: it owns the socket, keeps the latest update from the server
// ($state.raw, replaced wholesale) and sends the player's intentions. No rules run here.
import {
  type Ack,
  type ClientToServerEvents,
  type CreateTableInput,
  mergeLog,
  NOTHING_CHANGED,
  PROTOCOL_VERSION,
  type ServerToClientEvents,
  type TableGone,
  type TableUpdate,
  type WireError,
} from '@kortbord/protocol/wire'
import { io, type Socket } from 'socket.io-client'
import { TurnClocks } from './clock.ts'
import { load, save, tokenKey } from './storage.ts'
import { turnSecondsOf } from './table-news.ts'

export type Role = 'player' | 'spectator'
export type BotLevel = 'easy' | 'normal' | 'hard'
type AnyAck = Ack<Record<string, unknown>>
/** The server's events and the socket's own. */
type Events = ServerToClientEvents & {
  connect: () => void
  disconnect: (reason: string) => void
  connect_error: (e: Error) => void
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** Refusals that say "not now" rather than "no": worth trying again a little later. */
const TRANSIENT = new Set([
  'UNAVAILABLE',
  'SHUTTING_DOWN',
  'RATE_LIMITED',
  'TOO_MANY_LOOKUPS',
  'offline',
])

/** Sends with an acknowledgement, at most 10 s; no answer counts as being offline. */
async function emitWithAck(
  socket: Socket<ServerToClientEvents, ClientToServerEvents>,
  event: string,
  payload: unknown,
): Promise<AnyAck> {
  try {
    return (await (
      socket.timeout(10_000) as unknown as {
        emitWithAck(e: string, p: unknown): Promise<AnyAck>
      }
    ).emitWithAck(event, payload)) as AnyAck
  } catch {
    return { ok: false, error: { code: 'offline', message: 'no answer from the server' } }
  }
}

export interface Transport {
  readonly socket: Socket<ServerToClientEvents, ClientToServerEvents>
}

const HANDSHAKE_CODES = /\b(PROTOCOL_MISMATCH|ORIGIN_NOT_ALLOWED|TOO_MANY_CONNECTIONS)\b/

/**
 * Why the server refused to open the socket, if it said: the protocol version (socket.io's
 * middleware: the error's message), or the origin or the address's connections (engine.io's
 * handshake: only the polling transport can read the answer, `{code, message}` as JSON).
 */
export function handshakeRefusal(e: Error): string | null {
  const context = (e as { context?: { responseText?: unknown } }).context
  for (const text of [e.message, context?.responseText]) {
    const m = typeof text === 'string' ? HANDSHAKE_CODES.exec(text) : null
    if (m) return m[1]!
  }
  return null
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
  /** Something the page should tell, that is not a refusal (e.g. a bot came at another level). */
  notice = $state<'botDowngraded' | null>(null)
  busy = $state(false)
  /**
   * Each seat's turn clock as a time of this page's clock (ms), or null: the server's deadlines
   * taken once as they arrive, never longer than the turn (I-16).
   */
  clockEnds = $state.raw<readonly (number | null)[]>([])
  private readonly clocks = new TurnClocks()
  /**
   * How many watch, over every node (`table:presence`, issue 13): spectators are presence, not
   * versions, so updates do not follow them. Null until the first count arrives.
   */
  private presence = $state<number | null>(null)
  private watchWanted: boolean
  private readonly off: (() => void)[] = []
  /** Seat recoveries started by a lost answer (bounded: the store may stay away a while). */
  private recoveries = 0
  /** A later try at the seat after a passing refusal, and how many were made. */
  private retry: ReturnType<typeof setTimeout> | null = null
  private retries = 0

  constructor(
    readonly socket: Socket<ServerToClientEvents, ClientToServerEvents>,
    readonly code: string,
    opts: { watch: boolean },
  ) {
    this.watchWanted = opts.watch
    this.online = socket.connected
    this.listen('connect', () => {
      this.online = true
      void this.resume()
    })
    this.listen('disconnect', (reason) => {
      this.online = false
      // A server going down for a restart disconnects on purpose; socket.io does not come back
      // by itself after that, so knock again (the next node, or this one once it is back).
      if (reason === 'io server disconnect')
        setTimeout(() => socket.connect(), 500 + Math.random() * 1000)
    })
    this.listen('connect_error', (e: Error) => {
      const code = handshakeRefusal(e)
      if (code) this.error = { code, message: e.message }
    })
    this.listen('table:update', (u) => {
      if (u.table.code !== this.code) return
      const cur = this.update
      // Views arrive in order; never step back to an older version.
      if (cur && u.table.version < cur.table.version) return
      // The log comes as deltas after the first update: append, and fetch the whole tail again
      // if an update was missed (it never is on one connection, but a cluster may reorder).
      const merged = mergeLog(cur?.log ?? [], u)
      this.update = merged.log === u.log ? u : { ...u, log: merged.log }
      this.clockEnds = this.clocks.ends(u.table.deadlines ?? [], turnSecondsOf(u.table), Date.now())
      if (merged.gap) void this.call('table:sync', { table: this.code })
      this.role = u.seat === null ? 'spectator' : 'player'
      this.recoveries = 0
      // A join whose answer was lost (OUTCOME_UNKNOWN) may still have seated us.
      if (u.seat !== null) this.needsJoin = false
    })
    this.listen('table:presence', (p) => {
      if (p.table === this.code) this.presence = p.spectators
    })
    this.listen('table:gone', (g) => {
      if (g.table !== this.code) return
      this.gone = g.reason
      this.role = null
      // Every player left: the table is deleted, and its seat token is worth nothing.
      if (g.reason === 'closed') save(tokenKey(this.code), null)
    })
    if (socket.connected) void this.resume()
  }

  /** Listens to one of the socket's events until {@link close}. */
  private listen<E extends keyof Events>(event: E, fn: Events[E]): void {
    const s = this.socket as unknown as {
      on(e: E, f: Events[E]): void
      off(e: E, f: Events[E]): void
    }
    s.on(event, fn)
    this.off.push(() => s.off(event, fn))
  }

  get token(): string | null {
    return load(tokenKey(this.code))
  }

  /** The spectators to show: the latest presence count, else the count in the update. */
  get spectators(): number {
    return this.presence ?? this.update?.table.spectators ?? 0
  }

  /** A bot plays this player's seat (they were away, I-16): they take it back with their token. */
  get botPlaying(): boolean {
    const u = this.update
    return u !== null && u.seat !== null && (u.table.seats[u.seat]?.bot ?? null) !== null
  }

  /** After (re)connecting: reclaim the seat with its token, or watch again, or ask. */
  async resume(): Promise<void> {
    if (this.gone !== null) return
    const token = this.token
    if (token) {
      const r = await this.call('table:reclaim', { table: this.code, token })
      if (r.ok) {
        this.needsJoin = false
        this.retries = 0
        if (this.retry !== null) clearTimeout(this.retry)
        this.retry = null
        return
      }
      if (TRANSIENT.has(r.error.code)) this.resumeLater()
      if (r.error.code !== 'BAD_TOKEN') return
      save(tokenKey(this.code), null)
    }
    if (this.watchWanted || this.role === 'spectator') {
      if (!(await this.watch()) && TRANSIENT.has(this.error?.code ?? '')) this.resumeLater()
      return
    }
    this.needsJoin = true
  }

  /**
   * Tries the seat (or the watching) again a little later: after a restart every page comes back
   * at once, and the server may answer "not now" (the store, the per-address lookups of a
   * household behind one address). Backs off up to half a minute, and gives up after a while.
   */
  private resumeLater(): void {
    if (this.retry !== null || this.retries >= 8) return
    const delay = Math.min(1000 * 2 ** this.retries, 30_000)
    this.retries++
    this.retry = setTimeout(() => {
      this.retry = null
      if (this.socket.connected) void this.resume()
    }, delay)
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

  /** Takes the seat back from the bot that plays it (I-16): the seat token proves it is ours. */
  reclaimFromBot(): Promise<boolean> {
    const token = this.token
    if (!token) {
      this.error = { code: 'BAD_TOKEN', message: 'no seat token in this browser' }
      return Promise.resolve(false)
    }
    return this.ok('table:reclaim', { table: this.code, token })
  }

  move(move: unknown): Promise<boolean> {
    return this.ok('game:move', { table: this.code, version: this.version, move })
  }

  start(): Promise<boolean> {
    return this.ok('table:start', { table: this.code, version: this.version })
  }

  /**
   * A computer player takes a seat: the host's open seat or a gone player's (issue 7), or any
   * player's hand-over of an away player's seat during a game (I-16). The server may seat a
   * normal bot for a hard one when it has too many; the page says so.
   */
  async seatBot(seat: number, level: BotLevel): Promise<boolean> {
    const msg = { table: this.code, version: this.version, seat, level }
    const r = await this.call('table:bot', msg)
    if (r.ok && r.level !== level) this.notice = 'botDowngraded'
    return r.ok
  }

  /** Host: the turn timer from now on (seconds, or null: off). */
  setTimer(turnSeconds: number | null): Promise<boolean> {
    return this.ok('table:timer', { table: this.code, version: this.version, turnSeconds })
  }

  /** Ends the game with the away player at `seat` forfeiting it (I-16). */
  forfeit(seat: number): Promise<boolean> {
    return this.ok('table:forfeit', { table: this.code, version: this.version, seat })
  }

  remove(seat: number): Promise<boolean> {
    return this.ok('table:remove', { table: this.code, version: this.version, seat })
  }

  async leave(): Promise<boolean> {
    const ok = await this.ok('table:leave', { table: this.code })
    if (ok) save(tokenKey(this.code), null)
    return ok
  }

  private get version(): number {
    return this.update?.table.version ?? 0
  }

  private async ok(event: keyof ClientToServerEvents, payload: unknown): Promise<boolean> {
    return (await this.call(event, payload)).ok
  }

  /** Sends with an acknowledgement; a refusal lands in `error` for the page to show. */
  async call(event: keyof ClientToServerEvents, payload: unknown): Promise<AnyAck> {
    if (!this.socket.connected) {
      const error = { code: 'offline', message: 'not connected' }
      this.error = error
      return { ok: false, error }
    }
    this.busy = true
    try {
      const r = await emitWithAck(this.socket, event, payload)
      this.error = r.ok ? null : r.error
      if (!r.ok) this.afterRefusal(event, r.error)
      return r
    } finally {
      this.busy = false
    }
  }

  private afterRefusal(event: keyof ClientToServerEvents, error: WireError): void {
    // The seat slipped away from this connection (a node judged it gone): take it back.
    if (error.code === 'NOT_AT_TABLE' && event !== 'table:leave') void this.resume()
    // The command may or may not have been applied: never send it again blindly; ask for the
    // table as it is and show that (issue 13, finding 9).
    else if (!NOTHING_CHANGED(error.code)) void this.resync()
  }

  /** Asks for the whole table again until it comes (the store may take a moment to be back). */
  private async resync(): Promise<void> {
    for (let attempt = 0; attempt < 5 && this.gone === null; attempt++) {
      // Offline: reconnecting resumes the seat, which brings the whole table anyway.
      if (!this.socket.connected) return
      const r = await emitWithAck(this.socket, 'table:sync', { table: this.code })
      if (r.ok) return
      // Not (or no longer) at the table: a join or reclaim whose answer was lost did not seat
      // this connection. Reclaim with the token, or ask again (protocol.md, acknowledgements).
      if (r.error.code === 'NOT_AT_TABLE') {
        if (this.recoveries++ < 3) void this.resume()
        return
      }
      await sleep(500 * 2 ** attempt)
    }
  }

  close(): void {
    for (const off of this.off.splice(0)) off()
    if (this.retry !== null) clearTimeout(this.retry)
    this.retry = null
  }
}

/** Creates a table: the creator takes seat 0 and becomes host. Returns the code, or an error. */
export async function createTable(
  socket: Socket<ServerToClientEvents, ClientToServerEvents>,
  msg: CreateTableInput,
): Promise<{ ok: true; code: string } | { ok: false; error: WireError }> {
  const r = await emitWithAck(socket, 'table:create', msg)
  if (!r.ok) return r
  const code = String(r.table)
  save(tokenKey(code), String(r.token))
  return { ok: true, code }
}

/**
 * Practice in one tap: a four-seat Idiot table with three bots, started at once (issue 7).
 * Returns the code, or the refusal that stopped the table being made.
 */
export async function practiseTable(
  socket: Socket<ServerToClientEvents, ClientToServerEvents>,
  name: string,
  level: 'easy' | 'normal' | 'hard' = 'normal',
): Promise<{ ok: true; code: string } | { ok: false; error: WireError }> {
  const created = await createTable(socket, { game: 'idiot', name, options: { seats: 4 } })
  if (!created.ok) return created
  const code = created.code
  // Once the table exists the player sits at it: whatever goes wrong below, their waiting room
  // shows the table as it is, and the bots and the start can be done there by hand.
  let version = 1
  for (const seat of [1, 2, 3]) {
    const r = await emitWithAck(socket, 'table:bot', { table: code, version, seat, level })
    if (!r.ok) return { ok: true, code }
    version = r.version
  }
  await emitWithAck(socket, 'table:start', { table: code, version })
  return { ok: true, code }
}
