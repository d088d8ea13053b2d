// Issue point 8, "Bad input": every bad input gets a clear coded refusal
// ({ ok: false, error: { code, message } }) and changes nothing — the table's record, in memory
// and in the store, stays byte-for-byte the same — and the server keeps answering.
import {
  type Card,
  formatCards,
  fullDeck,
  type IdiotMove,
  type IdiotState,
  idiot,
  Rng,
} from '@kortbord/engine'
import { type Ack, CLIENT_EVENTS, type ClientEvent, type WireError } from '@kortbord/protocol'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Client, connect, must } from '../scripts/client.ts'
import { driveIdiot } from '../scripts/drive.ts'
import { MemoryStore, type RecordEffects, type TableRecord } from '../src/store.ts'
import type { Table } from '../src/table.ts'
import { createIdiot, seatIdiot, startServer, type TestServer } from './harness.ts'

type AnyAck = Ack<Record<string, unknown>>

let srv: TestServer
beforeAll(async () => {
  srv = await startServer({ LOG_LEVEL: 'silent' })
})
afterAll(async () => {
  await srv.stop()
})

// ---------------------------------------------------------------------------------------------
// Helpers

/** A well-formed seat token that holds no seat anywhere. */
const WRONG_TOKEN = 'A'.repeat(43)
/** A well-formed table code that no table has (the alphabet has no 0, 1, I, L or O). */
const NO_TABLE = 'ZZZZZZ'

async function tableOf(s: TestServer, code: string): Promise<Table> {
  const t = await s.app.hub.get(code)
  if (!t) throw new Error(`no table ${code}`)
  return t
}

/** The table's record as the server holds it, and as the store holds it. */
async function fingerprint(
  s: TestServer,
  code: string,
): Promise<{ memory: string; stored: string }> {
  const t = await tableOf(s, code)
  return {
    memory: JSON.stringify(t.snapshot()),
    stored: JSON.stringify(await s.app.store.load(code)),
  }
}

async function idiotState(s: TestServer, code: string): Promise<IdiotState> {
  return (await tableOf(s, code)).snapshot().state as IdiotState
}

/** A refusal: exactly { ok: false, error: { code, message } }, one of `codes`, a real sentence. */
function expectRefusal(a: AnyAck, codes: string | readonly string[], label = ''): WireError {
  const want = typeof codes === 'string' ? [codes] : codes
  expect(a.ok, `${label}: expected a refusal, got ${JSON.stringify(a)}`).toBe(false)
  if (a.ok) throw new Error('unreachable')
  expect(Object.keys(a).sort(), label).toEqual(['error', 'ok'])
  expect(Object.keys(a.error).sort(), label).toEqual(['code', 'message'])
  expect(want, `${label}: got ${a.error.code} (${a.error.message})`).toContain(a.error.code)
  expect(typeof a.error.message, label).toBe('string')
  expect(a.error.message.trim().length, label).toBeGreaterThan(0)
  return a.error
}

/** Sends a bad input: it must be refused with one of `codes` and change nothing at `code`. */
async function refusedUnchanged(
  s: TestServer,
  code: string,
  send: () => Promise<AnyAck>,
  codes: string | readonly string[],
  label = '',
): Promise<WireError> {
  const before = await fingerprint(s, code)
  const a = await send()
  const e = expectRefusal(a, codes, label)
  expect(await fingerprint(s, code), `${label}: the table changed`).toEqual(before)
  return e
}

/** Emits an event with an ack callback and no payload at all. */
function ackOnly(c: Client, event: string, ms = 5_000): Promise<AnyAck> {
  return (
    c.socket.timeout(ms) as unknown as { emitWithAck(e: string): Promise<AnyAck> }
  ).emitWithAck(event)
}

/** Resolves with the next `protocol:error` the client receives. */
function nextProtocolError(c: Client, ms = 3_000): Promise<WireError> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no protocol:error arrived')), ms)
    c.socket.once('protocol:error', (e) => {
      clearTimeout(timer)
      resolve(e)
    })
  })
}

/** Resolves with the reason once the client is disconnected (rejects after `ms`). */
function disconnected(c: Client, ms = 5_000): Promise<string> {
  if (!c.socket.connected) return Promise.resolve('already disconnected')
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('still connected')), ms)
    c.socket.once('disconnect', (reason) => {
      clearTimeout(timer)
      resolve(reason)
    })
  })
}

/** A JSON object with an own key `__proto__` or `constructor` (a literal would set the prototype). */
function withOwnKey(base: object, key: string, value: unknown): Record<string, unknown> {
  const o = JSON.parse(JSON.stringify(base)) as Record<string, unknown>
  Object.defineProperty(o, key, { value, enumerable: true, configurable: true, writable: true })
  return o
}

function nested(depth: number): unknown {
  let v: unknown = { table: NO_TABLE }
  for (let i = 0; i < depth; i++) v = { a: v, b: [i] }
  return v
}

interface Setup {
  code: string
  players: Client[]
  tokens: string[]
  watcher: Client
  outsider: Client
  version: number
}

/** A host creates an n-seat Idiot table, the others join, a spectator watches. */
async function idiotTable(
  s: TestServer,
  n: number,
  opts: { fill?: number; spectators?: boolean } = {},
): Promise<Setup> {
  const t = await seatIdiot(s, n, opts)
  const watcher = await s.client()
  let version = t.version
  // Watching is a change of the table too (the spectator count is shared by every node).
  if (opts.spectators ?? true)
    version = must(await watcher.send('table:watch', { table: t.code })).version
  const outsider = await s.client()
  return { ...t, watcher, outsider, version }
}

// A deck for two players whose every card that matters is known. With an explicit deck seat 0
// deals (I-5), so seat 1 plays first; the deal goes 1, 0, 1, 0, … (I-3).
const S1_HAND = [3, 16, 7] // 5C 5D 9C
const S0_HAND = [1, 2, 11] // 3C 4C KC
const S0_UP = [30, 31, 32] // 6H 7H 8H
const S1_UP = [43, 44, 45] // 6S 7S 8S
function designedDeck(): Card[] {
  const fixed = new Map<number, Card>()
  const put = (positions: number[], cards: number[]) => {
    for (const [i, p] of positions.entries()) fixed.set(p, cards[i]!)
  }
  put([12, 14, 16], S1_HAND)
  put([13, 15, 17], S0_HAND)
  put([7, 9, 11], S0_UP)
  put([6, 8, 10], S1_UP)
  const used = new Set(fixed.values())
  const rest = fullDeck(1).filter((c) => !used.has(c))
  return Array.from({ length: 52 }, (_, i) => fixed.get(i) ?? rest.shift()!)
}

/** A two-player table in the swap phase, dealt from {@link designedDeck}. */
async function swapTable(s: TestServer): Promise<Setup> {
  const t = await idiotTable(s, 2)
  const a = must(
    await t.players[0]!.send('table:start', {
      table: t.code,
      version: t.version,
      deal: { deck: designedDeck() },
    }),
  )
  return { ...t, version: a.version }
}

/** The same, with both players ready: seat 1's turn, the pile empty. */
async function playTable(s: TestServer): Promise<Setup> {
  const t = await swapTable(s)
  let v = t.version
  for (const p of t.players) {
    v = must(
      await p.send('game:move', { table: t.code, version: v, move: { type: 'ready' } }),
    ).version
  }
  const st = await idiotState(s, t.code)
  expect(st.phase).toBe('play')
  expect(st.turn).toBe(1)
  return { ...t, version: v }
}

const move = <const M>(code: string, version: number, m: M) => ({ table: code, version, move: m })

// ---------------------------------------------------------------------------------------------

