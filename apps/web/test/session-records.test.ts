// The table client's part in issue 14 (contributions sent, the history kept) and issue 17 (a
// table served by another node: MOVED and table:gone 'moved'), against scripted sockets.
import type { Ack, LogEntry, TableInfo, TableUpdate } from '@kortbord/protocol/wire'
import type { Socket } from 'socket.io-client'
import { beforeEach, describe, expect, it } from 'vitest'
import {
  createTable,
  movedTargets,
  type SocketTarget,
  TableClient,
} from '../src/lib/session.svelte.ts'
import { save, tokenKey } from '../src/lib/storage.ts'
import { installLocalStorage } from './local-storage.ts'

type Handler = (...args: unknown[]) => void
type Answer = (payload: Record<string, unknown>) => Ack<Record<string, unknown>>

/** A socket whose acknowledgements come from `answers`, recording what was sent. */
class ScriptedSocket {
  connected: boolean
  disconnects = 0
  readonly sent: { event: string; payload: Record<string, unknown> }[] = []
  readonly answers = new Map<string, Answer[]>()
  private readonly handlers = new Map<string, Set<Handler>>()

  constructor(
    readonly name: string,
    connected = true,
  ) {
    this.connected = connected
  }
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
    for (const fn of [...(this.handlers.get(event) ?? [])]) fn(...args)
  }
  /** The server accepts the connection. */
  open() {
    this.connected = true
    this.fire('connect')
  }
  connect() {}
  disconnect() {
    this.connected = false
    this.disconnects++
  }
  answer(event: string, ...answers: Answer[]) {
    this.answers.set(event, [...(this.answers.get(event) ?? []), ...answers])
  }
  events(): string[] {
    return this.sent.map((s) => s.event)
  }
  timeout() {
    return {
      emitWithAck: async (event: string, payload: Record<string, unknown>) => {
        this.sent.push({ event, payload })
        const next = this.answers.get(event)?.shift()
        if (!next) throw new Error(`no answer scripted for ${event} on ${this.name}`)
        return next(payload)
      },
    }
  }
}

const ok =
  (extra: Record<string, unknown> = {}): Answer =>
  () => ({ ok: true, version: 1, ...extra })
const refuse =
  (code: string, extra: Record<string, unknown> = {}): Answer =>
  () => ({ ok: false, error: { code, message: code, ...extra } })

const seat = { connected: true, away: false, graceUntil: null, gone: false, bot: null }
function update(
  me: number | null,
  over: Partial<TableInfo> = {},
  log: LogEntry[] = [],
  logAfter: number | null = null,
): TableUpdate {
  const table = {
    code: 'ABCDEF',
    game: 'idiot',
    settings: { seats: 2, turnSeconds: null },
    host: 0,
    seats: [
      { name: 'Astrid', ...seat },
      { name: 'Bo', ...seat },
    ],
    status: 'waiting',
    gameNo: 0,
    tally: [0, 0],
    deadlines: [null, null],
    version: 3,
    fair: { commitment: 'c'.repeat(64), entropy: ['', ''], record: null, head: null },
    ...over,
  } as TableInfo
  return { table, seat: me, view: null, log, logAfter }
}

const flush = () => new Promise((r) => setTimeout(r, 0))
const TOKEN = 'x'.repeat(43)

