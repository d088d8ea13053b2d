// A table for learning (docs/rules.md, hints; docs/protocol.md, Idiot options): the host's
// `hints` is kept in the table's settings, where every client reads it, players and spectators
// alike; it is off unless asked for. (A value that is not a boolean: bad-input.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { must } from '../scripts/client.ts'
import { createIdiot, startServer, type TestServer } from './harness.ts'

describe('the Idiot option hints', () => {
  let srv: TestServer
  beforeAll(async () => {
    srv = await startServer()
  })
  afterAll(() => srv.stop())

  const settingsOf = (u: { table: { settings: unknown } }) =>
    u.table.settings as { seats: number; hints?: boolean }

  it('is off unless the host asks for it', async () => {
    const host = await srv.client()
    const { code } = await createIdiot(host)
    const u = await host.waitFor(code, () => true)
    expect(settingsOf(u).hints).toBe(false)
  })

  it('asked for, every player who joins and every spectator sees it in the settings', async () => {
    const host = await srv.client()
    const { code } = await createIdiot(host, { hints: true })
    expect(settingsOf(await host.waitFor(code, () => true)).hints).toBe(true)
    const bo = await srv.client()
    must(await bo.send('table:join', { table: code, name: 'Bo' }))
    expect(settingsOf(await bo.waitFor(code, () => true)).hints).toBe(true)
    const eve = await srv.client()
    must(await eve.send('table:watch', { table: code }))
    expect(settingsOf(await eve.waitFor(code, () => true)).hints).toBe(true)
  })
})