describe('malformed payloads → BAD_REQUEST, nothing changes', () => {
  let t: Setup
  let v: number
  /** A payload of each event that the schema accepts (the move is legal: seat 1 plays 5C). */
  let valid: Record<ClientEvent, Record<string, unknown>>
  /** Who sends each event: the host for start and remove, else the player whose turn it is. */
  let sender: (e: ClientEvent) => Client

  beforeAll(async () => {
    t = await playTable(srv)
    v = t.version
    valid = {
      'table:create': { game: 'idiot', name: 'Eve', options: { seats: 2, turnSeconds: null } },
      'table:join': { table: t.code, name: 'Eve' },
      'table:watch': { table: t.code },
      'table:reclaim': { table: t.code, token: WRONG_TOKEN },
      'table:leave': { table: t.code },
      'table:start': { table: t.code, version: v },
      'table:remove': { table: t.code, version: v, seat: 1 },
      'table:bot': { table: t.code, version: v, seat: 1, level: 'normal' },
      'table:timer': { table: t.code, version: v, turnSeconds: 30 },
      'table:forfeit': { table: t.code, version: v, seat: 0 },
      'table:entropy': { table: t.code, entropy: 'ab' },
      'table:rematch': { table: t.code, version: v },
      'table:chat': { table: t.code, version: v, spectatorChat: false },
      'chat:send': { table: t.code, text: 'hej' },
      'chat:react': { table: t.code, reaction: 'gg' },
      'table:sync': { table: t.code },
      'table:peek': { table: t.code },
      'game:move': move(t.code, v, { type: 'play', cards: [3] }),
    }
    sender = (e) =>
      e === 'table:start' ||
      e === 'table:remove' ||
      e === 'table:bot' ||
      e === 'table:timer' ||
      e === 'table:chat'
        ? t.players[0]!
        : t.players[1]!
  })

  it('whole payloads of the wrong shape, for every client event', async () => {
    const shapes: [string, unknown][] = [
      ['null', null],
      ['zero', 0],
      ['a negative number', -1],
      ['a float', 1.5],
      ['a huge number', 1e308],
      ['NaN (null on the wire)', Number.NaN],
      ['true', true],
      ['a string', 'table:create'],
      ['an empty string', ''],
      ['an empty array', []],
      ['an array of numbers', [1, 2, 3]],
      ['a nested object', nested(40)],
      ['an empty object', {}],
    ]
    for (const event of CLIENT_EVENTS) {
      const c = sender(event)
      for (const [what, payload] of shapes) {
        await refusedUnchanged(
          srv,
          t.code,
          () => c.rawAck(event, payload),
          'BAD_REQUEST',
          `${event} ${what}`,
        )
      }
      await refusedUnchanged(srv, t.code, () => ackOnly(c, event), 'BAD_REQUEST', `${event} none`)
      // The right payload wrapped in an array is still not the payload.
      await refusedUnchanged(
        srv,
        t.code,
        () => c.rawAck(event, [valid[event]]),
        'BAD_REQUEST',
        `${event} [valid]`,
      )
    }
  })

  it('missing fields, wrong types and unknown fields, field by field, for every client event', async () => {
    // Values no field of any schema accepts; strings are added for the fields that are not strings.
    const badValues: unknown[] = [null, true, 1.5, -1, 2 ** 53, [], {}, { a: { b: 1 } }]
    for (const event of CLIENT_EVENTS) {
      const c = sender(event)
      const base = valid[event]
      for (const key of Object.keys(base)) {
        const { [key]: _dropped, ...missing } = base
        await refusedUnchanged(
          srv,
          t.code,
          () => c.rawAck(event, missing),
          'BAD_REQUEST',
          `${event} without ${key}`,
        )
        const values = typeof base[key] === 'string' ? [...badValues, ''] : [...badValues, '1']
        // null is a timer setting of its own (off), and '' a contribution of its own (none).
        const fine = (x: unknown) =>
          (key === 'turnSeconds' && x === null) ||
          (key === 'entropy' && x === '') ||
          (key === 'spectatorChat' && typeof x === 'boolean')
        for (const bad of values.filter((x) => !fine(x))) {
          await refusedUnchanged(
            srv,
            t.code,
            () => c.rawAck(event, { ...base, [key]: bad }),
            // A name and a chat message have refusals of their own (issues 13 and 15).
            key === 'name' && bad === ''
              ? 'NAME_EMPTY'
              : key === 'text' && bad === ''
                ? 'CHAT_EMPTY'
                : 'BAD_REQUEST',
            `${event} ${key}=${JSON.stringify(bad)}`,
          )
        }
      }
      const extras = [{ admin: true }, { seat: 0 }, { version: v, x: 1 }, { id: 'x' }]
      for (const extra of extras.filter((e) => Object.keys(e).some((k) => !(k in base)))) {
        await refusedUnchanged(
          srv,
          t.code,
          () => c.rawAck(event, { ...base, ...extra }),
          'BAD_REQUEST',
          `${event} extra ${JSON.stringify(extra)}`,
        )
      }
    }
    // The payload the mutations started from was good: the move is still legal and is applied.
    const ok = must(await t.players[1]!.rawAck('game:move', valid['game:move']))
    expect(ok.version).toBe(v + 1)
    t = await playTable(srv)
    v = t.version
  })

  it('field values of the right type but out of range, per event', async () => {
    const code = t.code
    const cases: [ClientEvent, unknown][] = [
      ['table:create', { game: 'poker', name: 'Eve', options: { seats: 2 } }],
      ['table:create', { game: 'idiot', name: 'Eve', options: { seats: 1 } }],
      ['table:create', { game: 'idiot', name: 'Eve', options: { seats: 5 } }],
      ['table:create', { game: 'idiot', name: 'Eve', options: { seats: 2.5 } }],
      ['table:create', { game: 'idiot', name: 'Eve', options: { seats: '2' } }],
      ['table:create', { game: 'idiot', name: 'Eve', options: { seats: 2, turnSeconds: 5 } }],
      ['table:create', { game: 'idiot', name: 'Eve', options: { seats: 2, turnSeconds: 1e6 } }],
      ['table:create', { game: 'idiot', name: 'Eve', options: { seats: 2, x: 1 } }],
      ['table:create', { game: 'idiot', name: 'Eve', options: { seats: 2, hints: 'yes' } }],
      ['table:create', { game: 'idiot', name: 'Eve', spectators: 'yes', options: { seats: 2 } }],
      ['table:create', { game: 'duel', name: 'Eve', options: { piles: [3, 4] } }],
      ['table:create', { game: 'duel', name: 'Eve', options: { games: 0 } }],
      ['table:create', { game: 'duel', name: 'Eve', options: { games: 21 } }],
      ['table:create', { game: 'duel', name: 'Eve', options: { scoring: 'golf' } }],
      ['table:create', { game: 'duel', name: 'Eve', options: { seats: 3 } }],
      ['table:create', { game: 'duel', name: 'Eve', options: { seats: 1, sameDeal: true } }],
      ['table:create', { game: 'duel', name: 'Eve', options: { seats: 1, mode: 'alternating' } }],
      ['table:join', { table: 'ABC', name: 'Eve' }],
      ['table:join', { table: 'OOOOOO', name: 'Eve' }],
      ['table:join', { table: `${code}A`, name: 'Eve' }],
      ['table:watch', { table: 123456 }],
      ['table:reclaim', { table: code, token: 'short' }],
      ['table:reclaim', { table: code, token: `${WRONG_TOKEN}A` }],
      ['table:reclaim', { table: code, token: `${'A'.repeat(42)}=` }],
      ['table:reclaim', { table: code, token: `${'A'.repeat(42)}+` }],
      ['table:start', { table: code, version: '3' }],
      ['table:start', { table: code, version: -1 }],
      ['table:start', { table: code, version: 1.5 }],
      ['table:start', { table: code, version: Number.MAX_SAFE_INTEGER + 2 }],
      ['table:start', { table: code, version: v, deal: { seed: '' } }],
      ['table:start', { table: code, version: v, deal: { seed: 'x'.repeat(65) } }],
      ['table:start', { table: code, version: v, deal: { deck: [] } }],
      ['table:start', { table: code, version: v, deal: { deck: ['AS'] } }],
      ['table:start', { table: code, version: v, deal: { deck: [104] } }],
      ['table:start', { table: code, version: v, deal: { seed: 'x', deck: [1] } }],
      ['table:remove', { table: code, version: v, seat: 1.5 }],
      ['table:remove', { table: code, version: v, seat: -1 }],
      ['table:remove', { table: code, version: v, seat: 4 }],
      ['table:remove', { table: code, version: v, seat: '1' }],
      ['game:move', { table: code, version: '3', move: { type: 'pickup' } }],
      ['game:move', move(code, v, { type: 'fly' })],
      ['game:move', move(code, v, { type: 'PLAY', cards: [3] })],
      ['game:move', move(code, v, { type: 'play' })],
      ['game:move', move(code, v, { type: 'play', cards: '5C' })],
      ['game:move', move(code, v, { type: 'play', cards: ['5C'] })],
      ['game:move', move(code, v, { type: 'play', cards: ['3'] })],
      ['game:move', move(code, v, { type: 'play', cards: [] })],
      ['game:move', move(code, v, { type: 'play', cards: [3.5] })],
      ['game:move', move(code, v, { type: 'play', cards: [-3] })],
      ['game:move', move(code, v, { type: 'play', cards: [104] })],
      ['game:move', move(code, v, { type: 'play', cards: [3, 3, 3, 3, 3, 3, 3, 3, 3] })],
      ['game:move', move(code, v, { type: 'play', cards: [[3]] })],
      ['game:move', move(code, v, { type: 'play', cards: { 0: 3 } })],
      ['game:move', move(code, v, { type: 'swap', hand: '5C', faceUp: 43 })],
      ['game:move', move(code, v, { type: 'swap', hand: 3 })],
      ['game:move', move(code, v, { type: 'pickup', cards: [3] })],
      ['game:move', move(code, v, { type: 'ready', now: true })],
      ['game:move', move(code, v, { cards: [3] })],
      ['game:move', move(code, v, 'pickup')],
      ['game:move', move(code, v, ['play', 3])],
    ]
    for (const [event, payload] of cases) {
      await refusedUnchanged(
        srv,
        code,
        () => sender(event).rawAck(event, payload),
        'BAD_REQUEST',
        `${event} ${JSON.stringify(payload)}`,
      )
    }
  })

  it('names that hide something are refused with a code of their own (issue 13, finding 11)', async () => {
    const names: [string, string][] = [
      ['   ', 'NAME_EMPTY'],
      ['x'.repeat(25), 'NAME_TOO_LONG'],
      ['👨‍👩‍👧‍👦'.repeat(10), 'NAME_TOO_LONG'],
      ['bell\u0007', 'NAME_CONTROL_CHARS'],
      ['line\u2028break', 'NAME_CONTROL_CHARS'],
      ['Ad\u200bmin', 'NAME_INVISIBLE_CHARS'],
      ['Host\u00ad', 'NAME_INVISIBLE_CHARS'],
      ['Eve\u2062', 'NAME_INVISIBLE_CHARS'],
      ['Eve\ufff9', 'NAME_INVISIBLE_CHARS'],
      ['Eve\ufe0f', 'NAME_INVISIBLE_CHARS'],
      ['Z\u0301\u0302\u0303\u0304\u0305\u0306', 'NAME_TOO_MANY_MARKS'],
      ['Eve\ud800', 'NAME_BAD_UNICODE'],
    ]
    for (const [name, code] of names) {
      await refusedUnchanged(
        srv,
        t.code,
        () => sender('table:join').rawAck('table:join', { table: t.code, name }),
        code,
        `join as ${JSON.stringify(name)}`,
      )
      await refusedUnchanged(
        srv,
        t.code,
        () =>
          sender('table:create').rawAck('table:create', {
            game: 'idiot',
            name,
            options: { seats: 2 },
          }),
        code,
        `create as ${JSON.stringify(name)}`,
      )
    }
    // What a person sees is what the name is: NFC, trimmed, spaces collapsed.
    const c = await srv.client()
    const made = must(
      await c.send('table:create', {
        game: 'idiot',
        name: '  A\u030asa \u00a0 Ek ',
        options: { seats: 2 },
      }),
    )
    const u = await c.waitFor(made.table as string, () => true)
    expect(u.table.seats[0]!.name).toBe('\u00c5sa Ek')
  })

  it('prototype-pollution shaped objects ({"__proto__": …}, {"constructor": …}) for every client event', async () => {
    const poison = { polluted: 'yes', isAdmin: true }
    for (const event of CLIENT_EVENTS) {
      const c = sender(event)
      const base = valid[event]
      const shapes: [string, unknown][] = [
        ['__proto__ beside the fields', withOwnKey(base, '__proto__', poison)],
        ['constructor beside the fields', withOwnKey(base, 'constructor', { prototype: poison })],
        ['prototype beside the fields', withOwnKey(base, 'prototype', poison)],
        ['only __proto__', withOwnKey({}, '__proto__', base)],
        ['only constructor', withOwnKey({}, 'constructor', { prototype: poison })],
      ]
      if (event === 'game:move') {
        const m = valid[event].move as object
        shapes.push([
          '__proto__ in the move',
          { ...base, move: withOwnKey(m, '__proto__', poison) },
        ])
        shapes.push([
          'constructor in the move',
          { ...base, move: withOwnKey(m, 'constructor', { prototype: poison }) },
        ])
      }
      if (event === 'table:create') {
        shapes.push([
          '__proto__ in the options',
          { ...base, options: withOwnKey({ seats: 2 }, '__proto__', { turnSeconds: 15 }) },
        ])
      }
      for (const [what, payload] of shapes) {
        const e = await refusedUnchanged(
          srv,
          t.code,
          () => c.rawAck(event, payload),
          'BAD_REQUEST',
          `${event} ${what}`,
        )
        // The key did arrive (a literal would have been lost on the wire) and was named.
        if (what.includes('beside') || what.includes(' in the '))
          expect(e.message).toMatch(/__proto__|constructor|prototype/)
      }
    }
    const fresh: Record<string, unknown> = {}
    expect(fresh.polluted).toBeUndefined()
    expect(fresh.isAdmin).toBeUndefined()
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false)
  })

  it('deep nesting (thousands of levels) is refused, not a crash', async () => {
    const c = t.players[1]!
    const deep = (n: number): unknown => {
      let x: unknown = 3
      for (let i = 0; i < n; i++) x = [x]
      return x
    }
    for (const depth of [10, 500, 1500]) {
      await refusedUnchanged(
        srv,
        t.code,
        () => c.rawAck('game:move', move(t.code, v, { type: 'play', cards: deep(depth) })),
        'BAD_REQUEST',
        `cards nested ${depth} deep`,
      )
      await refusedUnchanged(
        srv,
        t.code,
        () => c.rawAck('game:move', move(t.code, v, deep(depth))),
        'BAD_REQUEST',
        `move nested ${depth} deep`,
      )
    }
    // Deeper than socket.io-client can encode: written as a raw socket.io packet (ack id 9001).
    const before = await fingerprint(srv, t.code)
    const got = new Promise<AnyAck>((resolve) => {
      ;(c.socket as unknown as { acks: Record<number, (a: AnyAck) => void> }).acks[9001] = resolve
    })
    const depth = 7000
    ;(c.socket.io as unknown as { engine: { write(s: string): void } }).engine.write(
      `29001["game:move",{"table":"${t.code}","version":${v},"move":${'['.repeat(depth)}${']'.repeat(depth)}}]`,
    )
    expectRefusal(await got, 'BAD_REQUEST', 'raw 7000-deep move')
    expect(await fingerprint(srv, t.code)).toEqual(before)
    expect(c.socket.connected).toBe(true)
  })
})

