// Issue 13: kortbord tried as an attacker and as an operator would, one test per finding, over
// real sockets. Findings that need several nodes or a real Redis are in abuse-redis.test.ts.
import { connect as tcp } from 'node:net'
import {
  type DuelView,
  duelLegalMovesFromView,
  type IdiotView,
  idiotLegalMovesFromView,
} from '@kortbord/engine'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type Client, connect, must } from '../scripts/client.ts'
import { StoreUnavailable } from '../src/redis-store.ts'
import { MemoryStore, type RecordEffects, type TableRecord } from '../src/store.ts'
import { createIdiot, NAMES, seatIdiot, startServer, type TestServer } from './harness.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A client that says (through a trusted proxy) it comes from `ip`. */
const from = (s: TestServer, ip: string) => connect(s.url, { headers: { 'x-forwarded-for': ip } })

const idiotTable = (host: Client, seats = 2) => createIdiot(host, { seats, turnSeconds: null })
const seated = (s: TestServer, n: number, turnSeconds: number | null = null) =>
  seatIdiot(s, n, { turnSeconds })

describe('finding 2: tables per address per minute and per node; a deserted table goes at once', () => {
  let srv: TestServer
  beforeAll(async () => {
    srv = await startServer({
      TRUST_PROXY: 'loopback',
      TABLES_PER_ADDRESS_PER_MINUTE: '5',
      MAX_TABLES: '12',
    })
  })
  afterAll(() => srv.stop())

  it('an address may create TABLES_PER_ADDRESS_PER_MINUTE tables a minute (create-and-leave included); another address may still', async () => {
    const c = await from(srv, '198.51.100.7')
    for (let i = 0; i < 5; i++) {
      const { code } = await idiotTable(c)
      must(await c.send('table:leave', { table: code }))
    }
    const r = await c.send('table:create', { game: 'duel', name: 'Eve' })
    expect(r).toMatchObject({ ok: false, error: { code: 'TOO_MANY_NEW_TABLES' } })
    if (!r.ok) expect(r.error.message).toMatch(/5 tables a minute/)
    // Created and left: every one of them is gone from the store already.
    expect((srv.app.store as MemoryStore).count()).toBe(0)
    const other = await from(srv, '198.51.100.8')
    must(await other.send('table:create', { game: 'duel', name: 'Eve' }))
    c.close()
    other.close()
  })

  it('a node holds MAX_TABLES at most (SERVER_FULL), and the stored count is a metric', async () => {
    const made: Client[] = []
    for (let i = 0; i < 11; i++) {
      const c = await from(srv, `203.0.113.${i + 1}`)
      made.push(c)
      must(await c.send('table:create', { game: 'duel', name: 'Eve' }))
    }
    const late = await from(srv, '203.0.113.200')
    expect(await late.send('table:create', { game: 'duel', name: 'Eve' })).toMatchObject({
      ok: false,
      error: { code: 'SERVER_FULL' },
    })
    const text = await srv.app.metrics.registry.metrics()
    expect(text).toMatch(/^kortbord_tables_stored 12$/m)
    expect(text).toMatch(/^kortbord_limited_total\{limit="tables_per_node"\} 1$/m)
    for (const c of [...made, late]) c.close()
  })
})

describe('tables per address per hour', () => {
  it('bounds what one address can leave behind: past TABLES_PER_ADDRESS_PER_HOUR it is refused for the hour, though the minute allows more; another address may still', async () => {
    const srv = await startServer({
      TRUST_PROXY: 'loopback',
      TABLES_PER_ADDRESS_PER_MINUTE: '100',
      TABLES_PER_ADDRESS_PER_HOUR: '3',
    })
    try {
      const c = await from(srv, '198.51.100.9')
      // Not left: the tables stay (until IDLE_TABLE_HOURS once nobody is at them).
      for (let i = 0; i < 3; i++) must(await c.send('table:create', { game: 'duel', name: 'Eve' }))
      const r = await c.send('table:create', { game: 'duel', name: 'Eve' })
      expect(r).toMatchObject({ ok: false, error: { code: 'TOO_MANY_NEW_TABLES' } })
      if (!r.ok) expect(r.error.message).toMatch(/3 tables an hour; try again in (59|60) min/)
      expect(srv.app.hub.size).toBe(3)
      const other = await from(srv, '198.51.100.10')
      must(await other.send('table:create', { game: 'duel', name: 'Eve' }))
      const text = await srv.app.metrics.registry.metrics()
      expect(text).toMatch(/^kortbord_limited_total\{limit="tables_per_address"\} 1$/m)
      c.close()
      other.close()
    } finally {
      await srv.stop()
    }
  })
})

