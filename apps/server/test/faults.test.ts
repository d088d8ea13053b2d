// Issue 13, finding 1: a node survives Redis connections reset under it (a failover, a network
// blip): during saves, limit counts, heartbeats and reads (with issue 17 no socket.io adapter
// talks to Redis any more). It answers while Redis is away and serves again by itself; nothing
// escapes to the process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Client, connect, must } from '../scripts/client.ts'
import { type Node, readyzOnceItIs, startNode } from './cluster.ts'
import { type FaultProxy, startFaultProxy } from './fault-proxy.ts'
import { createIdiot } from './harness.ts'
import { redisMissing, startRedis, type TestRedis } from './redis-server.ts'

const missing = redisMissing()
const TOKEN = 'fault-test-metrics-token'
/** A Redis command's name as it goes over the wire (RESP), not a part of some other name. */
const cmd = (name: string) => `$${name.length}\r\n${name}\r\n`

describe.skipIf(missing !== null)('a node between resets of its Redis connections', () => {
  let redis: TestRedis
  let proxy: FaultProxy
  let node: Node
  const clients: Client[] = []
  let code = ''
  let version = 0

  beforeAll(async () => {
    redis = await startRedis()
    proxy = await startFaultProxy({ port: redis.port })
    node = await startNode({
      REDIS_URL: proxy.url,
      REDIS_PREFIX: `f${process.pid}:`,
      METRICS_TOKEN: TOKEN,
      HEARTBEAT_MS: '300',
    })
    for (let i = 0; i < 2; i++) clients.push(await connect(node.url))
    const [a, b] = clients as [Client, Client]
    code = (await createIdiot(a, { name: 'Ada' })).code
    const j = must(await b.send('table:join', { table: code, name: 'Bo' }))
    await a.atVersion(code, j.version)
    version = must(await a.send('table:start', { table: code, version: j.version })).version
    await b.atVersion(code, version)
  }, 60_000)

  afterAll(async () => {
    for (const c of clients) c.close()
    await node?.kill()
    await proxy?.close()
    await redis?.dispose()
  })

  /** The node is up and ready again (by itself: nobody restarts it). */
  async function served(): Promise<void> {
    expect(node.proc.exitCode, node.output.join('')).toBeNull()
    // /readyz shares the store's answer for 250 ms (readiness.ts): one given just before the
    // reset would say ready while the connection is still coming back.
    await new Promise((res) => setTimeout(res, 300))
    const until = Date.now() + 15_000
    for (;;) {
      const r = await fetch(`${node.url}/readyz`).catch(() => null)
      if (r?.status === 200) break
      if (Date.now() > until) throw new Error(`not ready again: ${node.output.join('')}`)
      await new Promise((res) => setTimeout(res, 100))
    }
    const s = await clients[0]!.sync(code)
    version = s.table.version
  }

  const ready = (c: Client) =>
    c.send('game:move', { table: code, version, move: { type: 'ready' } })

  it('a reset during a save: OUTCOME_UNKNOWN (never a crash); the table says what happened', async () => {
    proxy.resetOn(cmd('EVALSHA'))
    const r = await ready(clients[0]!)
    expect(r).toMatchObject({ ok: false, error: { code: 'OUTCOME_UNKNOWN' } })
    await served()
    // The reset came before Redis saw the save: nothing changed, and the command can be made.
    const t = await clients[0]!.sync(code)
    expect(t.table.version).toBe(version)
    version = must(await ready(clients[0]!)).version
  })

  it('a reset during a limit count and during a heartbeat: the command is answered, the node beats on', async () => {
    proxy.resetOn(cmd('EVAL'))
    proxy.resetOn(cmd('ZADD'))
    // The creation's count per address is reset away, and with it the connection the save
    // needs: answered at once, whatever the answer.
    const made = await clients[1]!.send('table:create', { game: 'duel', name: 'Bo' })
    if (!made.ok) expect(['UNAVAILABLE', 'OUTCOME_UNKNOWN']).toContain(made.error.code)
    await new Promise((res) => setTimeout(res, 1500))
    await served()
    must(await clients[1]!.send('table:create', { game: 'duel', name: 'Bo' }))
    expect(proxy.resets).toBeGreaterThanOrEqual(2)
    version = must(await ready(clients[1]!)).version
  })

  it('a reset during a read: UNAVAILABLE for that command, then the read works', async () => {
    proxy.resetOn(cmd('HGET'))
    const w = await connect(node.url)
    clients.push(w)
    // A table this node has not loaded: the lookup reads Redis.
    const r = await w.send('table:watch', { table: 'ZZZZZZ' })
    expect(r).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } })
    await served()
    const again = await w.send('table:watch', { table: 'ZZZZZZ' })
    expect(again).toMatchObject({ ok: false, error: { code: 'NO_SUCH_TABLE' } })
  })

  it('every connection reset at once', async () => {
    proxy.resetAll()
    await served()
  }, 20_000)

  it('Redis away: commands are refused at once (UNAVAILABLE), and service returns without a restart', async () => {
    proxy.down()
    const t0 = Date.now()
    const r = await clients[0]!.send('table:sync', { table: code })
    // A table loaded here answers a sync from memory; a change needs Redis.
    expect(r.ok).toBe(true)
    const move = await clients[0]!.send('game:move', {
      table: code,
      version,
      move: { type: 'pickup' },
    })
    // Refused, by the rules or for want of Redis: never applied.
    expect(move.ok).toBe(false)
    const create = await clients[1]!.send('table:create', {
      game: 'idiot',
      name: 'Bo',
      options: { seats: 2 },
    })
    expect(create.ok).toBe(false)
    if (!create.ok) expect(['UNAVAILABLE', 'OUTCOME_UNKNOWN']).toContain(create.error.code)
    expect(Date.now() - t0).toBeLessThan(3000)
    expect((await readyzOnceItIs(node.url, 503)).status).toBe(503)
    proxy.up()
    await served()
    await createIdiot(clients[1]!, { name: 'Bo' })
  })

  it('nothing escaped to the process: no unhandled rejection, no uncaught exception', async () => {
    expect(node.proc.exitCode).toBeNull()
    const m = await fetch(`${node.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
    const text = await m.text()
    expect(text).not.toMatch(/^kortbord_escaped_errors_total\{[^}]*\} [1-9]/m)
    // The resets were seen and counted as Redis errors, not hidden.
    expect(text).toMatch(/^kortbord_redis_errors_total\{source="store"\} [1-9]/m)
    expect(node.output.join('')).not.toMatch(/unhandled promise rejection|uncaught exception/)
  })
})