// ---------------------------------------------------------------------------------------------

describe('events and acknowledgements', () => {
  it('unknown event names with an ack → UNKNOWN_EVENT; the table is untouched', async () => {
    const t = await playTable(srv)
    const c = t.players[1]!
    const names = [
      'table:destroy',
      'game:cheat',
      'TABLE:CREATE',
      'table:create ',
      ' game:move',
      'game:move\u0000',
      '',
      '__proto__',
      'constructor',
      'hasOwnProperty',
      'toString',
      'error',
      'protocol:error',
      'table:update',
      'x'.repeat(5_000),
    ]
    for (const name of names) {
      const e = await refusedUnchanged(
        srv,
        t.code,
        () => c.rawAck(name, move(t.code, t.version, { type: 'play', cards: [3] })),
        'UNKNOWN_EVENT',
        `event ${JSON.stringify(name.slice(0, 20))}`,
      )
      expect(e.message.length).toBeLessThan(200)
    }
    // An event "name" that is a number (the socket.io wire allows it).
    await refusedUnchanged(
      srv,
      t.code,
      () =>
        (
          c.socket.timeout(5_000) as unknown as {
            emitWithAck(e: unknown, p: unknown): Promise<AnyAck>
          }
        ).emitWithAck(42, { table: t.code }),
      'UNKNOWN_EVENT',
      'numeric event',
    )
    expect(c.socket.connected).toBe(true)
  })

  it('an unknown event without an ack → a protocol:error event UNKNOWN_EVENT', async () => {
    const t = await playTable(srv)
    const c = t.players[1]!
    for (const name of ['table:destroy', 'game:cheat', 'constructor']) {
      const before = await fingerprint(srv, t.code)
      const errors = c.errors.length
      const got = nextProtocolError(c)
      c.raw(name, move(t.code, t.version, { type: 'play', cards: [3] }))
      const e = await got
      expect(e.code).toBe('UNKNOWN_EVENT')
      expect(e.message.trim().length).toBeGreaterThan(0)
      expect(c.errors.length).toBe(errors + 1)
      expect(await fingerprint(srv, t.code)).toEqual(before)
    }
  })

  it('[I-6] a known event without an ack → protocol:error NO_ACK, even a legal move is not applied', async () => {
    const t = await playTable(srv)
    const legal = move(t.code, t.version, { type: 'play', cards: [3] })
    const payloads: Record<ClientEvent, unknown> = {
      'table:create': { game: 'idiot', name: 'Eve', options: { seats: 2 } },
      'table:join': { table: t.code, name: 'Eve' },
      'table:watch': { table: t.code },
      'table:reclaim': { table: t.code, token: t.tokens[1] },
      'table:leave': { table: t.code },
      'table:start': { table: t.code, version: t.version },
      'table:remove': { table: t.code, version: t.version, seat: 0 },
      'table:bot': { table: t.code, version: t.version, seat: 1, level: 'easy' },
      'table:timer': { table: t.code, version: t.version, turnSeconds: 30 },
      'table:forfeit': { table: t.code, version: t.version, seat: 0 },
      'table:entropy': { table: t.code, entropy: 'ab' },
      'table:rematch': { table: t.code, version: t.version },
      'table:chat': { table: t.code, version: t.version, spectatorChat: false },
      'chat:send': { table: t.code, text: 'hej' },
      'chat:react': { table: t.code, reaction: 'gg' },
      'table:sync': { table: t.code },
      'table:peek': { table: t.code },
      'game:move': legal,
    }
    const c = t.players[1]!
    for (const event of CLIENT_EVENTS) {
      for (const args of [[payloads[event]], [], [payloads[event], 'not a function']]) {
        const before = await fingerprint(srv, t.code)
        const got = nextProtocolError(c)
        c.raw(event, ...args)
        const e = await got
        expect(e.code, `${event} ${args.length}`).toBe('NO_ACK')
        expect(e.message).toContain(event)
        expect(await fingerprint(srv, t.code)).toEqual(before)
      }
    }
    // Nothing was applied: the same move with an ack is still legal at the same version.
    expect((await idiotState(srv, t.code)).pile).toEqual([])
    expect(must(await c.send('game:move', legal)).version).toBe(t.version + 1)
  })

  it('a packet with a reserved event name drops only that connection', async () => {
    const t = await playTable(srv)
    const before = await fingerprint(srv, t.code)
    // The outsider is at no table, so the table must not change at all.
    const gone = disconnected(t.outsider)
    ;(t.outsider.socket.io as unknown as { engine: { write(s: string): void } }).engine.write(
      '2["disconnect",{}]',
    )
    await gone
    expect(await fingerprint(srv, t.code)).toEqual(before)
    must(await t.players[1]!.send('table:sync', { table: t.code }))
  })
})