describe('contributions from the table client (issue 14)', () => {
  let socket: ScriptedSocket
  beforeEach(() => {
    installLocalStorage()
    socket = new ScriptedSocket('page')
  })

  it('a new table is created with 16 random bytes of this browser, kept for its first game', async () => {
    socket.answer('table:create', ok({ table: 'ABCDEF', seat: 0, token: TOKEN }))
    const r = await createTable(socket as unknown as Socket, {
      game: 'idiot',
      name: 'Astrid',
      options: { seats: 2 },
    })
    expect(r).toEqual({ ok: true, code: 'ABCDEF' })
    const sent = socket.sent[0]!.payload.entropy as string
    expect(sent).toMatch(/^[0-9a-f]{32}$/)
    const c = new TableClient(socket as unknown as Socket, 'ABCDEF', { watch: false })
    expect(c.contribution.next).toBe(sent)
  })

  it('joins and starts with its contribution, and sends a new one between games only', async () => {
    socket.answer('table:join', ok({ table: 'ABCDEF', seat: 1, token: TOKEN }))
    const c = new TableClient(socket as unknown as Socket, 'ABCDEF', { watch: false })
    await flush()
    expect(await c.join('Bo')).toBe(true)
    const mine = socket.sent.find((s) => s.event === 'table:join')!.payload.entropy as string
    expect(mine).toMatch(/^[0-9a-f]{32}$/)
    socket.fire(
      'table:update',
      update(1, { fair: { ...update(1).table.fair, entropy: ['', mine] } }),
    )
    // Dealt with it: nothing is sent while the game is played.
    const fair = { commitment: 'c'.repeat(64), entropy: ['', mine], record: 'r1', head: 'h1' }
    socket.fire('table:update', update(1, { status: 'playing', version: 4, fair }))
    await flush()
    // The join form asked once what the link leads to (table:peek), then joined.
    expect(socket.events()).toEqual(['table:peek', 'table:join'])
    // Over: the next game's value goes out at once, once.
    socket.answer('table:entropy', ok())
    socket.fire('table:update', update(1, { status: 'over', version: 5, fair }))
    socket.fire('table:update', update(1, { status: 'over', version: 5, fair }))
    await flush()
    const sent = socket.sent.filter((s) => s.event === 'table:entropy')
    expect(sent).toHaveLength(1)
    const next = sent[0]!.payload.entropy as string
    expect(next).toMatch(/^[0-9a-f]{32}$/)
    expect(next).not.toBe(mine)
    // The host's start carries the host's own value.
    socket.answer('table:start', ok())
    await c.start()
    expect(socket.sent.at(-1)!.payload.entropy).toBe(next)
    c.close()
  })

  it('keeps the table’s history since the page opened, well past the server’s tail of 40', async () => {
    const c = new TableClient(socket as unknown as Socket, 'ABCDEF', { watch: true })
    socket.answer('table:watch', ok())
    await flush()
    const entry = (seq: number): LogEntry => ({ seq, at: 0, t: 'timer', turnSeconds: null })
    socket.fire('table:update', update(null, { version: 1 }, [1, 2, 3].map(entry), null))
    for (let v = 2; v <= 100; v++)
      socket.fire('table:update', update(null, { version: v + 2 }, [entry(v + 2)], v + 1))
    expect(c.update!.log.map((e) => e.seq)).toEqual(Array.from({ length: 102 }, (_, i) => i + 1))
    c.close()
  })
})

