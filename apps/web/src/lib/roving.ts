// A list that is one Tab stop (WAI-ARIA's listbox with a roving tabindex): the arrow keys, Home,
// End, Page Up and Page Down move within it, and the option moved to is the one chosen.

/** How far Page Up and Page Down go. */
export const PAGE = 10

/**
 * The option a key moves to from `at` in `options` (in order; `at` need not be one of them: the
 * keys then start from the first), or null when the key is not one of the list's or it would not
 * move. Down and Right go on, Up and Left back: a list read top to bottom, steps left to right.
 */
export function rovingTarget<T>(key: string, options: readonly T[], at: T): T | null {
  if (options.length === 0) return null
  const i = Math.max(0, options.indexOf(at))
  const last = options.length - 1
  const to: Record<string, number> = {
    ArrowDown: i + 1,
    ArrowRight: i + 1,
    ArrowUp: i - 1,
    ArrowLeft: i - 1,
    PageDown: i + PAGE,
    PageUp: i - PAGE,
    Home: 0,
    End: last,
  }
  const j = to[key]
  if (j === undefined) return null
  return options[Math.max(0, Math.min(last, j))]!
}

/** Where an item is on the screen (its box's left, top and width), for `rowNeighbour`. */
export interface Place {
  readonly left: number
  readonly top: number
  readonly width: number
}

/**
 * In a row of items that wraps onto more lines (a big hand), the item Up or Down goes to from
 * `at`: the one on the line above or below whose middle is nearest `at`'s; null when the items
 * make one line (then Up and Down step back and on, as in a toolbar) or there is no such line.
 */
export function rowNeighbour(
  places: readonly Place[],
  at: number,
  key: 'ArrowUp' | 'ArrowDown',
): number | null {
  const here = places[at]
  if (!here) return null
  const lines = [...new Set(places.map((p) => Math.round(p.top)))].sort((a, b) => a - b)
  if (lines.length < 2) return null
  const line = lines.indexOf(Math.round(here.top)) + (key === 'ArrowDown' ? 1 : -1)
  const top = lines[line]
  if (top === undefined) return at
  const mid = (p: Place) => p.left + p.width / 2
  let best = -1
  places.forEach((p, i) => {
    if (Math.round(p.top) !== top) return
    if (best < 0 || Math.abs(mid(p) - mid(here)) < Math.abs(mid(places[best]!) - mid(here)))
      best = i
  })
  return best
}