describe('finding 3: hard bots per node', () => {
  it('beyond HARD_BOTS_PER_NODE a bot sits down as normal, and the ack says so', async () => {
    const srv = await startServer({ HARD_BOTS_PER_NODE: '2', BOT_DELAY_MS: '10000' })
    try {
      const c = await srv.client()
      const { code } = await idiotTable(c, 4)
      let version = 1
      const levels: string[] = []
      for (const seat of [1, 2, 3]) {
        const r = must(await c.send('table:bot', { table: code, version, seat, level: 'hard' }))
        levels.push(r.level as string)
        version = r.version
      }
      expect(levels).toEqual(['hard', 'hard', 'normal'])
      expect(srv.app.hub.hardBots()).toBe(2)
    } finally {
      await srv.stop()
    }
  })
})

describe('finding 4: spectators are presence, bounded, and reach players at most once a second', () => {
  let srv: TestServer
  beforeAll(async () => {
    srv = await startServer({ SPECTATORS_PER_TABLE: '3' })
  })
  afterAll(() => srv.stop())

  it('watching and leaving in a loop changes no version, saves nothing and sends players a count at most once a second', async () => {
    const t = await seated(srv, 2)
    let saves = 0
    const store = srv.app.store as MemoryStore
    const save = store.save.bind(store)
    store.save = async (r: TableRecord, e: number | null) => {
      saves++
      return save(r, e)
    }
    const player = t.players[0]!
    const updatesBefore = player.updates.length
    const w = await srv.client()
    const started = performance.now()
    for (let i = 0; i < 30; i++) {
      must(await w.send('table:watch', { table: t.code }))
      must(await w.send('table:leave', { table: t.code }))
    }
    await sleep(1200)
    const seconds = (performance.now() - started) / 1000
    store.save = save
    expect(saves).toBe(0)
    expect((await srv.app.hub.get(t.code))!.version).toBe(t.version)
    expect(player.updates.length).toBe(updatesBefore)
    expect(player.presenceEvents).toBeLessThanOrEqual(Math.ceil(seconds) + 1)
    expect(player.watching.get(t.code) ?? 0).toBe(0)
  })

  it('a crowd watching at once waits behind a player: the move is answered before the crowd is through', async () => {
    const crowdSrv = await startServer({ SPECTATORS_PER_TABLE: '1000' })
    try {
      const t = await seated(crowdSrv, 2)
      const host = t.players[0]!
      const started = must(await host.send('table:start', { table: t.code, version: t.version }))
      const u = await host.atVersion(t.code, started.version as number)
      const crowd = await Promise.all(Array.from({ length: 300 }, () => crowdSrv.client()))
      const done: string[] = []
      const watches = crowd.map((c, i) =>
        c.send('table:watch', { table: t.code }).then((r) => {
          must(r)
          done.push(`watch ${i}`)
        }),
      )
      const played = host
        .send('game:move', { table: t.code, version: u.table.version, move: { type: 'ready' } })
        .then((r) => {
          must(r)
          done.push('move')
        })
      await Promise.all([...watches, played])
      // 300 watches are started 32 a turn of the server's loop; the move, sent after them,
      // gets in between instead of waiting for all 300.
      expect(done.indexOf('move')).toBeLessThan(done.length - 1)
      expect(crowdSrv.app.presence.local(t.code)).toBe(300)
    } finally {
      await crowdSrv.stop()
    }
  })

  it('a connection that watches and is gone before its turn comes is not counted (no ghost)', async () => {
    const t = await seated(srv, 2)
    for (let i = 0; i < 20; i++) {
      const c = await srv.client()
      void c.send('table:watch', { table: t.code }).catch(() => undefined)
      c.close()
    }
    await sleep(1500)
    expect(srv.app.presence.local(t.code)).toBe(0)
    expect(t.players[0]!.watching.get(t.code) ?? 0).toBe(0)
  })

  it('SPECTATORS_PER_TABLE watch at most: the next is refused SPECTATORS_FULL', async () => {
    const t = await seated(srv, 2)
    for (let i = 0; i < 3; i++)
      must(await (await srv.client()).send('table:watch', { table: t.code }))
    const r = await (await srv.client()).send('table:watch', { table: t.code })
    expect(r).toMatchObject({ ok: false, error: { code: 'SPECTATORS_FULL' } })
  })
})

