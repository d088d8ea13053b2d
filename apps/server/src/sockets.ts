import type { Seat } from '@kortbord/engine'
import {
  type AckFn,
  type ChatMessage,
  type ChatReaction,
  CLIENT_MESSAGES,
  type ClientEvent,
  type ClientToServerEvents,
  type CreateTableMsg,
  PROTOCOL_VERSION,
  parseClientMessage,
  type Reaction,
  type ServerToClientEvents,
  type StartGameMsg,
  type TableUpdate,
  type WireError,
} from '@kortbord/protocol'
import type { Logger } from 'pino'
import type { Server, Socket } from 'socket.io'
import { ChatLimit } from './chat.ts'
import type { Config } from './config.ts'
import type { Hub } from './hub.ts'
import { clientAddress, type Limits } from './limits.ts'
import type { Metrics } from './metrics.ts'
import { type NodeAddress, TableMoved } from './ownership.ts'
import type { Presence } from './presence.ts'
import { type Outcome, type Table, TableGone } from './table.ts'
import { YIELDING, Yielding } from './yielding.ts'

export interface SocketData {
  /** The tables this connection is at. */
  tables: Set<string>
  /** It asked for delta updates in the handshake (issue 17). */
  deltas: boolean
  /** The client's address, as limits count it. */
  address: string
}

/** Nothing passes between nodes through socket.io: a table's members are all on its owner. */
type InterServerEvents = Record<string, never>

export type KortbordServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  InterServerEvents,
  SocketData
>
type KortbordSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  InterServerEvents,
  SocketData
>

const refuse = (code: string, message: string): { ok: false; error: WireError } => ({
  ok: false,
  error: { code, message },
})

/** A token bucket: `burst` messages at once, refilled at `perSecond`. */
class Bucket {
  private tokens: number
  private last = performance.now()
  strikes = 0

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
  ) {
    this.tokens = burst
  }

  take(): boolean {
    const now = performance.now()
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond)
    this.last = now
    if (this.tokens >= 1) {
      this.tokens -= 1
      // Good behaviour slowly forgives earlier strikes.
      if (this.strikes > 0 && this.tokens >= this.burst / 2) this.strikes = 0
      return true
    }
    this.strikes++
    return false
  }
}

/**
 * The socket.io room of a table's seat, or of its spectators (null); with `deltas`, the room of
 * those members who take delta updates.
 */
export const roomOf = (code: string, seat: Seat | null, deltas = false): string =>
  `t:${code}:${seat === null ? 'w' : seat}${deltas ? ':d' : ''}`

/**
 * Connects tables to socket.io rooms. Every member's socket is in the room of its seat (or the
 * spectators' room) on the table's owner, this node (no cluster adapter: issue 17); an update is
 * sent to each room that has a socket in it.
 */
