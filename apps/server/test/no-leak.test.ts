// I-15 and A-15 over the wire: everything every client receives during whole games is recorded,
// and checked against the server's own history of states: the updates as the client rebuilds
// them, the raw delta frames as they arrived, and the game's record and public frames read over
// HTTP all along the game (issue 14).
import {
  type Card,
  chainHeads,
  chainStart,
  type DuelState,
  duel,
  formatCard,
  fullDeck,
  type GameRecord,
  type IdiotState,
  type IdiotView,
  idiot,
  idiotLegalMovesFromView,
  parseCards,
  type Viewer,
  withBest,
} from '@kortbord/engine'
import { type GameView, ROW_KEYS, type TableUpdate } from '@kortbord/protocol'
import { frameViews, type PublicFrames } from '@kortbord/protocol/frames'
import { describe, expect, it } from 'vitest'
import { type Client, must } from '../scripts/client.ts'
import { driveDuel, driveIdiot } from '../scripts/drive.ts'
import { MemoryStore, type RecordEffects, type TableRecord } from '../src/store.ts'
import { createIdiot, startServer } from './harness.ts'

/** A memory store that keeps every version ever saved: the server's whole history. */
class RecordingStore extends MemoryStore {
  readonly history = new Map<string, Map<number, TableRecord>>()
  override async save(
    record: TableRecord,
    expected: number | null,
    effects?: RecordEffects,
  ): Promise<void> {
    await super.save(record, expected, effects)
    const h = this.history.get(record.code) ?? new Map<number, TableRecord>()
    this.history.set(record.code, h)
    h.set(record.version, JSON.parse(JSON.stringify(record)) as TableRecord)
  }
}

/** Fields of views and log entries that hold card ids. */
const CARD_KEYS = new Set([
  'hand',
  'faceUp',
  'pile',
  'burned',
  'fromHand',
  'fromRow',
  'cards',
  'card',
  'piles',
  'discard',
  'deck',
  'final',
])

/** In Aces Up views `pile` is a pile's index, not a pile of cards. */
const ACES_UP_CARD_KEYS = new Set([...CARD_KEYS].filter((k) => k !== 'pile'))

/** Every card id anywhere in `x`, found by the keys that carry cards. */
function cardsIn(x: unknown, keys = CARD_KEYS, under = false, out: number[] = []): number[] {
  if (typeof x === 'number') {
    if (under) out.push(x)
  } else if (Array.isArray(x)) {
    for (const y of x) cardsIn(y, keys, under, out)
  } else if (x && typeof x === 'object') {
    for (const [k, v] of Object.entries(x)) cardsIn(v, keys, under || keys.has(k), out)
  }
  return out
}

const OPS = new Set(['s', 'd', 'a', 't', 'e'])
/**
 * A patch operation (['s', path, value], ['a', path, items], ['t', path, n], ['d', path],
 * ['e', path, items]).
 */
const isOp = (x: unknown): x is [string, (string | number)[], unknown?] =>
  Array.isArray(x) &&
  (x.length === 2 || x.length === 3) &&
  typeof x[0] === 'string' &&
  OPS.has(x[0]) &&
  Array.isArray(x[1]) &&
  x[1].every((k) => typeof k === 'string' || typeof k === 'number')

/** An `e` operation's items with each row `[tag, …values]` named by its keys (ROW_KEYS). */
const named = (items: unknown): unknown =>
  Array.isArray(items)
    ? items.map((row) => {
        if (!Array.isArray(row)) return row
        const keys = ROW_KEYS[row[0] as string]
        expect(keys, `a row of a known tag: ${JSON.stringify(row)}`).toBeDefined()
        return Object.fromEntries(keys!.map((k, i) => [k, row[i + 1]]))
      })
    : items

/**
 * Every card id in a raw frame as it came over the wire (a `table:delta`): in its whole parts by
 * the keys that carry cards, in its patches by the keys along each operation's path (a patch
 * that sets `['players', 1, 'hand']` sets cards, whatever it sets them to) and, in an event's
 * row, by the key of its place (ROW_KEYS). A cut's length and a path's indices are not cards.
 */
