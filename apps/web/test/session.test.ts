// The table client against a scripted socket: what it does with the server's answers and events.
import {
  type Ack,
  checksum,
  type GameView,
  type TableDelta,
  type TableInfo,
  type TableUpdate,
} from '@kortbord/protocol/wire'
import type { Socket } from 'socket.io-client'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { handshakeRefusal, practiseTable, TableClient } from '../src/lib/session.svelte.ts'

type Handler = (...args: unknown[]) => void
type Answer = (payload: Record<string, unknown>) => Ack<Record<string, unknown>>

/** A socket whose acknowledgements come from `answers`, recording what was sent. */
class ScriptedSocket {
  connected = true
  readonly sent: { event: string; payload: Record<string, unknown> }[] = []
  readonly answers = new Map<string, Answer[]>()
  private readonly handlers = new Map<string, Set<Handler>>()

  on(event: string, fn: Handler) {
    if (!this.handlers.has(event)) this.handlers.set(event, new Set())
    this.handlers.get(event)!.add(fn)
  }
  off(event: string, fn: Handler) {
    this.handlers.get(event)?.delete(fn)
  }
  listeners(event: string): number {
    return this.handlers.get(event)?.size ?? 0
  }
  fire(event: string, ...args: unknown[]) {
    for (const fn of this.handlers.get(event) ?? []) fn(...args)
  }
  answer(event: string, ...answers: Answer[]) {
    this.answers.set(event, [...(this.answers.get(event) ?? []), ...answers])
  }
  timeout() {
    return {
      emitWithAck: async (event: string, payload: Record<string, unknown>) => {
        this.sent.push({ event, payload })
        const next = this.answers.get(event)?.shift()
        if (!next) throw new Error(`no answer scripted for ${event}`)
        return next(payload)
      },
    }
  }
}

const ok =
  (extra: Record<string, unknown> = {}): Answer =>
  () => ({ ok: true, version: 1, ...extra })
const refuse =
  (code: string): Answer =>
  () => ({ ok: false, error: { code, message: code } })

/** A table as the server describes it (only what the client reads here is filled in). */
function info(over: Partial<TableInfo> = {}): TableInfo {
  const seat = { connected: true, away: false, graceUntil: null, gone: false, bot: null }
  return {
    code: 'ABCDEF',
    game: 'idiot',
    settings: { seats: 2, turnSeconds: 30 },
    host: 0,
    seats: [
      { name: 'Astrid', ...seat },
      { name: 'Bo', ...seat },
    ],
    spectators: 0,
    allowSpectators: true,
    status: 'waiting',
    gameNo: 0,
    tally: [0, 0],
    deadline: null,
    deadlines: [null, null],
    version: 3,
    ...over,
  } as TableInfo
}
const update = (seat: number | null, over: Partial<TableInfo> = {}): TableUpdate => ({
  table: info(over),
  seat,
  view: null,
  log: [],
  logAfter: null,
})

const flush = () => new Promise((r) => setTimeout(r, 0))

function client(socket: ScriptedSocket, watch = false): TableClient {
  return new TableClient(socket as unknown as Socket, 'ABCDEF', { watch })
}

