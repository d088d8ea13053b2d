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
