// Issue 13 on STORE=redis with several nodes: limits hold across nodes, spectators of a dead node
// stop counting, and a command whose save Redis never answered says so.
import { createClient } from 'redis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Client, connect, must } from '../scripts/client.ts'
import { type Node, settled, startNode } from './cluster.ts'
import { createIdiot } from './harness.ts'
import { redisMissing, startRedis, type TestRedis } from './redis-server.ts'

const missing = redisMissing()

describe.skipIf(missing !== null)('limits and presence across nodes (STORE=redis)', () => {
  let redis: TestRedis
  const nodes: Node[] = []
  const clients: Client[] = []
  const env = (extra: Record<string, string> = {}) => ({
    REDIS_URL: redis.url,
    REDIS_PREFIX: `a${process.pid}:`,
    HEARTBEAT_MS: '300',
    TRUST_PROXY: 'loopback',
    TABLES_PER_ADDRESS_PER_MINUTE: '4',
    LOOKUPS_PER_ADDRESS_PER_MINUTE: '6',
    ...extra,
  })
  const client = async (n: Node, ip = '198.51.100.1') => {
    const c = await connect(n.url, { headers: { 'x-forwarded-for': ip } })
    clients.push(c)
    return c
  }

  beforeAll(async () => {
    redis = await startRedis()
    for (let i = 0; i < 2; i++) nodes.push(await startNode(env()))
    // Every node must know the other before the first table is made: a node that does not yet
    // see its peer creates a table it then hands over, and the handover cuts the test's command.
    await settled(nodes)
  }, 60_000)

  afterAll(async () => {
    for (const c of clients) c.close()
    await Promise.all(nodes.map((n) => n.kill().catch(() => undefined)))
    await redis?.dispose()
  })

  it('tables per address per minute and per hour are counted over every node', async () => {
    const [a, b] = [
      await client(nodes[0]!, '198.51.100.10'),
      await client(nodes[1]!, '198.51.100.10'),
    ]
    for (const c of [a, b, a, b]) must(await c.send('table:create', { game: 'duel', name: 'Eve' }))
    for (const c of [a, b]) {
      expect(await c.send('table:create', { game: 'duel', name: 'Eve' })).toMatchObject({
        ok: false,
        error: { code: 'TOO_MANY_NEW_TABLES' },
      })
    }
    // The hour's count (TABLES_PER_ADDRESS_PER_HOUR) is in Redis too: the four made, not the
    // two the minute refused.
    const inspect = createClient({ url: redis.url })
    await inspect.connect()
    try {
      const hour = await inspect.get(`a${process.pid}:limit:create-hour:198.51.100.10`)
      expect(Number(hour)).toBe(4)
    } finally {
      await inspect.quit()
    }
  })

  it('code lookups per address per minute are counted over every node', async () => {
    const [a, b] = [
      await client(nodes[0]!, '198.51.100.20'),
      await client(nodes[1]!, '198.51.100.20'),
    ]
    for (let i = 0; i < 6; i++) await (i % 2 ? a : b).send('table:watch', { table: 'QQQQQQ' })
    for (const c of [a, b]) {
      expect(await c.send('table:watch', { table: 'QQQQQQ' })).toMatchObject({
        ok: false,
        error: { code: 'TOO_MANY_LOOKUPS' },
      })
    }
  })

  it('spectators stop counting when the node they watched on dies (no ghosts)', async () => {
    // The table is made on a node of its own: that node serves it and its spectators.
    const extra = await startNode(env())
    await settled([...nodes, extra])
    const host = await connect(extra.url, { headers: { 'x-forwarded-for': '198.51.100.30' } })
    clients.push(host)
    const made = await createIdiot(host, { name: 'Ada' })
    const code = made.code
    for (let i = 0; i < 3; i++) {
      // From another node: told where the table is served, they watch there.
      const w = await client(nodes[i % 2]!, `198.51.100.${40 + i}`)
      must(await w.send('table:watch', { table: code }))
      expect(w.url).toBe(extra.url)
    }
    await host.spectators(code, 3)
    // The node crashes: nobody ever records the spectators leaving.
    await extra.kill()
    await settled(nodes)
    const back = await client(nodes[0]!, '198.51.100.30')
    must(await back.send('table:reclaim', { table: code, token: made.token }))
    await back.spectators(code, 0, 20_000)
  }, 60_000)

  it('Redis hangs during a save: OUTCOME_UNKNOWN; once it answers, the table shows what happened', async () => {
    const a = await client(nodes[0]!, '198.51.100.50')
    const b = await client(nodes[0]!, '198.51.100.51')
    const code = (await createIdiot(a, { name: 'Ada' })).code
    const j = must(await b.send('table:join', { table: code, name: 'Bo' }))
    await a.atVersion(code, j.version)
    redis.pause()
    let r: Awaited<ReturnType<Client['send']>>
    try {
      r = await a.send('table:start', { table: code, version: j.version })
    } finally {
      redis.resume()
    }
    expect(r).toMatchObject({ ok: false, error: { code: 'OUTCOME_UNKNOWN' } })
    // Redis ran the save when it woke: the node finds out and tells everyone.
    const u = await b.waitFor(code, (x) => x.table.status === 'playing', 15_000)
    expect(u.table.version).toBe(j.version + 1)
  }, 30_000)
})