describe('the table client', () => {
  let socket: ScriptedSocket
  beforeEach(() => {
    socket = new ScriptedSocket()
    // No stored token in node: a spectator link watches at once.
    socket.answer('table:watch', ok())
  })

  it('shows the spectator count of table:presence, which updates do not follow', async () => {
    const c = client(socket, true)
    await flush()
    socket.fire('table:update', update(null, { spectators: 1 }))
    expect(c.spectators).toBe(1)
    socket.fire('table:presence', { table: 'ABCDEF', spectators: 4 })
    expect(c.spectators).toBe(4)
    // Another table's count, and a later update carrying this node's count, change nothing.
    socket.fire('table:presence', { table: 'ZZZZZZ', spectators: 9 })
    socket.fire('table:update', update(null, { spectators: 1, version: 4 }))
    expect(c.spectators).toBe(4)
  })

  it('asks for the table again after OUTCOME_UNKNOWN, and does not send the move again', async () => {
    const c = client(socket, true)
    await flush()
    socket.fire('table:update', update(0, { status: 'playing' }))
    socket.answer('game:move', refuse('OUTCOME_UNKNOWN'))
    socket.answer('table:sync', refuse('UNAVAILABLE'), ok())
    expect(await c.move({ type: 'pickup' })).toBe(false)
    expect(c.error?.code).toBe('OUTCOME_UNKNOWN')
    await expect.poll(() => socket.sent.filter((s) => s.event === 'table:sync').length).toBe(2)
    expect(socket.sent.filter((s) => s.event === 'game:move')).toHaveLength(1)
    // The refusal stays on screen: the sync's own answers do not replace it.
    expect(c.error?.code).toBe('OUTCOME_UNKNOWN')
  })

  it('does not ask again after a refusal that guarantees nothing changed', async () => {
    const c = client(socket, true)
    await flush()
    socket.fire('table:update', update(0, { status: 'playing' }))
    socket.answer('game:move', refuse('UNAVAILABLE'))
    await c.move({ type: 'pickup' })
    await flush()
    expect(socket.sent.map((s) => s.event)).toEqual(['table:watch', 'game:move'])
  })

  it('[I-16] knows when a bot plays its seat', async () => {
    const c = client(socket, true)
    await flush()
    socket.fire('table:update', update(1, { status: 'playing' }))
    expect(c.botPlaying).toBe(false)
    const seats = info().seats.map((s, i) => (i === 1 ? { ...s, bot: 'normal' as const } : s))
    socket.fire('table:update', update(1, { status: 'playing', seats, version: 4 }))
    expect(c.botPlaying).toBe(true)
    // A spectator never has a bot of its own.
    socket.fire('table:update', update(null, { status: 'playing', seats, version: 5 }))
    expect(c.botPlaying).toBe(false)
  })

  it('[I-16] sends the timer, the forfeit and the bot against the version it shows', async () => {
    const c = client(socket, true)
    await flush()
    socket.fire('table:update', update(0, { status: 'playing', version: 7 }))
    socket.answer('table:timer', ok())
    socket.answer('table:forfeit', ok())
    socket.answer('table:bot', ok({ level: 'normal' }), ok({ level: 'hard' }))
    expect(await c.setTimer(45)).toBe(true)
    expect(await c.forfeit(1)).toBe(true)
    expect(await c.seatBot(1, 'normal')).toBe(true)
    expect(c.notice).toBeNull()
    expect(await c.seatBot(1, 'hard')).toBe(true)
    expect(c.notice).toBeNull()
    socket.answer('table:bot', ok({ level: 'normal' }))
    await c.seatBot(1, 'hard')
    expect(c.notice).toBe('botDowngraded')
    expect(socket.sent.slice(1, 3).map((s) => s.payload)).toEqual([
      { table: 'ABCDEF', version: 7, turnSeconds: 45 },
      { table: 'ABCDEF', version: 7, seat: 1 },
    ])
  })

  it('a closed table is gone for good: no reconnect brings it back', async () => {
    const c = client(socket, true)
    await flush()
    socket.fire('table:gone', { table: 'ABCDEF', reason: 'closed' })
    expect(c.gone).toBe('closed')
    expect(c.role).toBeNull()
    const before = socket.sent.length
    socket.fire('connect')
    await flush()
    expect(socket.sent.length).toBe(before)
  })

  it('stops listening when closed (an old table page never acts on a reconnect)', async () => {
    const c = client(socket, true)
    await flush()
    expect(socket.listeners('connect')).toBe(1)
    c.close()
    for (const e of [
      'connect',
      'disconnect',
      'table:update',
      'table:delta',
      'table:presence',
      'table:gone',
    ])
      expect(socket.listeners(e), e).toBe(0)
  })

  it('reads why the server refused the socket', () => {
    expect(handshakeRefusal(new Error('PROTOCOL_MISMATCH'))).toBe('PROTOCOL_MISMATCH')
    const polling = Object.assign(new Error('xhr poll error'), {
      context: { responseText: '{"code":4,"message":"TOO_MANY_CONNECTIONS: one address may…"}' },
    })
    expect(handshakeRefusal(polling)).toBe('TOO_MANY_CONNECTIONS')
    expect(handshakeRefusal(new Error('websocket error'))).toBeNull()
  })

  it('after a join whose answer was lost and that did not seat it, asks for the name again', async () => {
    const c = client(socket)
    await flush()
    expect(c.needsJoin).toBe(true)
    socket.answer('table:join', refuse('OUTCOME_UNKNOWN'))
    socket.answer('table:sync', refuse('NOT_AT_TABLE'))
    expect(await c.join('Bo')).toBe(false)
    // The form asked what the link leads to once (table:peek), and not again when shown again.
    await expect
      .poll(() => socket.sent.map((x) => x.event))
      .toEqual(['table:peek', 'table:join', 'table:sync'])
    expect(c.needsJoin).toBe(true)
    expect(c.error?.code).toBe('OUTCOME_UNKNOWN')
  })

  it('reclaims again after a lost answer, but not for ever while the store stays away', async () => {
    const stored = new Map([['kortbord.seat.ABCDEF', 'T'.repeat(43)]])
    const g = globalThis as { localStorage?: unknown }
    g.localStorage = {
      getItem: (k: string) => stored.get(k) ?? null,
      setItem: (k: string, v: string) => stored.set(k, v),
      removeItem: (k: string) => stored.delete(k),
    }
    try {
      for (let i = 0; i < 8; i++) {
        socket.answer('table:reclaim', refuse('OUTCOME_UNKNOWN'))
        socket.answer('table:sync', refuse('NOT_AT_TABLE'))
      }
      client(socket)
      const reclaims = () => socket.sent.filter((x) => x.event === 'table:reclaim').length
      await expect.poll(reclaims).toBe(4)
      await new Promise((r) => setTimeout(r, 50))
      expect(reclaims()).toBe(4)
      // The token is kept: the seat may well be there once the store is back.
      expect(stored.size).toBe(1)
    } finally {
      delete g.localStorage
    }
  })

  describe('with a seat token', () => {
    const stored = new Map<string, string>()
    const g = globalThis as { localStorage?: unknown }
    beforeEach(() => {
      stored.clear()
      stored.set('kortbord.seat.ABCDEF', 'T'.repeat(43))
      g.localStorage = {
        getItem: (k: string) => stored.get(k) ?? null,
        setItem: (k: string, v: string) => stored.set(k, v),
        removeItem: (k: string) => stored.delete(k),
      }
      vi.useFakeTimers()
    })
    afterEach(() => {
      vi.useRealTimers()
      delete g.localStorage
    })

    it('takes the seat back a little later when the server says "not now"', async () => {
      socket.answer('table:reclaim', refuse('TOO_MANY_LOOKUPS'), refuse('UNAVAILABLE'), ok())
      const c = client(socket)
      const reclaims = () => socket.sent.filter((x) => x.event === 'table:reclaim').length
      await vi.advanceTimersByTimeAsync(0)
      expect(reclaims()).toBe(1)
      await vi.advanceTimersByTimeAsync(999)
      expect(reclaims()).toBe(1)
      await vi.advanceTimersByTimeAsync(1)
      expect(reclaims()).toBe(2)
      await vi.advanceTimersByTimeAsync(2000)
      expect(reclaims()).toBe(3)
      expect(c.error).toBeNull()
      expect(c.needsJoin).toBe(false)
      // A refusal that says "no" is not tried again.
      socket.answer('table:reclaim', refuse('ALREADY_AT_TABLE'))
      void c.resume()
      await vi.advanceTimersByTimeAsync(60_000)
      expect(reclaims()).toBe(4)
    })

    it('notes the game of the seat beside its token for the home page, and forgets both with the seat', async () => {
      socket.answer('table:reclaim', ok())
      const c = client(socket)
      await vi.advanceTimersByTimeAsync(0)
      socket.fire('table:update', update(0))
      // With its seats (Klockan för två and Idioten alone are named by them).
      expect(stored.get('kortbord.game.ABCDEF')).toBe('idiot:2')
      // The table closes for good: the seat and its note go.
      socket.fire('table:gone', { table: 'ABCDEF', reason: 'closed' })
      expect(stored.has('kortbord.seat.ABCDEF')).toBe(false)
      expect(stored.has('kortbord.game.ABCDEF')).toBe(false)
      c.close()
    })

    it('gives up the later tries once the page has left the table', async () => {
      socket.answer('table:reclaim', refuse('UNAVAILABLE'))
      const c = client(socket)
      await vi.advanceTimersByTimeAsync(0)
      c.close()
      await vi.advanceTimersByTimeAsync(60_000)
      expect(socket.sent.filter((x) => x.event === 'table:reclaim')).toHaveLength(1)
    })
  })
})

