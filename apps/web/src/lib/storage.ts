// localStorage that never throws (private modes, full disks): kortbord keeps the player's name,
// language and seat tokens there (with the game of each seat's table, for the home page's list),
// and bounded lists of its own (contribution.ts, recent-games.ts), nothing else.
import type { GameId } from '@kortbord/protocol/wire'

const PREFIX = 'kortbord.'

export function load(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(PREFIX + key) ?? null
  } catch {
    return null
  }
}

export function save(key: string, value: string | null): void {
  try {
    if (value === null) globalThis.localStorage?.removeItem(PREFIX + key)
    else globalThis.localStorage?.setItem(PREFIX + key, value)
  } catch {
    // Nothing to do: the seat can still be reclaimed in this tab's session.
  }
}

export const tokenKey = (code: string): string => `seat.${code}`
/** The game of a table this browser holds a seat at, noted beside the token. */
export const gameKey = (code: string): string => `game.${code}`

/** Forgets this browser's seat at a table: its token and the game noted beside it. */
export function forgetSeat(code: string): void {
  save(tokenKey(code), null)
  save(gameKey(code), null)
}

export const GAME_IDS: readonly string[] = [
  'idiot',
  'duel',
  'klockan',
  'herrarna',
] satisfies GameId[]

/** A table this browser holds a seat at, and its game and seats where they were noted. */
export interface SeatedTable {
  readonly code: string
  readonly game: GameId | null
  /** The table's seats (Klockan för två, Idioten alone), or null where only the game was noted. */
  readonly seats: number | null
}

/** What gameKey holds: the game, and once the table has been seen its seats ("duel:1"). */
export const gameNote = (game: GameId, seats?: number): string =>
  seats === undefined ? game : `${game}:${seats}`

/** The tables this browser holds a seat at (a token), in order of code. */
export function seatedTables(): SeatedTable[] {
  return seatedCodes().map((code) => {
    const [g = '', n] = (load(gameKey(code)) ?? '').split(':')
    const seats = n !== undefined && /^[1-4]$/.test(n) ? Number(n) : null
    return GAME_IDS.includes(g)
      ? { code, game: g as GameId, seats }
      : { code, game: null, seats: null }
  })
}

function seatedCodes(): string[] {
  const out: string[] = []
  try {
    const store = globalThis.localStorage
    if (!store) return out
    const prefix = PREFIX + tokenKey('')
    for (let i = 0; i < store.length; i++) {
      const k = store.key(i)
      if (k?.startsWith(prefix)) out.push(k.slice(prefix.length))
    }
  } catch {
    // No storage: no tables to go back to.
  }
  return out.filter((c) => /^[A-Z0-9]{6}$/.test(c)).sort()
}

type Entries<T> = [string, T][]

/** A bounded map in one localStorage key, oldest first (a bad or missing value reads empty). */
export function loadEntries<T>(key: string): Entries<T> {
  try {
    const v: unknown = JSON.parse(load(key) ?? '[]')
    return Array.isArray(v)
      ? (v as Entries<T>).filter((e) => Array.isArray(e) && e.length === 2)
      : []
  } catch {
    return []
  }
}

/** Puts `id` last (newest) with `value`, dropping the oldest beyond `max`. */
export function saveEntry<T>(key: string, id: string, value: T, max: number): void {
  const rest = loadEntries<T>(key).filter(([k]) => k !== id)
  rest.push([id, value])
  save(key, JSON.stringify(rest.slice(-max)))
}