describe('a table served by another node (issue 17)', () => {
  let page: ScriptedSocket
  let opened: { to: SocketTarget; socket: ScriptedSocket }[]
  let script: ((s: ScriptedSocket, to: SocketTarget) => void) | null
  const connect = (to: SocketTarget) => {
    const s = new ScriptedSocket(`node ${to.node ?? to.url ?? 'any'}`, false)
    script?.(s, to)
    opened.push({ to, socket: s })
    return s as unknown as Socket
  }
  const client = (watch = false) =>
    new TableClient(page as unknown as Socket, 'ABCDEF', { watch, connect })

  beforeEach(() => {
    installLocalStorage()
    page = new ScriptedSocket('page')
    opened = []
    script = null
    save(tokenKey('ABCDEF'), TOKEN)
  })

  it('goes where MOVED says: the node through the proxy, takes the seat back, sends the command again', async () => {
    page.answer('table:reclaim', ok({ seat: 0 }))
    const c = client()
    await flush()
    page.fire('table:update', update(0, { status: 'playing' }))
    page.answer('game:move', refuse('MOVED', { node: 'node2', url: null }))
    script = (s) => {
      s.answer('table:reclaim', ok({ seat: 0 }))
      s.answer('game:move', ok())
      setTimeout(() => s.open(), 5)
    }
    expect(await c.move({ type: 'pickup' })).toBe(true)
    expect(opened.map((o) => o.to)).toEqual([{ node: 'node2', table: 'ABCDEF' }])
    const there = opened[0]!.socket
    expect(there.events()).toEqual(['table:reclaim', 'game:move'])
    expect(there.sent[0]!.payload).toEqual({ table: 'ABCDEF', token: TOKEN })
    expect(c.error).toBeNull()
    // Listening moved with it: the page's socket is left alone, not closed (the home page's).
    expect(page.disconnects).toBe(0)
    expect(page.listeners('table:update')).toBe(0)
    expect(there.listeners('table:update')).toBe(1)
    there.fire('table:update', update(0, { status: 'playing', version: 9 }))
    expect(c.update!.table.version).toBe(9)
    expect(c.socket).toBe(there as unknown as Socket)
    c.close()
    expect(there.disconnects).toBe(1)
  })

  it('follows table:gone moved to the node’s own address, and watches again there', async () => {
    page.answer('table:watch', ok())
    save(tokenKey('ABCDEF'), null)
    const c = client(true)
    await flush()
    script = (s) => {
      s.answer('table:watch', ok())
      setTimeout(() => s.open(), 5)
    }
    page.fire('table:gone', {
      table: 'ABCDEF',
      reason: 'moved',
      node: 'n3',
      url: 'http://n3.example',
    })
    expect(c.gone).toBeNull()
    await expect.poll(() => opened[0]?.socket.events()).toEqual(['table:watch'])
    expect(opened[0]!.to).toEqual({ url: 'http://n3.example', table: 'ABCDEF' })
    expect(c.role).toBe('spectator')
    c.close()
  })

  it('falls back to any node when the node named cannot be reached, after a short pause', async () => {
    page.answer('table:reclaim', ok({ seat: 0 }))
    const c = client()
    await flush()
    page.answer('game:move', refuse('MOVED', { node: 'dead', url: null }))
    script = (s, to) => {
      if (to.node) {
        setTimeout(() => s.fire('connect_error', new Error('502')), 5)
        return
      }
      s.answer('table:reclaim', ok({ seat: 0 }))
      s.answer('game:move', ok())
      setTimeout(() => s.open(), 5)
    }
    const t0 = Date.now()
    expect(await c.move({ type: 'pickup' })).toBe(true)
    expect(Date.now() - t0).toBeGreaterThanOrEqual(700)
    expect(opened.map((o) => o.to)).toEqual([
      { node: 'dead', table: 'ABCDEF' },
      { table: 'ABCDEF' },
    ])
    // The failed socket is closed, so it does not keep knocking.
    expect(opened[0]!.socket.disconnects).toBe(1)
    expect(opened[1]!.socket.events()).toEqual(['table:reclaim', 'game:move'])
    c.close()
  })

  it('a visitor’s look before joining answered MOVED goes to that node and looks there: the join form names the game', async () => {
    save(tokenKey('ABCDEF'), null)
    page.answer('table:peek', refuse('MOVED', { node: 'n2', url: null }))
    const peeked = { table: 'ABCDEF', game: 'duel', status: 'waiting', seats: 2, open: 1 }
    script = (s) => {
      s.answer('table:peek', ok(peeked))
      setTimeout(() => s.open(), 5)
    }
    const c = client()
    await expect.poll(() => c.peeked?.game).toBe('duel')
    expect(c.needsJoin).toBe(true)
    expect(page.events()).toEqual(['table:peek'])
    expect(opened.map((o) => o.to)).toEqual([{ node: 'n2', table: 'ABCDEF' }])
    expect(opened[0]!.socket.events()).toEqual(['table:peek'])
    // The join goes to the node that serves the table, with no second move.
    opened[0]!.socket.answer('table:join', ok({ seat: 1, token: TOKEN }))
    expect(await c.join('Bo')).toBe(true)
    expect(opened).toHaveLength(1)
    c.close()
  })

  it('a reclaim answered MOVED (after a reconnection) takes the seat back there', async () => {
    page.answer('table:reclaim', refuse('MOVED', { node: 'n2', url: null }))
    script = (s) => {
      s.answer('table:reclaim', ok({ seat: 0 }))
      setTimeout(() => s.open(), 5)
    }
    const c = client()
    await expect.poll(() => opened[0]?.socket.events()).toEqual(['table:reclaim'])
    expect(opened).toHaveLength(1)
    await expect.poll(() => c.needsJoin).toBe(false)
    c.close()
  })

  it('gives up after a few nodes that all say MOVED, leaving the refusal to read', async () => {
    page.answer('table:reclaim', ok({ seat: 0 }))
    const c = client()
    await flush()
    page.answer('game:move', refuse('MOVED', { node: 'n1', url: null }))
    script = (s, to) => {
      s.answer('table:reclaim', refuse('MOVED', { node: `${to.node}x`, url: null }))
      setTimeout(() => s.open(), 1)
    }
    expect(await c.move({ type: 'pickup' })).toBe(false)
    expect(c.error?.code).toBe('MOVED')
    expect(opened.length).toBeLessThanOrEqual(4)
    c.close()
  }, 20_000)

  it('the targets: the node’s own address first, then the node through the proxy, then any node', () => {
    expect(movedTargets('ABCDEF', { node: 'n2', url: 'https://n2.example' })).toEqual([
      { url: 'https://n2.example', table: 'ABCDEF' },
      { node: 'n2', table: 'ABCDEF' },
      { table: 'ABCDEF' },
    ])
    expect(movedTargets('ABCDEF', { node: 'n2', url: null })).toEqual([
      { node: 'n2', table: 'ABCDEF' },
      { table: 'ABCDEF' },
    ])
  })
})
