// What a screen reader would hear on a page, for the browser tests: the text of each live region
// already in the page, each time it changes to something. A region that arrives with its text
// in it is left out (it is often not read out), as screen readers do.
import type { Page } from 'playwright-core'

/** From now on, records what the page's live regions say; read with `said`, emptied by `hush`. */
export async function listen(page: Page): Promise<void> {
  await page.evaluate(() => {
    const LIVE = '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]'
    const w = window as unknown as { said: string[] }
    w.said = []
    const known = new WeakSet<Element>(document.querySelectorAll(LIVE))
    new MutationObserver((records) => {
      const changed = new Set<Element>()
      for (const r of records) {
        const el = r.target instanceof Element ? r.target : r.target.parentElement
        const region = el?.closest(LIVE)
        if (region && known.has(region)) changed.add(region)
      }
      for (const region of changed) {
        const text = region.textContent?.replace(/\s+/g, ' ').trim() ?? ''
        if (text) w.said.push(text)
      }
      for (const e of document.querySelectorAll(LIVE)) known.add(e)
    }).observe(document.body, { childList: true, characterData: true, subtree: true })
  })
}

/** What the live regions said since `listen` (or the last `hush`), oldest first. */
export const said = (page: Page): Promise<string[]> =>
  page.evaluate(() => (window as unknown as { said: string[] }).said)

/** Forgets what was said so far. */
export const hush = (page: Page): Promise<void> =>
  page.evaluate(() => {
    ;(window as unknown as { said: string[] }).said = []
  })