describe('finding 5: an outsider cannot touch a table by naming a future version', () => {
  it('commands from a connection not at the table are refused before any load, and the bots play on', async () => {
    let loads = 0
    const store = new MemoryStore({ freeze: true })
    const load = store.load.bind(store)
    store.load = (code: string) => {
      loads++
      return load(code)
    }
    const srv = await startServer({ BOT_DELAY_MS: '100' }, { store })
    try {
      const c = await srv.client()
      const { code } = await idiotTable(c, 4)
      let version = 1
      for (const seat of [1, 2, 3])
        version = must(
          await c.send('table:bot', { table: code, version, seat, level: 'easy' }),
        ).version
      must(await c.send('table:start', { table: code, version }))
      const outsider = await srv.client()
      const watcher = await srv.client()
      must(await watcher.send('table:watch', { table: code }))
      const t = (await srv.app.hub.get(code))!
      // The host plays along (whatever is legal) whenever it is their turn.
      let playing = true
      const host = (async () => {
        while (playing) {
          const u = c.state(code)
          const moves = u ? idiotLegalMovesFromView(u.view as IdiotView) : []
          const m = moves.find((x) => x.type === 'ready') ?? moves[0]
          if (u && m) await c.send('game:move', { table: code, version: u.table.version, move: m })
          await sleep(20)
        }
      })()
      const loadsBefore = loads
      const v0 = t.version
      const until = performance.now() + 1500
      while (performance.now() < until) {
        const far = t.version + 1000
        const move = { table: code, version: far, move: { type: 'ready' as const } }
        expect(await outsider.send('game:move', move)).toMatchObject({
          ok: false,
          error: { code: 'NOT_AT_TABLE' },
        })
        expect(await watcher.send('game:move', move)).toMatchObject({
          ok: false,
          error: { code: 'SPECTATOR' },
        })
        await sleep(20)
      }
      playing = false
      await host
      expect(loads).toBe(loadsBefore)
      // The bots were never held up: they readied and played all along (~10 a second).
      expect(t.version - v0).toBeGreaterThan(5)
    } finally {
      await srv.stop()
    }
  })
})

describe('finding 6: a flood of new connections is shed at the socket', () => {
  it('past ACCEPTS_PER_SECOND a new connection is closed before any HTTP; open ones play on, and the next window lets clients in', async () => {
    // 20 a second: 2 per tenth of a second.
    const srv = await startServer({ ACCEPTS_PER_SECOND: '20' })
    try {
      const player = await srv.client()
      const { code } = await idiotTable(player, 2)
      await sleep(150)
      // 30 bare TCP connections at once, each sending an upgrade request.
      const port = Number(new URL(srv.url).port)
      const outcomes = await Promise.all(
        Array.from(
          { length: 30 },
          () =>
            new Promise<string>((resolve) => {
              const s = tcp(port, '127.0.0.1', () =>
                s.write('GET /socket.io/?EIO=4&transport=polling HTTP/1.1\r\nHost: x\r\n\r\n'),
              )
              let got = ''
              s.on('data', (d) => {
                got += d.toString()
              })
              s.on('error', () => undefined)
              s.on('close', () => resolve(got.startsWith('HTTP/1.1') ? 'answered' : 'shed'))
              setTimeout(() => s.destroy(), 1000)
            }),
        ),
      )
      const shed = outcomes.filter((o) => o === 'shed').length
      expect(shed).toBeGreaterThanOrEqual(25)
      expect(outcomes.filter((o) => o === 'answered').length).toBeGreaterThan(0)
      // The open connection was not touched: its commands go on.
      const r = await player.send('table:sync', { table: code })
      expect(r.ok).toBe(true)
      // A later window lets a client in.
      await sleep(200)
      const late = await srv.client()
      expect(late.socket.connected).toBe(true)
      const text = await srv.app.metrics.registry.metrics()
      const m = /^kortbord_limited_total\{limit="accept_rate"\} (\d+)$/m.exec(text)
      expect(Number(m?.[1])).toBe(shed)
    } finally {
      await srv.stop()
    }
  })
})

