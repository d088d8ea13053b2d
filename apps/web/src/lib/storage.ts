// localStorage that never throws (private modes, full disks): kortbord keeps the player's name,
// language and seat tokens there (with the game of each seat's table, for the home page's list),
// nothing else.
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

const GAME_IDS: readonly string[] = ['idiot', 'duel', 'klockan', 'herrarna'] satisfies GameId[]

/** A table this browser holds a seat at, and its game where it was noted. */
export interface SeatedTable {
  readonly code: string
  readonly game: GameId | null
}

/** The tables this browser holds a seat at (a token), in order of code. */
export function seatedTables(): SeatedTable[] {
  return seatedCodes().map((code) => {
    const g = load(gameKey(code))
    return { code, game: g !== null && GAME_IDS.includes(g) ? (g as GameId) : null }
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
