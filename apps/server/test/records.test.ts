// Issue 14 over the real protocol: every game leaves a record that verifies from outside, its
// shuffle committed before the game and derived from the players' contributions; while the game
// is played its record shows nothing a player may not see.
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  chainHeads,
  commitment,
  type DuelMove,
  type DuelState,
  type DuelView,
  duel,
  duelLegalMovesFromView,
  FAIR_VERSION,
  type FairDeal,
  type GameRecord,
  type HerrarnaState,
  type HerrarnaView,
  herrarna,
  type IdiotState,
  idiot,
  type KlockanState,
  type KlockanView,
  klockan,
  klockanLegalMovesFromView,
  replayRecord,
  verifyRecord,
} from '@kortbord/engine'
import { frameViews, type PublicFrames } from '@kortbord/protocol/frames'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Client, must } from '../scripts/client.ts'
import { driveIdiot } from '../scripts/drive.ts'
import { FramesCache } from '../src/public-frames.ts'
import { MemoryStore } from '../src/store.ts'
import { createIdiot, startServer, type TestServer } from './harness.ts'

const entropy = () => randomBytes(16).toString('hex')

/** An Aces Up move that always ends the game: a discard, else a deal, else the end. */
const simplest = (moves: readonly DuelMove[]): DuelMove =>
  moves.find((m) => m.type === 'discard') ??
  moves.find((m) => m.type === 'deal') ??
  moves.find((m) => m.type === 'finish')!

/** Runs the engine's `pnpm verify` command line on `args` (not blocking: the server is here). */
function verifyCli(
  args: string[],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const engine = fileURLToPath(new URL('../../../packages/engine/', import.meta.url))
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/verify.ts', ...args],
      { cwd: engine, env: { ...process.env, INIT_CWD: engine } },
      (err, stdout, stderr) => {
        const status = err ? ((err as { code?: number }).code ?? 1) : 0
        resolve({ status: typeof status === 'number' ? status : 1, stdout, stderr })
      },
    )
  })
}

async function getFrames(
  s: TestServer,
  id: string,
): Promise<{ headers: Headers; body: PublicFrames }> {
  const r = await fetch(`${s.url}/api/records/${id}/frames`)
  expect(r.status).toBe(200)
  return { headers: r.headers, body: (await r.json()) as PublicFrames }
}

async function getRecord(s: TestServer, id: string): Promise<GameRecord> {
  const r = await fetch(`${s.url}/api/records/${id}`)
  expect(r.status).toBe(200)
  return (await r.json()) as GameRecord
}

