// localStorage that never throws (private modes, full disks): kortbord keeps the player's name,
// language and seat tokens there, nothing else.
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

/** The codes of the tables this browser holds a seat at (a token), in order of code. */
export function seatedTables(): string[] {
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
