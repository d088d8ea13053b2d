// What a game record costs the server (issue 14): CPU per recorded move (the chain hash and the
// append to the store), the bytes of an Idiot game's record as JSON and in Redis, and what the
// public frames of a game in play cost to build and to send. Seeded Idiot games are played by
// the engine (no sockets) and recorded through the server's own code: game-records.ts makes each
// move's record change, the memory store and the Redis store (a private redis-server) keep them.
//
//   pnpm --filter @kortbord/server exec tsx bench/record-cost.ts [GAMES=200]
import { createHash } from 'node:crypto'
import {
  chainLine,
  type Deal,
  type IdiotMove,
  type IdiotState,
  idiot,
  idiotGreedy,
  idiotOutcome,
  Rng,
  type Seat,
} from '@kortbord/engine'
import { CreateTable } from '@kortbord/protocol'
import { newFair, nextDeal, openRecord, recordMove } from '../src/game-records.ts'
import { FrameBuilder } from '../src/public-frames.ts'
import { RedisStore } from '../src/redis-store.ts'
import { MemoryStore, type RecordEffects, type TableRecord } from '../src/store.ts'
import { newToken, Table } from '../src/table.ts'
import { startRedis } from '../test/redis-server.ts'

const GAMES = Number(process.argv.find((a) => a.startsWith('GAMES='))?.slice(6) ?? 200)
const MAX_MOVES = 5000
const MAX_FRAMES = 1000

interface Played {
  readonly seats: number
  readonly deal: Deal
  readonly moves: { seat: Seat; move: IdiotMove }[]
  readonly final: IdiotState
}

const hex = (rng: Rng, bytes: number): string =>
  Array.from({ length: bytes }, () => rng.int(256).toString(16).padStart(2, '0')).join('')

/** One seeded Idiot game: mostly greedy play, as people and bots play (policy 'random' for long games). */
function play(seed: string, policy: 'greedy' | 'random' = 'greedy'): Played {
  const rng = Rng.seeded(seed)
  const seats = 2 + rng.int(3)
  const deal: Deal = {
    fair: {
      v: 1,
      seed: hex(rng, 32),
      entropy: Array.from({ length: seats }, () => hex(rng, 16)),
      game: 1,
    },
  }
  let s = idiot.setup({}, seats, deal)
  const moves: Played['moves'] = []
  while (s.phase !== 'over' && moves.length < MAX_MOVES + 100) {
    const seat = rng.pick(idiot.activeSeats(s))
    const legal = idiot.legalMoves(s, seat)
    const move =
      s.phase === 'swap'
        ? rng.float() < 0.4
          ? ({ type: 'ready' } as const)
          : rng.pick(legal)
        : policy === 'greedy' && rng.float() < 0.8
          ? idiotGreedy(idiot.view(s, seat), legal, rng)
          : rng.pick(legal)
    const r = idiot.apply(s, seat, move)
    if (!r.ok) throw new Error(r.error.code)
    s = r.value
    moves.push({ seat, move })
  }
  return { seats, deal, moves, final: s }
}

/** A table as the server has it when the game starts: seats named, the deal committed. */
function tableAt(p: Played): TableRecord {
  const msg = CreateTable.parse({
    game: 'idiot',
    name: 'Ada',
    options: { seats: p.seats, turnSeconds: null },
  })
  const t = Table.create(`B${Math.random().toString(36).slice(2, 8)}`, msg, newToken(), 0, 'm')
  return {
    ...t,
    seats: t.seats.map((s, i) => ({ ...s, name: `Player ${i + 1}` })),
    fair: { next: newFair(), current: p.deal },
    entropy: 'fair' in p.deal ? p.deal.fair.entropy : [],
    status: 'playing',
  }
}

/** The record's changes of a whole game, as the table makes them (openRecord, recordMove). */
function recordGame(
  p: Played,
  hashed: { us: number },
): { table: TableRecord; effects: RecordEffects }[] {
  let t = tableAt(p)
  const header = openRecord(t, 1, {}, nextDeal(t, 1, null), 1_700_000_000_000)
  t = { ...t, gameRecord: header, gameRecordMoves: 0, version: 2 }
  const out: { table: TableRecord; effects: RecordEffects }[] = [
    { table: t, effects: { header, deal: p.deal } },
  ]
  const c0 = process.cpuUsage()
  p.moves.forEach((m, i) => {
    const last = i === p.moves.length - 1
    const entry = { seat: m.seat, move: m.move, v: t.version + 1, at: 1_700_000_000_000 + i * 900 }
    const end =
      last && p.final.phase === 'over'
        ? { reason: 'over' as const, outcome: idiotOutcome(p.final) }
        : null
    const rec = recordMove(t, entry, end, MAX_MOVES)
    if (!rec) throw new Error('not recorded')
    t = {
      ...t,
      version: t.version + 1,
      gameRecord: rec.gameRecord,
      gameRecordMoves: rec.gameRecordMoves,
    }
    out.push({ table: t, effects: rec.effects })
  })
  const c1 = process.cpuUsage(c0)
  hashed.us += c1.user + c1.system
  return out
}

const cpu = () => {
  const c = process.cpuUsage()
  return c.user + c.system
}

// --- The games ---------------------------------------------------------------------------------
const games = Array.from({ length: GAMES }, (_, i) => play(`record-cost/${i}`))
const moves = games.reduce((n, g) => n + g.moves.length, 0)
console.log(
  `${GAMES} Idiot games (2–4 players), ${(moves / GAMES).toFixed(0)} moves a game on average`,
)