describe('the table client with delta updates (issue 17)', () => {
  let socket: ScriptedSocket
  /** The view shown at version 3 and the one the server has at version 4. */
  const before = { pile: [3], turn: 0, recent: [] as unknown[] }
  const after = {
    pile: [3, 40],
    turn: 1,
    recent: [{ t: 'play', seat: 0, cards: [40], from: 'hand' }],
  }
  const fair = { commitment: null, entropy: ['', ''], record: 'r1', head: '0123456789abcdef' }
  const held = (): TableUpdate => ({
    table: info({ status: 'playing', deadlines: [1_796_000_000_000, null], fair }),
    seat: 0,
    view: before as unknown as GameView,
    log: [{ t: 'started', gameNo: 1, seq: 7, at: 1_795_999_990_000 }],
    logAfter: null,
  })
  /**
   * The delta from version 3 to 4: seat 1's clock runs (30 s after the delta's time), a card
   * played (the event as a row); no log: the play's entry is the view's recent[0], its number 8
   * (logAfter + 1), its time the delta's; no head (not a version of 8's).
   */
  const delta = (over: Partial<TableDelta> = {}): TableDelta => ({
    code: 'ABCDEF',
    version: 4,
    dl: [1, 30_000],
    p: [
      ['a', ['pile'], [40]],
      ['s', ['turn'], 1],
      ['e', ['recent'], [['play', 0, [40], 'hand']]],
    ],
    sum: checksum(after),
    logAfter: 7,
    at: 1_796_000_000_000,
    ...over,
  })
  const syncs = () => socket.sent.filter((s) => s.event === 'table:sync').length

  beforeEach(async () => {
    socket = new ScriptedSocket()
    socket.answer('table:watch', ok())
  })

  it('asks the server for deltas when it opens a socket', async () => {
    const { openSocket } = await import('../src/lib/session.svelte.ts')
    const s = openSocket({ url: 'http://127.0.0.1:9' })
    try {
      expect((s as unknown as { auth: unknown }).auth).toEqual({ protocol: 1, deltas: 1 })
    } finally {
      s.disconnect()
    }
  })

  it('applies a delta to the table shown: table info, view, log, the earliest deadline', async () => {
    const c = client(socket, true)
    await flush()
    socket.fire('table:update', held())
    socket.fire('table:delta', delta())
    const u = c.update!
    expect(u.table.version).toBe(4)
    expect(u.table.deadlines).toEqual([null, 1_796_000_030_000])
    expect(u.table.deadline).toBe(1_796_000_030_000)
    expect(u.table.fair).toEqual(fair)
    expect(u.seat).toBe(0)
    expect(u.view).toEqual(after)
    expect(u.log).toEqual([
      held().log[0],
      { t: 'game', e: after.recent[0], seq: 8, at: 1_796_000_000_000 },
    ])
    // The clock of seat 1 follows the patched deadlines.
    expect(c.clockEnds[0]).toBeNull()
    expect(c.clockEnds[1]).toBeTypeOf('number')
    // A delta with the chain's head (h) moves the witness on; its clocks stay when it has no dl.
    const h = 'fedcba9876543210'
    socket.fire('table:delta', delta({ version: 5, dl: undefined, h, p: [], log: [] }))
    expect(c.update!.table.fair.head).toBe(h)
    expect(c.update!.table.deadlines).toEqual([null, 1_796_000_030_000])
    expect(syncs()).toBe(0)
  })

  it('a delta that does not follow on from the version shown: asks for the whole table once', async () => {
    const c = client(socket, true)
    await flush()
    socket.fire('table:update', held())
    socket.answer('table:sync', ok())
    // Version 5 arrives while 3 is shown (4 went missing), then 6: neither is applied.
    socket.fire('table:delta', delta({ version: 5 }))
    socket.fire('table:delta', delta({ version: 6 }))
    expect(c.update!.table.version).toBe(3)
    await expect.poll(syncs).toBe(1)
    expect(socket.sent.at(-1)!.payload).toEqual({ table: 'ABCDEF' })
    // The whole table comes: shown, and the next delta applies to it again.
    socket.fire('table:update', {
      ...held(),
      table: info({ status: 'playing', version: 6, fair }),
    })
    expect(c.update!.table.version).toBe(6)
    socket.fire('table:delta', delta({ version: 7, p: [], sum: checksum(before), log: [] }))
    expect(c.update!.table.version).toBe(7)
    // An old delta (already shown) is no reason to ask again.
    socket.fire('table:delta', delta({ version: 5 }))
    await flush()
    expect(syncs()).toBe(1)
  })

  it('a delta whose view does not match its checksum is never shown: asks for the whole table', async () => {
    const c = client(socket, true)
    await flush()
    socket.fire('table:update', held())
    socket.answer('table:sync', ok())
    socket.fire('table:delta', delta({ sum: (checksum(after) + 1) >>> 0 }))
    expect(c.update!.table.version).toBe(3)
    expect(c.update!.view).toEqual(before)
    await expect.poll(syncs).toBe(1)
    // A patch that does not fit the view (a path not there) is the same.
    socket.answer('table:sync', ok())
    socket.fire('table:delta', delta({ p: [['s', ['nowhere', 'deep'], 1]] }))
    expect(c.update!.table.version).toBe(3)
    await expect.poll(syncs).toBe(2)
  })
})

describe('practice against bots (issue 7)', () => {
  it('makes a four-seat Idiot table without a turn timer, seats three bots and starts it', async () => {
    const socket = new ScriptedSocket()
    socket.answer('table:create', ok({ table: 'ABCDEF', token: 'T'.repeat(43) }))
    socket.answer('table:bot', ok({ version: 2 }), ok({ version: 3 }), ok({ version: 4 }))
    socket.answer('table:start', ok({ version: 5 }))
    const r = await practiseTable(socket as unknown as Socket, 'Astrid')
    expect(r).toEqual({ ok: true, code: 'ABCDEF' })
    expect(socket.sent.map((x) => x.event)).toEqual([
      'table:create',
      'table:bot',
      'table:bot',
      'table:bot',
      'table:start',
    ])
    // Nobody waits for a player practising but bots: no clock runs against them.
    expect(socket.sent[0]!.payload.options).toEqual({ seats: 4, turnSeconds: null })
    expect(socket.sent[4]!.payload.version).toBe(4)
  })
})