// ---------------------------------------------------------------------------------------------

describe('oversized payloads', () => {
  it('a payload over MAX_PAYLOAD_BYTES disconnects that socket only; the table and others are unaffected', async () => {
    const limit = srv.config.maxPayloadBytes
    expect(limit).toBe(16_384)
    const t = await playTable(srv)
    const before = await fingerprint(srv, t.code)
    // Just under the limit: an ordinary refusal.
    expectRefusal(
      await t.watcher.rawAck('table:sync', { table: t.code, junk: 'x'.repeat(limit - 1_000) }),
      'BAD_REQUEST',
    )
    // Over it (websocket, then long-polling): socket.io drops the connection.
    const gone = disconnected(t.outsider)
    t.outsider.raw('table:sync', { table: t.code, junk: 'x'.repeat(limit + 1_000) }, () => {})
    expect(['transport close', 'transport error']).toContain(await gone)
    const poller = new Client(srv.url, { transports: ['polling'] })
    await poller.connected()
    const gone2 = disconnected(poller)
    poller.raw('table:sync', { table: t.code, junk: 'y'.repeat(limit * 2) }, () => {})
    expect(['transport close', 'transport error']).toContain(await gone2)
    poller.close()
    await new Promise((r) => setTimeout(r, 50))
    expect(await fingerprint(srv, t.code)).toEqual(before)
    // The players go on; a legal move still works; a new client can still connect.
    must(await t.players[0]!.send('table:sync', { table: t.code }))
    must(
      await t.players[1]!.send('game:move', move(t.code, t.version, { type: 'play', cards: [3] })),
    )
    const fresh = await srv.client()
    must(await fresh.send('table:create', { game: 'idiot', name: 'Eve', options: { seats: 2 } }))
  })
})

// ---------------------------------------------------------------------------------------------

