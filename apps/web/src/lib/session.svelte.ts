// One TableClient per open table: it owns the socket, keeps the latest update from the server
// ($state.raw, replaced wholesale) and sends the player's intentions. No rules run here.
import {
  type Ack,
  applyDelta,
  type ClientToServerEvents,
  type CreateTableInput,
  NOTHING_CHANGED,
  type PeekAck,
  PROTOCOL_VERSION,
  type ServerToClientEvents,
  type TableDelta,
  type TableGone,
  type TableUpdate,
  type WireError,
} from '@kortbord/protocol/wire'
import { io, type Socket } from 'socket.io-client'
import { TurnClocks } from './clock.ts'
import { Contribution, drawEntropy } from './contribution.ts'
import { keepLog } from './log-keep.ts'
import { noteRecentGame } from './recent-games.ts'
import { forgetSeat, gameKey, gameNote, load, save, tokenKey } from './storage.ts'
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

/**
 * Where a socket connects (issue 17): a node's own address (`url`), or this page's origin with
 * `?node=<id>` (the proxy routes it to that node) or without (any node). `table` names the table
 * the socket is for, in the query too.
 */
export interface SocketTarget {
  readonly url?: string
  readonly node?: string
  readonly table?: string
}

/** Opens a socket (same origin by default: the server serves the page). */
export function openSocket(
  to: SocketTarget = {},
): Socket<ServerToClientEvents, ClientToServerEvents> {
  const query: Record<string, string> = {}
  if (to.node) query.node = to.node
  if (to.table) query.table = to.table
  const opts = {
    // Delta updates (issue 17): after the first whole update, what changed at each version.
    auth: { protocol: PROTOCOL_VERSION, deltas: 1 },
    transports: ['websocket', 'polling'],
    // Where websockets are blocked, fall back to long-polling.
    tryAllTransports: true,
    reconnectionDelay: 500,
    reconnectionDelayMax: 4000,
    query,
    // A socket to another node is a connection of its own, never the page's first one.
    forceNew: to.url !== undefined || to.node !== undefined,
  }
  const socket = to.url ? io(to.url, opts) : io(opts)
  watchNetwork(socket)
  return socket
}

/**
 * The browser knows at once when its network is gone ('offline'); socket.io alone notices only
 * when a ping goes unanswered, up to 20 s later, while the page shows a live table and a move
 * seems to be on its way. Closing the transport then makes the socket disconnect now (the page
 * says so) and come back as after any drop, within its reconnection delay once online again.
 */
function watchNetwork(socket: Socket): void {
  if (typeof window === 'undefined') return
  const drop = () => {
    if (socket.connected) socket.io.engine?.close()
  }
  window.addEventListener('offline', drop)
  // A socket closed for good (left for another node) stops listening.
  socket.on('disconnect', (reason) => {
    if (reason === 'io client disconnect') window.removeEventListener('offline', drop)
  })
}

/**
 * Where to go after MOVED (a refusal or `table:gone`): the node's own address if it has one, else
 * the node through the proxy, else any node (which answers MOVED again if it is not the one).
 */
export function movedTargets(
  code: string,
  to: { node?: string; url?: string | null },
): SocketTarget[] {
  const out: SocketTarget[] = []
  if (to.url) out.push({ url: to.url, table: code })
  if (to.node) out.push({ node: to.node, table: code })
  out.push({ table: code })
  return out
}

/** Resolves true once `socket` is connected, false on a refused connection or after `ms`. */
function whenConnected(
  socket: Socket<ServerToClientEvents, ClientToServerEvents>,
  ms: number,
): Promise<boolean> {
  if (socket.connected) return Promise.resolve(true)
  const s = socket as unknown as {
    on(e: string, f: () => void): void
    off(e: string, f: () => void): void
  }
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer)
      s.off('connect', yes)
      s.off('connect_error', no)
      resolve(ok)
    }
    const yes = () => done(true)
    const no = () => done(false)
    const timer = setTimeout(no, ms)
    s.on('connect', yes)
    s.on('connect_error', no)
  })
}