export function roomsFor(io: () => KortbordServer | null) {
  const roomsOfTable = (code: string, seats: number): string[] =>
    [false, true].flatMap((d) => [
      roomOf(code, null, d),
      ...Array.from({ length: seats }, (_, i) => roomOf(code, i, d)),
    ])
  return {
    publish(t: Table, welcome?: { member: string; seat: Seat | null }): void {
      const server = io()
      if (!server) return
      // Each room gets this version (its log as a delta), except a connection just admitted: it
      // gets the whole update. Members who take deltas get what changed, when this node can say.
      // A room with nobody in it (but the newcomer) is skipped: socket.io would serialise the
      // update before finding the room empty, and nothing would be built for it.
      const rooms = server.of('/').adapter.rooms
      const send = (seat: Seat | null) => {
        // A change this viewer cannot see (a same-deal opponent's move: shown.ts) is not sent.
        if (!t.sees(seat)) return
        const but = welcome && welcome.seat === seat ? welcome.member : null
        const occupied = (name: string): boolean => {
          const room = rooms.get(name)
          return room !== undefined && room.size > (but !== null && room.has(but) ? 1 : 0)
        }
        const to = (name: string) => (but ? server.to(name).except(but) : server.to(name))
        const whole = roomOf(t.code, seat)
        if (occupied(whole)) to(whole).emit('table:update', t.updateFor(seat))
        const deltas = roomOf(t.code, seat, true)
        if (!occupied(deltas)) return
        const d = t.deltaFor(seat)
        if (d) to(deltas).emit('table:delta', d)
        else to(deltas).emit('table:update', t.updateFor(seat))
      }
      for (let seat = 0; seat < t.seatCount; seat++) send(seat)
      send(null)
      if (welcome) server.to(welcome.member).emit('table:update', t.updateFor(welcome.seat, true))
    },
    attach(member: string, code: string, seat: Seat | null): void {
      const server = io()
      if (!server) return
      const local = server.sockets.sockets.get(member)
      if (local) {
        local.data.tables.add(code)
        void local.join(roomOf(code, seat, local.data.deltas))
      }
    },
    detach(member: string, code: string): void {
      const server = io()
      if (!server) return
      const local = server.sockets.sockets.get(member)
      if (local) {
        local.data.tables.delete(code)
        for (const r of roomsOfTable(code, 4)) void local.leave(r)
      }
    },
    evict(
      member: string,
      code: string,
      reason: 'replaced' | 'closed' | 'moved',
      to?: NodeAddress,
    ): void {
      const server = io()
      if (!server) return
      server.to(member).emit('table:gone', {
        table: code,
        reason,
        ...(to ? { node: to.node, url: to.url } : {}),
      })
      this.detach(member, code)
    },
    send(member: string, update: TableUpdate): void {
      io()?.sockets.sockets.get(member)?.emit('table:update', update)
    },
    /** The spectator count, to every member of the table on every node (presence). */
    spectatorsAll(code: string, spectators: number): void {
      io()?.to(roomsOfTable(code, 4)).emit('table:presence', { table: code, spectators })
    },
    spectatorsTo(member: string, code: string, spectators: number): void {
      io()?.sockets.sockets.get(member)?.emit('table:presence', { table: code, spectators })
    },
    /** A chat message or reaction, to every member of its table on every node. */
    chat: {
      message(m: ChatMessage): void {
        io()?.to(roomsOfTable(m.table, 4)).emit('chat:message', m)
      },
      reaction(r: ChatReaction): void {
        io()?.to(roomsOfTable(r.table, 4)).emit('chat:reaction', r)
      },
      history(member: string, code: string, messages: readonly ChatMessage[]): void {
        io()?.sockets.sockets.get(member)?.emit('chat:history', { table: code, messages })
      },
    },
  }
}

export interface SocketDeps {
  readonly hub: Hub
  readonly config: Config
  readonly log: Logger
  readonly metrics: Metrics
  readonly limits: Limits
  readonly presence: Presence
  /** Which proxies to believe about client addresses (TRUST_PROXY), or null. */
  readonly trust: ((addr: string, i: number) => boolean) | null
  isClosing(): boolean
}

/**
 * The socket.io adapter: parses every message by its schema, rate-limits, calls the table and
 * answers with an acknowledgement. Nothing a client sends can throw past this layer.
 */