describe('finding 6: connections per address, lookups per address', () => {
  let srv: TestServer
  beforeAll(async () => {
    srv = await startServer({
      TRUST_PROXY: 'loopback',
      CONNECTIONS_PER_ADDRESS: '4',
      LOOKUPS_PER_ADDRESS_PER_MINUTE: '6',
    })
  })
  afterAll(() => srv.stop())

  it('an address holds CONNECTIONS_PER_ADDRESS connections; the next is refused until one closes; others are not', async () => {
    const held = await Promise.all(Array.from({ length: 4 }, () => from(srv, '192.0.2.1')))
    const refused = await from(srv, '192.0.2.1').catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(Error)
    // The handshake says why (a polling handshake shows the body).
    const r = await fetch(`${srv.url}/socket.io/?EIO=4&transport=polling`, {
      headers: { 'x-forwarded-for': '192.0.2.1' },
    })
    expect(r.status).toBe(403)
    expect(((await r.json()) as { message: string }).message).toMatch(/^TOO_MANY_CONNECTIONS/)
    const other = await from(srv, '192.0.2.2')
    expect(other.socket.connected).toBe(true)
    held[0]!.close()
    await vi.waitFor(async () => {
      const again = await from(srv, '192.0.2.1')
      again.close()
    })
    for (const c of [...held, other]) c.close()
  })

  it('a burst of connections from one address cannot get past the limit', async () => {
    const tries = await Promise.allSettled(Array.from({ length: 40 }, () => from(srv, '192.0.2.9')))
    const open = tries.flatMap((t) => (t.status === 'fulfilled' ? [t.value] : []))
    await sleep(200)
    expect(open.filter((c) => c.socket.connected).length).toBeLessThanOrEqual(4)
    for (const c of open) c.close()
  })

  it('scanning codes: past LOOKUPS_PER_ADDRESS_PER_MINUTE every join, watch or reclaim is TOO_MANY_LOOKUPS', async () => {
    const host = await from(srv, '192.0.2.30')
    const { code } = await idiotTable(host)
    const scanner = await from(srv, '192.0.2.31')
    const codes = ['AAAAAA', 'BBBBBB', 'CCCCCC', 'DDDDDD', 'EEEEEE', 'FFFFFF']
    for (const c of codes) {
      expect(await scanner.send('table:watch', { table: c })).toMatchObject({
        ok: false,
        error: { code: 'NO_SUCH_TABLE' },
      })
    }
    // Even the right code is refused now: the scanner learns nothing.
    expect(await scanner.send('table:watch', { table: code })).toMatchObject({
      ok: false,
      error: { code: 'TOO_MANY_LOOKUPS' },
    })
    // Someone else is not held back.
    const friend = await from(srv, '192.0.2.32')
    must(await friend.send('table:watch', { table: code }))
    for (const c of [host, scanner, friend]) c.close()
  })
})