/** How long a new node may take to accept the socket, and the pause before the next choice. */
const MOVE_CONNECT_MS = 5000
const MOVE_BACKOFF_MS = 800
/** Moves in a row (a node named may itself have lost the table meanwhile). */
const MOVE_HOPS = 4

export class TableClient {
  online = $state(false)
  update = $state.raw<TableUpdate | null>(null)
  role = $state<Role | null>(null)
  /** Set when the table needs a decision from the person: join with a name, or watch. */
  needsJoin = $state(false)
  /**
   * Why this page is no longer at the table: a reason of `table:gone`, or 'missing' when the
   * server has no table with this code (a wrong link, or a table a restart took with it).
   */
  gone = $state<TableGone['reason'] | 'missing' | null>(null)
  /** The last refusal, for the page to put into words. */
  error = $state.raw<WireError | null>(null)
  /**
   * A refusal of joining or watching that stays true until one of them succeeds (the table is
   * full, or takes no spectators): the page keeps saying it beside the choice, where `error`
   * passes after a few seconds.
   */
  refusal = $state.raw<WireError | null>(null)
  /** What the join form says before joining (`table:peek`): the game, the seats, watching. */
  peeked = $state.raw<PeekAck | null>(null)
  private peekAsked = false
  /** Whether this seat's game is noted beside its token (for the home page's list). */
  private gameNoted = false
  /** Something the page should tell, that is not a refusal (e.g. a bot came at another level). */
  notice = $state<'botDowngraded' | 'nowHost' | null>(null)
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
  /** Every listener this client holds, to move them to another socket (issue 17, MOVED). */
  private readonly listeners: { event: string; fn: (...args: never[]) => void }[] = []
  private closed = false
  /** The socket is this client's own (opened to follow the table), not the page's. */
  private own = false
  /** A move to another node under way (MOVED), and how it ends: true when it got there. */
  private moving: Promise<boolean> | null = null
  private readonly connect:
    | ((to: SocketTarget) => Socket<ServerToClientEvents, ClientToServerEvents>)
    | null
  /** This browser's contributions to the shuffle, and its witness of each game (issue 14). */
  readonly contribution: Contribution
  private contributing: string | null = null
  /** Seat recoveries started by a lost answer (bounded: the store may stay away a while). */
  private recoveries = 0
  /** A later try at the seat after a passing refusal, and how many were made. */
  private retry: ReturnType<typeof setTimeout> | null = null
  private retries = 0
  /** The whole table asked for after a delta that did not fit, until the answer. */
  private syncing = false

  /**
   * The socket this table speaks through: the page's, or after a move to another node (MOVED,
   * issue 17) one of this client's own. Reactive, so that whatever else listens to it can follow.
   */
  socket = $state.raw<Socket<ServerToClientEvents, ClientToServerEvents>>(null!)

  constructor(
    socket: Socket<ServerToClientEvents, ClientToServerEvents>,
    readonly code: string,
    opts: {
      watch: boolean
      /** Opens a socket of this client's own: how it follows the table to another node. */
      connect?: (to: SocketTarget) => Socket<ServerToClientEvents, ClientToServerEvents>
    },
  ) {
    this.socket = socket
    this.watchWanted = opts.watch
    this.connect = opts.connect ?? null
    this.contribution = new Contribution(code)
    this.online = socket.connected
    this.listen('connect', () => {
      this.online = true
      // A move to another node takes the seat back there itself.
      if (this.moving === null) void this.resume()
    })
    this.listen('disconnect', (reason) => {
      this.online = false
      // A server going down for a restart disconnects on purpose; socket.io does not come back
      // by itself after that, so knock again (the next node, or this one once it is back).
      if (reason === 'io server disconnect')
        setTimeout(() => this.socket.connect(), 500 + Math.random() * 1000)
    })
    this.listen('connect_error', (e: Error) => {
      const code = handshakeRefusal(e)
      if (code) this.error = { code, message: e.message }
    })
    this.listen('table:update', (u) => {
      if (u.table.code === this.code) this.take(u)
    })
    this.listen('table:delta', (d) => {
      if (d.code === this.code) this.takeDelta(d)
    })
    this.listen('table:presence', (p) => {
      if (p.table === this.code) this.presence = p.spectators
    })
    this.listen('table:gone', (g) => {
      if (g.table !== this.code) return
      // Another node serves the table now (issue 17): follow it there.
      if (g.reason === 'moved') {
        void this.relocate(g)
        return
      }
      this.gone = g.reason
      this.role = null
      // Every player left: the table is deleted, and its seat token is worth nothing.
      if (g.reason === 'closed') forgetSeat(this.code)
    })
    if (socket.connected) void this.resume()
  }

