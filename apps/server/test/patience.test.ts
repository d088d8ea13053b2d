// Klockan (K-1 … K-8) and Dom Åtta Herrarna (H-1 … H-7) over the real protocol, watched.
import {
  type HerrarnaState,
  type HerrarnaView,
  herrarna,
  type KlockanMove,
  type KlockanState,
  type KlockanView,
  klockan,
  klockanRescueMove,
} from '@kortbord/engine'
import type { TableUpdate } from '@kortbord/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Client, must } from '../scripts/client.ts'
import { startServer, type TestServer } from './harness.ts'

let srv: TestServer
beforeAll(async () => {
  srv = await startServer()
})
afterAll(async () => {
  await srv.stop()
})

/** Every update a client got at `code` from version `from` on, one per version. */
const updatesFrom = (c: Client, code: string, from: number): TableUpdate[] =>
  c.updates.filter((u) => u.table.code === code && u.table.version >= from)

/** Face-down cards: what no view may contain (K-1, H-1: hidden from everyone). */
function klockanHidden(s: KlockanState): Set<number> {
  return new Set(s.piles.flatMap((p) => p.down))
}

describe('Klockan över protokollet', () => {
  it('[K-6][K-3] Klockan för två with a spectator: turns alternate, every view is the engine view, nobody sees a face-down card, the loser is told', async () => {
    const a = await srv.client()
    const created = must(
      await a.send('table:create', {
        game: 'klockan',
        name: 'Greta',
        options: { variant: 'standard', seats: 2 },
      }),
    )
    const code = created.table as string
    const b = await srv.client()
    must(await b.send('table:join', { table: code, name: 'Hugo' }))
    const w = await srv.client()
    const watched = must(await w.send('table:watch', { table: code }))
    const started = must(
      await a.send('table:start', {
        table: code,
        version: watched.version,
        deal: { seed: 'k6-server' },
      }),
    )
    // The engine, replayed beside the server: same deal, same moves.
    let s = klockan.setup({ variant: 'standard', first: 0 }, 2, { seed: 'k6-server' })
    const states = new Map<number, KlockanState>([[started.version as number, s]])
    let version = started.version as number
    const players = [a, b]
    while (s.phase !== 'over') {
      const seat = s.turn!
      // The seat not on turn is refused, and nothing changes.
      const wrong = await players[1 - seat]!.send('game:move', {
        table: code,
        version,
        move: { type: 'turn' },
      })
      expect(wrong).toMatchObject({ ok: false, error: { code: 'NOT_YOUR_TURN' } })
      const r = must(
        await players[seat]!.send('game:move', { table: code, version, move: { type: 'turn' } }),
      )
      const next = klockan.apply(s, seat, { type: 'turn' })
      if (!next.ok) throw new Error(next.error.code)
      s = next.value
      version = r.version as number
      states.set(version, s)
    }
    for (const c of [a, b, w]) await c.atVersion(code, version)
    // Every update each member got is the engine's view of that version, for that viewer.
    for (const [c, viewer] of [
      [a, 0],
      [b, 1],
      [w, 'spectator'],
    ] as const) {
      const got = updatesFrom(c, code, started.version as number)
      expect(got.map((u) => u.table.version)).toEqual([...states.keys()])
      for (const u of got) {
        const st = states.get(u.table.version)!
        expect(u.view).toEqual(klockan.view(st, viewer))
        const hidden = klockanHidden(st)
        const v = u.view as KlockanView
        const shown = [...v.piles.flatMap((p) => p.faceUp), ...(v.last ? [v.last.card] : [])]
        expect(shown.filter((x) => hidden.has(x))).toEqual([])
      }
    }
    const o = klockan.outcome(s)!
    const end = w.state(code)!
    expect(end.table.status).toBe('over')
    expect((end.view as KlockanView).outcome).toEqual(o)
    // K-6: whoever turned the fourth king lost; the tally counts the other's win.
    expect(o.loser).toBe(s.last!.seat)
    expect(end.table.tally[o.winner!]).toBe(1)
    expect(end.table.tally[o.loser!]).toBe(0)
    // The history is told who won (its log has no other word of a Klockan game's end).
    for (const c of [a, b, w]) {
      const log = c.state(code)!.log
      expect(log.filter((e) => e.t === 'ended')).toEqual([
        expect.objectContaining({ t: 'ended', gameNo: 1, winner: o.winner }),
      ])
    }
    // The next game: the other player turns first (a table alternates who starts).
    const again = must(await a.send('table:start', { table: code, version }))
    const u = await a.atVersion(code, again.version as number)
    expect((u.view as KlockanView).turn).toBe(1)
  })

  it('[K-5] the rescue over the protocol: offered to the player, refused to a spectator, then played on', async () => {
    // Find a seed whose game offers the rescue (most do, K-5: 92%).
    let seed = ''
    for (let i = 0; i < 50 && seed === ''; i++) {
      let s = klockan.setup({ variant: 'rescue' }, 1, { seed: `rescue-${i}` })
      while (s.phase === 'turn') {
        const n = klockan.apply(s, 0, { type: 'turn' })
        if (!n.ok) throw new Error(n.error.code)
        s = n.value
      }
      if (s.phase === 'rescue') seed = `rescue-${i}`
    }
    expect(seed).not.toBe('')
    const p = await srv.client()
    const created = must(
      await p.send('table:create', {
        game: 'klockan',
        name: 'Solveig',
        options: { variant: 'rescue' },
      }),
    )
    const code = created.table as string
    const w = await srv.client()
    must(await w.send('table:watch', { table: code }))
    const started = must(await p.send('table:start', { table: code, version: 1, deal: { seed } }))
    let version = started.version as number
    let view = (await p.atVersion(code, version)).view as KlockanView
    while (view.phase === 'turn') {
      version = must(await p.send('game:move', { table: code, version, move: { type: 'turn' } }))
        .version as number
      view = (await p.atVersion(code, version)).view as KlockanView
    }
    expect(view.phase).toBe('rescue')
    const move = klockanRescueMove(view, 'deepest-of-fullest') as KlockanMove
    const refused = await w.send('game:move', { table: code, version, move })
    expect(refused).toMatchObject({ ok: false, error: { code: 'SPECTATOR' } })
    const badPile = await p.send('game:move', {
      table: code,
      version,
      move: { type: 'rescue', pile: 25, depth: 0 },
    })
    expect(badPile.ok).toBe(false)
    version = must(await p.send('game:move', { table: code, version, move })).version as number
    view = (await w.atVersion(code, version)).view as KlockanView
    expect(view.rescueAvailable).toBe(false)
    expect(view.rescue).not.toBeNull()
    while (view.phase === 'turn') {
      version = must(await p.send('game:move', { table: code, version, move: { type: 'turn' } }))
        .version as number
      view = (await w.atVersion(code, version)).view as KlockanView
    }
    expect(view.phase).toBe('over')
    expect(view.outcome?.rescued).toBe(true)
  })

  it('refuses Klockan för två with the rescue, and a move of another game', async () => {
    const c = await srv.client()
    const r = await c.send('table:create', {
      game: 'klockan',
      name: 'Olle',
      options: { variant: 'rescue', seats: 2 },
    })
    expect(r).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } })
    const created = must(await c.send('table:create', { game: 'klockan', name: 'Olle' }))
    const code = created.table as string
    const started = must(await c.send('table:start', { table: code, version: 1 }))
    const wrong = await c.send('game:move', {
      table: code,
      version: started.version as number,
      move: { type: 'step' },
    })
    expect(wrong.ok).toBe(false)
    expect(c.state(code)!.table.version).toBe(started.version)
  })
})