export function attachSockets(io: KortbordServer, deps: SocketDeps): void {
  const { hub, config, log, metrics, isClosing } = deps
  const yielding = new Yielding()
  io.use((socket, next) => {
    const auth = socket.handshake.auth as { protocol?: unknown } | undefined
    const v = auth?.protocol
    if (v !== PROTOCOL_VERSION) {
      const e = new Error('PROTOCOL_MISMATCH') as Error & { data?: unknown }
      e.data = {
        code: 'PROTOCOL_MISMATCH',
        message: `this server speaks protocol ${PROTOCOL_VERSION}`,
      }
      next(e)
      return
    }
    next()
  })

  io.on('connection', (socket: KortbordSocket) => {
    socket.data.tables = new Set()
    socket.data.address = clientAddress(socket.request, deps.trust)
    socket.data.deltas = (socket.handshake.auth as { deltas?: unknown } | undefined)?.deltas === 1
    const bucket = new Bucket(config.rate.burst, config.rate.perSecond)

    const limited = (): boolean => {
      if (bucket.take()) return false
      // Messages already read from the wire still arrive after the disconnect: they are refused
      // as before, but the warning is written once per connection.
      if (bucket.strikes >= config.rate.strikes && socket.connected) {
        log.warn({ socket: socket.id }, 'rate limit: disconnecting')
        socket.disconnect(true)
      }
      return true
    }

    socket.onAny((event: unknown, ...args: unknown[]) => {
      if (typeof event === 'string' && Object.hasOwn(CLIENT_MESSAGES, event)) return
      metrics.command('unknown', 0, 'UNKNOWN_EVENT')
      if (limited()) return
      const ack = args[args.length - 1]
      const error = {
        code: 'UNKNOWN_EVENT',
        message: `there is no event ${String(event).slice(0, 40)}`,
      }
      if (typeof ack === 'function') safeAck(ack as AckFn, { ok: false, error })
      else socket.emit('protocol:error', error)
    })

    const commands = commandsFor(socket, deps)
    for (const event of Object.keys(CLIENT_MESSAGES) as ClientEvent[]) {
      socket.on(event, (...args: unknown[]) => {
        const started = performance.now()
        const last = args[args.length - 1]
        const ack: AckFn | null = typeof last === 'function' ? (last as AckFn) : null
        const answer = (res: Outcome<object>): void => {
          const code = res.ok ? null : res.error.code
          metrics.command(event, (performance.now() - started) / 1000, code)
          if (ack) safeAck(ack, res)
          else if (!res.ok) socket.emit('protocol:error', res.error)
        }
        if (limited()) {
          answer(refuse('RATE_LIMITED', 'too many messages; slow down'))
          return
        }
        if (!ack) {
          answer(refuse('NO_ACK', `${event} needs an acknowledgement callback`))
          return
        }
        if (isClosing()) {
          answer(refuse('SHUTTING_DOWN', 'the server is restarting; reconnect in a moment'))
          return
        }
        const start = (): void => {
          commands(event, args.length > 1 ? args[0] : undefined)
            .then(answer)
            .catch((e: unknown) => answer(failure(e, event)))
        }
        if (!YIELDING.has(event) && !yielding.busy(socket.id)) {
          start()
          return
        }
        // Presence waits its turn behind play (src/yielding.ts); a connection gone meanwhile
        // is not made to watch anything.
        const queued = yielding.defer(socket.id, () => {
          if (socket.connected) start()
        })
        if (!queued) answer(refuse('RATE_LIMITED', 'the server is busy; try again in a moment'))
      })
    }

    /** An exception out of a command, as an answer. */
    function failure(e: unknown, event: string): Outcome {
      if (e instanceof TableGone) return refuse('NO_SUCH_TABLE', 'that table is no more')
      if (e instanceof TableMoved) return moved(e)
      // The store failing under a command (a load, a reload) is an outage, not a bug: a load
      // changes nothing.
      if (e instanceof Error && e.name === 'StoreUnavailable')
        return refuse('UNAVAILABLE', 'the tables cannot be reached just now; try again in a moment')
      log.error({ err: e, event }, 'handler failed')
      return refuse('INTERNAL', 'something went wrong on the server; nothing was changed')
    }

    socket.on('disconnect', () => {
      // A node shutting down does not mark its players away: they reconnect (to another node,
      // or this one when it is back) and reclaim their seats, and a node that never comes back
      // is found out by its missing heartbeat (the liveness loop). Recording thousands of
      // disconnects while the store closes would only fail.
      if (!isClosing()) {
        for (const code of socket.data.tables) {
          hub
            .get(code)
            .then((t) => t?.disconnect(socket.id))
            .catch((e: unknown) => log.debug({ err: e }, 'disconnect of an unloadable table'))
        }
      }
      socket.data.tables.clear()
    })
  })
}