// --- CPU per recorded move: the chain hash (recordMove), then the append in the memory store ---
// Three rounds, the last one counted: the first ones warm the code up, as a running server is.
let hashed = { us: 0 }
let changes = games.map((g) => recordGame(g, hashed))
for (let round = 0; round < 2; round++) {
  hashed = { us: 0 }
  changes = games.map((g) => recordGame(g, hashed))
}
// The chain hash alone, as game-records.ts makes it, over every move of every game.
const all = changes.flatMap((g) => g.flatMap((c) => (c.effects.move ? [c.effects.move.entry] : [])))
let head = 'a'.repeat(64)
const h0 = cpu()
for (const m of all)
  head = createHash('sha256')
    .update(chainLine(head, 'idiot', m), 'utf8')
    .digest('hex')
const hashUs = (cpu() - h0) / all.length
const memory = new MemoryStore({ retention: { ttlSeconds: 86_400, maxRecords: GAMES + 10 } })
const m0 = cpu()
for (const game of changes) {
  let prev: number | null = null
  for (const c of game) {
    await memory.save(c.table, prev, c.effects)
    prev = c.table.version
  }
}
const appendUs = cpu() - m0
console.log(
  `recording a move: ${hashUs.toFixed(2)} µs CPU for the chain hash alone (native SHA-256), ` +
    `${(hashed.us / moves).toFixed(2)} µs for the record's whole change (recordMove, and the table's fields), ` +
    `${(appendUs / moves).toFixed(2)} µs to save it with the table in the memory store (table and append)`,
)

// --- Bytes of a finished record ------------------------------------------------------------
const ids = changes.map((g) => g[0]!.effects.header!.id)
let json = 0
for (const id of ids) json += JSON.stringify(await memory.loadRecord(id)).length
console.log(
  `an Idiot game's record: ${(json / GAMES).toFixed(0)} B of JSON on average (${(json / moves).toFixed(1)} B a move)`,
)

const redis = await startRedis()
try {
  const store = new RedisStore({ url: redis.url, prefix: 'bench:' })
  await store.waitReady(5000)
  const r0 = performance.now()
  for (const game of changes) {
    let prev: number | null = null
    for (const c of game) {
      await store.save(c.table, prev, c.effects)
      prev = c.table.version
    }
  }
  const saveMs = performance.now() - r0
  const inspect = store.redis
  let bytes = 0
  let stored = 0
  for (const id of ids) {
    for (const key of [
      store.recordKey(id),
      `${store.recordKey(id)}:moves`,
      `${store.recordKey(id)}:deal`,
    ]) {
      const n = await inspect.sendCommand(['MEMORY', 'USAGE', key, 'SAMPLES', '0'])
      if (typeof n === 'number') {
        bytes += n
        stored++
      }
    }
  }
  const info = String(await inspect.sendCommand(['INFO', 'commandstats']))
  const evalsha = /cmdstat_evalsha:calls=(\d+),usec=(\d+)/.exec(info)
  console.log(
    `in Redis: ${(bytes / GAMES).toFixed(0)} B a finished Idiot game (MEMORY USAGE of its ${(stored / GAMES).toFixed(0)} keys: ` +
      `header, moves list; the deal's key is gone once the record reveals it); ` +
      `${((saveMs * 1000) / (moves + GAMES)).toFixed(0)} µs a save round trip from here` +
      (evalsha
        ? `, ${(Number(evalsha[2]) / Number(evalsha[1])).toFixed(1)} µs of Redis CPU a save (table and record)`
        : ''),
  )
  await store.close()
} finally {
  await redis.dispose()
}

// --- The public frames of a game in play -----------------------------------------------------
const f0 = cpu()
let frameBytes = 0
for (const [i, g] of changes.entries()) {
  const header = g[0]!.effects.header!
  const b = new FrameBuilder(header, games[i]!.deal, MAX_FRAMES)
  b.extend(g.slice(1).flatMap((c) => (c.effects.move ? [c.effects.move.entry] : [])))
  frameBytes += b.result(false, false).json.length
}
const framesUs = cpu() - f0
console.log(
  `public frames: ${(framesUs / moves).toFixed(1)} µs CPU a move to build (replay, spectator view, patch, JSON), ` +
    `${(frameBytes / GAMES / 1024).toFixed(1)} KB of JSON for a whole game (${(frameBytes / moves).toFixed(0)} B a frame)`,
)
// The worst a record can ask: RECORD_MAX_MOVES moves of random play, the latest RECORD_FRAMES_MAX served.
// The longest of a few seeded games of random play (many reach the cap).
let long = play('record-cost/long/0', 'random')
for (let i = 1; i < 20 && long.moves.length < MAX_MOVES; i++) {
  const g = play(`record-cost/long/${i}`, 'random')
  if (g.moves.length > long.moves.length) long = g
}
const longHeader = recordGame(long, { us: 0 })[0]!.effects.header!
const kept = long.moves.slice(0, MAX_MOVES).map((m, i) => ({ ...m, v: 3 + i, at: i }))
const longRecord = { ...longHeader, moves: kept }
const l0 = cpu()
const lb = FrameBuilder.of(longRecord, long.deal, MAX_FRAMES)
lb.extend(kept.slice(lb.moves))
const longJson = lb.result(false, true).json.length
const l1 = cpu() - l0
// One more move of a game in play: only it is replayed, and the JSON made again.
const e0 = cpu()
lb.extend([])
lb.result(true, true)
const e1 = cpu() - e0
console.log(
  `the longest record (${kept.length} moves, the latest ${MAX_FRAMES} frames served): built cold in ${(l1 / 1000).toFixed(0)} ms CPU, ` +
    `${(longJson / 1024).toFixed(0)} KB of JSON; served again after a change from the cache in ${(e1 / 1000).toFixed(1)} ms`,
)