describe('refusals by the rules and the table', () => {
  it('[I-4] swap phase: WRONG_PHASE, NOT_IN_HAND, NOT_FACE_UP, BAD_MOVE, ALREADY_READY', async () => {
    const t = await swapTable(srv)
    const [p0, p1] = t.players as [Client, Client]
    const st = await idiotState(srv, t.code)
    // The designed deck dealt what it should.
    expect(formatCards(st.players[0]!.hand)).toBe(formatCards(S0_HAND))
    expect(formatCards(st.players[1]!.hand)).toBe(formatCards(S1_HAND))
    expect(st.players[0]!.row.map((p) => p.faceUp)).toEqual(S0_UP)
    expect(st.players[1]!.row.map((p) => p.faceUp)).toEqual(S1_UP)
    const v = t.version
    const r = (c: Client, m: unknown, codes: string, label: string) =>
      refusedUnchanged(srv, t.code, () => c.rawAck('game:move', move(t.code, v, m)), codes, label)
    await r(p0, { type: 'play', cards: [1] }, 'WRONG_PHASE', 'play before everyone is ready')
    await r(p1, { type: 'play', cards: [3] }, 'WRONG_PHASE', 'seat 1 plays before ready')
    await r(p1, { type: 'pickup' }, 'WRONG_PHASE', 'pick up in the swap phase')
    await r(p0, { type: 'swap', hand: 16, faceUp: 30 }, 'NOT_IN_HAND', "the other's hand card")
    await r(p0, { type: 'swap', hand: 30, faceUp: 31 }, 'NOT_IN_HAND', 'a face-up card as hand')
    await r(p0, { type: 'swap', hand: 1, faceUp: 43 }, 'NOT_FACE_UP', "the other's face-up card")
    await r(p0, { type: 'swap', hand: 1, faceUp: 2 }, 'NOT_FACE_UP', 'a hand card as face-up')
    await r(p0, { type: 'swap', hand: 1, faceUp: 0 }, 'NOT_FACE_UP', 'a face-down card')
    await r(p0, { type: 'swap', hand: 60, faceUp: 30 }, 'BAD_MOVE', 'a second-deck card')
    // Seat 0 declares ready: it may swap no more, nor be ready twice.
    const v2 = must(await p0.send('game:move', move(t.code, v, { type: 'ready' }))).version
    for (const m of [{ type: 'swap', hand: 1, faceUp: 30 }, { type: 'ready' }]) {
      await refusedUnchanged(
        srv,
        t.code,
        () => p0.rawAck('game:move', move(t.code, v2, m)),
        'ALREADY_READY',
        `${m.type} after ready`,
      )
    }
  })

  it('[I-6][I-7][I-11][I-12] play phase: NOT_YOUR_TURN, PILE_EMPTY, NOT_YOUR_CARD, RANK_TOO_LOW, …', async () => {
    const t = await playTable(srv)
    const [p0, p1] = t.players as [Client, Client]
    let v = t.version
    const r = (c: Client, m: unknown, codes: string | string[], label: string) =>
      refusedUnchanged(srv, t.code, () => c.rawAck('game:move', move(t.code, v, m)), codes, label)
    await r(p0, { type: 'play', cards: [11] }, 'NOT_YOUR_TURN', 'seat 0 plays on seat 1’s turn')
    await r(p0, { type: 'pickup' }, 'NOT_YOUR_TURN', 'seat 0 picks up on seat 1’s turn')
    await r(p1, { type: 'pickup' }, 'PILE_EMPTY', 'pick up an empty pile')
    await r(p1, { type: 'play', cards: [1] }, 'NOT_YOUR_CARD', 'a card of the other hand')
    await r(p1, { type: 'play', cards: [0] }, 'NOT_YOUR_CARD', 'its own face-down card')
    await r(p1, { type: 'play', cards: [60] }, 'BAD_MOVE', 'a second-deck card')
    await r(p1, { type: 'play', cards: [3, 3] }, 'DUPLICATE_CARD', 'the same card twice')
    await r(p1, { type: 'play', cards: [3, 7] }, 'NOT_EQUAL_RANKS', '5C and 9C together')
    await r(p1, { type: 'play', cards: [3, 43] }, 'MIXED_SOURCES', 'hand and face-up together')
    await r(p1, { type: 'play', cards: [43] }, 'HAND_FIRST', 'face-up while the hand has cards')
    await r(p1, { type: 'swap', hand: 3, faceUp: 43 }, 'WRONG_PHASE', 'a swap in the play')
    await r(p1, { type: 'ready' }, 'WRONG_PHASE', 'ready in the play')
    // A duel move on an Idiot table is not a move of this game.
    for (const m of [{ type: 'discard', pile: 0 }, { type: 'deal' }, { type: 'undo' }]) {
      const e = await r(p1, m, 'BAD_REQUEST', `duel move ${m.type}`)
      expect(e.message).toContain('idiot')
    }
    // Seat 1 plays 5C; now a 3 is too low for seat 0.
    v = must(await p1.send('game:move', move(t.code, v, { type: 'play', cards: [3] }))).version
    await r(p0, { type: 'play', cards: [1] }, 'RANK_TOO_LOW', '3C on 5C')
    await r(p0, { type: 'play', cards: [1, 2] }, 'NOT_EQUAL_RANKS', '3C and 4C')
    await r(p1, { type: 'play', cards: [16] }, 'NOT_YOUR_TURN', 'seat 1 again')
  })

  it('[I-14] a move at a table that is not playing → NOT_PLAYING (before the start, after the end)', async () => {
    const t = await idiotTable(srv, 2)
    await refusedUnchanged(
      srv,
      t.code,
      () => t.players[1]!.rawAck('game:move', move(t.code, t.version, { type: 'ready' })),
      'NOT_PLAYING',
      'before the start',
    )
    const started = must(
      await t.players[0]!.send('table:start', { table: t.code, version: t.version }),
    )
    const end = await driveIdiot(t.players, t.code, started.version, { seed: 'bad-input-end' })
    expect(end.table.status).toBe('over')
    for (const c of t.players) {
      await refusedUnchanged(
        srv,
        t.code,
        () => c.rawAck('game:move', move(t.code, end.table.version, { type: 'pickup' })),
        'NOT_PLAYING',
        'after the end',
      )
    }
  })

  it('stale and future versions → STALE_VERSION, FUTURE_VERSION', async () => {
    const t = await playTable(srv)
    const c = t.players[1]!
    const m = { type: 'play', cards: [3] }
    for (const version of [0, 1, t.version - 1]) {
      await refusedUnchanged(
        srv,
        t.code,
        () => c.rawAck('game:move', move(t.code, version, m)),
        'STALE_VERSION',
        `version ${version}`,
      )
    }
    for (const version of [t.version + 1, t.version + 1000, Number.MAX_SAFE_INTEGER]) {
      await refusedUnchanged(
        srv,
        t.code,
        () => c.rawAck('game:move', move(t.code, version, m)),
        'FUTURE_VERSION',
        `version ${version}`,
      )
    }
    const host = t.players[0]!
    for (const [event, payload] of [
      ['table:start', { table: t.code, version: t.version + 1 }],
      ['table:remove', { table: t.code, version: t.version + 1, seat: 1 }],
    ] as const) {
      await refusedUnchanged(srv, t.code, () => host.rawAck(event, payload), 'FUTURE_VERSION')
    }
    // A start made before the last player joined is stale: the host had not seen them.
    const w = await idiotTable(srv, 2, { fill: 1 })
    const before = w.version
    const j = must(await (await srv.client()).send('table:join', { table: w.code, name: 'Bo' }))
    expect(j.version).toBe(before + 1)
    await refusedUnchanged(
      srv,
      w.code,
      () => w.players[0]!.rawAck('table:start', { table: w.code, version: before }),
      'STALE_VERSION',
      'start before the join',
    )
  })

  it('[I-7] a replayed command (an accepted move sent again) → STALE_VERSION, applied once', async () => {
    const t = await playTable(srv)
    const c = t.players[1]!
    const payload = move(t.code, t.version, { type: 'play', cards: [3] })
    const ok = must(await c.send('game:move', payload))
    expect(ok.version).toBe(t.version + 1)
    const st = await idiotState(srv, t.code)
    expect(st.pile).toEqual([3])
    for (let i = 0; i < 3; i++) {
      await refusedUnchanged(
        srv,
        t.code,
        () => c.rawAck('game:move', payload),
        'STALE_VERSION',
        `replay ${i}`,
      )
    }
    const after = await idiotState(srv, t.code)
    expect(after.pile).toEqual([3])
    expect(after.moves).toBe(st.moves)
    // Replaying in the swap phase too: a swap sent twice swaps once.
    const s = await swapTable(srv)
    const swap = move(s.code, s.version, { type: 'swap', hand: 1, faceUp: 30 })
    must(await s.players[0]!.send('game:move', swap))
    await refusedUnchanged(
      srv,
      s.code,
      () => s.players[0]!.rawAck('game:move', swap),
      'STALE_VERSION',
      'swap replay',
    )
    expect((await idiotState(srv, s.code)).players[0]!.hand).toEqual([30, 2, 11])
  })

  it('commands to a table one does not sit at, or to no table → NOT_AT_TABLE; join, watch, reclaim of no table → NO_SUCH_TABLE', async () => {
    const t = await playTable(srv)
    const o = t.outsider
    const v = t.version
    const atTable: [ClientEvent, unknown][] = [
      ['table:leave', { table: t.code }],
      ['table:start', { table: t.code, version: v }],
      ['table:remove', { table: t.code, version: v, seat: 1 }],
      ['table:sync', { table: t.code }],
      ['game:move', move(t.code, v, { type: 'play', cards: [3] })],
      ['game:move', move(t.code, v, { type: 'pickup' })],
    ]
    for (const [event, payload] of atTable) {
      await refusedUnchanged(srv, t.code, () => o.rawAck(event, payload), 'NOT_AT_TABLE', event)
    }
    // Lower case names the same table (codes are case-blind): still not one's table.
    await refusedUnchanged(
      srv,
      t.code,
      () => o.rawAck('table:sync', { table: t.code.toLowerCase() }),
      'NOT_AT_TABLE',
    )
    // Only join, watch and reclaim look a code up (and count against the lookup limit); any
    // other command on a table one is not at gets the same answer whether the table exists or
    // not (issue 13: codes cannot be scanned through commands).
    const lookups: [ClientEvent, unknown][] = [
      ['table:join', { table: NO_TABLE, name: 'Eve' }],
      ['table:watch', { table: NO_TABLE }],
      ['table:reclaim', { table: NO_TABLE, token: t.tokens[1] }],
    ]
    const commands: [ClientEvent, unknown][] = [
      ['table:leave', { table: NO_TABLE }],
      ['table:start', { table: NO_TABLE, version: 1 }],
      ['table:remove', { table: NO_TABLE, version: 1, seat: 1 }],
      ['table:sync', { table: NO_TABLE }],
      ['game:move', move(NO_TABLE, v, { type: 'play', cards: [3] })],
    ]
    for (const c of [t.players[1]!, o]) {
      for (const [event, payload] of lookups) {
        await refusedUnchanged(srv, t.code, () => c.rawAck(event, payload), 'NO_SUCH_TABLE', event)
      }
      for (const [event, payload] of commands) {
        await refusedUnchanged(srv, t.code, () => c.rawAck(event, payload), 'NOT_AT_TABLE', event)
      }
    }
    expect(await srv.app.store.load(NO_TABLE)).toBeNull()
  })

  it('a spectator cannot act: SPECTATOR (and ALREADY_AT_TABLE for joining)', async () => {
    const t = await playTable(srv)
    const w = t.watcher
    const v = t.version
    const acts: [ClientEvent, unknown][] = [
      ['table:start', { table: t.code, version: v }],
      ['table:remove', { table: t.code, version: v, seat: 1 }],
      ['table:remove', { table: t.code, version: v, seat: 0 }],
      ['game:move', move(t.code, v, { type: 'play', cards: [3] })],
      ['game:move', move(t.code, v, { type: 'pickup' })],
      ['game:move', move(t.code, v + 5, { type: 'pickup' })],
      ['game:move', move(t.code, 0, { type: 'ready' })],
    ]
    for (const [event, payload] of acts) {
      await refusedUnchanged(srv, t.code, () => w.rawAck(event, payload), 'SPECTATOR', event)
    }
    await refusedUnchanged(
      srv,
      t.code,
      () => w.rawAck('table:join', { table: t.code, name: 'Eve' }),
      'ALREADY_AT_TABLE',
    )
    await refusedUnchanged(
      srv,
      t.code,
      () => w.rawAck('table:watch', { table: t.code }),
      'ALREADY_AT_TABLE',
    )
    await refusedUnchanged(
      srv,
      t.code,
      () => w.rawAck('table:reclaim', { table: t.code, token: WRONG_TOKEN }),
      'BAD_TOKEN',
    )
  })

  it('the host alone starts and removes: NOT_HOST; SEATS_NOT_FILLED, SEAT_EMPTY, PLAYER_PRESENT, GAME_IN_PROGRESS', async () => {
    const w = await idiotTable(srv, 3, { fill: 2 })
    const [host, guest] = w.players as [Client, Client]
    const v = w.version
    await refusedUnchanged(
      srv,
      w.code,
      () => guest.rawAck('table:start', { table: w.code, version: v }),
      'NOT_HOST',
      'guest starts',
    )
    await refusedUnchanged(
      srv,
      w.code,
      () => guest.rawAck('table:remove', { table: w.code, version: v, seat: 0 }),
      'NOT_HOST',
      'guest removes the host',
    )
    await refusedUnchanged(
      srv,
      w.code,
      () => host.rawAck('table:start', { table: w.code, version: v }),
      'SEATS_NOT_FILLED',
      'one seat open',
    )
    await refusedUnchanged(
      srv,
      w.code,
      () => host.rawAck('table:remove', { table: w.code, version: v, seat: 2 }),
      'SEAT_EMPTY',
      'remove an open seat',
    )
    await refusedUnchanged(
      srv,
      w.code,
      () => host.rawAck('table:remove', { table: w.code, version: v, seat: 3 }),
      'SEAT_EMPTY',
      'remove a seat the table does not have',
    )
    await refusedUnchanged(
      srv,
      w.code,
      () => host.rawAck('table:remove', { table: w.code, version: v, seat: 1 }),
      'PLAYER_PRESENT',
      'remove a connected player',
    )
    await refusedUnchanged(
      srv,
      w.code,
      () => host.rawAck('table:remove', { table: w.code, version: v, seat: 0 }),
      ['NOT_HOST', 'CANNOT_REMOVE_SELF'],
      'the host removes themselves',
    )
    const t = await playTable(srv)
    await refusedUnchanged(
      srv,
      t.code,
      () => t.players[0]!.rawAck('table:start', { table: t.code, version: t.version }),
      'GAME_IN_PROGRESS',
    )
    await refusedUnchanged(
      srv,
      t.code,
      () => t.players[1]!.rawAck('table:start', { table: t.code, version: t.version }),
      'NOT_HOST',
    )
  })

  it('joining: TABLE_FULL, ALREADY_AT_TABLE, SPECTATORS_OFF; reclaiming: BAD_TOKEN, malformed token BAD_REQUEST', async () => {
    const t = await playTable(srv)
    const code = t.code
    await refusedUnchanged(
      srv,
      code,
      () => t.outsider.rawAck('table:join', { table: code, name: 'Eve' }),
      'TABLE_FULL',
    )
    await refusedUnchanged(
      srv,
      code,
      () => t.players[1]!.rawAck('table:join', { table: code, name: 'Bo again' }),
      'ALREADY_AT_TABLE',
    )
    // A waiting table with an open seat: a seated player cannot take a second seat.
    const w = await idiotTable(srv, 3, { fill: 2 })
    await refusedUnchanged(
      srv,
      w.code,
      () => w.players[1]!.rawAck('table:join', { table: w.code, name: 'Twice' }),
      'ALREADY_AT_TABLE',
    )
    const closed = await idiotTable(srv, 2, { spectators: false })
    await refusedUnchanged(
      srv,
      closed.code,
      () => closed.outsider.rawAck('table:watch', { table: closed.code }),
      'SPECTATORS_OFF',
    )
    const tokenOfOther = t.tokens[0]!
    for (const token of [
      WRONG_TOKEN,
      `${tokenOfOther.slice(0, 42)}${tokenOfOther[42] === 'A' ? 'B' : 'A'}`,
      w.tokens[0]!,
    ]) {
      await refusedUnchanged(
        srv,
        code,
        () => t.outsider.rawAck('table:reclaim', { table: code, token }),
        'BAD_TOKEN',
        `token ${token.slice(0, 6)}…`,
      )
    }
    for (const token of [
      '',
      'short',
      tokenOfOther.slice(1),
      `${tokenOfOther} `,
      `${tokenOfOther}=`,
      42,
    ]) {
      await refusedUnchanged(
        srv,
        code,
        () => t.outsider.rawAck('table:reclaim', { table: code, token }),
        'BAD_REQUEST',
        `token ${JSON.stringify(token).slice(0, 8)}`,
      )
    }
    // One player reclaiming another player's seat is refused too.
    await refusedUnchanged(
      srv,
      code,
      () => t.players[1]!.rawAck('table:reclaim', { table: code, token: tokenOfOther }),
      'ALREADY_AT_TABLE',
    )
  })

  it('fixed deals: BAD_DEAL for a deck that cannot be dealt; TEST_DEALS_OFF on a server without test deals', async () => {
    const t = await idiotTable(srv, 2)
    const host = t.players[0]!
    const deck = fullDeck(1)
    const bad: [string, number[]][] = [
      ['ten cards', deck.slice(0, 10)],
      ['a repeated card', [...deck.slice(0, 51), 0]],
      ['a second-deck card', [...deck.slice(0, 51), 60]],
      ['two decks', fullDeck(2)],
    ]
    for (const [what, d] of bad) {
      await refusedUnchanged(
        srv,
        t.code,
        () => host.rawAck('table:start', { table: t.code, version: t.version, deal: { deck: d } }),
        'BAD_DEAL',
        what,
      )
    }
    const off = await startServer({ LOG_LEVEL: 'silent', KORTBORD_TEST_DEALS: '0' })
    try {
      expect(off.config.testDeals).toBe(false)
      const o = await idiotTable(off, 2)
      for (const deal of [{ seed: 'fixed' }, { deck: designedDeck() }]) {
        await refusedUnchanged(
          off,
          o.code,
          () => o.players[0]!.rawAck('table:start', { table: o.code, version: o.version, deal }),
          'TEST_DEALS_OFF',
          JSON.stringify(deal).slice(0, 12),
        )
      }
      // Rule checks still come first: a guest's fixed deal is NOT_HOST.
      await refusedUnchanged(
        off,
        o.code,
        () =>
          o.players[1]!.rawAck('table:start', {
            table: o.code,
            version: o.version,
            deal: { seed: 'x' },
          }),
        'NOT_HOST',
      )
      const ok = must(
        await o.players[0]!.send('table:start', { table: o.code, version: o.version }),
      )
      expect(ok.version).toBe(o.version + 1)
    } finally {
      await off.stop()
    }
  })

  it('[A-10] a duel table refuses Idiot moves (BAD_REQUEST) and the engine’s refusals pass through', async () => {
    const host = await srv.client()
    const created = must(
      await host.send('table:create', {
        game: 'duel',
        name: 'Astrid',
        options: { games: 1, mode: 'alternating' },
      }),
    )
    const code = created.table as string
    const guest = await srv.client()
    const j = must(await guest.send('table:join', { table: code, name: 'Bo' }))
    const v = must(
      await host.send('table:start', { table: code, version: j.version, deal: { seed: 'duel' } }),
    ).version
    const r = (c: Client, m: unknown, codes: string, label: string) =>
      refusedUnchanged(srv, code, () => c.rawAck('game:move', move(code, v, m)), codes, label)
    for (const m of [{ type: 'pickup' }, { type: 'ready' }, { type: 'play', cards: [1] }]) {
      const e = await r(host, m, 'BAD_REQUEST', `idiot move ${m.type}`)
      expect(e.message).toContain('duel')
    }
    await r(guest, { type: 'deal' }, 'NOT_YOUR_TURN', 'alternating: seat 1 waits')
    await r(host, { type: 'discard', pile: 7 }, 'BAD_PILE', 'pile 7 of 4')
    await r(host, { type: 'move', from: 0, to: 0 }, 'SAME_PILE', 'a move onto itself')
    await r(host, { type: 'undo' }, 'UNDO_NOT_ALLOWED', 'undo at a table without undo')
    await r(host, { type: 'finish' }, 'STOCK_NOT_EMPTY', 'finish with a stock')
  })
})