function cardsInRaw(x: unknown, keys = CARD_KEYS, out: number[] = []): number[] {
  if (isOp(x)) {
    const [op, path] = x
    const value = op === 'e' ? named(x[2]) : x[2]
    if (op === 's' || op === 'a' || op === 'e')
      cardsIn(
        value,
        keys,
        path.some((k) => typeof k === 'string' && keys.has(k)),
        out,
      )
  } else if (Array.isArray(x)) {
    for (const y of x) cardsInRaw(y, keys, out)
  } else if (x && typeof x === 'object') {
    for (const [k, v] of Object.entries(x)) {
      if (keys.has(k)) cardsIn(v, keys, true, out)
      else cardsInRaw(v, keys, out)
    }
  }
  return out
}

/** A raw `table:delta` frame as received: its table and version, the rest left as it came. */
interface RawDelta {
  readonly code: string
  readonly version: number
}

/** Keeps every raw `table:delta` the client's socket receives, beside the client's own handling. */
function recordDeltas(c: Client): RawDelta[] {
  const raw: RawDelta[] = []
  c.socket.on('table:delta', (d) => raw.push(structuredClone(d) as unknown as RawDelta))
  return raw
}

/** What is public in an Idiot state (I-15): face-up cards, the pile, the burned cards. */
function publicCards(s: IdiotState): Card[] {
  return [
    ...s.players.flatMap((p) => p.row.flatMap((pos) => (pos.faceUp === null ? [] : [pos.faceUp]))),
    ...s.pile,
    ...s.burned,
  ]
}

/**
 * The cards `viewer` may know at each version of an Idiot table: everything that was public up
 * to it, and what was in their own hand.
 */
function idiotKnown(history: Map<number, TableRecord>, viewer: Viewer): (v: number) => Set<Card> {
  const versions = [...history.keys()].sort((a, b) => a - b)
  const sets = new Map<number, Set<Card>>()
  const known = new Set<Card>()
  for (const v of versions) {
    const s = history.get(v)!.state as IdiotState | null
    if (s) {
      for (const c of publicCards(s)) known.add(c)
      if (viewer !== 'spectator') for (const c of s.players[viewer]!.hand) known.add(c)
    }
    sets.set(v, new Set(known))
  }
  return (v) => {
    const k = sets.get(v)
    expect(k, `version ${v} was saved`).toBeDefined()
    return k!
  }
}

/**
 * Checks every update a viewer received: it is exactly the engine's view of the state of that
 * version, and it names no card the viewer could not know by then (never public, never in
 * their hand).
 */
function checkIdiotUpdates(
  updates: readonly TableUpdate[],
  viewer: Viewer,
  history: Map<number, TableRecord>,
): number {
  const knownAt = idiotKnown(history, viewer)
  let checked = 0
  for (const u of updates) {
    const known = knownAt(u.table.version)
    const s = history.get(u.table.version)!.state as IdiotState | null
    if (s) expect(u.view).toEqual(idiot.view(s, viewer))
    const secret = cardsIn(u).filter((c) => !known.has(c))
    expect(secret.map(formatCard), `cards leaked to ${viewer} at v${u.table.version}`).toEqual([])
    checked++
  }
  return checked
}

/** The raw deltas a viewer received name no card they could not know at the delta's version. */
function checkIdiotDeltas(
  raw: readonly RawDelta[],
  viewer: Viewer,
  history: Map<number, TableRecord>,
): number {
  const knownAt = idiotKnown(history, viewer)
  for (const d of raw) {
    const known = knownAt(d.version)
    const secret = cardsInRaw(d).filter((c) => !known.has(c))
    expect(secret.map(formatCard), `delta to ${viewer} at v${d.version}`).toEqual([])
  }
  return raw.length
}

/**
 * The frames of every response read during a game, each with the table version it shows (the
 * deal: `start`), once each: a frame served again must be the same as before.
 */
