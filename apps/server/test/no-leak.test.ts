// I-15 and A-15 over the wire: everything every client receives during whole games is recorded,
// and checked against the server's own history of states.
import {
  type Card,
  type DuelState,
  duel,
  formatCard,
  fullDeck,
  type IdiotState,
  type IdiotView,
  idiot,
  idiotLegalMovesFromView,
  type Viewer,
} from '@kortbord/engine'
import type { TableUpdate } from '@kortbord/protocol'
import { describe, expect, it } from 'vitest'
import { type Client, must } from '../scripts/client.ts'
import { driveDuel, driveIdiot } from '../scripts/drive.ts'
import { MemoryStore, type RecordEffects, type TableRecord } from '../src/store.ts'
import { startServer } from './harness.ts'

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

/** What is public in an Idiot state (I-15): face-up cards, the pile, the burned cards. */
function publicCards(s: IdiotState): Card[] {
  return [
    ...s.players.flatMap((p) => p.row.flatMap((pos) => (pos.faceUp === null ? [] : [pos.faceUp]))),
    ...s.pile,
    ...s.burned,
  ]
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
  const versions = [...history.keys()].sort((a, b) => a - b)
  const known = new Set<Card>()
  let vi = 0
  let checked = 0
  for (const u of updates) {
    // Everything that was public (or in the viewer's hand) up to this version is known.
    while (vi < versions.length && versions[vi]! <= u.table.version) {
      const s = history.get(versions[vi]!)!.state as IdiotState | null
      if (s) {
        for (const c of publicCards(s)) known.add(c)
        if (viewer !== 'spectator') for (const c of s.players[viewer]!.hand) known.add(c)
      }
      vi++
    }
    const rec = history.get(u.table.version)
    expect(rec, `version ${u.table.version} was saved`).toBeDefined()
    const s = rec!.state as IdiotState | null
    if (s) expect(u.view).toEqual(idiot.view(s, viewer))
    const secret = cardsIn(u).filter((c) => !known.has(c))
    expect(secret.map(formatCard), `cards leaked to ${viewer} at v${u.table.version}`).toEqual([])
    checked++
  }
  return checked
}

describe('[I-15][A-15] nobody ever receives a card they may not know', () => {
  for (const n of [2, 3, 4]) {
    it(`[I-15] ${n}-player Idiot: every update, log entry and error of every player and spectator`, async () => {
      const store = new RecordingStore()
      const srv = await startServer({}, { store })
      try {
        const host = await srv.client()
        const code = must(
          await host.send('table:create', {
            game: 'idiot',
            name: 'P0',
            options: { seats: n, turnSeconds: null },
          }),
        ).table as string
        const players: Client[] = [host]
        for (let i = 1; i < n; i++) {
          const c = await srv.client()
          must(await c.send('table:join', { table: code, name: `P${i}` }))
          players.push(c)
        }
        const watcher = await srv.client()
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
        // Issue 14: the game's record is public while the game is played: read it all along.
        const recordId = players[0]!.state(code)!.table.fair.record!
        const duringGame: unknown[] = []
        let playing = true
        const reader = (async () => {
          while (playing) {
            const r = await fetch(`${srv.url}/api/records/${recordId}`)
            if (r.ok) duringGame.push(await r.json())
            await new Promise((res) => setTimeout(res, 30))
          }
        })()
        const end = await driveIdiot(players, code, started.version, {
          seed: `leak-${n}`,
          onMove: () => {
            probes++
          },
        })
        playing = false
        await reader
        // While the game was on, its record named no card and no seed: header only.
        expect(duringGame.length).toBeGreaterThan(2)
        for (const rec of duringGame.slice(0, -1)) {
          expect(cardsIn(rec, new Set([...CARD_KEYS, 'moves', 'deal']))).toEqual([])
          expect(rec).toMatchObject({ deal: null, moves: [] })
          expect(JSON.stringify(rec)).not.toContain('"seed"')
        }
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
        const history = store.history.get(code)!
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

  it('[A-15] Idioten för två: every update is the engine view of its version; no stock card, no game events in the log', async () => {
    const store = new RecordingStore()
    const srv = await startServer({}, { store })
    try {
      for (const sameDeal of [false, true]) {
        const a = await srv.client()
        const code = must(
          await a.send('table:create', {
            game: 'duel',
            name: 'A',
            options: { games: 2, sameDeal, undo: 'both', piles: [4, 5] },
          }),
        ).table as string
        const b = await srv.client()
        must(await b.send('table:join', { table: code, name: 'B' }))
        const w = await srv.client()
        must(await w.send('table:watch', { table: code }))
        const version = b.state(code)!.table.version
        await Promise.all([a, b, w].map((c) => c.atVersion(code, version)))
        const started = must(await a.send('table:start', { table: code, version }))
        await driveDuel([a, b], code, started.version, {
          seed: `leak-duel-${sameDeal}`,
          undoChance: 0.2,
        })
        const history = store.history.get(code)!
        let checked = 0
        for (const [viewer, c] of [
          [0, a],
          [1, b],
          ['spectator', w],
        ] as const) {
          for (const u of c.updates.filter((x) => x.table.code === code)) {
            const s = history.get(u.table.version)!.state as DuelState | null
            if (s) {
              expect(u.view).toEqual(duel.view(s, viewer))
              // No undealt stock card of any game in progress appears anywhere in the view.
              for (const p of [0, 1] as const) {
                const g = s.players[p].current
                const shown = (u.view as unknown as { players: { current: unknown }[] }).players[p]!
                  .current
                if (g && shown && !('hidden' in (shown as object))) {
                  const inView = new Set(cardsIn(shown, ACES_UP_CARD_KEYS))
                  const onTable = new Set([...g.piles.flat(), ...g.discard])
                  for (const c of inView)
                    expect(onTable.has(c), JSON.stringify({ c, shown })).toBe(true)
                }
              }
            }
            expect(u.log.every((e) => e.t !== 'game')).toBe(true)
            checked++
          }
        }
        expect(checked).toBeGreaterThan(30)
      }
    } finally {
      await srv.stop()
    }
  })
})