describe('finding 6: table commands cannot scan codes or load a table', () => {
  it('an outsider’s move or sync gets the same answer for an unloaded table and a missing code, loads nothing, and the lookup limit still holds', async () => {
    // The table is in the store but not loaded on node B (as after a restart).
    const store = new MemoryStore({ freeze: true })
    const a = await startServer({}, { store })
    const b = await startServer({ LOOKUPS_PER_ADDRESS_PER_MINUTE: '3' }, { store })
    let loads = 0
    const load = store.load.bind(store)
    store.load = (code: string) => {
      loads++
      return load(code)
    }
    try {
      const host = await a.client()
      const { code } = await idiotTable(host)
      const missing = code === 'ZZZZZZ' ? 'YYYYYY' : 'ZZZZZZ'
      const outsider = await b.client()
      const probe = async (table: string) => ({
        move: await outsider.send('game:move', { table, version: 1000, move: { type: 'ready' } }),
        stale: await outsider.send('game:move', { table, version: 1, move: { type: 'ready' } }),
        sync: await outsider.send('table:sync', { table }),
        leave: await outsider.send('table:leave', { table }),
      })
      for (let i = 0; i < 20; i++) {
        const there = await probe(code)
        expect(there.move).toMatchObject({ ok: false, error: { code: 'NOT_AT_TABLE' } })
        // Every field of every answer is the same: nothing tells the two apart.
        expect(there).toEqual(await probe(missing))
      }
      expect(loads).toBe(0)
      expect(b.app.hub.size).toBe(0)
      expect(await b.app.metrics.registry.metrics()).toMatch(/^kortbord_tables 0$/m)
      // The probes took none of the address's lookups, and the lookups are still limited: three
      // codes, then even the right one is refused.
      for (const c of ['AAAAAA', 'BBBBBB', 'CCCCCC'])
        expect(await outsider.send('table:watch', { table: c })).toMatchObject({
          ok: false,
          error: { code: 'NO_SUCH_TABLE' },
        })
      expect(await outsider.send('table:watch', { table: code })).toMatchObject({
        ok: false,
        error: { code: 'TOO_MANY_LOOKUPS' },
      })
      expect(await probe(code)).toEqual(await probe(missing))
      expect(b.app.hub.size).toBe(0)
    } finally {
      store.load = load
      await b.stop()
      await a.stop()
    }
  })
})

describe('finding 6: without TRUST_PROXY, X-Forwarded-For is ignored', () => {
  let srv: TestServer
  beforeAll(async () => {
    srv = await startServer({ CONNECTIONS_PER_ADDRESS: '2', TABLES_PER_ADDRESS_PER_MINUTE: '1' })
  })
  afterAll(() => srv.stop())

  it('connections from loopback naming different addresses count as one address', async () => {
    const first = await from(srv, '198.51.100.1')
    const second = await from(srv, '198.51.100.2')
    must(await first.send('table:create', { game: 'duel', name: 'Eve' }))
    // One address, one table a minute, whatever the header says.
    expect(await second.send('table:create', { game: 'duel', name: 'Eve' })).toMatchObject({
      ok: false,
      error: { code: 'TOO_MANY_NEW_TABLES' },
    })
    // And CONNECTIONS_PER_ADDRESS of them at most.
    expect(await from(srv, '198.51.100.3').catch((e: unknown) => e)).toBeInstanceOf(Error)
    const r = await fetch(`${srv.url}/socket.io/?EIO=4&transport=polling`, {
      headers: { 'x-forwarded-for': '198.51.100.4' },
    })
    expect(r.status).toBe(403)
    expect(((await r.json()) as { message: string }).message).toMatch(/^TOO_MANY_CONNECTIONS/)
    first.close()
    second.close()
  })
})

