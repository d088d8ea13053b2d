import {
  type Card,
  fullDeck,
  type IdiotMove,
  type IdiotState,
  type IdiotView,
  idiot,
  Rng,
} from '@kortbord/engine'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../scripts/client.ts'
import { must } from '../scripts/client.ts'
import { driveIdiot } from '../scripts/drive.ts'
import { seatIdiot, startServer, type TestServer } from './harness.ts'

let srv: TestServer
beforeAll(async () => {
  srv = await startServer()
})
afterAll(async () => {
  await srv.stop()
})

/** A host creates an n-seat Idiot table, the others join, a spectator watches. */
async function idiotTable(
  s: TestServer,
  n: number,
  options: { turnSeconds?: number | null } = {},
): Promise<{ code: string; players: Client[]; watcher: Client; version: number }> {
  const { code, players, tokens } = await seatIdiot(s, n, options)
  expect(code).toMatch(/^[A-HJKMNP-Z2-9]{6}$/)
  expect(tokens[0]).toMatch(/^[A-Za-z0-9_-]{43}$/)
  const watcher = await s.client()
  must(await watcher.send('table:watch', { table: code }))
  const version = players.at(-1)!.state(code)!.table.version
  await Promise.all([...players, watcher].map((c) => c.atVersion(code, version)))
  return { code, players, watcher, version }
}

describe('Idiot over the protocol', () => {
  for (const n of [2, 3, 4]) {
    it(`[I-1][I-14] a ${n}-player game from an explicit deck ends as the engine says, every view equal to the engine's`, async () => {
      const { code, players, watcher, version } = await idiotTable(srv, n)
      const deck: Card[] = Rng.seeded(`server-deck-${n}`).shuffle(fullDeck(1))
      const started = must(
        await players[0]!.send('table:start', { table: code, version, deal: { deck } }),
      )
      const moves: { seat: number; move: IdiotMove }[] = []
      const end = await driveIdiot(players, code, started.version, {
        seed: `drive-${n}`,
        onMove: (seat, move) => moves.push({ seat, move: move as IdiotMove }),
      })
      // Replay the same moves on the engine from the same deck: the server is the engine.
      let s: IdiotState = idiot.setup({}, n, { deck })
      for (const { seat, move } of moves) {
        const r = idiot.apply(s, seat, move)
        if (!r.ok) throw new Error(`engine refused ${JSON.stringify(move)}: ${r.error.code}`)
        s = r.value
      }
      expect(s.phase).toBe('over')
      const finalVersion = end.table.version
      await Promise.all([...players, watcher].map((c) => c.atVersion(code, finalVersion)))
      players.forEach((c, seat) => {
        const u = c.state(code)!
        expect(u.seat).toBe(seat)
        expect(u.view).toEqual(idiot.view(s, seat))
      })
      const w = watcher.state(code)!
      expect(w.seat).toBeNull()
      expect(w.view).toEqual(idiot.view(s, 'spectator'))
      expect(w.table.status).toBe('over')
      const loser = (w.view as IdiotView).outcome!.loser
      expect(w.table.tally).toEqual(Array.from({ length: n }, (_, i) => (i === loser ? 1 : 0)))
    })

    it(`[I-5][I-16] ${n} players play two seeded games in a row: the loser deals the next, the tally counts`, async () => {
      const { code, players, watcher, version } = await idiotTable(srv, n)
      let v = version
      const tally = Array.from({ length: n }, () => 0)
      let lastLoser: number | null = null
      for (let game = 1; game <= 2; game++) {
        const started = must(await players[0]!.send('table:start', { table: code, version: v }))
        const first = await watcher.atVersion(code, started.version)
        expect(first.table.gameNo).toBe(game)
        expect(first.table.status).toBe('playing')
        if (lastLoser !== null) expect((first.view as IdiotView).dealer).toBe(lastLoser)
        const end = await driveIdiot(players, code, started.version, { seed: `two-${n}-${game}` })
        const o = (end.view as IdiotView).outcome!
        tally[o.loser]!++
        lastLoser = o.loser
        expect(end.table.tally).toEqual(tally)
        v = end.table.version
        await players[0]!.atVersion(code, v)
      }
      expect(watcher.state(code)!.table.gameNo).toBe(2)
    })
  }

  it('[I-15] a client moving from its own view never needs the state: the move lists agree', async () => {
    const { code, players, version } = await idiotTable(srv, 3)
    const started = must(await players[0]!.send('table:start', { table: code, version }))
    const u = await players[1]!.atVersion(code, started.version)
    const v = u.view as IdiotView
    expect(v.viewer).toBe(1)
    expect(v.players[1]!.hand).toHaveLength(3)
    expect(v.players[0]!.hand).toBeNull()
    expect(v.players[2]!.hand).toBeNull()
    expect(v.players.every((p) => p.row.every((pos) => typeof pos.faceDown === 'boolean'))).toBe(
      true,
    )
  })
})