describe('Dom Åtta Herrarna över protokollet', () => {
  it('[H-1][H-7] a whole game step by step with a spectator: every view is the engine view, the stock and reserve stay hidden', async () => {
    const p = await srv.client()
    const created = must(await p.send('table:create', { game: 'herrarna', name: 'Ebba' }))
    const code = created.table as string
    const w = await srv.client()
    must(await w.send('table:watch', { table: code }))
    const started = must(
      await p.send('table:start', { table: code, version: 1, deal: { seed: 'h-server' } }),
    )
    let s: HerrarnaState = herrarna.setup({}, 1, { seed: 'h-server' })
    const states = new Map<number, HerrarnaState>([[started.version as number, s]])
    let version = started.version as number
    while (herrarna.outcome(s) === undefined) {
      const r = must(await p.send('game:move', { table: code, version, move: { type: 'step' } }))
      const next = herrarna.apply(s, 0, { type: 'step' })
      if (!next.ok) throw new Error(next.error.code)
      s = next.value
      version = r.version as number
      states.set(version, s)
    }
    await w.atVersion(code, version)
    await p.atVersion(code, version)
    for (const [c, viewer] of [
      [p, 0],
      [w, 'spectator'],
    ] as const) {
      const got = updatesFrom(c, code, started.version as number)
      expect(got.map((u) => u.table.version)).toEqual([...states.keys()])
      for (const u of got)
        expect(u.view).toEqual(herrarna.view(states.get(u.table.version)!, viewer))
    }
    const end = w.state(code)!
    const v = end.view as HerrarnaView
    expect(end.table.status).toBe('over')
    expect(v.outcome).toEqual(herrarna.outcome(s))
    const won = herrarna.outcome(s)!.won
    expect(end.log.filter((e) => e.t === 'ended')).toEqual([
      expect.objectContaining({ t: 'ended', gameNo: 1, winner: won ? 0 : null }),
    ])
    const after = await p.send('game:move', { table: code, version, move: { type: 'step' } })
    expect(after.ok).toBe(false)
  }, 60_000)
})