function distinctFrames(
  responses: readonly PublicFrames[],
  start: number,
): { v: number; view: GameView }[] {
  const seen = new Map<number, string>()
  const out: { v: number; view: GameView }[] = []
  for (const f of responses) {
    const views = frameViews(f)
    expect(views).toHaveLength(f.moves + 1)
    f.frames.forEach((fr, i) => {
      const v = fr.v ?? start
      const json = JSON.stringify(views[i])
      const before = seen.get(v)
      if (before !== undefined) expect(json, `frame of v${v} served again`).toBe(before)
      else {
        seen.set(v, json)
        out.push({ v, view: views[i]! })
      }
    })
  }
  return out
}

/**
 * Polls a game's record and public frames over HTTP until `stop()`; resolves with all it read.
 * Without `framesWhilePlayed` (a same-deal match) the frames must be refused until it is over.
 */
function pollRecord(url: string, id: string, framesWhilePlayed = true) {
  const records: unknown[] = []
  const frames: PublicFrames[] = []
  let refused = 0
  let on = true
  const reader = (async () => {
    while (on) {
      const [r, f] = await Promise.all([
        fetch(`${url}/api/records/${id}`),
        fetch(`${url}/api/records/${id}/frames`),
      ])
      expect(r.status).toBe(200)
      const rec = (await r.json()) as { end: unknown }
      records.push(rec)
      if (framesWhilePlayed || rec.end !== null) {
        expect(f.status).toBe(200)
        frames.push((await f.json()) as PublicFrames)
      } else {
        expect(f.status).toBe(409)
        expect(((await f.json()) as { error: { code: string } }).error.code).toBe('NO_FRAMES')
        refused++
      }
      await new Promise((res) => setTimeout(res, 25))
    }
  })()
  return {
    records,
    frames,
    get refused() {
      return refused
    },
    async stop() {
      on = false
      await reader
    },
  }
}

/** The record endpoints are read every few ms here: the per-address limit is tested elsewhere. */
const READ_RECORDS_OFTEN = { RECORD_READS_PER_ADDRESS_PER_MINUTE: '1000000' }

/**
 * A duel view is exactly the engine's view of the state of its version, and no undealt stock
 * card of any game in progress appears anywhere in it.
 */
function checkDuelView(got: unknown, s: DuelState, viewer: Viewer): void {
  expect(got).toEqual(duel.view(s, viewer))
  for (const p of [0, 1] as const) {
    const g = s.players[p]!.current
    const shown = (got as { players: { current: unknown }[] }).players[p]!.current
    if (g && shown && !('hidden' in (shown as object))) {
      const onTable = new Set([...g.piles.flat(), ...g.discard])
      for (const c of new Set(cardsIn(shown, ACES_UP_CARD_KEYS)))
        expect(onTable.has(c), JSON.stringify({ c, shown })).toBe(true)
    }
  }
}

/**
 * The saved record a viewer's update of `version` showed: on a table with versions per viewer
 * (a same-deal duel, shown.ts) the first saved version that showed that viewer `version` (the
 * later ones, until its next, changed nothing it sees); elsewhere the table's version itself.
 */
function recordAt(history: Map<number, TableRecord>, viewer: Viewer, version: number): TableRecord {
  const versions = [...history.keys()].sort((a, b) => a - b)
  for (const v of versions) {
    const r = history.get(v)!
    const i = viewer === 'spectator' ? r.seats.length : viewer
    if ((r.shown?.[i]?.n ?? r.version) === version) return r
  }
  throw new Error(`no saved version showed ${viewer} version ${version}`)
}

/** The state without A-16 figures: a record's frames replay its moves, which set none. */
const withoutFigures = (s: DuelState): DuelState => ({
  ...s,
  players: [0, 1].map((p) => ({
    ...s.players[p as 0 | 1],
    results: s.players[p as 0 | 1]!.results.map((r) => ({ ...r, best: null })),
  })) as unknown as DuelState['players'],
})

/**
 * A-16 over a table's history: every figure (`best` of a game's record) a version sets or
 * changes is on a game that was over in the version before, and with the same deal played by
 * both players by then (I-15, A-15), so no figure, early proof or not, is there sooner; and with
 * the same deal no figure is in the public log. Returns how many figures were set.
 */