  /** An update of this table: shown, unless it is older than the one shown. */
  private take(u: TableUpdate): void {
    const cur = this.update
    // Views arrive in order; never step back to an older version.
    if (cur && u.table.version < cur.table.version) return
    // The log comes as deltas after the first update: append, and fetch the whole tail again
    // if an update was missed (it never is on one connection, but a cluster may reorder). The
    // history panel shows everything since the page opened (keepLog).
    // The host went and the role passed to this player: say so (QA: Start appeared unexplained).
    if (
      cur &&
      u.seat !== null &&
      cur.seat === u.seat &&
      cur.table.host !== u.seat &&
      u.table.host === u.seat
    )
      this.notice = 'nowHost'
    const merged = keepLog(cur?.log ?? [], u)
    this.update = merged.log === u.log ? u : { ...u, log: merged.log }
    this.clockEnds = this.clocks.ends(u.table.deadlines ?? [], turnSecondsOf(u.table), Date.now())
    if (merged.gap) void this.call('table:sync', { table: this.code })
    this.role = u.seat === null ? 'spectator' : 'player'
    this.recoveries = 0
    // A join whose answer was lost (OUTCOME_UNKNOWN) may still have seated us.
    if (u.seat !== null) this.needsJoin = false
    // The home page lists the tables this browser sits at by their game.
    if (u.seat !== null && !this.gameNoted) {
      this.gameNoted = true
      save(gameKey(this.code), gameNote(u.table.game, u.table.seats.length))
    }
    const entropy = this.contribution.observe(u)
    if (entropy !== null) void this.contribute(entropy)
    // The home page lists the games played here, with their replays.
    noteRecentGame(u)
  }

  /**
   * What changed since the version shown (issue 17): applied, and shown if its checksum agrees.
   * One that does not follow on from the version shown, or does not add up, is thrown away and
   * the whole table asked for (once until it comes); an older one is ignored.
   */
  private takeDelta(d: TableDelta): void {
    const cur = this.update
    if (cur && d.version <= cur.table.version) return
    const r = applyDelta(cur, d)
    if (r.ok) this.take(r.update)
    else if (!this.syncing) {
      this.syncing = true
      void this.resync().finally(() => {
        this.syncing = false
      })
    }
  }

  /** Listens to one of the socket's events until {@link close}, on whichever socket it uses. */
  private listen<E extends keyof Events>(event: E, fn: Events[E]): void {
    const l = { event, fn: fn as (...args: never[]) => void }
    this.listeners.push(l)
    this.on(this.socket, l)
  }

  private on(socket: Socket, l: { event: string; fn: (...args: never[]) => void }): void {
    ;(socket as unknown as { on(e: string, f: unknown): void }).on(l.event, l.fn)
  }

  private offAll(socket: Socket): void {
    const s = socket as unknown as { off(e: string, f: unknown): void }
    for (const l of this.listeners) s.off(l.event, l.fn)
  }

  /** Uses `socket` from now on: the listeners move to it, and an own socket left is closed. */
  private use(socket: Socket<ServerToClientEvents, ClientToServerEvents>): void {
    this.offAll(this.socket)
    if (this.own) this.socket.disconnect()
    this.socket = socket
    this.own = true
    for (const l of this.listeners) this.on(socket, l)
    this.online = socket.connected
  }

