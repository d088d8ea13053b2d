// One contract for every table store (issue 5): the memory store and the Redis store must
// behave alike. The Redis store also gets tests of what only it has: keys, TTLs, outages.
import { randomBytes } from 'node:crypto'
import type { Deal, GameRecord } from '@kortbord/engine'
import { CreateTable } from '@kortbord/protocol'
import pino from 'pino'
import { createClient } from 'redis'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { AbandonedHeads, settleAbandoned } from '../src/abandoned.ts'
import { buildApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'
import { headAfter } from '../src/game-records.ts'
import { connectRedisStore, RedisStore, StoreUnavailable } from '../src/redis-store.ts'
import { MemoryStore, type TableRecord, type TableStore, VersionConflict } from '../src/store.ts'

/** A record's secret deal alone (its table's code aside). */
const dealOf = async (s: TableStore, id: string) => (await s.loadRecordSecret(id))?.deal ?? null

import { hashToken, newToken, Table } from '../src/table.ts'
import { redisMissing, startRedis, type TestRedis } from './redis-server.ts'

let codes = 0
const newCode = (): string => `T${process.pid}x${++codes}x${randomBytes(3).toString('hex')}`

/** A table as Table.create makes it, with a known seat token. */
function fresh(token = newToken()): TableRecord {
  const msg = CreateTable.parse({ game: 'duel', name: 'Ann' })
  return Table.create(newCode(), msg, token, Date.now(), 'creator')
}

/** The following version of `r`, with something visibly changed. */
function next(r: TableRecord, mark = 'x'): TableRecord {
  return {
    ...r,
    version: r.version + 1,
    updatedAt: r.updatedAt + 1,
    log: [...r.log, { seq: r.logSeq + 1, at: r.updatedAt + 1, t: 'left', seat: 0, name: mark }],
    logSeq: r.logSeq + 1,
  }
}

/** `r` with a game in play and every seat's player disconnected: nobody is at the table. */
function deserted(r: TableRecord): TableRecord {
  return {
    ...next(r),
    status: 'playing',
    seats: r.seats.map((x) => (x.name === null ? x : { ...x, connected: false })),
  }
}

interface Harness {
  readonly store: TableStore
  /** Everything stored for the table, as text, read past the store's API (or null). */
  raw(code: string): Promise<string | null>
  /** Another store of the same kind whose records are kept `ttlSeconds` (RECORD_TTL_DAYS). */
  withRecordTtl(ttlSeconds: number): Promise<TableStore>
  /** Another store of the same kind, on its own, that keeps at most `max` records (RECORDS_MAX). */
  withMaxRecords(max: number): Promise<TableStore>
}

/** A record header as a table opens it (no moves, no deal yet). */
function recordHeader(id: string, over: Partial<GameRecord> = {}): GameRecord {
  return {
    format: 'kortbord-record',
    version: 1,
    id,
    game: 'duel',
    gameNo: 1,
    options: {},
    seats: [{ name: 'Ann', bot: null }],
    shuffle: 'fixed',
    commitment: null,
    entropy: [],
    deal: null,
    moves: [],
    end: null,
    startedAt: 1,
    endedAt: null,
    head: 'h0',
    ...over,
  }
}

const newRecordId = () => `rec${randomBytes(5).toString('hex')}`
const SECRET_DEAL = {
  fair: { v: 1, seed: 'ab'.repeat(32), entropy: ['', 'cd'], game: 1 },
} as const satisfies Deal
const aMove = (v: number) => ({ seat: 0, move: { type: 'deal' as const }, v, at: 10 + v })

function storeContract(name: string, makeStore: () => Promise<Harness>): void {
  describe(`store contract: ${name}`, () => {
    let h: Harness
    let store: TableStore
    beforeAll(async () => {
      h = await makeStore()
      store = h.store
    })
    afterAll(async () => {
      await store?.close()
    })

    it('loads a missing table as null', async () => {
      expect(await store.load(newCode())).toBeNull()
    })

    it('creates with expected null, once', async () => {
      const r = fresh()
      await store.save(r, null)
      expect(await store.load(r.code)).toEqual(r)
      const other = { ...r, seats: r.seats.map((s) => ({ ...s, name: 'Mallory' })) }
      await expect(store.save(other, null)).rejects.toBeInstanceOf(VersionConflict)
      expect(await store.load(r.code)).toEqual(r)
    })

    it('replaces only the expected version', async () => {
      const v1 = fresh()
      await store.save(v1, null)
      const v2 = next(v1, 'two')
      await store.save(v2, 1)
      expect(await store.load(v1.code)).toEqual(v2)
      const v3 = next(v2, 'three')
      // Stale, future, and "must not exist" are all refused and change nothing.
      for (const expected of [1, 3, 7, 0, null]) {
        await expect(store.save(v3, expected)).rejects.toBeInstanceOf(VersionConflict)
        expect(await store.load(v1.code)).toEqual(v2)
      }
      await store.save(v3, 2)
      expect(await store.load(v1.code)).toEqual(v3)
    })

    it('refuses to replace a table that does not exist', async () => {
      const r = next(fresh())
      await expect(store.save(r, 1)).rejects.toBeInstanceOf(VersionConflict)
      expect(await store.load(r.code)).toBeNull()
    })

    it('lets exactly one of 20 concurrent saves of the same version win', async () => {
      const v1 = fresh()
      await store.save(v1, null)
      const tries = Array.from({ length: 20 }, (_, i) => next(v1, `writer ${i}`))
      const results = await Promise.allSettled(tries.map((r) => store.save(r, 1)))
      const won = results.flatMap((x, i) => (x.status === 'fulfilled' ? [i] : []))
      expect(won).toHaveLength(1)
      for (const x of results) {
        if (x.status === 'rejected') expect(x.reason).toBeInstanceOf(VersionConflict)
      }
      expect(await store.load(v1.code)).toEqual(tries[won[0]!])
    })

    it('keeps what is stored unchangeable: a saved or loaded record is a copy, or frozen (the memory store in tests)', async () => {
      const r = fresh()
      const saved = structuredClone(r)
      await store.save(r, null)
      // Either the write lands on a copy, or it throws (a frozen record, strict mode): never
      // on what the store holds.
      const tryWrite = (f: () => void) => {
        try {
          f()
        } catch (e) {
          expect(e).toBeInstanceOf(TypeError)
        }
      }
      tryWrite(() => {
        ;(r.seats as unknown as { name: string | null }[])[0]!.name = 'changed after save'
      })
      const a = (await store.load(r.code)) as unknown as {
        seats: { name: string | null }[]
        version: number
      }
      expect(a).toEqual(saved)
      tryWrite(() => {
        a.seats[0]!.name = 'changed after load'
      })
      tryWrite(() => {
        a.version = 99
      })
      expect(await store.load(r.code)).toEqual(saved)
    })

    it('deletes', async () => {
      const r = fresh()
      await store.save(r, null)
      await store.delete(r.code)
      expect(await store.load(r.code)).toBeNull()
      await store.delete(r.code) // deleting a missing table is fine
      await store.save(r, null) // and the code can be created again
      expect(await store.load(r.code)).toEqual(r)
    })

    it('is ready', async () => {
      expect(await store.ready()).toBe(true)
    })

    it('never sweeps a table that is kept', async () => {
      const r = fresh()
      await store.save(r, null)
      const n = await store.sweep(Date.now() + 60_000, new Set([r.code]))
      expect(typeof n).toBe('number')
      expect(await store.load(r.code)).toEqual(r)
    })

    it('keeps game records with the save that made them: a header, then moves appended; nothing from a refused save', async () => {
      const v1 = fresh()
      await store.save(v1, null)
      const id = newRecordId()
      const header = recordHeader(id)
      expect(await store.loadRecord(id)).toBeNull()
      const v2 = next(v1)
      await store.save(v2, 1, { header })
      expect(await store.loadRecord(id)).toEqual(header)
      const m1 = { seat: 0, move: { type: 'deal' as const }, v: 3, at: 10 }
      await store.save(next(v2), 2, { move: { id, entry: m1 } })
      // A save refused as stale appends nothing.
      await expect(
        store.save(next(v2, 'late'), 2, { move: { id, entry: { ...m1, v: 99 } } }),
      ).rejects.toBeInstanceOf(VersionConflict)
      const m2 = { seat: 0, move: { type: 'finish' as const }, v: 4, at: 11, by: 'timer' as const }
      const closed = { ...header, end: { reason: 'abandoned' as const }, head: 'h2' }
      await store.save(next(next(v2)), 3, { move: { id, entry: m2 }, header: closed })
      expect(await store.loadRecord(id)).toEqual({ ...closed, moves: [m1, m2] })
    })

    it('keeps a game’s deal apart from its record while it is played, and drops it when the record reveals it', async () => {
      const v1 = fresh()
      await store.save(v1, null)
      const id = newRecordId()
      expect(await dealOf(store, id)).toBeNull()
      const header = recordHeader(id, { shuffle: 'kortbord-shuffle-v1', commitment: 'c0' })
      expect(await store.loadRecordSecret(id)).toBeNull()
      await store.save(next(v1), 1, { header, deal: SECRET_DEAL })
      expect(await dealOf(store, id)).toEqual(SECRET_DEAL)
      // Kept with it, the code of the table that plays it (how abandoned.ts finds the table).
      expect(await store.loadRecordSecret(id)).toEqual({ deal: SECRET_DEAL, table: v1.code })
      // The record itself, which is what the API serves, names no deal and no seed.
      const served = await store.loadRecord(id)
      expect(served).toEqual(header)
      expect(JSON.stringify(served)).not.toContain(SECRET_DEAL.fair.seed)
      // A refused save neither sets nor drops it.
      await expect(
        store.save(next(v1, 'late'), 1, { header: recordHeader(id), deal: { deck: [1, 2] } }),
      ).rejects.toBeInstanceOf(VersionConflict)
      await store.save(next(next(v1)), 2, { move: { id, entry: aMove(3) } })
      expect(await dealOf(store, id)).toEqual(SECRET_DEAL)
      // The game ends: the record reveals the deal, and it is no longer kept apart.
      const closed = { ...header, deal: SECRET_DEAL, end: { reason: 'abandoned' as const } }
      await store.save(next(next(next(v1))), 3, { header: closed })
      expect(await dealOf(store, id)).toBeNull()
      expect(await store.loadRecordSecret(id)).toBeNull()
      expect(await store.loadRecord(id)).toEqual({ ...closed, moves: [aMove(3)] })
    })

    it('an open record is served as abandoned once its table is gone or plays another game, never before', async () => {
      const v1 = fresh()
      await store.save(v1, null)
      const id = newRecordId()
      const header = recordHeader(id)
      const v2 = { ...next(v1), gameRecord: header }
      await store.save(v2, 1, { header, deal: SECRET_DEAL })
      await store.save(next(v2), 2, { move: { id, entry: aMove(3) } })
      const open = (await store.loadRecord(id))!
      // Its table plays it: served as it is, deal hidden.
      expect((await settleAbandoned(store, open, 100)).record).toEqual(open)
      // The table plays another game now (the record was never closed): abandoned.
      await store.save({ ...next(next(v2)), gameRecord: recordHeader(newRecordId()) }, 3)
      const gone = (await settleAbandoned(store, open, 100)).record
      expect(gone).toMatchObject({
        end: { reason: 'abandoned' },
        deal: SECRET_DEAL,
        endedAt: aMove(3).at,
        moves: [aMove(3)],
      })
      expect(gone.truncated).toBeUndefined()
      // Its head is the chain's after its moves, computed once however often it is read.
      const heads = new AbandonedHeads(2)
      for (let i = 0; i < 3; i++) {
        expect((await settleAbandoned(store, open, 100, heads)).record.head).toBe(
          headAfter({ ...open, deal: SECRET_DEAL }),
        )
      }
      expect(heads.computed).toBe(1)
      // At most `entries` heads are kept: the least recently asked goes.
      heads.of({ ...open, id: 'other1' }, SECRET_DEAL)
      heads.of({ ...open, id: 'other2' }, SECRET_DEAL)
      expect(heads.size).toBe(2)
      heads.of(open, SECRET_DEAL)
      expect(heads.computed).toBe(4)
      // The table is gone, and the record holds as many moves as one keeps: cut short too.
      await store.delete(v1.code)
      expect((await settleAbandoned(store, open, 1)).record).toMatchObject({
        end: { reason: 'abandoned' },
        truncated: true,
      })
    })

    it('[RECORDS_MAX] keeps at most maxRecords: the one changed longest ago goes, header, moves and deal', async () => {
      const few = await h.withMaxRecords(3)
      try {
        /** Saves a table whose save opens record `id` with its deal, and a move of it. */
        const openWithMove = async (id: string) => {
          const v1 = fresh()
          await few.save(v1, null)
          await few.save(next(v1), 1, { header: recordHeader(id), deal: SECRET_DEAL })
          await few.save(next(next(v1)), 2, { move: { id, entry: aMove(3) } })
        }
        const ids = ['r1', 'r2', 'r3'].map((x) => `${x}${newRecordId()}`)
        for (const id of ids) await openWithMove(id)
        for (const id of ids) expect(await few.loadRecord(id)).not.toBeNull()
        // r1 changes (a move): r2 is now the one changed longest ago, and a fourth pushes it out.
        const t = fresh()
        await few.save(t, null)
        await few.save(next(t), 1, { move: { id: ids[0]!, entry: aMove(4) } })
        const r4 = `r4${newRecordId()}`
        await openWithMove(r4)
        expect(await few.loadRecord(ids[1]!)).toBeNull()
        expect(await dealOf(few, ids[1]!)).toBeNull()
        for (const id of [ids[0]!, ids[2]!, r4]) expect(await few.loadRecord(id)).not.toBeNull()
        expect((await few.loadRecord(ids[0]!))!.moves).toEqual([aMove(3), aMove(4)])
        // A record that is gone takes no more moves: nothing of it comes back.
        await few.save(next(next(t)), 2, { move: { id: ids[1]!, entry: aMove(5) } })
        expect(await few.loadRecord(ids[1]!)).toBeNull()
        for (const id of [ids[0]!, ids[2]!, r4]) expect(await few.loadRecord(id)).not.toBeNull()
        // Tables are not records: every table saved is still there.
        expect(await few.load(t.code)).not.toBeNull()
      } finally {
        await few.close()
      }
    })

    it('[RECORD_TTL_DAYS] forgets a record, its moves and its deal once its retention has passed', async () => {
      const short = await h.withRecordTtl(1)
      try {
        const v1 = fresh()
        await short.save(v1, null)
        const id = newRecordId()
        await short.save(next(v1), 1, { header: recordHeader(id), deal: SECRET_DEAL })
        await short.save(next(next(v1)), 2, { move: { id, entry: aMove(3) } })
        expect(await short.loadRecord(id)).toEqual({ ...recordHeader(id), moves: [aMove(3)] })
        expect(await dealOf(short, id)).toEqual(SECRET_DEAL)
        await new Promise((r) => setTimeout(r, 1300))
        expect(await short.loadRecord(id)).toBeNull()
        expect(await dealOf(short, id)).toBeNull()
        // The table itself has its own, longer retention.
        expect(await short.load(v1.code)).not.toBeNull()
      } finally {
        await short.close()
      }
    })

    it('stores seat tokens only hashed', async () => {
      const token = newToken()
      const r = fresh(token)
      await store.save(r, null)
      const raw = await h.raw(r.code)
      expect(raw).not.toBeNull()
      expect(raw).toContain(hashToken(token))
      expect(raw).not.toContain(token)
    })
  })
}

// ---------------------------------------------------------------------------------------------

storeContract('memory', async () => {
  const store = new MemoryStore({ freeze: true })
  // The memory store keeps the (frozen) records; read them past the API, as one would read Redis.
  const tables = (store as unknown as { tables: Map<string, object> }).tables
  return {
    store,
    raw: async (code) => {
      const r = tables.get(code)
      return r === undefined ? null : JSON.stringify(r)
    },
    withRecordTtl: async (ttlSeconds) =>
      new MemoryStore({ freeze: true, retention: { ttlSeconds, maxRecords: 1000 } }),
    withMaxRecords: async (maxRecords) =>
      new MemoryStore({ freeze: true, retention: { ttlSeconds: 3600, maxRecords } }),
  }
})

const missing = redisMissing()

describe.skipIf(missing !== null)('redis store', () => {
  let redis: TestRedis
  let inspect: ReturnType<typeof createClient>
  const prefix = `kbtest:${randomBytes(4).toString('hex')}:`
  const opened: RedisStore[] = []
  const open = (o: Partial<ConstructorParameters<typeof RedisStore>[0]> = {}): RedisStore => {
    const s = new RedisStore({ url: redis.url, prefix, commandTimeoutMs: 500, ...o })
    opened.push(s)
    return s
  }

  beforeAll(async () => {
    redis = await startRedis()
    inspect = createClient({ url: redis.url })
    inspect.on('error', () => undefined)
    await inspect.connect()
  })
  afterAll(async () => {
    await Promise.all(opened.map((s) => s.close()))
    inspect?.destroy()
    await redis?.dispose()
  })

  storeContract('redis', async () => {
    const store = await connectRedisStore(redis.url, { prefix, commandTimeoutMs: 500 })
    return {
      store,
      raw: async (code) => {
        const all = await inspect.hGetAll(store.key(code))
        return Object.keys(all).length === 0 ? null : JSON.stringify(all)
      },
      withRecordTtl: async (recordTtlSeconds) =>
        connectRedisStore(redis.url, { prefix, commandTimeoutMs: 500, recordTtlSeconds }),
      withMaxRecords: async (maxRecords) =>
        connectRedisStore(redis.url, {
          prefix: `${prefix}max${randomBytes(3).toString('hex')}:`,
          commandTimeoutMs: 500,
          maxRecords,
        }),
    }
  })

  it('[IDLE_TABLE_HOURS] a save of a table nobody is at sets the idle TTL; one with a player there the table TTL; a sweep renews a kept table to the idle TTL', async () => {
    const store = open({ ttlSeconds: 86_400, idleTtlSeconds: 600 })
    await store.waitReady(2000)
    const there = fresh()
    await store.save(there, null)
    expect(await inspect.ttl(store.key(there.code))).toBeGreaterThan(86_000)
    const gone = deserted(there)
    await store.save(gone, 1)
    const idle = await inspect.ttl(store.key(there.code))
    expect(idle).toBeGreaterThan(590)
    expect(idle).toBeLessThanOrEqual(600)
    // Someone comes back: the table TTL again.
    await store.save({ ...next(gone), seats: there.seats }, 2)
    expect(await inspect.ttl(store.key(there.code))).toBeGreaterThan(86_000)
    await store.sweep(0, new Set([there.code]))
    expect(await inspect.ttl(store.key(there.code))).toBeLessThanOrEqual(600)
  })

  it('[RECORDS_MAX] holds no more than maxRecords records in Redis: an evicted record leaves no key, and the index stays at the bound', async () => {
    const own = `${prefix}cap${randomBytes(3).toString('hex')}:`
    const store = open({ prefix: own, maxRecords: 4 })
    await store.waitReady(2000)
    for (let i = 0; i < 25; i++) {
      const v1 = fresh()
      await store.save(v1, null)
      const id = newRecordId()
      await store.save(next(v1), 1, { header: recordHeader(id), deal: SECRET_DEAL })
      await store.save(next(next(v1)), 2, { move: { id, entry: aMove(3) } })
    }
    expect(await inspect.zCard(store.recordIndexKey())).toBe(4)
    const kept = await inspect.zRange(store.recordIndexKey(), 0, -1)
    const recordKeys = (await inspect.keys(`${own}record:*`)).sort()
    expect(recordKeys).toEqual(
      kept
        .flatMap((id) => [
          store.recordKey(id),
          `${store.recordKey(id)}:moves`,
          `${store.recordKey(id)}:deal`,
        ])
        .sort(),
    )
    expect(await inspect.ttl(store.recordIndexKey())).toBeGreaterThan(0)
    for (const id of kept) expect(await store.loadRecord(id)).not.toBeNull()
  })

  it('[RECORD_TTL_DAYS] sets a record’s TTL on its header, moves and deal, renews it with every move, and leaves it alone on a refused save', async () => {
    const store = open({ recordTtlSeconds: 5000 })
    await store.waitReady(2000)
    const v1 = fresh()
    await store.save(v1, null)
    const id = newRecordId()
    const keys = [
      store.recordKey(id),
      `${store.recordKey(id)}:moves`,
      `${store.recordKey(id)}:deal`,
    ]
    const ttls = () => Promise.all(keys.map((k) => inspect.ttl(k)))
    await store.save(next(v1), 1, { header: recordHeader(id), deal: SECRET_DEAL })
    const [header, , deal] = await ttls()
    for (const t of [header!, deal!]) {
      expect(t).toBeGreaterThan(4990)
      expect(t).toBeLessThanOrEqual(5000)
    }
    // Nothing else was made for the record, and nothing outside the prefix.
    expect((await inspect.keys(`*${id}*`)).sort()).toEqual(
      [store.recordKey(id), `${store.recordKey(id)}:deal`].sort(),
    )
    for (const k of keys) await inspect.expire(k, 60)
    await store.save(next(next(v1)), 2, { move: { id, entry: aMove(3) } })
    for (const t of await ttls()) {
      expect(t).toBeGreaterThan(4990) // renewed: kept RECORD_TTL_DAYS after its last move
      expect(t).toBeLessThanOrEqual(5000)
    }
    for (const k of keys) await inspect.expire(k, 60)
    await expect(
      store.save(next(v1, 'stale'), 1, { move: { id, entry: aMove(9) } }),
    ).rejects.toBeInstanceOf(VersionConflict)
    for (const t of await ttls()) expect(t).toBeLessThanOrEqual(60)
    // The end: the header is set again with the full TTL and the deal key is gone.
    const closed = { ...recordHeader(id), deal: SECRET_DEAL, end: { reason: 'abandoned' as const } }
    await store.save(next(next(next(v1))), 3, { header: closed })
    const [h2, m2, d2] = await ttls()
    expect(h2).toBeGreaterThan(4990)
    expect(m2).toBeLessThanOrEqual(60)
    expect(d2).toBe(-2)
  })

  it('keeps every table under the prefix, as one hash', async () => {
    const store = open()
    await store.waitReady(2000)
    const r = fresh()
    await store.save(r, null)
    expect(await inspect.keys(`${prefix}*${r.code}*`)).toEqual([`${prefix}table:${r.code}`])
    expect(await inspect.keys(`*${r.code}*`)).toEqual([`${prefix}table:${r.code}`])
    const h = await inspect.hGetAll(`${prefix}table:${r.code}`)
    expect(h.v).toBe('1')
    expect(JSON.parse(h.json!)).toEqual(r)
  })

  it('sets the TTL on every save, shorter once the game is over', async () => {
    const store = open({ ttlSeconds: 1000, finishedTtlSeconds: 100 })
    await store.waitReady(2000)
    const r = fresh()
    const key = store.key(r.code)
    await store.save(r, null)
    const t1 = await inspect.ttl(key)
    expect(t1).toBeGreaterThan(990)
    expect(t1).toBeLessThanOrEqual(1000)
    await inspect.expire(key, 5)
    await store.save(next(r), 1)
    expect(await inspect.ttl(key)).toBeGreaterThan(990) // refreshed
    await store.save({ ...next(next(r)), status: 'over' }, 2)
    const t3 = await inspect.ttl(key)
    expect(t3).toBeGreaterThan(90)
    expect(t3).toBeLessThanOrEqual(100)
    // A failed save does not touch the TTL either.
    await inspect.expire(key, 50)
    await expect(store.save(next(r), 1)).rejects.toBeInstanceOf(VersionConflict)
    expect(await inspect.ttl(key)).toBeLessThanOrEqual(50)
    // Sweep deletes nothing (TTLs do) but renews the TTL of tables in use.
    expect(await store.sweep(Date.now() + 1e9, new Set([r.code]))).toBe(0)
    expect(await inspect.ttl(key)).toBeGreaterThan(990)
  })

  it('lets one of two nodes win a race for the same version', async () => {
    const a = open()
    const b = open()
    await Promise.all([a.waitReady(2000), b.waitReady(2000)])
    const v1 = fresh()
    await a.save(v1, null)
    const tries = Array.from({ length: 20 }, (_, i) => next(v1, `node ${i % 2} writer ${i}`))
    const results = await Promise.allSettled(tries.map((r, i) => (i % 2 ? a : b).save(r, 1)))
    expect(results.filter((x) => x.status === 'fulfilled')).toHaveLength(1)
    const stored = await b.load(v1.code)
    expect(tries).toContainEqual(stored)
  })

  it('fails fast when Redis is down, and comes back by itself with nothing half-applied', async () => {
    const own = await startRedis({ appendonly: true })
    const store = new RedisStore({ url: own.url, prefix, commandTimeoutMs: 500 })
    try {
      await store.waitReady(2000)
      const v1 = fresh()
      const v2 = next(v1, 'two')
      await store.save(v1, null)
      await store.save(v2, 1)

      await own.stop()
      const v3 = next(v2, 'three')
      for (const attempt of [
        () => store.save(v3, 2),
        () => store.load(v1.code),
        () => store.delete(v1.code),
        () => store.sweep(0, new Set([v1.code])),
      ]) {
        const t = Date.now()
        await expect(attempt()).rejects.toBeInstanceOf(StoreUnavailable)
        expect(Date.now() - t).toBeLessThan(2000)
      }
      const t = Date.now()
      expect(await store.ready()).toBe(false)
      expect(Date.now() - t).toBeLessThan(2000)

      await own.restart() // same port, same data
      const until = Date.now() + 8000
      while (!(await store.ready()) && Date.now() < until)
        await new Promise((r) => setTimeout(r, 50))
      expect(await store.ready()).toBe(true)
      // The save refused during the outage left version 2 as it was.
      expect(await store.load(v1.code)).toEqual(v2)
      await store.save(v3, 2) // the same store object works again (script cache was lost too)
      expect(await store.load(v1.code)).toEqual(v3)
    } finally {
      await store.close()
      await own.dispose()
    }
  })

  it('keeps its connection when its own event loop is late: the answer waiting is taken, nothing is refused', async () => {
    const own = await startRedis()
    const said: string[] = []
    const log = {
      info: (_: object, m: string) => said.push(m),
      warn: (_: object, m: string) => said.push(m),
    }
    const store = new RedisStore({ url: own.url, prefix, commandTimeoutMs: 200, log })
    try {
      await store.waitReady(2000)
      const v1 = fresh()
      await store.save(v1, null)
      // An overloaded node: the loop is busy past the call's timeout while Redis has answered.
      const saving = store.save(next(v1), 1)
      const busyUntil = Date.now() + 500
      while (Date.now() < busyUntil) {
        // spin
      }
      await saving
      expect((await store.load(v1.code))?.version).toBe(2)
      expect(said).not.toContain('redis stopped answering; reconnecting')
    } finally {
      await store.close()
      await own.dispose()
    }
  })

  it('times out on a Redis that hangs, and recovers when it answers again', async () => {
    const own = await startRedis()
    const said: string[] = []
    const log = {
      info: (_: object, m: string) => said.push(m),
      warn: (_: object, m: string) => said.push(m),
    }
    const store = new RedisStore({ url: own.url, prefix, commandTimeoutMs: 300, log })
    try {
      await store.waitReady(2000)
      const v1 = fresh()
      await store.save(v1, null)
      own.pause()
      let t = Date.now()
      await expect(store.save(next(v1), 1)).rejects.toBeInstanceOf(StoreUnavailable)
      expect(Date.now() - t).toBeLessThan(1000)
      t = Date.now()
      expect(await store.ready()).toBe(false)
      expect(Date.now() - t).toBeLessThan(1000)
      // A connection that stopped answering is replaced, not waited on until TCP gives up.
      expect(said).toContain('redis stopped answering; reconnecting')
      own.resume()
      const until = Date.now() + 8000
      while (!(await store.ready()) && Date.now() < until)
        await new Promise((r) => setTimeout(r, 50))
      expect(await store.ready()).toBe(true)
      // The timed-out save was either applied whole or not at all; the version says which.
      const now = (await store.load(v1.code))!
      expect([v1, next(v1)]).toContainEqual(now)
      await store.save(next(now), now.version)
      expect((await store.load(v1.code))?.version).toBe(now.version + 1)
    } finally {
      await store.close()
      await own.dispose()
    }
  })

  it('connectRedisStore gives up after its timeout when Redis is not there', async () => {
    const own = await startRedis()
    const url = own.url
    await own.dispose() // nothing listens on that port now
    const t = Date.now()
    await expect(connectRedisStore(url, { connectTimeoutMs: 400 })).rejects.toBeInstanceOf(
      StoreUnavailable,
    )
    expect(Date.now() - t).toBeLessThan(2000)
  })

  it('refuses calls after close, and closes quickly while Redis is down', async () => {
    const own = await startRedis()
    const store = new RedisStore({ url: own.url, prefix, commandTimeoutMs: 300 })
    const closed = open()
    try {
      await Promise.all([store.waitReady(2000), closed.waitReady(2000)])
      await closed.close()
      await expect(closed.load('X')).rejects.toBeInstanceOf(StoreUnavailable)
      expect(await closed.ready()).toBe(false)
      await own.kill()
      const t = Date.now()
      await store.close()
      expect(Date.now() - t).toBeLessThan(1000)
    } finally {
      await own.dispose()
    }
  })
})

describe('[IDLE_TABLE_HOURS] the memory store deletes a table nobody is at sooner', () => {
  it('a game in play whose players have all gone goes at idleBefore; one with a player there, or kept, stays', async () => {
    const store = new MemoryStore()
    const present = { ...next(fresh()), status: 'playing' as const, version: 1 }
    const alone = deserted(fresh())
    const kept = deserted(fresh())
    for (const r of [present, alone, kept]) await store.save({ ...r, version: 1 }, null)
    expect(present.seats.some((x) => x.connected)).toBe(true)
    const now = Date.now() + 10
    // Not past the table TTL, past the idle one.
    expect(await store.sweep(now - 3_600_000, new Set([kept.code]), now)).toBe(1)
    expect(await store.load(alone.code)).toBeNull()
    expect(await store.load(present.code)).not.toBeNull()
    expect(await store.load(kept.code)).not.toBeNull()
    // Without an idle cut-off, the table TTL alone decides, as before.
    const later = deserted(fresh())
    await store.save({ ...later, version: 1 }, null)
    expect(await store.sweep(now - 3_600_000)).toBe(0)
    expect(await store.load(later.code)).not.toBeNull()
  })
})

describe('[RECORDS_MAX][RECORD_TTL_DAYS] the memory store’s bounds on records', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  /** Saves a table whose save opens record `id`, and a move of it. */
  async function openWithMove(store: MemoryStore, id: string): Promise<void> {
    const v1 = fresh()
    await store.save(v1, null)
    await store.save(next(v1), 1, { header: recordHeader(id), deal: SECRET_DEAL })
    await store.save(next(next(v1)), 2, { move: { id, entry: aMove(3) } })
  }

  it('forgets a record ttlSeconds after its last change, and sweep drops it from memory', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(1_000_000_000_000)
    const store = new MemoryStore({ retention: { ttlSeconds: 100, maxRecords: 10 } })
    const id = newRecordId()
    await openWithMove(store, id)
    vi.setSystemTime(1_000_000_000_000 + 99_000)
    expect(await store.loadRecord(id)).not.toBeNull()
    // A move renews it.
    const t = fresh()
    await store.save(t, null)
    await store.save(next(t), 1, { move: { id, entry: aMove(4) } })
    vi.setSystemTime(1_000_000_000_000 + 198_000)
    expect((await store.loadRecord(id))!.moves).toHaveLength(2)
    expect(await dealOf(store, id)).toEqual(SECRET_DEAL)
    vi.setSystemTime(1_000_000_000_000 + 200_000)
    expect(await store.loadRecord(id)).toBeNull()
    expect(await dealOf(store, id)).toBeNull()
    expect(store.recordCount).toBe(1)
    await store.sweep(0)
    expect(store.recordCount).toBe(0)
  })

  it('takes its bounds from RECORD_TTL_DAYS and RECORDS_MAX when the app makes it', async () => {
    const config = loadConfig({ PORT: '0', RECORD_TTL_DAYS: '0.5', RECORDS_MAX: '2' })
    expect(config.records).toMatchObject({ ttlSeconds: 43_200, max: 2 })
    expect(loadConfig({}).records).toMatchObject({ ttlSeconds: 30 * 86_400, max: 20_000 })
    expect(() => loadConfig({ RECORDS_MAX: '0' })).toThrow()
    const app = buildApp(config, { logger: pino({ level: 'silent' }) })
    try {
      const store = app.store as MemoryStore
      for (const id of ['a', 'b', 'c'].map((x) => `${x}${newRecordId()}`))
        await openWithMove(store, id)
      expect(store.recordCount).toBe(2)
      vi.useFakeTimers({ toFake: ['Date'] })
      vi.setSystemTime(Date.now() + 43_201_000)
      expect(store.recordCount).toBe(2)
      await store.sweep(0)
      expect(store.recordCount).toBe(0)
    } finally {
      vi.useRealTimers()
      await app.close()
    }
  })
})

describe('memory store with freeze', () => {
  it('throws on a write to a saved record, so a mutation anywhere fails a test', async () => {
    const store = new MemoryStore({ freeze: true })
    const r = {
      code: 'FRZFRZ',
      version: 1,
      seats: [{ name: 'A' }],
      log: [{ seq: 1 }],
      updatedAt: 0,
    } as unknown as TableRecord
    await store.save(r, null)
    const loaded = (await store.load('FRZFRZ')) as unknown as { seats: { name: string }[] }
    expect(() => {
      loaded.seats[0]!.name = 'B'
    }).toThrow(TypeError)
    // Without freeze the store keeps the record as it is: no copy, no cost.
    const plain = new MemoryStore()
    const p = { ...r, code: 'PLNPLN' } as TableRecord
    await plain.save(p, null)
    expect(await plain.load('PLNPLN')).toBe(p)
  })
})