/** The commands of one connection: each parsed, limited and passed to its table. */
function commandsFor(socket: KortbordSocket, deps: SocketDeps) {
  const { hub, config, limits, metrics } = deps
  const id = socket.id
  /** Chat and reactions: a few at once, then one every 3 s (issue 15). */
  const chatLimit = new ChatLimit()

  async function table(code: string): Promise<Table | Outcome> {
    const t = await hub.get(code)
    return t ?? refuse('NO_SUCH_TABLE', `there is no table ${code}`)
  }
  const isTable = (x: Table | Outcome): x is Table => !('ok' in x)

  /** A refusal by a limit, counted by the limit's name. */
  const limitedBy = (name: string, e: WireError): Outcome => {
    metrics.limited(name)
    return { ok: false, error: e }
  }

  // Tables being joined right now count too, so that a burst of joins cannot exceed the limit.
  let pending = 0
  function roomForMore(): Outcome | null {
    return socket.data.tables.size + pending >= config.maxTablesPerConnection
      ? refuse(
          'TOO_MANY_TABLES',
          `one connection can be at ${config.maxTablesPerConnection} tables at most`,
        )
      : null
  }

  async function create(msg: CreateTableMsg): Promise<Outcome<object>> {
    const full = roomForMore()
    if (full) return full
    pending++
    try {
      const over = await limits.create(socket.data.address)
      if (over) return limitedBy('tables_per_address', over)
      const r = await hub.create(id, msg)
      if (!r.ok && r.error.code === 'SERVER_FULL') metrics.limited('tables_per_node')
      if (r.ok) {
        socket.data.tables.add(r.table)
        // The creator may have gone while the table was being saved.
        if (!socket.connected) void hub.get(r.table).then((t) => t?.disconnect(id))
      }
      return r
    } finally {
      pending--
    }
  }

  async function enter(
    event: 'table:join' | 'table:watch' | 'table:reclaim',
    msg: { table: string; name?: string; token?: string; entropy?: string },
  ): Promise<Outcome<object>> {
    // Every code looked up counts, found or not: scanning codes is hopeless (finding 6).
    const over = await limits.lookup(socket.data.address)
    if (over) return limitedBy('lookups_per_address', over)
    const t = await table(msg.table)
    if (!isTable(t)) return t
    const counted = !socket.data.tables.has(t.code)
    const full = counted ? roomForMore() : null
    if (full) return full
    if (counted) pending++
    const r = await (event === 'table:join'
      ? t.join(id, msg.name ?? '', msg.entropy)
      : event === 'table:watch'
        ? t.watch(id)
        : t.reclaim(id, msg.token ?? '')
    ).finally(() => {
      if (counted) pending--
    })
    if (!r.ok && r.error.code === 'SPECTATORS_FULL') metrics.limited('spectators_per_table')
    if (r.ok) {
      socket.data.tables.add(t.code)
      if (!socket.connected) void t.disconnect(id)
    }
    return r.ok ? shownAck(t, { ...r, table: t.code } as Outcome<object>, t.memberSeat(id)) : r
  }

  /**
   * What the join form may show before joining (PeekAck). A lookup like join's and watch's: it
   * counts against the same limit, so peeking cannot scan codes either; the connection does not
   * join the table.
   */
  async function peek(code: string): Promise<Outcome<object>> {
    const over = await limits.lookup(socket.data.address)
    if (over) return limitedBy('lookups_per_address', over)
    const t = await table(code)
    if (!isTable(t)) return t
    return { ok: true, version: t.shownVersion(null), ...t.peek() }
  }

  /**
   * A command on a table the connection is at: the table's method, or the refusal. A connection
   * that is not at the table is refused before the table is looked up, loaded or resumed, with
   * the same answer whether the code exists or not (issue 13: authorization before work; only
   * join, watch and reclaim look a code up, and they count against the lookup limit). MOVED
   * follows from the code alone, so it tells an outsider nothing either.
   */
  async function on(
    code: string,
    run: (t: Table) => Promise<Outcome<object>>,
  ): Promise<Outcome<object>> {
    if (!socket.data.tables.has(code)) {
      hub.route(code)
      return refuse('NOT_AT_TABLE', 'you are not at this table')
    }
    const t = await table(code)
    if (!isTable(t)) return t
    const seat = t.memberSeat(id)
    const out = await run(t)
    return shownAck(t, out, seat !== undefined ? seat : t.memberSeat(id))
  }

  /**
   * An ok answer's version as the member's seat is shown it (shown.ts): with versions per viewer
   * the table's own would count the changes that seat cannot see.
   */
  function shownAck(t: Table, out: Outcome<object>, seat: Seat | null | undefined) {
    if (!out.ok || !('version' in out) || seat === undefined) return out
    return { ...out, version: t.shownVersion(seat) }
  }

  return async function handle(event: ClientEvent, payload: unknown): Promise<Outcome<object>> {
    const parsed = parseClientMessage(event, payload)
    if (!parsed.ok) return { ok: false, error: parsed.error }
    const msg = parsed.value as Record<string, never> & {
      table: string
      version: number
      seat: number
    }
    switch (event) {
      case 'table:create':
        return create(parsed.value as CreateTableMsg)
      case 'table:join':
      case 'table:watch':
      case 'table:reclaim':
        return enter(event, msg)
      case 'table:leave':
        return on(msg.table, async (t) => {
          const r = await t.leave(id)
          if (r.ok) socket.data.tables.delete(t.code)
          return r
        })
      case 'table:start':
        return on(msg.table, (t) => {
          const m = parsed.value as StartGameMsg
          return t.start(id, msg.version, m.deal, m.entropy)
        })
      case 'table:bot': {
        const level = (parsed.value as { level: 'easy' | 'normal' | 'hard' }).level
        return on(msg.table, (t) => t.seatBot(id, msg.version, msg.seat, level))
      }
      case 'table:timer': {
        const seconds = (parsed.value as { turnSeconds: number | null }).turnSeconds
        return on(msg.table, (t) => t.setTimer(id, msg.version, seconds))
      }
      case 'table:forfeit':
        return on(msg.table, (t) => t.forfeit(id, msg.version, msg.seat))
      case 'table:rematch': {
        const entropy = (parsed.value as { entropy?: string }).entropy
        return on(msg.table, (t) => t.rematch(id, msg.version, entropy))
      }
      case 'table:chat': {
        const on_ = (parsed.value as { spectatorChat: boolean }).spectatorChat
        return on(msg.table, (t) => t.setSpectatorChat(id, msg.version, on_))
      }
      case 'chat:send':
      case 'chat:react': {
        if (!chatLimit.take()) {
          metrics.limited('chat')
          return refuse('CHAT_RATE_LIMITED', 'a message every few seconds at most; wait a moment')
        }
        const p = parsed.value as { text?: string; reaction?: Reaction }
        return on(msg.table, async (t) =>
          event === 'chat:send' ? t.say(id, p.text ?? '') : t.react(id, p.reaction ?? 'gg'),
        )
      }
      case 'table:entropy': {
        const entropy = (parsed.value as { entropy: string }).entropy
        return on(msg.table, (t) => t.setEntropy(id, entropy))
      }
      case 'table:remove':
        return on(msg.table, (t) => t.remove(id, msg.version, msg.seat))
      case 'game:move':
        return on(msg.table, (t) =>
          t.move(id, msg.version, (parsed.value as { move: unknown }).move),
        )
      case 'table:peek':
        return peek(msg.table)
      case 'table:sync':
        return on(msg.table, async (t) => {
          const seat = t.memberSeat(id)
          if (seat === undefined) return refuse('NOT_AT_TABLE', 'you are not at this table')
          socket.emit('table:update', t.updateFor(seat, true))
          t.resent(id)
          return { ok: true, version: t.shownVersion(seat) }
        })
    }
  }
}

/** MOVED: another node serves the table; the client goes there and comes back in (issue 17). */
function moved(e: TableMoved): Outcome {
  return {
    ok: false,
    error: {
      code: 'MOVED',
      message: 'another server serves this table; connecting there',
      node: e.owner.node,
      url: e.owner.url,
    },
  }
}

function safeAck(ack: AckFn, res: Outcome<object>): void {
  try {
    ack(res as Parameters<AckFn>[0])
  } catch {
    // A broken callback is the client's problem, never the server's.
  }
}