  /**
   * Another node serves the table (MOVED, issue 17): connect there and take the seat back (or
   * watch again). One move at a time; true once at the table on the node that serves it.
   */
  private relocate(to: { node?: string; url?: string | null }): Promise<boolean> {
    this.moving ??= this.moveTo(to).finally(() => {
      this.moving = null
    })
    return this.moving
  }

  private async moveTo(to: { node?: string; url?: string | null }): Promise<boolean> {
    let next = to
    for (let hop = 0; hop < MOVE_HOPS && !this.closed; hop++) {
      if (!(await this.reach(movedTargets(this.code, next)))) return false
      const again = await this.resumeHere()
      if (again === null) return true
      // The node named did not have the table either (it changed hands again): once more.
      next = again
      await sleep(MOVE_BACKOFF_MS)
    }
    return false
  }

  /**
   * Connects to the first target that answers, in order, pausing between them. The last one
   * (any node) is kept even if it does not answer in time: socket.io keeps trying it, and its
   * `connect` resumes.
   */
  private async reach(targets: readonly SocketTarget[]): Promise<boolean> {
    if (this.connect === null) return false
    for (const [i, to] of targets.entries()) {
      if (this.closed) return false
      this.use(this.connect(to))
      if (await whenConnected(this.socket, MOVE_CONNECT_MS)) return true
      if (i === targets.length - 1) return false
      await sleep(MOVE_BACKOFF_MS)
    }
    return false
  }

  /** Sends this browser's part of the next game's shuffle (issue 14); quietly, it is no command. */
  private async contribute(entropy: string): Promise<void> {
    if (this.contributing === entropy || !this.socket.connected) return
    this.contributing = entropy
    await emitWithAck(this.socket, 'table:entropy', { table: this.code, entropy })
    this.contributing = null
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

  /**
   * This player is shown to the others as away in a game in play (I-16: the timer ran out for
   * them twice in a row), and so may have their seat handed to a bot or be made to forfeit; a
   * move of their own brings them back.
   */
  get shownAway(): boolean {
    const u = this.update
    if (u === null || u.seat === null || u.table.status !== 'playing') return false
    const s = u.table.seats[u.seat]
    return s?.away === true && (s.bot ?? null) === null && s.connected
  }

  /** After (re)connecting: reclaim the seat with its token, or watch again, or ask. */
  async resume(): Promise<void> {
    const moved = await this.resumeHere()
    if (moved !== null) await this.relocate(moved)
  }

  /** {@link resume} on this socket's node; returns the MOVED refusal if another node serves it. */
  private async resumeHere(): Promise<WireError | null> {
    if (this.gone !== null) return null
    const token = this.token
    if (token) {
      const r = await this.call('table:reclaim', { table: this.code, token })
      if (r.ok) {
        this.needsJoin = false
        this.retries = 0
        if (this.retry !== null) clearTimeout(this.retry)
        this.retry = null
        return null
      }
      if (r.error.code === 'MOVED') return r.error
      if (TRANSIENT.has(r.error.code)) this.resumeLater()
      if (r.error.code !== 'BAD_TOKEN') return null
      forgetSeat(this.code)
    }
    if (this.watchWanted || this.role === 'spectator') {
      if (await this.watch()) return null
      if (this.error?.code === 'MOVED') return this.error
      if (TRANSIENT.has(this.error?.code ?? '')) this.resumeLater()
      // A watch link to a table that takes no spectators: it may still have a seat.
      if (this.error?.code === 'SPECTATORS_OFF' && this.role === null) this.askJoin()
      return null
    }
    this.askJoin()
    return null
  }

  /**
   * Shows the join form, and asks once what it leads to (a table that is gone shows at once;
   * each ask counts against the lookup limit, so a form shown again asks no more).
   */
  private askJoin(): void {
    this.needsJoin = true
    if (this.peekAsked) return
    this.peekAsked = true
    void this.peek()
  }

  /**
   * `table:peek`, quietly: the form works without it, so a refusal (the lookup limit) shows
   * nothing, except that the table is gone. Another node serving the table (MOVED): the page
   * goes there now, as the join would, and asks there (the form then names the game).
   */
  private async peek(): Promise<void> {
    if (!this.socket.connected) return
    const r = await emitWithAck(this.socket, 'table:peek', { table: this.code })
    if (r.ok) this.peeked = r as unknown as PeekAck
    else if (r.error.code === 'MOVED' && this.moving === null) {
      this.peekAsked = false
      void this.relocate(r.error)
    } else if (r.error.code === 'NO_SUCH_TABLE' && this.needsJoin && this.gone === null)
      this.missing()
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
    const entropy = this.contribution.send()
    const r = await this.call('table:join', { table: this.code, name, entropy })
    if (!r.ok) {
      if (r.error.code === 'TABLE_FULL') this.refusal = r.error
      return false
    }
    this.refusal = null
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
      this.refusal = null
      return true
    }
    if (r.error.code === 'SPECTATORS_OFF') this.refusal = r.error
    return false
  }