// ---------------------------------------------------------------------------------------------

describe('handshake and rate limit', () => {
  it('a handshake with the wrong protocol version fails with PROTOCOL_MISMATCH', async () => {
    for (const protocol of [999, 0, 2, -1, '1'] as unknown as number[]) {
      const c = new Client(srv.url, { protocol })
      try {
        const e = (await c.connected().then(
          () => null,
          (err: unknown) => err,
        )) as (Error & { data?: WireError }) | null
        expect(e, `protocol ${JSON.stringify(protocol)}`).toBeInstanceOf(Error)
        expect(e!.message).toBe('PROTOCOL_MISMATCH')
        expect(e!.data?.code).toBe('PROTOCOL_MISMATCH')
        expect(e!.data?.message).toMatch(/protocol 1/)
        expect(c.socket.connected).toBe(false)
      } finally {
        c.close()
      }
    }
    const ok = await srv.client()
    must(await ok.send('table:create', { game: 'idiot', name: 'Eve', options: { seats: 2 } }))
  })

  it('a flood is RATE_LIMITED, then disconnected after enough strikes; another client is unaffected', async () => {
    const logs: string[] = []
    const limited = await startServer(
      { LOG_LEVEL: 'warn', RATE_BURST: '5', RATE_PER_SECOND: '1', RATE_STRIKES: '5' },
      { logs },
    )
    try {
      const host = await limited.client()
      const { code } = await createIdiot(host)
      const flooder = await limited.client()
      must(await flooder.send('table:watch', { table: code }))
      const before = await fingerprint(limited, code)
      const flooderId = flooder.socket.id
      // Within the burst (5, one spent on the watch) every message is served.
      for (let i = 0; i < 3; i++) must(await flooder.send('table:sync', { table: code }))
      const gone = disconnected(flooder)
      const acks = await Promise.allSettled(
        Array.from({ length: 30 }, () => flooder.rawAck('table:sync', { table: code }, 1_500)),
      )
      const answered = acks.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []))
      const rateLimited = answered.filter((a) => !a.ok && a.error.code === 'RATE_LIMITED')
      expect(rateLimited.length).toBeGreaterThan(0)
      for (const a of rateLimited) expectRefusal(a, 'RATE_LIMITED')
      // After RATE_STRIKES refusals the socket is dropped: the rest is never answered.
      expect(answered.length).toBeLessThan(30)
      expect(await gone).toBe('io server disconnect')
      // Unknown events count the same; those already read when the socket is dropped are
      // refused, but the warning is written once per connection, not once per message.
      const junk = await limited.client()
      const dropped = disconnected(junk)
      const junkId = junk.socket.id
      for (let i = 0; i < 500; i++) junk.raw(`junk${i}`, 'x')
      expect(await dropped).toBe('io server disconnect')
      await new Promise((r) => setTimeout(r, 300))
      const warned = logs.filter((l) => l.includes('rate limit: disconnecting'))
      expect(warned.map((l) => JSON.parse(l).socket)).toEqual([flooderId, junkId])
      // The flooder was a spectator: presence, not state: its leaving changes nothing stored.
      expect(await fingerprint(limited, code)).toEqual(before)
      await vi.waitFor(() => expect(limited.app.presence.total(code)).toBe(0))
      // The host's own bucket is untouched.
      must(await host.send('table:sync', { table: code }))
      const other = await limited.client()
      must(await other.send('table:create', { game: 'idiot', name: 'Eve', options: { seats: 2 } }))
    } finally {
      await limited.stop()
    }
  })
})

// ---------------------------------------------------------------------------------------------

