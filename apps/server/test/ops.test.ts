import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { connect, must } from '../scripts/client.ts'
import { loadConfig } from '../src/config.ts'
import { logCode } from '../src/table.ts'
import { createIdiot, startServer, type TestServer } from './harness.ts'

describe('operations', () => {
  let srv: TestServer
  const logs: string[] = []
  beforeAll(async () => {
    srv = await startServer({ LOG_LEVEL: 'debug' }, { logs })
  })
  afterAll(async () => {
    await srv.stop()
  })

  it('a new table comes with a short code and links for players and spectators', async () => {
    const c = await srv.client()
    const a = must(await c.send('table:create', { game: 'duel', name: 'Bo' }))
    expect(a.link).toBe(`/t/${a.table as string}`)
    expect(a.watchLink).toBe(`/t/${a.table as string}?watch`)
    const other = await startServer({ PUBLIC_URL: 'https://kortbord.example/' })
    try {
      const d = await other.client()
      const b = must(await d.send('table:create', { game: 'duel', name: 'Bo' }))
      expect(b.link).toBe(`https://kortbord.example/t/${b.table as string}`)
    } finally {
      await other.stop()
    }
  })

  it('idle tables leave memory but not the store; stale tables leave the store', async () => {
    const quick = await startServer({ GRACE_SECONDS: '0.05' })
    try {
      const [a, b] = [await quick.client(), await quick.client()]
      const code = (await createIdiot(a, { name: 'Bo' })).code
      const j = must(await b.send('table:join', { table: code, name: 'Li' }))
      await a.atVersion(code, j.version)
      must(await a.send('table:start', { table: code, version: j.version }))
      // Both players go and their grace runs out: the game waits for them, with no timer.
      a.close()
      b.close()
      const t = (await quick.app.hub.get(code))!
      await vi.waitFor(() => expect(t.snapshot().seats.every((x) => x.gone)).toBe(true))
      await vi.waitFor(() => expect(t.idle).toBe(true))
      quick.app.hub.evictIdle()
      expect(quick.app.hub.size).toBe(0)
      expect(await quick.app.store.load(code)).not.toBeNull()
      const watcher = await quick.client()
      must(await watcher.send('table:watch', { table: code }))
      // A table in use is never swept, however old its last change.
      await quick.app.store.sweep(Date.now() + 1, new Set([code]))
      expect(await quick.app.store.load(code)).not.toBeNull()
      expect(await quick.app.store.sweep(Date.now() + 1)).toBeGreaterThan(0)
      expect(await quick.app.store.load(code)).toBeNull()
    } finally {
      await quick.stop()
    }
  })

  it('[IDLE_TABLE_HOURS] solo games started and left do not hold the server full: tables nobody is at go after the idle time', async () => {
    // One address could fill MAX_TABLES: a game in play waits for its players, and only
    // TABLE_TTL_HOURS (24 h) deleted it. Here MAX_TABLES is 2 and the idle time 3.6 s.
    const small = await startServer({
      MAX_TABLES: '2',
      GRACE_SECONDS: '1',
      IDLE_TABLE_HOURS: '0.001',
    })
    try {
      const codes: string[] = []
      for (const name of ['Squat1', 'Squat2']) {
        const c = await small.client()
        const code = must(await c.send('table:create', { game: 'herrarna', name })).table as string
        const v = c.state(code)!.table.version
        must(await c.send('table:start', { table: code, version: v }))
        c.close()
        codes.push(code)
      }
      const honest = await small.client()
      const ask = () => honest.send('table:create', { game: 'duel', name: 'Honest' })
      expect(await ask()).toMatchObject({ ok: false, error: { code: 'SERVER_FULL' } })
      // Within the idle time nothing goes (their games wait for them).
      await small.app.housekeeping()
      for (const code of codes) expect(await small.app.store.load(code)).not.toBeNull()
      await vi.waitFor(
        async () => {
          await small.app.housekeeping()
          for (const code of codes) expect(await small.app.store.load(code)).toBeNull()
        },
        { timeout: 15_000, interval: 500 },
      )
      must(await ask())
    } finally {
      await small.stop()
    }
  })

  it('one connection can be at a bounded number of tables', async () => {
    const small = await startServer({ MAX_TABLES_PER_CONNECTION: '2' })
    try {
      const c = await small.client()
      const make = () => c.send('table:create', { game: 'duel', name: 'Bo' })
      must(await make())
      const second = must(await make())
      expect(await make()).toMatchObject({ ok: false, error: { code: 'TOO_MANY_TABLES' } })
      must(await c.send('table:leave', { table: second.table as string }))
      must(await make())
    } finally {
      await small.stop()
    }
  })

  it('GET /healthz and /readyz answer', async () => {
    const h = await fetch(`${srv.url}/healthz`)
    expect(h.status).toBe(200)
    expect(await h.json()).toEqual({ ok: true })
    const r = await fetch(`${srv.url}/readyz`)
    expect(r.status).toBe(200)
    expect(await r.json()).toMatchObject({ ok: true, store: true })
  })

  it('GET /metrics counts tables, sockets, commands, latency and refusals by code, for a bearer of the token', async () => {
    const token = 'a-metrics-token-for-tests'
    const m = await startServer({ METRICS_TOKEN: token })
    const c = await m.client()
    const code = (await createIdiot(c, { name: 'Bo' })).code
    await c.send('table:start', { table: code, version: 1 })
    // Not public (issue 13, finding 10): no token, or a wrong one, gets nothing.
    expect((await fetch(`${m.url}/metrics`)).status).toBe(401)
    const wrong = await fetch(`${m.url}/metrics`, { headers: { authorization: 'Bearer nope' } })
    expect(wrong.status).toBe(401)
    // Without METRICS_TOKEN there is no /metrics on the main port at all.
    expect((await fetch(`${srv.url}/metrics`)).status).toBe(404)
    const res = await fetch(`${m.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })
    await m.stop()
    expect(res.headers.get('content-type')).toContain('text/plain')
    const text = await res.text()
    expect(text).toMatch(/^kortbord_tables [1-9]/m)
    expect(text).toMatch(/^kortbord_sockets [1-9]/m)
    expect(text).toMatch(/^kortbord_commands_total\{event="table:create",result="ok"\} [1-9]/m)
    expect(text).toMatch(/^kortbord_refused_total\{code="SEATS_NOT_FILLED"\} 1/m)
    expect(text).toMatch(/^kortbord_command_seconds_count\{event="table:create"\} [1-9]/m)
    expect(text).toMatch(/^kortbord_process_cpu_seconds_total/m)
  })

  it('logs are JSON, per table, and never hold a seat token', async () => {
    const c = await srv.client()
    const created = await createIdiot(c, { name: 'Bo' })
    const b = await srv.client()
    const joined = must(await b.send('table:join', { table: created.code, name: 'Li' }))
    srv.app.log.info({ token: created.token, msg: { token: joined.token } }, 'a careless line')
    const parsed = logs.map((l) => JSON.parse(l) as Record<string, unknown>)
    const code = created.code
    expect(parsed.some((l) => l.table === logCode(code) && l.msg === 'table created')).toBe(true)
    const all = logs.join('\n')
    // A code is the key to join and watch: logs name a table by a hash of it (finding 12).
    expect(all).not.toContain(code)
    expect(all).not.toContain(created.token)
    expect(all).not.toContain(joined.token as string)
    expect(all).toContain('[redacted]')
  })

  it('configuration comes from the environment with defaults that run out of the box', () => {
    const c = loadConfig({})
    expect(c).toMatchObject({ port: 3000, store: 'memory', graceMs: 120_000, testDeals: false })
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/)
    expect(loadConfig({ GRACE_SECONDS: '30', KORTBORD_TEST_DEALS: '1' })).toMatchObject({
      graceMs: 30_000,
      testDeals: true,
    })
    expect(loadConfig({ KORTBORD_TEST_DEALS: '1', KORTBORD_TEST_DECK: '2C 3D' }).testDeck).toEqual([
      0, 14,
    ])
    expect(() => loadConfig({ KORTBORD_TEST_DECK: '2C 3D' })).toThrow(/TEST_DEALS/)
    expect(() => loadConfig({ KORTBORD_TEST_DEALS: '1', KORTBORD_TEST_DECK: '2C ZZ' })).toThrow()
  })
})

describe('handshake', () => {
  it('a client without the protocol version, or with another, is refused', async () => {
    const srv = await startServer()
    try {
      for (const protocol of [999, undefined]) {
        const e = await connect(srv.url, { protocol: protocol as number }).catch((x: unknown) => x)
        expect(e).toBeInstanceOf(Error)
        expect((e as Error).message).toBe('PROTOCOL_MISMATCH')
      }
    } finally {
      await srv.stop()
    }
  })
})

describe('graceful shutdown', () => {
  it('lets a command in flight finish, refuses new ones, and closes', async () => {
    const srv = await startServer()
    const c = await srv.client()
    const code = (await createIdiot(c, { name: 'Bo' })).code
    const stored = await srv.app.store.load(code)
    expect(stored?.version).toBe(1)
    const closing = srv.app.close()
    const r = await c.send('table:sync', { table: code }, 2000).catch((e: unknown) => e)
    await closing
    // Either the command was refused as shutting down, or the socket was already gone.
    if (r && typeof r === 'object' && 'ok' in r) {
      expect(r).toMatchObject({ ok: false, error: { code: 'SHUTTING_DOWN' } })
    } else expect(r).toBeInstanceOf(Error)
    const ready = await fetch(`${srv.url}/readyz`).catch((e: unknown) => e)
    expect(ready).toBeInstanceOf(Error)
    const late = await connect(srv.url).catch((e: unknown) => e)
    expect(late).toBeInstanceOf(Error)
    c.close()
  })

  it('does not try to record its players as away while it closes: nothing fails on the closed store', async () => {
    const logs: string[] = []
    const srv = await startServer({}, { logs })
    const players = [await srv.client(), await srv.client()]
    const code = (await createIdiot(players[0]!, { name: 'Bo' })).code
    must(await players[1]!.send('table:join', { table: code, name: 'Siv' }))
    const before = (await srv.app.store.load(code))!
    await srv.app.close()
    await new Promise((r) => setTimeout(r, 100))
    const errors = logs.filter((l) => /refused a write|not recorded/.test(l))
    expect(errors).toEqual([])
    // The seats are as they were: the players reclaim them on reconnecting.
    const after = (await srv.app.store.load(code))!
    expect(after.seats.map((s) => s.connected)).toEqual(before.seats.map((s) => s.connected))
  })
})