  /** The server has no table with this code: nothing more can be done here but go home. */
  private missing(): void {
    this.gone = 'missing'
    this.role = null
    this.needsJoin = false
    this.error = null
    this.refusal = null
    forgetSeat(this.code)
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
    const entropy = this.contribution.send()
    return this.ok('table:start', { table: this.code, version: this.version, entropy })
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
    if (ok) forgetSeat(this.code)
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
      let r = await emitWithAck(this.socket, event, payload)
      // Another node serves the table (issue 17): go there, take the seat back, send it again.
      // (A reclaim or a watch is that taking back: resumeHere follows it.)
      if (
        !r.ok &&
        r.error.code === 'MOVED' &&
        event !== 'table:reclaim' &&
        event !== 'table:watch' &&
        (await this.relocate(r.error))
      )
        r = await emitWithAck(this.socket, event, payload)
      this.error = r.ok ? null : r.error
      if (!r.ok && r.error.code === 'NO_SUCH_TABLE' && event !== 'table:create') this.missing()
      else if (!r.ok) this.afterRefusal(event, r.error)
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
      if (r.error.code === 'MOVED') {
        void this.relocate(r.error)
        return
      }
      if (r.error.code === 'NO_SUCH_TABLE') {
        this.missing()
        return
      }
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
    this.closed = true
    this.offAll(this.socket)
    this.listeners.length = 0
    if (this.own) this.socket.disconnect()
    if (this.retry !== null) clearTimeout(this.retry)
    this.retry = null
  }
}

/** Creates a table: the creator takes seat 0 and becomes host. Returns the code, or an error. */
export async function createTable(
  socket: Socket<ServerToClientEvents, ClientToServerEvents>,
  msg: CreateTableInput,
): Promise<{ ok: true; code: string } | { ok: false; error: WireError }> {
  // This browser's part of the first game's shuffle (issue 14).
  const entropy = msg.entropy ?? drawEntropy()
  const r = await emitWithAck(socket, 'table:create', { ...msg, entropy })
  if (!r.ok) return r
  const code = String(r.table)
  save(tokenKey(code), String(r.token))
  save(gameKey(code), msg.game)
  Contribution.created(code, entropy)
  return { ok: true, code }
}

/**
 * Practice in one tap: a four-seat Idiot table with three bots, started at once (issue 7),
 * without a turn timer (nobody waits for the player but bots; the host can still set one).
 * Returns the code, or the refusal that stopped the table being made.
 */
export async function practiseTable(
  socket: Socket<ServerToClientEvents, ClientToServerEvents>,
  name: string,
  level: 'easy' | 'normal' | 'hard' = 'normal',
): Promise<{ ok: true; code: string } | { ok: false; error: WireError }> {
  const created = await createTable(socket, {
    game: 'idiot',
    name,
    options: { seats: 4, turnSeconds: null },
  })
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