describe('finding 7: stallers', () => {
  let srv: TestServer
  beforeAll(async () => {
    // 15 s timers run at 1/100 speed: 150 ms; 60 s: 600 ms.
    srv = await startServer({ KORTBORD_TIMER_SCALE: '0.01', BOT_DELAY_MS: '20' })
  })
  afterAll(() => srv.stop())

  it('[I-16] every game with someone to wait for has a timer by default; the host changes or stops it', async () => {
    const c = await srv.client()
    const defaults = {
      idiot: { game: 'idiot', name: 'A', options: { seats: 2 } },
      duel: { game: 'duel', name: 'A' },
      klockan: { game: 'klockan', name: 'A', options: { seats: 2 } },
    } as const
    const want = { idiot: 30, duel: 60, klockan: 20 }
    for (const [game, msg] of Object.entries(defaults)) {
      const code = must(await c.send('table:create', msg)).table as string
      const u = await c.waitFor(code, () => true)
      expect((u.table.settings as { turnSeconds: number }).turnSeconds).toBe(want[game as 'duel'])
    }
    const t = await seated(srv, 2, 30)
    const bo = await t.players[1]!.send('table:timer', {
      table: t.code,
      version: t.version,
      turnSeconds: null,
    })
    expect(bo).toMatchObject({ ok: false, error: { code: 'NOT_HOST' } })
    const off = must(
      await t.players[0]!.send('table:timer', {
        table: t.code,
        version: t.version,
        turnSeconds: null,
      }),
    )
    const u = await t.players[1]!.atVersion(t.code, off.version)
    expect((u.table.settings as { turnSeconds: number | null }).turnSeconds).toBeNull()
    expect(u.log.at(-1)).toMatchObject({ t: 'timer', turnSeconds: null })
    const solo = await srv.client()
    const code = must(await solo.send('table:create', { game: 'herrarna', name: 'S' }))
      .table as string
    expect(
      await solo.send('table:timer', { table: code, version: 1, turnSeconds: 30 }),
    ).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOR_SOLO' },
    })
  })

  it('[I-16] Idiot: a connected staller is away after two timeouts; another player hands the seat to a bot, the staller takes it back', async () => {
    const t = await seated(srv, 3, 15)
    const started = must(
      await t.players[0]!.send('table:start', { table: t.code, version: t.version }),
    )
    // Everyone but P2 readies; P2 does nothing at all.
    for (const p of [0, 1])
      await t.players[p]!.send('game:move', {
        table: t.code,
        version: started.version,
        move: { type: 'ready' },
      })
    const away = await t.players[1]!.waitFor(t.code, (u) => u.table.seats[2]!.away, 20_000)
    expect(away.table.seats[2]).toMatchObject({ connected: true, away: true, bot: null })
    // A present player's seat cannot be handed over: NOT_AWAY. Asked now, while P0 has timed
    // out once at most: later in the test P0 (who never plays either) may be away too.
    expect(
      await t.players[1]!.send('table:bot', {
        table: t.code,
        version: away.table.version,
        seat: 0,
        level: 'easy',
      }),
    ).toMatchObject({ ok: false, error: { code: 'NOT_AWAY' } })
    // The staller sending its own token again changes nothing: no new version, still away (the
    // hand-over below is made at the same version).
    const again = must(
      await t.players[2]!.send('table:reclaim', { table: t.code, token: t.tokens[2]! }),
    )
    expect(again.version).toBe(away.table.version)
    expect(t.players[2]!.state(t.code)!.table.seats[2]!.away).toBe(true)
    // Not the host, and it works: P1 hands P2's seat to a bot.
    const handed = must(
      await t.players[1]!.send('table:bot', {
        table: t.code,
        version: away.table.version,
        seat: 2,
        level: 'easy',
      }),
    )
    const u = await t.players[2]!.atVersion(t.code, handed.version)
    expect(u.table.seats[2]).toMatchObject({ name: NAMES[2], bot: 'easy', away: false })
    expect(u.log.some((e) => e.t === 'bot' && e.seat === 2 && e.by === 1)).toBe(true)
    // The staller's own moves wait: a bot plays the seat until they take it back.
    const mine = await t.players[2]!.send('game:move', {
      table: t.code,
      version: u.table.version,
      move: { type: 'pickup' },
    })
    expect(mine.ok).toBe(false)
    must(await t.players[2]!.send('table:reclaim', { table: t.code, token: t.tokens[2]! }))
    const back = await t.players[0]!.waitFor(t.code, (x) => x.table.seats[2]!.bot === null)
    expect(back.table.seats[2]).toMatchObject({ bot: null, away: false, connected: true })
    // The others are told: the player is back in their seat.
    expect(back.log.some((e) => e.t === 'back' && e.seat === 2)).toBe(true)
  })

  it('[I-16][A-10] the duel: a staller is dealt for by the timer, is away after two, and the other ends the match with the staller forfeiting', async () => {
    const a = await srv.client()
    const code = must(
      await a.send('table:create', {
        game: 'duel',
        name: 'Ada',
        options: { games: 3, turnSeconds: 15 },
      }),
    ).table as string
    const b = await srv.client()
    const j = must(await b.send('table:join', { table: code, name: 'Bo' }))
    await a.atVersion(code, j.version)
    const started = must(await a.send('table:start', { table: code, version: j.version }))
    // Ada keeps playing (her clock restarts with each move), Bo does nothing: his runs out.
    let playing = true
    const ada = (async () => {
      while (playing) {
        const u = a.state(code)!
        const moves = duelLegalMovesFromView(u.view as DuelView)
        const m = moves.find((x) => x.type === 'discard' || x.type === 'move') ?? moves[0]
        if (m) await a.send('game:move', { table: code, version: u.table.version, move: m })
        await sleep(60)
      }
    })()
    const bo = await a.waitFor(
      code,
      (u) => u.log.filter((e) => e.t === 'timeout' && e.seat === 1).length >= 2,
      20_000,
    )
    playing = false
    await ada
    expect(bo.log.find((e) => e.t === 'timeout' && e.seat === 1)).toMatchObject({ action: 'deal' })
    expect(bo.table.seats[1]!.away).toBe(true)
    const now = a.state(code)!.table.version
    expect(await b.send('table:forfeit', { table: code, version: now, seat: 0 })).toMatchObject({
      ok: false,
      error: { code: 'NOT_AWAY' },
    })
    const done = must(await a.send('table:forfeit', { table: code, version: now, seat: 1 }))
    const end = await b.atVersion(code, done.version)
    expect(end.table.status).toBe('over')
    expect(end.table.tally).toEqual([1, 0])
    expect(end.log.at(-1)).toMatchObject({ t: 'forfeit', seat: 1, name: 'Bo', by: 0 })
    expect((end.view as DuelView).over).toBe(false)
    expect(started.version).toBeLessThan(done.version)
  })

  it('[I-16][K-6] Klockan för två: the timer turns the staller’s card', async () => {
    const a = await srv.client()
    const code = must(
      await a.send('table:create', {
        game: 'klockan',
        name: 'Ada',
        options: { seats: 2, turnSeconds: 15 },
      }),
    ).table as string
    const b = await srv.client()
    const j = must(await b.send('table:join', { table: code, name: 'Bo' }))
    await a.atVersion(code, j.version)
    must(await a.send('table:start', { table: code, version: j.version }))
    const u = await a.waitFor(code, (x) => x.log.some((e) => e.t === 'timeout'), 10_000)
    expect(u.log.find((e) => e.t === 'timeout')).toMatchObject({ action: 'turn' })
  })
})