describe('concurrency: two commands at once, exactly one applied', () => {
  it('[I-6] the same socket sends the same move twice at once: one ok, one STALE_VERSION', async () => {
    const t = await playTable(srv)
    const c = t.players[1]!
    const payload = move(t.code, t.version, { type: 'play', cards: [3] })
    const before = await idiotState(srv, t.code)
    const acks = await Promise.all([c.send('game:move', payload), c.send('game:move', payload)])
    expect(acks.filter((a) => a.ok)).toHaveLength(1)
    expectRefusal(acks.find((a) => !a.ok)!, 'STALE_VERSION')
    const tbl = await tableOf(srv, t.code)
    expect(tbl.version).toBe(t.version + 1)
    const after = tbl.snapshot().state as IdiotState
    expect(after.moves).toBe(before.moves + 1)
    expect(after.pile).toEqual([3])
    // In the swap phase too: the same swap twice at once swaps once.
    const s = await swapTable(srv)
    const swap = move(s.code, s.version, { type: 'swap', hand: 1, faceUp: 30 })
    const p0 = s.players[0]!
    const two = await Promise.all([p0.send('game:move', swap), p0.send('game:move', swap)])
    expect(two.filter((a) => a.ok)).toHaveLength(1)
    expectRefusal(two.find((a) => !a.ok)!, 'STALE_VERSION')
    expect((await idiotState(srv, s.code)).players[0]!.hand).toEqual([30, 2, 11])
  })

  it('[I-4] swap phase: two players’ commands on the same version are each applied exactly once', async () => {
    const s = await swapTable(srv)
    const v = s.version
    const [p0, p1] = s.players as [Client, Client]
    const moves: [number, IdiotMove][] = [
      [0, { type: 'swap', hand: 1, faceUp: 30 }],
      [1, { type: 'swap', hand: 3, faceUp: 43 }],
    ]
    const acks = await Promise.all(
      moves.map(([seat, m]) => s.players[seat]!.send('game:move', move(s.code, v, m))),
    )
    expect(acks.every((a) => a.ok)).toBe(true)
    // The result is the engine's, whichever order the server took them in.
    let expected = idiot.setup({}, 2, { deck: designedDeck() })
    for (const [seat, m] of moves) {
      const r = idiot.apply(expected, seat, m)
      if (!r.ok) throw new Error(r.error.code)
      expected = r.value
    }
    const got = await idiotState(srv, s.code)
    expect(got.players).toEqual(expected.players)
    expect(got.moves).toBe(2)
    expect((await tableOf(srv, s.code)).version).toBe(v + 2)
    // Both ready at once, on the same (now old) version: both apply, the play starts once.
    const both = await Promise.all([
      p0.send('game:move', move(s.code, v + 2, { type: 'ready' })),
      p1.send('game:move', move(s.code, v + 2, { type: 'ready' })),
    ])
    expect(both.every((a) => a.ok)).toBe(true)
    const st = await idiotState(srv, s.code)
    expect(st.phase).toBe('play')
    expect(st.moves).toBe(4)
    expect(st.recent.filter((e) => e.t === 'start')).toHaveLength(1)
  })

  it('[I-6] play phase: the player in turn and another race on one version: exactly one is applied', async () => {
    const t = await playTable(srv)
    const [p0, p1] = t.players as [Client, Client]
    const acks = await Promise.all([
      p0.send('game:move', move(t.code, t.version, { type: 'play', cards: [11] })),
      p1.send('game:move', move(t.code, t.version, { type: 'play', cards: [3] })),
    ])
    expect(acks[1]!.ok).toBe(true)
    expectRefusal(acks[0]!, ['NOT_YOUR_TURN', 'STALE_VERSION'])
    const st = await idiotState(srv, t.code)
    expect(st.pile).toEqual([3])
    expect((await tableOf(srv, t.code)).version).toBe(t.version + 1)
    // Both tabs of one player (the second reclaimed the seat) send the same move at once.
    const tab2 = await srv.client()
    const rec = must(await tab2.send('table:reclaim', { table: t.code, token: t.tokens[0]! }))
    expect(rec.seat).toBe(0)
    const payload = move(t.code, rec.version, { type: 'play', cards: [11] })
    const tabs = await Promise.all([p0.send('game:move', payload), tab2.send('game:move', payload)])
    expect(tabs[1]!.ok).toBe(true)
    expectRefusal(tabs[0]!, 'NOT_AT_TABLE')
    expect((await idiotState(srv, t.code)).pile).toEqual([3, 11])
  })

  it('[I-16] the host double-clicks start: exactly one game starts', async () => {
    const t = await idiotTable(srv, 2)
    const host = t.players[0]!
    const payload = { table: t.code, version: t.version }
    const acks = await Promise.all([
      host.send('table:start', payload),
      host.send('table:start', payload),
    ])
    expect(acks.filter((a) => a.ok)).toHaveLength(1)
    expectRefusal(acks.find((a) => !a.ok)!, ['STALE_VERSION', 'GAME_IN_PROGRESS'])
    const r = (await tableOf(srv, t.code)).snapshot()
    expect(r.gameNo).toBe(1)
    expect(r.version).toBe(t.version + 1)
    expect(r.log.filter((e) => e.t === 'started')).toHaveLength(1)
    // And for the next game (I-16): one more, not two.
    const end = await driveIdiot(t.players, t.code, r.version, { seed: 'double-click' })
    await host.atVersion(t.code, end.table.version)
    const next = { table: t.code, version: end.table.version }
    const again = await Promise.all([
      host.send('table:start', next),
      host.send('table:start', next),
    ])
    expect(again.filter((a) => a.ok)).toHaveLength(1)
    expect((await tableOf(srv, t.code)).snapshot().gameNo).toBe(2)
  })

  it('two clients join the last seat at once: exactly one gets it, the other TABLE_FULL', async () => {
    const w = await idiotTable(srv, 3, { fill: 2 })
    const a = await srv.client()
    const b = await srv.client()
    const acks = await Promise.all([
      a.send('table:join', { table: w.code, name: 'Eve' }),
      b.send('table:join', { table: w.code, name: 'Frej' }),
    ])
    expect(acks.filter((x) => x.ok)).toHaveLength(1)
    expectRefusal(acks.find((x) => !x.ok)!, 'TABLE_FULL')
    const r = (await tableOf(srv, w.code)).snapshot()
    expect(r.seats.filter((s) => s.name !== null)).toHaveLength(3)
  })

  it('concurrent creates cannot take one connection past MAX_TABLES_PER_CONNECTION', async () => {
    const limit = srv.config.maxTablesPerConnection
    const c = await srv.client()
    const acks = await Promise.all(
      Array.from({ length: limit * 2 + 4 }, (_, i) =>
        c.send('table:create', { game: 'idiot', name: `P${i}`, options: { seats: 2 } }),
      ),
    )
    for (const a of acks) if (!a.ok) expectRefusal(a, ['BAD_REQUEST', 'TOO_MANY_TABLES'])
    const held = srv.app.io.sockets.sockets.get(c.socket.id!)!.data.tables.size
    expect({ created: acks.filter((a) => a.ok).length, held }).toEqual({
      created: limit,
      held: limit,
    })
  })

  it('a create racing its creator’s disconnect leaves no ghost host holding seat 0', async () => {
    class SlowStore extends MemoryStore {
      override async save(
        r: TableRecord,
        expected: number | null,
        effects?: RecordEffects,
      ): Promise<void> {
        await new Promise((res) => setTimeout(res, 80))
        return super.save(r, expected, effects)
      }
    }
    const slow = await startServer({ LOG_LEVEL: 'silent' }, { store: new SlowStore() })
    try {
      const c = await connect(slow.url)
      const id = c.socket.id!
      c.raw('table:create', { game: 'idiot', name: 'Ghost', options: { seats: 2 } }, () => {})
      await new Promise((r) => setTimeout(r, 20))
      c.close()
      await new Promise((r) => setTimeout(r, 300))
      expect(slow.app.io.engine.clientsCount).toBe(0)
      // Whatever became of the table, the dead connection holds no seat: seat 0 is in its grace
      // period like any disconnected player's, so it can be reclaimed, removed or expire.
      for (const t of slow.app.hub.all()) {
        expect(t.memberIds()).not.toContain(id)
        expect(t.snapshot().seats[0]).toMatchObject({ connected: false })
        expect(t.snapshot().seats[0]!.graceUntil).not.toBeNull()
      }
    } finally {
      await slow.stop()
    }
  })
})

// ---------------------------------------------------------------------------------------------

const UNKNOWN_NAMES = ['table:destroy', 'game:undo', 'admin', 'constructor', '__proto__', '']
const KEYS = [
  'table',
  'version',
  'move',
  'seat',
  'name',
  'token',
  'deal',
  'game',
  'options',
  'spectators',
  'type',
  'cards',
  'hand',
  'faceUp',
  'pile',
  'from',
  'to',
  'seed',
  'deck',
  'seats',
  'turnSeconds',
  '__proto__',
  'constructor',
  'prototype',
  'x',
]
const MOVE_TYPES: unknown[] = [
  'swap',
  'ready',
  'play',
  'pickup',
  'discard',
  'move',
  'deal',
  'undo',
  'finish',
  'fly',
  '',
  7,
  null,
]

interface FuzzContext {
  code: string
  version: number
}