describe('game records and the verifiable shuffle (issue 14)', () => {
  let srv: TestServer
  beforeAll(async () => {
    // Real deals: no fixed test deck.
    srv = await startServer({ KORTBORD_TEST_DEALS: '0', BOT_DELAY_MS: '5' })
  })
  afterAll(() => srv.stop())

  it('[I-15] an Idiot game: committed before, dealt from everyone’s contributions, revealed after, verified', async () => {
    const mine = [entropy(), entropy(), entropy()]
    const players: Client[] = [await srv.client()]
    const created = await createIdiot(players[0]!, {
      name: 'Ada',
      seats: 3,
      turnSeconds: null,
      entropy: mine[0],
    })
    const code = created.code
    for (const [i, name] of ['Bo', 'Cy'].entries()) {
      const c = await srv.client()
      must(await c.send('table:join', { table: code, name, entropy: mine[i + 1] }))
      players.push(c)
    }
    const before = await players[0]!.sync(code)
    // Before the game: the next game's commitment and the contributions so far, in public.
    const committed = before.table.fair.commitment
    expect(committed).toMatch(/^[0-9a-f]{64}$/)
    expect(before.table.fair.entropy).toEqual(mine)
    const started = must(
      await players[0]!.send('table:start', { table: code, version: before.table.version }),
    )
    const live = await players[1]!.atVersion(code, started.version)
    expect(live.table.fair).toMatchObject({ commitment: committed, entropy: mine })
    const id = live.table.fair.record!
    // While it is played, the record is its header only: no deal, no moves.
    const during = await getRecord(srv, id)
    expect(during).toMatchObject({ id, game: 'idiot', deal: null, end: null, moves: [] })
    expect(during.commitment).toBe(committed)
    expect(JSON.stringify(during)).not.toMatch(/"seed"/)
    // The next game's seed is chosen, and committed to, while this one is played.
    expect(live.table.version).toBeGreaterThan(0)
    const end = await driveIdiot(players, code, started.version, { seed: 'records' })
    expect(end.table.status).toBe('over')
    const after = await players[0]!.sync(code)
    expect(after.table.fair.commitment).not.toBe(committed)
    const seen = after.table.fair.head!
    const record = await getRecord(srv, id)
    expect(record.shuffle).toBe(FAIR_VERSION)
    expect(record.end).toMatchObject({ reason: 'over' })
    expect(record.head.startsWith(seen)).toBe(true)
    expect(seen).toHaveLength(16)
    // The seed revealed is the one committed to before anybody's contribution was known.
    const fair = (record.deal as { fair: FairDeal }).fair
    expect(commitment(fair.seed)).toBe(committed)
    expect(fair.entropy).toEqual(mine)
    const moves = end.log.filter((e) => e.t === 'game' && e.e.t === 'play').length
    expect(record.moves.length).toBeGreaterThan(moves)
    for (let seat = 0; seat < 3; seat++) {
      const v = verifyRecord(record, { seat, entropy: mine[seat]!, head: seen })
      expect(v.problems).toEqual([])
      expect(v.shuffle).toBe('verified')
    }
    // `pnpm verify` checks it from outside, by its link; and refuses a tampered copy.
    const link = `${srv.url}/r/${id}`
    const ok = await verifyCli([link, '--head', seen])
    expect(ok.status, ok.stdout + ok.stderr).toBe(0)
    expect(ok.stdout).toContain('shuffle: verified')
    const file = join(mkdtempSync(join(tmpdir(), 'kortbord-record-')), 'r.json')
    const forged = { ...record, entropy: record.entropy.map((e, i) => (i === 2 ? `${e}00` : e)) }
    writeFileSync(file, JSON.stringify(forged))
    const bad = await verifyCli([file])
    expect(bad.status).toBe(1)
    expect(bad.stdout).toContain('ENTROPY_MISMATCH')
    // The same record as text, cards in the engine's notation.
    const text = await (await fetch(`${srv.url}/api/records/${id}/text`)).text()
    expect(text).toContain(`[Commitment "${committed}"]`)
    expect(text).toMatch(/^\d+ \d play [2-9TJQKA][CDHS]/m)
  })

  it('[A-14][A-15] a same-deal duel: the record covers both players’ deals, and one player forfeiting ends it', async () => {
    const a = await srv.client()
    const code = must(
      await a.send('table:create', {
        game: 'duel',
        name: 'Ada',
        entropy: entropy(),
        options: { games: 2, sameDeal: true, turnSeconds: null },
      }),
    ).table as string
    const b = await srv.client()
    const j = must(await b.send('table:join', { table: code, name: 'Bo' }))
    await a.atVersion(code, j.version)
    const s = must(await a.send('table:start', { table: code, version: j.version }))
    // Ada plays a few moves; Bo none. Then Bo is made to forfeit (a staller, by the host's
    // clock: here he simply leaves and is gone).
    for (let i = 0; i < 5; i++) {
      const u = a.state(code)!
      const m = duelLegalMovesFromView(u.view as DuelView)[0]
      if (!m) break
      must(await a.send('game:move', { table: code, version: u.table.version, move: m }))
    }
    must(await b.send('table:leave', { table: code }))
    const u = await a.waitFor(code, (x) => x.table.seats[1]!.gone)
    must(await a.send('table:forfeit', { table: code, version: u.table.version, seat: 1 }))
    const id = u.table.fair.record!
    const r = await getRecord(srv, id)
    expect(r.end).toEqual({ reason: 'forfeit', seat: 1 })
    expect(r.moves.every((m) => m.seat === 0)).toBe(true)
    expect(verifyRecord(r).problems).toEqual([])
    expect(s.version).toBeGreaterThan(0)
  })

  it('moves made by the timer and by bots are marked as such', async () => {
    // A person who never moves (the timer plays for them) against a bot, at 1/1000 speed.
    const quick = await startServer({ KORTBORD_TIMER_SCALE: '0.001', BOT_DELAY_MS: '5' })
    try {
      const host = await quick.client()
      const code = (await createIdiot(host, { name: 'Ada', turnSeconds: 15 })).code
      const b = must(
        await host.send('table:bot', { table: code, version: 1, seat: 1, level: 'easy' }),
      )
      must(await host.send('table:start', { table: code, version: b.version }))
      const end = await host.waitFor(code, (x) => x.table.status === 'over', 60_000)
      const r = await getRecord(quick, end.table.fair.record!)
      expect(r.seats[1]).toEqual({ name: 'Alva', bot: 'easy' })
      expect(r.moves.length).toBeGreaterThan(10)
      for (const m of r.moves) expect(m.by).toBe(m.seat === 0 ? 'timer' : 'bot')
      expect(verifyRecord(r).problems).toEqual([])
    } finally {
      await quick.stop()
    }
  })

  const SOLO = {
    klockan: { rule: 'K-1', title: 'Klockan alone (with the rescue)' },
    herrarna: { rule: 'H-1', title: 'Dom Åtta Herrarna' },
    duel: { rule: 'A-17', title: 'Idioten alone, a series of two' },
  } as const
  for (const game of ['klockan', 'herrarna', 'duel'] as const) {
    it(`[${SOLO[game].rule}] ${SOLO[game].title}: played over the protocol, its record verifies and replays to the same end`, async () => {
      const mine = entropy()
      const p = await srv.client()
      const code = must(
        await p.send(
          'table:create',
          game === 'klockan'
            ? { game, name: 'Olle', entropy: mine, options: { variant: 'rescue' } }
            : game === 'duel'
              ? { game, name: 'Olle', entropy: mine, options: { seats: 1, games: 2 } }
              : { game, name: 'Olle', entropy: mine },
        ),
      ).table as string
      const committed = (await p.sync(code)).table.fair.commitment
      let version = must(await p.send('table:start', { table: code, version: 1 })).version
      const id = p.state(code)!.table.fair.record!
      let made = 0
      for (;;) {
        const u = await p.atVersion(code, version)
        if (u.table.status !== 'playing') break
        const move =
          game === 'klockan'
            ? klockanLegalMovesFromView(u.view as KlockanView)[0]!
            : game === 'duel'
              ? simplest(duelLegalMovesFromView(u.view as DuelView))
              : ({ type: 'step' } as const)
        version = must(await p.send('game:move', { table: code, version, move })).version
        made++
      }
      const end = p.state(code)!
      const seen = end.table.fair.head!
      const record = await getRecord(srv, id)
      expect(record).toMatchObject({ game, shuffle: FAIR_VERSION, commitment: committed })
      expect(record.truncated).toBeUndefined()
      expect(record.moves).toHaveLength(made)
      expect(record.moves.every((m) => m.seat === 0 && m.by === undefined)).toBe(true)
      const v = verifyRecord(record, { seat: 0, entropy: mine, head: seen })
      expect(v.problems).toEqual([])
      expect(v.shuffle).toBe('verified')
      // Replayed through the engine: the same end as the record's and as the table showed.
      const replay = replayRecord(record)
      const shown = (end.view as KlockanView | HerrarnaView | DuelView).outcome
      expect(shown).not.toBeNull()
      expect(record.end).toEqual({ reason: 'over', outcome: replay.outcome })
      expect(replay.outcome).toEqual(shown)
      const last = replay.states.at(-1) as KlockanState & HerrarnaState & DuelState
      const view = { klockan: klockan.view, herrarna: herrarna.view, duel: duel.view }[game]
      expect(view(last, 0)).toEqual(end.view)
      const cli = await verifyCli([
        `${srv.url}/r/${id}`,
        '--head',
        seen,
        '--seat',
        '0',
        '--entropy',
        mine,
      ])
      expect(cli.status, cli.stdout + cli.stderr).toBe(0)
      expect(cli.stdout).toContain('shuffle: verified')
    }, 60_000)
  }

  it('a game whose table is gone is abandoned: its record is served closed with its deal, and verifies', async () => {
    const mine = entropy()
    const p = await srv.client()
    const code = must(
      await p.send('table:create', { game: 'klockan', name: 'Olle', entropy: mine }),
    ).table as string
    let version = must(await p.send('table:start', { table: code, version: 1 })).version
    const id = p.state(code)!.table.fair.record!
    for (let i = 0; i < 2; i++) {
      const u = await p.atVersion(code, version)
      const move = klockanLegalMovesFromView(u.view as KlockanView)[0]!
      version = must(await p.send('game:move', { table: code, version, move })).version
    }
    const seen = p.state(code)!.table.fair.head!
    // While its table plays it, the record is its header only.
    const during = await getRecord(srv, id)
    expect(during).toMatchObject({ id, end: null, deal: null, moves: [] })
    // The table goes (as when it expires): the game can never end by a move.
    await srv.app.store.delete(code)
    const r = await fetch(`${srv.url}/api/records/${id}`)
    expect(r.headers.get('cache-control')).toContain('max-age')
    const record = (await r.json()) as GameRecord
    expect(record.end).toEqual({ reason: 'abandoned' })
    expect(record.moves).toHaveLength(2)
    expect(record.endedAt).toBe(record.moves[1]!.at)
    expect(commitment((record.deal as { fair: FairDeal }).fair.seed)).toBe(record.commitment)
    const v = verifyRecord(record, { seat: 0, entropy: mine, head: seen })
    expect(v.problems).toEqual([])
    expect(v.shuffle).toBe('verified')
    expect(replayRecord(record).outcome).toBeUndefined()
    const text = await (await fetch(`${srv.url}/api/records/${id}/text`)).text()
    expect(text).toContain('[End "abandoned"]')
    expect((await getFrames(srv, id)).body.frames.length).toBeGreaterThan(0)
  })

  it('[RECORD_MAX_MOVES] a record stops growing at its cap and says it was cut short; verifying it says so', async () => {
    const capped = await startServer({ KORTBORD_TEST_DEALS: '0', RECORD_MAX_MOVES: '10' })
    try {
      // Ada takes whole updates, each with the head (a delta has it every HEAD_EVERY versions).
      const players = [await capped.client({ deltas: false }), await capped.client()]
      const code = (await createIdiot(players[0]!, { name: 'Ada', turnSeconds: null })).code
      const j = must(await players[1]!.send('table:join', { table: code, name: 'Bo' }))
      await players[0]!.atVersion(code, j.version)
      const started = must(
        await players[0]!.send('table:start', { table: code, version: j.version }),
      )
      const id = players[0]!.state(code)!.table.fair.record!
      let made = 0
      const end = await driveIdiot(players, code, started.version, {
        seed: 'cap',
        onMove: () => {
          made++
        },
      })
      expect(end.table.status).toBe('over')
      expect(made).toBeGreaterThan(20)
      const r = await getRecord(capped, id)
      // The first ten moves and no more; the game's end and deal are there all the same.
      expect(r.moves).toHaveLength(10)
      expect(r.moves.map((m) => m.v)).toEqual([...Array(10).keys()].map((i) => r.moves[0]!.v + i))
      expect(r.truncated).toBe(true)
      expect(r.end).toMatchObject({ reason: 'over' })
      expect(r.deal).not.toBeNull()
      // The chain stops where the moves do: the head the table shows stays at the tenth move.
      expect(r.head.startsWith(end.table.fair.head!)).toBe(true)
      expect(chainHeads(r).at(-1)).toBe(r.head)
      // Every head the table showed: the start's and one after each of the ten moves kept.
      const shownHeads = players[0]!.updates
        .filter((u) => u.table.code === code && u.table.version >= started.version)
        .map((u) => u.table.fair.head)
      expect(new Set(shownHeads).size).toBe(11)
      expect(shownHeads.at(-1)).toBe(r.head.slice(0, 16))
      // Verifying it says honestly that it cannot be checked to the end; it never says verified.
      const v = verifyRecord(r)
      expect(v.ok).toBe(false)
      expect(v.shuffle).toBe('failed')
      expect(v.problems.map((p) => p.code)).toEqual(['TRUNCATED'])
      const cli = await verifyCli([`${capped.url}/r/${id}`])
      expect(cli.status).toBe(1)
      expect(cli.stdout).toContain('PROBLEM TRUNCATED')
      expect(cli.stdout).toContain('FAILED')
      // What it holds still replays: the first ten moves are legal from the revealed deal.
      expect(replayRecord(r).states).toHaveLength(11)
    } finally {
      await capped.stop()
    }
  })

  it('[I-15] public frames while a game is played: what a spectator saw after each move, the latest RECORD_FRAMES_MAX of them; after the game the same frames as the record replays to', async () => {
    const capped = await startServer({ KORTBORD_TEST_DEALS: '0', RECORD_FRAMES_MAX: '10' })
    try {
      const players = [await capped.client(), await capped.client()]
      const code = (await createIdiot(players[0]!, { name: 'Ada', turnSeconds: null })).code
      const j = must(await players[1]!.send('table:join', { table: code, name: 'Bo' }))
      const w = await capped.client()
      must(await w.send('table:watch', { table: code }))
      await players[0]!.atVersion(code, j.version)
      const started = must(
        await players[0]!.send('table:start', { table: code, version: j.version }),
      )
      const id = players[0]!.state(code)!.table.fair.record!
      const spectatorSaw = (v: number) =>
        w.updates.find((u) => u.table.code === code && u.table.version === v)!.view
      // At the deal: one frame, what a spectator was shown.
      const dealt = await getFrames(capped, id)
      expect(dealt.headers.get('cache-control')).toBe('no-store')
      expect(dealt.body).toMatchObject({ format: 'kortbord-frames', id, game: 'idiot', moves: 0 })
      await w.atVersion(code, started.version)
      expect(frameViews(dealt.body)).toEqual([spectatorSaw(started.version)])
      // Fifteen moves in: the latest ten frames, the first of them whole.
      await expect(
        driveIdiot(players, code, started.version, { seed: 'frames', maxMoves: 15 }),
      ).rejects.toThrow(/did not end/)
      const at = players[0]!.state(code)!.table.version
      await w.atVersion(code, at)
      const mid = (await getFrames(capped, id)).body
      expect(mid).toMatchObject({ moves: 15, over: false, truncated: false, from: 6 })
      expect(mid.frames.map((f) => f.k)).toEqual([...Array(10).keys()].map((i) => i + 6))
      expect(mid.frames[0]!.view).toBeDefined()
      expect(mid.frames.slice(1).every((f) => f.p !== undefined || f.view !== undefined)).toBe(true)
      const views = frameViews(mid)
      mid.frames.forEach((f, i) => {
        expect(views[i]).toEqual(spectatorSaw(f.v!))
      })
      // Nothing of the moves' own text, nothing but views: no seed, no hand of anyone.
      expect(JSON.stringify(mid)).not.toMatch(/"seed"|"hand":\[\d/)
      // The game ends: the frames are those the revealed record replays to.
      const end = await driveIdiot(players, code, at, { seed: 'frames-end' })
      expect(end.table.status).toBe('over')
      const done = await getFrames(capped, id)
      expect(done.headers.get('cache-control')).toBe('public, max-age=3600')
      const record = await getRecord(capped, id)
      const replayed = replayRecord(record).states as IdiotState[]
      expect(done.body).toMatchObject({ moves: record.moves.length, over: true })
      const last = frameViews(done.body)
      done.body.frames.forEach((f, i) => {
        expect(last[i]).toEqual(idiot.view(replayed[f.k]!, 'spectator'))
        expect(f).toMatchObject({ v: record.moves[f.k - 1]!.v, seat: record.moves[f.k - 1]!.seat })
      })
      expect(done.body.frames.at(-1)!.k).toBe(record.moves.length)
    } finally {
      await capped.stop()
    }
  })

  it('frames are built once per record and extended move by move; the cache keeps at most RECORD_FRAMES_CACHED records', async () => {
    // A finished record of this server, cut to its first moves as it stood during the game.
    const c = await srv.client()
    const code = must(await c.send('table:create', { game: 'herrarna', name: 'Ebba' }))
      .table as string
    let version = must(await c.send('table:start', { table: code, version: 1 })).version
    const id = c.state(code)!.table.fair.record!
    while (c.state(code)!.table.status === 'playing')
      version = must(
        await c.send('game:move', { table: code, version, move: { type: 'step' } }),
      ).version
    const full = await getRecord(srv, id)
    expect(full.end).toMatchObject({ reason: 'over' })
    expect(full.moves.length).toBeGreaterThan(30)
    const asOf = (n: number): GameRecord => ({ ...full, moves: full.moves.slice(0, n), end: null })
    const cache = new FramesCache(2, 1000)
    const fresh = (n: number) => new FramesCache(1, 1000).framesOf(asOf(n), full.deal!)
    for (const n of [0, 3, 3, 17, 30]) {
      const got = cache.framesOf(asOf(n), full.deal!)
      expect(got).toEqual(fresh(n))
      expect(got.moves).toBe(n)
    }
    // Fewer moves than built (a store read behind another): built again, still right.
    expect(cache.framesOf(asOf(5), full.deal!)).toEqual(fresh(5))
    const views = frameViews(cache.framesOf(asOf(30), full.deal!))
    const states = replayRecord(full).states as HerrarnaState[]
    expect(views).toEqual(states.slice(0, 31).map((s) => herrarna.view(s, 'spectator')))
    // Built cold beyond the cap on frames: the moves left out are replayed, not viewed, and the
    // latest frames are the same as those built move by move.
    const n = full.moves.length
    const capped = new FramesCache(1, 10).framesOf(full, full.deal!)
    expect(capped).toMatchObject({ moves: n, from: n - 9, over: true })
    expect(frameViews(capped)).toEqual(
      states.slice(n - 9).map((s) => herrarna.view(s, 'spectator')),
    )
    const stepwise = new FramesCache(1, 10)
    for (let k = 0; k <= n; k += 7) stepwise.framesOf(asOf(k), full.deal!)
    expect(frameViews(stepwise.framesOf(full, full.deal!))).toEqual(frameViews(capped))
    for (const other of ['aaaaaaaaaaaa', 'bbbbbbbbbbbb', 'cccccccccccc'])
      cache.framesOf({ ...asOf(2), id: other }, full.deal!)
    expect(cache.size).toBe(2)
  })

  it('unknown, malformed and too-frequent record reads are answered, not served', async () => {
    expect((await fetch(`${srv.url}/api/records/zzzzzzzzzzzz`)).status).toBe(404)
    expect((await fetch(`${srv.url}/api/records/..%2f..%2fetc`)).status).toBe(404)
    expect((await fetch(`${srv.url}/api/records/zzzzzzzzzzzz/frames`)).status).toBe(404)
    expect((await fetch(`${srv.url}/api/records/..%2f..%2fetc/frames`)).status).toBe(404)
    // A game in play whose deal the store does not have (dealt by a server before it kept deals
    // aside): its header is served, its frames refused as such.
    const store = new MemoryStore()
    const old = await startServer({}, { store })
    try {
      const c = await old.client()
      const code = must(await c.send('table:create', { game: 'herrarna', name: 'Ebba' }))
        .table as string
      must(await c.send('table:start', { table: code, version: 1 }))
      const live = await store.loadRecord(c.state(code)!.table.fair.record!)
      const id = 'qqqqqqqqqqqq'
      const t = (await store.load(code))!
      await store.save({ ...t, version: t.version + 1 }, t.version, {
        header: { ...live!, id },
      })
      expect((await fetch(`${old.url}/api/records/${id}`)).status).toBe(200)
      const r = await fetch(`${old.url}/api/records/${id}/frames`)
      expect(r.status).toBe(409)
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe('NO_FRAMES')
    } finally {
      await old.stop()
    }
    const limited = await startServer({ RECORD_READS_PER_ADDRESS_PER_MINUTE: '3' })
    try {
      const codes = []
      for (const path of ['', '/frames', '/text', '/frames'])
        codes.push((await fetch(`${limited.url}/api/records/abcdefghijkm${path}`)).status)
      expect(codes).toEqual([404, 404, 404, 429])
      const body = (await (
        await fetch(`${limited.url}/api/records/abcdefghijkm/frames`)
      ).json()) as {
        error: { code: string }
      }
      expect(body.error.code).toBe('TOO_MANY_LOOKUPS')
    } finally {
      await limited.stop()
    }
  })
})