function checkFigures(history: Map<number, TableRecord>): number {
  const versions = [...history.keys()].sort((a, b) => a - b)
  let set = 0
  for (const [i, v] of versions.entries()) {
    const before = i === 0 ? null : (history.get(versions[i - 1]!)!.state as DuelState | null)
    const after = history.get(v)!.state as DuelState | null
    if (after === null) continue
    const played = (seat: 0 | 1, index: number) =>
      (before?.players[seat]?.results.length ?? 0) > index
    for (const seat of [0, 1] as const) {
      after.players[seat]!.results.forEach((rec, index) => {
        const was = before?.players[seat]?.results[index]?.best ?? null
        if (JSON.stringify(rec.best) === JSON.stringify(was)) return
        const owed =
          played(seat, index) && (!after.settings.sameDeal || played((1 - seat) as 0 | 1, index))
        expect(owed, `a figure for ${seat}/${index} at v${v}`).toBe(true)
        set++
      })
    }
    if (after.settings.sameDeal)
      expect(
        history.get(v)!.log.filter((e) => e.t === 'best'),
        `v${v}`,
      ).toEqual([])
  }
  return set
}

/** Every `table:update` and `table:delta` a client's socket receives, as it came. */
function recordFrames(c: Client): { event: string; data: unknown }[] {
  const got: { event: string; data: unknown }[] = []
  for (const event of ['table:update', 'table:delta'] as const)
    c.socket.on(event, (data: unknown) => got.push({ event, data: structuredClone(data) }))
  return got
}

/**
 * What a connection received (its frames, then the acks it was handed), each without what
 * differs between two tables anyway (the code, the shuffle's commitment and record, the hash
 * chain's head, the clocks and times), as text.
 */
function received(frames: readonly { event: string; data: unknown }[], acks: readonly unknown[]) {
  const drop = new Set(['code', 'fair', 'h', 'deadline', 'deadlines', 'dl', 'at', 'graceUntil'])
  const clean = (x: unknown): unknown =>
    Array.isArray(x)
      ? x.map(clean)
      : x && typeof x === 'object'
        ? Object.fromEntries(
            Object.entries(x)
              .filter(([k]) => !drop.has(k))
              .map(([k, v]) => [k, clean(v)]),
          )
        : x
  return [
    ...frames.map((f) => `${f.event} ${JSON.stringify(clean(f.data))}`),
    ...acks.map((a) => `ack ${JSON.stringify(clean(a))}`),
  ]
}