describe('finding 8: presence churn cannot wipe the game from the log', () => {
  it('reclaiming and dropping in a loop keeps every game event; away/back take a few entries at most', async () => {
    const srv = await startServer()
    try {
      const t = await seated(srv, 2)
      const started = must(
        await t.players[0]!.send('table:start', { table: t.code, version: t.version }),
      )
      let version = started.version
      for (const p of [0, 1])
        version = must(
          await t.players[p]!.send('game:move', {
            table: t.code,
            version,
            move: { type: 'ready' },
          }),
        ).version
      const tbl = (await srv.app.hub.get(t.code))!
      const gameEntries = tbl.snapshot().log.filter((e) => e.t !== 'away' && e.t !== 'back')
      for (let i = 0; i < 100; i++) {
        const c = await srv.client()
        must(await c.send('table:reclaim', { table: t.code, token: t.tokens[1]! }))
        c.close()
        await vi.waitFor(() => expect(tbl.snapshot().seats[1]!.connected).toBe(false))
      }
      const log = tbl.snapshot().log
      for (const e of gameEntries) expect(log).toContainEqual(e)
      expect(log.filter((e) => e.t === 'away' || e.t === 'back').length).toBeLessThanOrEqual(8)
    } finally {
      await srv.stop()
    }
  })
})

