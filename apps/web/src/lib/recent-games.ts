// The games this browser played, for the home page's list of replays (issue 14: a player can
// review and verify every game): each record's game, seats and start, noted when its first
// update with a seat comes. Kept in localStorage, bounded; the record itself stays on the server
// (30 days by default) and is only fetched when its replay is opened.
import type { GameId, TableUpdate } from '@kortbord/protocol/wire'
import { GAME_IDS, loadEntries, saveEntry } from './storage.ts'

export interface RecentGame {
  /** The record's id: its replay is /r/<id>. */
  readonly id: string
  readonly game: GameId
  /** Seats at the table: Klockan för två, Idioten alone (playedGameName). */
  readonly seats: number
  /** When this browser first saw the game played (epoch ms). */
  readonly at: number
}

type Noted = Omit<RecentGame, 'id'>

const KEY = 'recent'
/** Games remembered; the oldest are forgotten first. */
export const RECENT_MAX = 20

/** Notes the game an update shows, once, if this browser plays in it. */
export function noteRecentGame(u: TableUpdate, now: number = Date.now()): void {
  const id = u.table.fair?.record
  if (!id || u.seat === null || u.table.status === 'waiting') return
  if (loadEntries<Noted>(KEY).some(([k]) => k === id)) return
  saveEntry<Noted>(
    KEY,
    id,
    { game: u.table.game, seats: u.table.seats.length, at: now },
    RECENT_MAX,
  )
}

/** The games noted, newest first; anything malformed in storage is left out. */
export function recentGames(): RecentGame[] {
  return loadEntries<Noted>(KEY)
    .flatMap(([id, g]) =>
      typeof id === 'string' &&
      /^[a-z2-9]{12}$/.test(id) &&
      typeof g === 'object' &&
      g !== null &&
      GAME_IDS.includes(g.game) &&
      Number.isInteger(g.seats) &&
      Number.isFinite(g.at)
        ? [{ id, game: g.game, seats: g.seats, at: g.at }]
        : [],
    )
    .reverse()
}
