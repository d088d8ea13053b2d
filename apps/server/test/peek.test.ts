// table:peek: what the join form may show before joining, to anyone with the code, and no more.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Client, connect, must } from '../scripts/client.ts'
import { createIdiot, startServer, type TestServer } from './harness.ts'

let srv: TestServer
/** A second server whose lookup limit is small enough to reach (addresses from x-forwarded-for). */
let tight: TestServer
const LOOKUPS = 4

beforeAll(async () => {
  srv = await startServer()
  tight = await startServer({
    LOOKUPS_PER_ADDRESS_PER_MINUTE: String(LOOKUPS),
    TRUST_PROXY: 'loopback',
  })
})
afterAll(async () => {
  await srv?.stop()
  await tight?.stop()
})

const from = (s: TestServer, ip: string) => connect(s.url, { headers: { 'x-forwarded-for': ip } })

const idiot = (host: Client, seats: number, spectators = true) =>
  createIdiot(host, { seats, spectators, turnSeconds: null })

describe('table:peek', () => {
  it('tells the game, its settings, the seats and whether watching is on; the asker is not at the table and nothing changes', async () => {
    const host = await srv.client()
    const { code } = await idiot(host, 3)
    const bo = await srv.client()
    must(await bo.send('table:join', { table: code, name: 'Bo' }))
    const guest = await srv.client()
    const before = await srv.app.hub.get(code)
    const version = before?.version
    const r = must(await guest.send('table:peek', { table: code }))
    expect(r).toMatchObject({
      table: code,
      game: 'idiot',
      settings: { seats: 3 },
      status: 'waiting',
      seats: 3,
      open: 1,
      allowSpectators: true,
      host: 'Astrid',
    })
    expect((await srv.app.hub.get(code))?.version).toBe(version)
    // Peeking is not joining: the table's commands still refuse the asker.
    expect(await guest.send('table:sync', { table: code })).toMatchObject({
      ok: false,
      error: { code: 'NOT_AT_TABLE' },
    })
    // No other name, no token, no card.
    const wire = JSON.stringify(r)
    expect(wire).not.toContain('Bo')
    expect(wire).not.toMatch(/token|cards|hand|state/i)
    // And the asker can still take the open seat.
    must(await guest.send('table:join', { table: code, name: 'Cecilia' }))
    const full = must(await (await srv.client()).send('table:peek', { table: code }))
    expect(full).toMatchObject({ open: 0, allowSpectators: true, host: 'Astrid' })
  })

  it('a full table that takes no spectators does not name its host', async () => {
    const host = await srv.client()
    const { code } = await idiot(host, 2, false)
    must(await (await srv.client()).send('table:join', { table: code, name: 'Bo' }))
    const r = must(await (await srv.client()).send('table:peek', { table: code }))
    expect(r).toMatchObject({ open: 0, allowSpectators: false, host: null })
    expect(JSON.stringify(r)).not.toMatch(/Astrid|Bo/)
  })

  it('a code no table has: NO_SUCH_TABLE; a malformed one: BAD_REQUEST', async () => {
    const c = await srv.client()
    expect(await c.send('table:peek', { table: 'ZZZZZZ' })).toMatchObject({
      ok: false,
      error: { code: 'NO_SUCH_TABLE' },
    })
    for (const bad of [{}, { table: 'x' }, { table: 'ABCDEF', extra: 1 }, { table: 42 }]) {
      expect(
        await c.send('table:peek', bad as unknown as { table: string }),
        JSON.stringify(bad),
      ).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } })
    }
  })

  it('counts against the lookup limit like join and watch: peeking cannot scan codes', async () => {
    const host = await from(tight, '192.0.2.40')
    const { code } = await idiot(host, 2)
    const scanner = await from(tight, '192.0.2.41')
    for (let i = 0; i < LOOKUPS; i++) {
      expect(await scanner.send('table:peek', { table: `AAAAA${'BCDEFG'[i]}` })).toMatchObject({
        ok: false,
        error: { code: 'NO_SUCH_TABLE' },
      })
    }
    // Even the right code is refused now, and by watch and join too: the limit is one.
    for (const e of ['table:peek', 'table:watch'] as const) {
      expect(await scanner.send(e, { table: code })).toMatchObject({
        ok: false,
        error: { code: 'TOO_MANY_LOOKUPS' },
      })
    }
    // Someone else is not held back.
    const friend = await from(tight, '192.0.2.42')
    expect(must(await friend.send('table:peek', { table: code }))).toMatchObject({ open: 1 })
  })
})
