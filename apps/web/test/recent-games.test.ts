// The home page's list of the games this browser played (their replays): noted once per record
// from the table's updates, newest first, bounded, and nothing malformed read back.
import type { TableInfo, TableUpdate } from '@kortbord/protocol/wire'
import { beforeEach, describe, expect, it } from 'vitest'
import { noteRecentGame, RECENT_MAX, recentGames } from '../src/lib/recent-games.ts'
import { installLocalStorage } from './local-storage.ts'

const LETTERS = 'abcdefghjkmnpqrstuvwxyz'
/** A record id (12 of a–z, 2–9) for game n. */
const id = (n: number) => `game${LETTERS[Math.floor(n / 23)]}${LETTERS[n % 23]}zzzzzz`

function update(
  record: string | null,
  me: number | null,
  opts: { game?: string; seats?: number; status?: TableInfo['status'] } = {},
): TableUpdate {
  const table = {
    code: 'ABCDEF',
    game: opts.game ?? 'idiot',
    seats: Array.from({ length: opts.seats ?? 2 }, () => ({ name: 'P' })),
    status: opts.status ?? 'playing',
    fair: { record },
  } as unknown as TableInfo
  return { table, seat: me, view: null, log: [], logAfter: null } as unknown as TableUpdate
}

describe('recent games', () => {
  beforeEach(() => installLocalStorage())

  it('notes a game once, when this browser plays in it, and lists the newest first', () => {
    noteRecentGame(update('abcdefghjkmn', 0), 1000)
    noteRecentGame(update('abcdefghjkmn', 0, { status: 'over' }), 5000)
    noteRecentGame(update('pqrstuvwxyz2', 0, { game: 'duel', seats: 1 }), 2000)
    expect(recentGames()).toEqual([
      { id: 'pqrstuvwxyz2', game: 'duel', seats: 1, at: 2000 },
      { id: 'abcdefghjkmn', game: 'idiot', seats: 2, at: 1000 },
    ])
  })

  it('leaves out what a spectator watched, a table still waiting and a table without records', () => {
    noteRecentGame(update('abcdefghjkmn', null), 1)
    noteRecentGame(update('pqrstuvwxyz2', 0, { status: 'waiting' }), 2)
    noteRecentGame(update(null, 0), 3)
    expect(recentGames()).toEqual([])
  })

  it(`keeps the last ${RECENT_MAX} games only, and reads nothing malformed back`, () => {
    for (let n = 0; n < RECENT_MAX + 5; n++) noteRecentGame(update(id(n), 1), n)
    const kept = recentGames()
    expect(kept).toHaveLength(RECENT_MAX)
    expect(kept[0]!.at).toBe(RECENT_MAX + 4)
    expect(kept.at(-1)!.at).toBe(5)
    localStorage.setItem(
      'kortbord.recent',
      JSON.stringify([
        ['abcdefghjkmn', { game: 'poker', seats: 2, at: 1 }],
        ['../../etc', { game: 'idiot', seats: 2, at: 1 }],
        ['pqrstuvwxyz2', { game: 'idiot', seats: 'two', at: 1 }],
        ['23456789abcd', { game: 'klockan', seats: 2, at: 7 }],
        'junk',
      ]),
    )
    expect(recentGames()).toEqual([{ id: '23456789abcd', game: 'klockan', seats: 2, at: 7 }])
    localStorage.setItem('kortbord.recent', '{not json')
    expect(recentGames()).toEqual([])
  })
})