describe('[I-15][A-15] nobody ever receives a card they may not know', () => {
  it('[A-15] same deal: the moves of a game the other player may not see yet reach them not at all, nor a spectator: the same updates, versions and answers whether there were none or six', async () => {
    const srv = await startServer()
    // 5C discards 2C, 3C and 4C of the layout (three moves), then leaves three gaps to move it
    // between (as many moves as one likes); then the first deal. Both seats get this deal.
    const deck = parseCards('2C 3C 4C 5C 6D 7D 8D 9D 2H 3H 4H 5H 6S 7S 8S 9S')
    const hidden = [
      { type: 'discard', pile: 0 },
      { type: 'discard', pile: 1 },
      { type: 'discard', pile: 2 },
      { type: 'move', from: 3, to: 0 },
      { type: 'move', from: 0, to: 1 },
      { type: 'move', from: 1, to: 3 },
    ] as const
    /** One same-deal match: seat 0 makes `n` hidden moves, then deals; seat 1 then deals. */
    const run = async (n: number) => {
      const [a, b, w] = [await srv.client(), await srv.client(), await srv.client()]
      const code = must(
        await a.send('table:create', {
          game: 'duel',
          name: 'A',
          options: { games: 1, sameDeal: true },
        }),
      ).table as string
      must(await b.send('table:join', { table: code, name: 'B' }))
      must(await w.send('table:watch', { table: code }))
      const v0 = b.state(code)!.table.version
      await Promise.all([a, b, w].map((c) => c.atVersion(code, v0)))
      const [bFrames, wFrames] = [recordFrames(b), recordFrames(w)]
      const bAcks: unknown[] = []
      const wAcks: unknown[] = []
      let v = must(
        await a.send('table:start', { table: code, version: v0, deal: { deck } }),
      ).version
      await Promise.all([b, w].map((c) => c.waitFor(code, (u) => u.view !== null)))
      for (const move of [...hidden.slice(0, n), { type: 'deal' } as const]) {
        v = must(await a.send('game:move', { table: code, version: v, move })).version
        await a.atVersion(code, v)
      }
      // What the other player and a spectator then learn by asking, and by playing on.
      await new Promise((r) => setTimeout(r, 100))
      bAcks.push(must(await b.send('table:sync', { table: code })))
      wAcks.push(must(await w.send('table:sync', { table: code })))
      const vb = b.state(code)!.table.version
      // A version b was never shown is refused as one that does not exist yet, at b's version.
      const ahead = await b.send('game:move', {
        table: code,
        version: vb + 1,
        move: { type: 'deal' },
      })
      bAcks.push(ahead)
      expect(ahead).toMatchObject({ ok: false, error: { code: 'FUTURE_VERSION' } })
      bAcks.push(
        must(await b.send('game:move', { table: code, version: vb, move: { type: 'deal' } })),
      )
      await new Promise((r) => setTimeout(r, 100))
      bAcks.push(must(await b.send('table:sync', { table: code })))
      wAcks.push(must(await w.send('table:sync', { table: code })))
      // The mover itself saw every one of its moves (and the start, and the other's deal).
      await new Promise((r) => setTimeout(r, 100))
      expect(a.state(code)!.table.version).toBe(v0 + 3 + n)
      return { b: received(bFrames, bAcks), w: received(wFrames, wAcks) }
    }
    try {
      const none = await run(0)
      const six = await run(6)
      expect(none.b.length).toBeGreaterThan(4)
      // Deltas too (each follows on from the viewer's own version before), not only whole tables.
      expect(none.b.filter((f) => f.startsWith('table:delta')).length).toBeGreaterThan(0)
      expect(none.w.filter((f) => f.startsWith('table:delta')).length).toBeGreaterThan(0)
      expect(six.b).toEqual(none.b)
      expect(six.w).toEqual(none.w)
    } finally {
      await srv.stop()
    }
  })

  for (const n of [2, 3, 4]) {
    it(`[I-15] ${n}-player Idiot: every update, raw delta, log entry and error of every player and spectator, and the record and public frames read all along`, async () => {
      const store = new RecordingStore()
      const srv = await startServer(READ_RECORDS_OFTEN, { store })
      try {
        const host = await srv.client()
        const raws = [recordDeltas(host)]
        const code = (await createIdiot(host, { name: 'P0', seats: n, turnSeconds: null })).code
        const players: Client[] = [host]
        for (let i = 1; i < n; i++) {
          const c = await srv.client()
          raws.push(recordDeltas(c))
          must(await c.send('table:join', { table: code, name: `P${i}` }))
          players.push(c)
        }
        const watcher = await srv.client()
        const watcherRaw = recordDeltas(watcher)
        must(await watcher.send('table:watch', { table: code }))
        const version = players.at(-1)!.state(code)!.table.version
        await Promise.all([...players, watcher].map((c) => c.atVersion(code, version)))
        const started = must(await host.send('table:start', { table: code, version }))
        // Along the way each player tries to play every card they do not hold, and sees the refusals.
        const refusals: { seat: number; sent: number[]; message: string }[] = []
        let probes = 0
        await Promise.all(players.map((c) => c.atVersion(code, started.version)))
        for (const [seat, c] of players.entries()) {
          const u = c.state(code)!
          const v = u.view as IdiotView
          const me = v.players[seat]!
          const up = me.row.flatMap((pos) => (pos.faceUp === null ? [] : [pos.faceUp]))
          for (const card of fullDeck(1)
            .filter((x) => !me.hand!.includes(x))
            .slice(0, 12)) {
            const r = await c.send('game:move', {
              table: code,
              version: u.table.version,
              move: { type: 'swap', hand: card, faceUp: up[0]! },
            })
            expect(r.ok).toBe(false)
            if (!r.ok) refusals.push({ seat, sent: [card, up[0]!], message: r.error.message })
          }
        }
        // Issue 14: the game's record and its public frames can be read while the game is
        // played: read them all along.
        const recordId = players[0]!.state(code)!.table.fair.record!
        const poll = pollRecord(srv.url, recordId)
        const end = await driveIdiot(players, code, started.version, {
          seed: `leak-${n}`,
          pauseMs: 2,
          onMove: () => {
            probes++
          },
        })
        await poll.stop()
        // While the game was on, its record named no card and no seed: header only.
        const during = poll.records.filter((r) => (r as { end: unknown }).end === null)
        expect(during.length).toBeGreaterThan(2)
        for (const rec of during) {
          expect(cardsIn(rec, new Set([...CARD_KEYS, 'moves', 'deal']))).toEqual([])
          expect(rec).toMatchObject({ deal: null, moves: [] })
          expect(JSON.stringify(rec)).not.toContain('"seed"')
        }
        const history = store.history.get(code)!
        for (const [seat, c] of players.entries()) {
          const u = c.state(code)!
          for (const card of fullDeck(1).filter((x) => x % 7 === seat)) {
            const r = await c.send('game:move', {
              table: code,
              version: u.table.version,
              move: { type: 'play', cards: [card] },
            })
            if (!r.ok) refusals.push({ seat, sent: [card], message: r.error.message })
          }
        }
        expect(probes).toBeGreaterThan(20)
        expect(refusals.length).toBeGreaterThan(0)
        const final = history.get(end.table.version)!.state as IdiotState
        // A refusal names at most the cards its sender sent.
        for (const r of refusals) {
          const named = fullDeck(1).filter((c) =>
            new RegExp(`\\b${formatCard(c)}\\b`).test(r.message),
          )
          expect(named.filter((c) => !r.sent.includes(c))).toEqual([])
        }
        let checked = 0
        players.forEach((c, seat) => {
          checked += checkIdiotUpdates(c.updates, seat, history)
        })
        checked += checkIdiotUpdates(watcher.updates, 'spectator', history)
        expect(checked).toBeGreaterThan(n * probes)
        // The raw deltas, as they came, before any client rebuilt a view from them.
        let deltas = 0
        raws.forEach((raw, seat) => {
          deltas += checkIdiotDeltas(raw, seat, history)
        })
        deltas += checkIdiotDeltas(watcherRaw, 'spectator', history)
        expect(deltas).toBeGreaterThan(n * probes)
        // The public frames read during the game: each is the engine's spectator view of its
        // version (as a spectator's update was), and so names no card a spectator could not know.
        const frames = poll.frames.filter((f) => !f.over)
        expect(frames.length).toBeGreaterThan(2)
        expect(frames.at(-1)!.moves).toBeGreaterThan(10)
        const pseudo = distinctFrames(frames, started.version).map(
          (x) => ({ table: { version: x.v }, view: x.view }) as unknown as TableUpdate,
        )
        expect(pseudo.length).toBe(frames.at(-1)!.moves + 1)
        checkIdiotUpdates(pseudo, 'spectator', history)
        expect(final.phase).toBe('over')
        // The checker is not blind: a face-down card slipped into an update is caught.
        const faceDown = history.get(started.version)!.state as IdiotState
        const hidden = faceDown.players[0]!.row[0]!.faceDown!
        const first = watcher.updates.find((u) => u.table.version === started.version)!
        const early = structuredClone(first)
        ;(early.view as unknown as { recent: unknown[] }).recent = [{ t: 'uncover', card: hidden }]
        expect(() => checkIdiotUpdates([early], 'spectator', history)).toThrow()
        // And a hand shown to a spectator is caught too.
        const handed = structuredClone(first)
        const v = handed.view as unknown as { players: { hand: number[] | null }[] }
        v.players[1]!.hand = faceDown.players[1]!.hand.slice()
        expect(() => checkIdiotUpdates([handed], 'spectator', history)).toThrow()
        // A raw delta that patches a hidden card in, however it does it, is caught.
        const at = { code, version: started.version + 1 }
        for (const p of [
          [['a', ['pile'], [hidden]]],
          [['s', ['players', 1, 'hand'], [hidden]]],
          [['s', ['players', 0, 'row', 0], { faceUp: hidden, faceDown: true }]],
          [['s', ['recent'], [{ t: 'uncover', card: hidden }]]],
          [['e', ['recent'], [['uncover', 0, 0, hidden]]]],
        ]) {
          expect(() => checkIdiotDeltas([{ ...at, p } as RawDelta], 'spectator', history)).toThrow()
        }
        // …and a cut's length or a path's index is not taken for a card.
        const cut = { ...at, p: [['t', ['players', hidden % n, 'row'], hidden]] } as RawDelta
        expect(checkIdiotDeltas([cut], 'spectator', history)).toBe(1)
        // Legal moves from a view never include a card the viewer does not hold.
        const pv = players[0]!.updates.find((u) => u.table.version === started.version)!
          .view as IdiotView
        for (const m of idiotLegalMovesFromView(pv)) {
          if (m.type === 'play') for (const c of m.cards) expect(pv.players[0]!.hand).toContain(c)
        }
      } finally {
        await srv.stop()
      }
    })
  }

  it('[A-15][A-16][I-15] Idioten för två: every update and raw delta is the engine view of its version; no stock card, no game events in the log, no figure before its game is owed one (early proofs on); the record and public frames read all along show no more', async () => {
    const store = new RecordingStore()
    const logs: string[] = []
    // A-16 on, with the proofs that start when a game is dealt (SOLVER_EARLY_PROOF): the table's
    // solve tries no keeps (every figure where keeping matters needs the proof), and a small proof
    // budget answers within the game.
    const srv = await startServer(
      {
        ...READ_RECORDS_OFTEN,
        SOLVER: '1',
        SOLVER_NODES: '0',
        SOLVER_PROOF_NODES: '200000',
        SOLVER_EARLY_PROOF: '1',
      },
      { store, logs },
    )
    try {
      for (const sameDeal of [false, true]) {
        const a = await srv.client()
        const b = await srv.client()
        const w = await srv.client()
        const raws = [a, b, w].map(recordDeltas)
        const code = must(
          await a.send('table:create', {
            game: 'duel',
            name: 'A',
            options: { games: 2, sameDeal, undo: 'both', piles: [4, 5] },
          }),
        ).table as string
        must(await b.send('table:join', { table: code, name: 'B' }))
        must(await w.send('table:watch', { table: code }))
        const version = b.state(code)!.table.version
        await Promise.all([a, b, w].map((c) => c.atVersion(code, version)))
        const started = must(await a.send('table:start', { table: code, version }))
        const recordId = a.state(code)!.table.fair.record!
        const poll = pollRecord(srv.url, recordId, !sameDeal)
        await driveDuel([a, b], code, started.version, {
          seed: `leak-duel-${sameDeal}`,
          undoChance: 0.2,
          pauseMs: 2,
        })
        await poll.stop()
        const history = store.history.get(code)!
        let checked = 0
        const viewers = [0, 1, 'spectator'] as const
        for (const [i, c] of [a, b, w].entries()) {
          const viewer = viewers[i]!
          for (const u of c.updates.filter((x) => x.table.code === code)) {
            const s = recordAt(history, viewer, u.table.version).state as DuelState | null
            if (s) checkDuelView(u.view, s, viewer)
            expect(u.log.every((e) => e.t !== 'game')).toBe(true)
            checked++
          }
          // Every raw delta names only cards of the engine's view of its version.
          for (const d of raws[i]!.filter((x) => x.code === code)) {
            const s = recordAt(history, viewer, d.version).state as DuelState | null
            const allowed = new Set(s ? cardsIn(duel.view(s, viewer), ACES_UP_CARD_KEYS) : [])
            const named = cardsInRaw(d, ACES_UP_CARD_KEYS).filter((c) => !allowed.has(c))
            expect(named, `delta to ${viewer} at v${d.version}`).toEqual([])
            checked++
          }
        }
        expect(checked).toBeGreaterThan(60)
        // the figures come once the match's games are over (each game owed one gets it),
        // never before; no log line of the server names one.
        const figured = (u: TableUpdate) =>
          ([0, 1] as const).every((p) =>
            (u.view as unknown as { players: { results: { best: unknown }[] }[] }).players[
              p
            ]!.results.every((r) => r.best !== null),
          )
        await w.waitFor(code, figured, 30_000)
        expect(checkFigures(store.history.get(code)!)).toBeGreaterThanOrEqual(4)
        expect(logs.filter((l) => /"best"/.test(l))).toEqual([])
        // The record during the match: its header, no card, no move, no seed.
        const during = poll.records.filter((r) => (r as { end: unknown }).end === null)
        expect(during.length).toBeGreaterThan(2)
        for (const rec of during) {
          expect(rec).toMatchObject({ deal: null, moves: [] })
          // (Its options' `piles` are the piles' counts, [4, 5], not cards.)
          const { options: _o, ...rest } = rec as { options: unknown }
          expect(cardsIn(rest, new Set([...ACES_UP_CARD_KEYS, 'moves', 'deal']))).toEqual([])
          expect(JSON.stringify(rec)).not.toContain('"seed"')
        }
        // The public frames during the match: each the engine's spectator view of its version.
        // A same-deal match has none until it is over: a frame a move would count the moves of
        // a leader's game that the other player may not see yet.
        const frames = poll.frames.filter((f) => !f.over)
        if (sameDeal) {
          expect(frames).toEqual([])
          expect(poll.refused).toBeGreaterThan(2)
        } else {
          expect(frames.length).toBeGreaterThan(2)
          const views = distinctFrames(frames, started.version)
          expect(views.length).toBe(frames.at(-1)!.moves + 1)
          for (const x of views) {
            const s = withoutFigures(history.get(x.v)!.state as DuelState)
            checkDuelView(x.view, s, 'spectator')
            expect(JSON.stringify(x.view)).not.toContain('"hidden":true')
          }
        }
        // The hash chain gives no way in (docs/fairness.md): a viewer who could compute heads
        // could test every guess of a hidden move (a few dozen moves, the time within
        // milliseconds) against the head the next update shows. Everyone is shown 16 hex digits
        // of each head, the witness, but never a whole head, and the chain's start is keyed by
        // the seed, secret until the end: the first whole head cannot be had.
        const res = await fetch(`${srv.url}/api/records/${recordId}`)
        const final = (await res.json()) as GameRecord
        expect(final.end).not.toBeNull()
        const heads = chainHeads(final)
        expect(heads.at(-1)).toBe(final.head)
        const seen = JSON.stringify([a.updates, b.updates, w.updates, raws, during])
        expect(heads.filter((h) => seen.includes(h.slice(0, 16))).length).toBeGreaterThan(5)
        for (const h of heads) expect(seen).not.toContain(h)
        expect(heads[0]).not.toBe(chainStart(final.id, final.commitment))
        expect(heads[0]).not.toBe(chainStart(final.id, final.commitment, null))
      }
      // The figure check is not blind: a figure on a same-deal game the other player has yet to
      // play is caught, and so is one in the log.
      let s = duel.setup({ games: 1, sameDeal: true }, 2, { seed: 'early-figure' })
      while (s.players[0].results.length === 0) {
        const moves = duel.legalMoves(s, 0)
        const r = duel.apply(s, 0, moves.find((m) => m.type === 'deal') ?? moves[0]!)
        if (!r.ok) throw new Error(r.error.code)
        s = r.value
      }
      const rec = (v: number, state: DuelState, log: TableRecord['log'] = []) =>
        ({ version: v, state, log }) as unknown as TableRecord
      const early = withBest(s, 0, 0, { best: 4, proven: 'all' })
      expect(() =>
        checkFigures(
          new Map([
            [1, rec(1, s)],
            [2, rec(2, early)],
          ]),
        ),
      ).toThrow()
      const logged: TableRecord['log'] = [{ seq: 1, at: 0, t: 'best', seat: 0, index: 0, best: 4 }]
      expect(() => checkFigures(new Map([[1, rec(1, s, logged)]]))).toThrow()
    } finally {
      await srv.stop()
    }
  })
})
