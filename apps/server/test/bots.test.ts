// Issue 7 at the table: bots fill empty seats, and keep a gone player's seat until they return.
import { type IdiotView, idiotLegalMovesFromView } from '@kortbord/engine'
import { BOT_NAMES, botName } from '@kortbord/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { must } from '../scripts/client.ts'
import { createIdiot, startServer, type TestServer } from './harness.ts'

let srv: TestServer
beforeAll(async () => {
  srv = await startServer({ BOT_DELAY_MS: '5', BOT_THINK_MS: '5', GRACE_SECONDS: '0.2' })
})
afterAll(async () => {
  await srv.stop()
})

describe('bots at the table', () => {
  it('[I-1][I-14] one person and three bots (easy, normal, hard) play a game to the end', async () => {
    const me = await srv.client()
    const created = await createIdiot(me, { name: 'Ada', seats: 4 })
    const code = created.code
    let v = created.version
    for (const [seat, level] of [
      [1, 'easy'],
      [2, 'normal'],
      [3, 'hard'],
    ] as const) {
      v = must(await me.send('table:bot', { table: code, version: v, seat, level })).version
    }
    const u0 = await me.atVersion(code, v)
    expect(u0.table.seats.map((s) => s.bot)).toEqual([null, 'easy', 'normal', 'hard'])
    expect(u0.table.seats.every((s) => s.name !== null && !s.away)).toBe(true)
    const started = must(await me.send('table:start', { table: code, version: v }))
    // The person plays the lowest card they can (else picks up); the bots play by themselves.
    let moves = 0
    for (let i = 0; i < 2000; i++) {
      const u = await me.waitFor(code, (x) => {
        const view = x.view as IdiotView
        return (
          x.table.version >= started.version &&
          (view.outcome !== null ||
            (view.phase === 'swap' && !view.players[0]!.ready) ||
            (view.phase === 'play' && view.turn === 0))
        )
      })
      const view = u.view as IdiotView
      if (view.outcome !== null) break
      let move: unknown = { type: 'ready' }
      if (view.phase === 'play') {
        const legal = idiotLegalMovesFromView(view)
        move = legal.find((m) => m.type === 'play') ?? legal.find((m) => m.type === 'pickup')
      }
      const r = await me.send('game:move', {
        table: code,
        version: u.table.version,
        move: move as never,
      })
      if (r.ok) moves++
      else expect(r.error.code).toBe('STALE_VERSION')
    }
    const end = await me.waitFor(code, (x) => (x.view as IdiotView).outcome !== null, 60_000)
    expect(end.table.status).toBe('over')
    expect(moves).toBeGreaterThan(1)
    expect(end.table.tally.reduce((a, b) => a + b, 0)).toBe(1)
  })

  it('a bot keeps the seat of a player who has gone, and steps aside when they come back', async () => {
    const host = await srv.client()
    const created = await createIdiot(host, { name: 'Ada' })
    const code = created.code
    const bo = await srv.client()
    const joined = must(await bo.send('table:join', { table: code, name: 'Bo' }))
    const started = must(await host.send('table:start', { table: code, version: joined.version }))
    // Ada readies; Bo's phone dies and his grace period (0.2 s) runs out.
    must(
      await host.send('game:move', {
        table: code,
        version: started.version,
        move: { type: 'ready' },
      }),
    )
    bo.close()
    const gone = await host.waitFor(code, (u) => u.table.seats[1]!.gone, 5000)
    // Not for a player who is present, and only by the host.
    const present = await host.send('table:bot', {
      table: code,
      version: gone.table.version,
      seat: 0,
      level: 'normal',
    })
    expect(present).toMatchObject({ ok: false, error: { code: 'PLAYER_PRESENT' } })
    const seated = must(
      await host.send('table:bot', {
        table: code,
        version: gone.table.version,
        seat: 1,
        level: 'normal',
      }),
    )
    const botting = await host.waitFor(code, (u) => u.table.seats[1]!.bot === 'normal')
    expect(botting.table.seats[1]).toMatchObject({ name: 'Bo', gone: false, away: false })
    // The bot plays Bo's turns: the game moves on without Bo.
    const moved = await host.waitFor(
      code,
      (u) => (u.view as IdiotView).phase === 'play' && (u.view as IdiotView).players[1]!.ready,
      10_000,
    )
    // Against the version that seated the bot: with a 5 ms pause the bot may already have
    // readied by the time this client looks, so `botting` can be that later version itself.
    expect(moved.table.version).toBeGreaterThan(seated.version)
    // Bo comes back with his token: the bot steps aside, his cards are his again.
    const back = await srv.client()
    must(await back.send('table:reclaim', { table: code, token: joined.token as string }))
    const u = await back.waitFor(code, (x) => x.table.seats[1]!.bot === null)
    expect(u.seat).toBe(1)
    expect(u.table.seats[1]).toMatchObject({ name: 'Bo', connected: true })
    expect((u.view as IdiotView).players[1]!.hand).not.toBeNull()
  })

  it('bots are for Idiot; a duel refuses them', async () => {
    const c = await srv.client()
    const created = must(await c.send('table:create', { game: 'duel', name: 'Ada' }))
    const r = await c.send('table:bot', {
      table: created.table as string,
      version: created.version,
      seat: 1,
      level: 'easy',
    })
    expect(r).toMatchObject({ ok: false, error: { code: 'NOT_FOR_BOTS' } })
  })
})

describe('bots’ names', () => {
  it('read alike in every language of the page, never the name of someone at the table', () => {
    expect(botName(['Bo', null, null, null])).toBe('Alva')
    expect(botName(['alva', 'Sixten', null, null])).toBe('Ebba')
    expect(botName([...BOT_NAMES])).toBe('Alva 2')
    for (const n of BOT_NAMES) expect(n).toMatch(/^\p{Lu}\p{Ll}+$/u)
  })
})
