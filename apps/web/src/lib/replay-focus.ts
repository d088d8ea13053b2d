// The replay page's keyboard place after fetching a record again (issue 14).
import { tick } from 'svelte'

/**
 * After fetching again, the focus stays on the button that asked, if it is still there (the game
 * is still played); if it went with what was shown before (the game is over now, or the fetch
 * failed) it goes to what takes its place in `page`: the button to try again, the replay's first
 * step, or the page's heading, never to the page's start.
 */
export async function keepFocus(had: Element | null, page: HTMLElement | null): Promise<void> {
  await tick()
  const el = document.activeElement
  if (had === null || had.isConnected || (el !== null && el !== document.body)) return
  const next = ['check-again', 'try-again', 'replay-forward', 'replay-play']
    .map((t) => page?.querySelector<HTMLElement>(`[data-testid="${t}"]:not(:disabled)`))
    .find((b) => b != null)
  ;(next ?? page?.querySelector<HTMLElement>('h1'))?.focus()
}
