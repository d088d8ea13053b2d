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