function fuzzString(rng: Rng, ctx: FuzzContext): string {
  const fixed = [
    '',
    ' ',
    ctx.code,
    ctx.code.toLowerCase(),
    ` ${ctx.code} `,
    NO_TABLE,
    'idiot',
    'duel',
    'play',
    'pickup',
    '5C',
    'Eve',
    '💥',
    '\u0000',
    '\u202e',
    WRONG_TOKEN,
    '__proto__',
    'x'.repeat(100),
  ]
  if (rng.float() < 0.7) return rng.pick(fixed)
  const n = rng.int(12)
  let s = ''
  for (let i = 0; i < n; i++) s += String.fromCharCode(rng.int(0x3000))
  return s
}

function fuzzNumber(rng: Rng, ctx: FuzzContext): number {
  const fixed = [
    0,
    1,
    -1,
    2,
    3,
    4,
    51,
    52,
    103,
    104,
    1.5,
    -0.5,
    1e21,
    -1e21,
    Number.MAX_SAFE_INTEGER,
    2 ** 53 + 2,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    ctx.version,
    ctx.version - 1,
    ctx.version + 1,
  ]
  return rng.float() < 0.6 ? rng.pick(fixed) : rng.int(120) - 10
}

function fuzzValue(rng: Rng, ctx: FuzzContext, depth = 0): unknown {
  switch (rng.int(depth > 2 ? 5 : 8)) {
    case 0:
      return null
    case 1:
      return rng.float() < 0.5
    case 2:
    case 3:
      return fuzzNumber(rng, ctx)
    case 4:
      return fuzzString(rng, ctx)
    case 5:
      return Array.from({ length: rng.int(5) }, () => fuzzValue(rng, ctx, depth + 1))
    default: {
      const o: Record<string, unknown> = {}
      for (let i = rng.int(5); i > 0; i--) {
        Object.defineProperty(o, rng.pick(KEYS), {
          value: fuzzValue(rng, ctx, depth + 1),
          enumerable: true,
          configurable: true,
          writable: true,
        })
      }
      return o
    }
  }
}

function fuzzMove(rng: Rng, ctx: FuzzContext): unknown {
  if (rng.float() < 0.1) return fuzzValue(rng, ctx)
  const m: Record<string, unknown> = { type: rng.pick(MOVE_TYPES) }
  const card = () => (rng.float() < 0.9 ? rng.int(56) : fuzzValue(rng, ctx, 3))
  if (rng.float() < 0.6) m.cards = Array.from({ length: 1 + rng.int(3) }, card)
  if (rng.float() < 0.3) m.hand = card()
  if (rng.float() < 0.3) m.faceUp = card()
  if (rng.float() < 0.15) m.pile = rng.int(9)
  if (rng.float() < 0.1) m[rng.pick(KEYS)] = fuzzValue(rng, ctx, 2)
  return m
}

/** A payload the schema accepts, with plausible values: it reaches the table and the engine. */
function wellFormed(rng: Rng, ctx: FuzzContext, event: string, held: readonly Card[]): unknown {
  const table = ctx.code
  const version = rng.pick([
    ctx.version,
    ctx.version,
    ctx.version,
    ctx.version - 1,
    ctx.version + 1,
  ])
  const card = () => (held.length > 0 && rng.float() < 0.6 ? rng.pick(held) : rng.int(52))
  switch (event) {
    case 'table:create':
      return { game: 'idiot', name: 'Fuzz', options: { seats: 2 + rng.int(3) } }
    case 'table:join':
      return { table, name: 'Fuzz' }
    case 'table:reclaim':
      return { table, token: WRONG_TOKEN }
    case 'table:start':
      return { table, version }
    case 'table:remove':
      return { table, version, seat: rng.int(4) }
    case 'game:move': {
      const moves = [
        { type: 'swap', hand: card(), faceUp: card() },
        { type: 'ready' },
        { type: 'play', cards: [card()] },
        { type: 'play', cards: [card(), card()] },
        { type: 'pickup' },
        { type: 'discard', pile: rng.int(8) },
      ]
      return { table, version, move: rng.pick(moves) }
    }
    default:
      return { table }
  }
}

function fuzzPayload(rng: Rng, ctx: FuzzContext, event: string, held: readonly Card[]): unknown {
  const mode = rng.float()
  if (mode < 0.4) return wellFormed(rng, ctx, event, held)
  if (mode < 0.55) return fuzzValue(rng, ctx)
  const p: Record<string, unknown> = {}
  p.table = rng.float() < 0.85 ? ctx.code : fuzzValue(rng, ctx, 2)
  if (rng.float() < 0.8) p.version = rng.float() < 0.7 ? ctx.version : fuzzNumber(rng, ctx)
  if (event === 'game:move' || rng.float() < 0.2) p.move = fuzzMove(rng, ctx)
  if (rng.float() < 0.2) p.name = fuzzString(rng, ctx)
  if (rng.float() < 0.15) p.seat = fuzzNumber(rng, ctx)
  if (rng.float() < 0.1) p.token = fuzzString(rng, ctx)
  if (rng.float() < 0.1) p.deal = fuzzValue(rng, ctx, 1)
  if (rng.float() < 0.1) p.game = rng.pick(['idiot', 'duel', 'poker'])
  if (rng.float() < 0.1) p.options = fuzzValue(rng, ctx, 1)
  // Drop a field now and then.
  const keys = Object.keys(p)
  if (keys.length > 1 && rng.float() < 0.3) {
    const { [rng.pick(keys)]: _gone, ...rest } = p
    return rest
  }
  return p
}

describe('random garbage (seeded fuzz)', () => {
  it('hundreds of random payloads to random events change nothing unless accepted', async () => {
    const seed = process.env.FUZZ_SEED ?? 'bad-input-fuzz-1'
    console.info(`fuzz seed: ${seed} (FUZZ_SEED=${seed} replays it)`)
    const rng = Rng.seeded(seed)
    const t = await idiotTable(srv, 2)
    const started = must(
      await t.players[0]!.send('table:start', { table: t.code, version: t.version }),
    )
    const senders = [...t.players, t.watcher, t.outsider]
    const ctx: FuzzContext = { code: t.code, version: started.version }
    const codes = new Map<string, number>()
    let accepted = 0
    const N = 500
    for (let i = 0; i < N; i++) {
      if (i === N / 2) {
        // The second half in the play phase: whoever is not ready yet declares ready.
        const st = await idiotState(srv, t.code)
        for (const [seat, p] of st.players.entries()) {
          if (p.ready || st.phase !== 'swap') continue
          const v = (await tableOf(srv, t.code)).version
          ctx.version = must(
            await t.players[seat]!.send('game:move', move(t.code, v, { type: 'ready' })),
          ).version
        }
        expect((await idiotState(srv, t.code)).phase).toBe('play')
      }
      // Mostly the players, mostly moves: that is where the rules are.
      const who = rng.float() < 0.7 ? rng.int(t.players.length) : rng.int(senders.length)
      const c = senders[who]!
      const e = rng.float()
      let event: string =
        e < 0.1 ? rng.pick(UNKNOWN_NAMES) : e < 0.5 ? 'game:move' : rng.pick(CLIENT_EVENTS)
      // A player leaving would be a legal command that ends the experiment early.
      if (event === 'table:leave' && who < t.players.length) event = 'table:sync'
      const st = await idiotState(srv, t.code)
      const mine = st.players[who]
      const held = mine ? [...mine.hand, ...mine.row.flatMap((p) => p.faceUp ?? [])] : []
      const payload = fuzzPayload(rng, ctx, event, held)
      const label = `#${i} seat ${who} ${event} ${JSON.stringify(payload)?.slice(0, 300)}`
      const before = await fingerprint(srv, t.code)
      const a = await c.rawAck(event, payload, 3_000)
      if (a.ok) {
        // Only a player can have a game command accepted.
        if (['game:move', 'table:start', 'table:remove'].includes(event))
          expect(who, label).toBeLessThan(t.players.length)
        accepted++
        codes.set('ok', (codes.get('ok') ?? 0) + 1)
        ctx.version = (await tableOf(srv, t.code)).version
        continue
      }
      expectRefusal(a, a.error.code, label)
      expect(a.error.code, label).toMatch(/^[A-Z][A-Z_]+$/)
      expect(a.error.code, label).not.toBe('INTERNAL')
      codes.set(a.error.code, (codes.get(a.error.code) ?? 0) + 1)
      expect(await fingerprint(srv, t.code), `${label}: refused, yet the table changed`).toEqual(
        before,
      )
    }
    console.info(`fuzz: ${N} commands, ${accepted} accepted`, Object.fromEntries(codes))
    // The fuzzer reached past the schemas into the table and the engine.
    expect(codes.get('BAD_REQUEST')).toBeGreaterThan(0)
    expect(codes.size).toBeGreaterThan(8)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    // The server keeps answering: a legal move, then a fresh client creating a table.
    const st = await idiotState(srv, t.code)
    const seat = st.phase === 'swap' ? st.players.findIndex((p) => !p.ready) : st.turn!
    const legal = idiot.legalMoves(st, seat)
    expect(legal.length).toBeGreaterThan(0)
    const v = (await tableOf(srv, t.code)).version
    must(await t.players[seat]!.send('game:move', move(t.code, v, legal[0]!)))
    const fresh = await srv.client()
    must(await fresh.send('table:create', { game: 'idiot', name: 'Eve', options: { seats: 2 } }))
  })
})