describe('finding 9: a refusal that may hide a change says so', () => {
  it('a save that reached the store and got no answer is OUTCOME_UNKNOWN; one refused before is UNAVAILABLE', async () => {
    let mode: 'ok' | 'lost' | 'refused' = 'ok'
    class Flaky extends MemoryStore {
      override async save(
        r: TableRecord,
        expected: number | null,
        effects?: RecordEffects,
      ): Promise<void> {
        if (mode === 'lost') {
          await super.save(r, expected, effects)
          throw new StoreUnavailable('no answer', { maybeApplied: true })
        }
        if (mode === 'refused') throw new StoreUnavailable('not connected', { maybeApplied: false })
        return super.save(r, expected, effects)
      }
    }
    const srv = await startServer({}, { store: new Flaky({ freeze: true }) })
    try {
      const t = await seated(srv, 2)
      mode = 'refused'
      const r1 = await t.players[0]!.send('table:start', { table: t.code, version: t.version })
      expect(r1).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } })
      mode = 'lost'
      const r2 = await t.players[0]!.send('table:start', { table: t.code, version: t.version })
      expect(r2).toMatchObject({ ok: false, error: { code: 'OUTCOME_UNKNOWN' } })
      mode = 'ok'
      // The node finds out by itself and tells everyone what the table is: the game started.
      const u = await t.players[1]!.waitFor(t.code, (x) => x.table.status === 'playing')
      expect((u.view as IdiotView).phase).toBe('swap')
      // A repeat of the command is answered, not applied twice.
      const r3 = await t.players[0]!.send('table:start', { table: t.code, version: t.version })
      expect(r3.ok).toBe(false)
    } finally {
      await srv.stop()
    }
  })
})

describe('finding 10: HTTP and the socket handshake', () => {
  let srv: TestServer
  beforeAll(async () => {
    srv = await startServer({
      ALLOWED_ORIGINS: 'https://friends.example',
      METRICS_PORT: '0',
    })
  })
  afterAll(() => srv.stop())

  it('every page has a CSP without inline script, no framing, nosniff and a referrer policy', async () => {
    const r = await fetch(`${srv.url}/healthz`)
    const csp = r.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/)
    // The replay page's solver worker is a script of the page's own origin (issue 16).
    expect(csp).toContain("worker-src 'self'")
    expect(r.headers.get('x-content-type-options')).toBe('nosniff')
    expect(r.headers.get('x-frame-options')).toBe('DENY')
    expect(r.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
  })

  it('a page of another origin cannot open a socket; the own origin, an allowed one and no origin can', async () => {
    const handshake = (origin?: string) =>
      fetch(`${srv.url}/socket.io/?EIO=4&transport=polling`, {
        headers: origin ? { origin } : {},
      })
    const evil = await handshake('https://evil.example')
    expect(evil.status).toBe(403)
    expect(((await evil.json()) as { message: string }).message).toMatch(/^ORIGIN_NOT_ALLOWED/)
    expect((await handshake(srv.url)).status).toBe(200)
    expect((await handshake('https://friends.example')).status).toBe(200)
    expect((await handshake()).status).toBe(200)
    const ws = await connect(srv.url, { headers: { origin: 'https://evil.example' } }).catch(
      (e: unknown) => e,
    )
    expect(ws).toBeInstanceOf(Error)
  })

  it('/metrics is on its own port, not on the public one', async () => {
    expect((await fetch(`${srv.url}/metrics`)).status).toBe(404)
    const port = srv.app.metricsPort
    expect(port).not.toBeNull()
    const m = await fetch(`http://127.0.0.1:${port}/metrics`)
    expect(m.status).toBe(200)
    expect(await m.text()).toMatch(/^kortbord_sockets /m)
  })
})
