// Playing Idioten för två from a page, shared by the browser tests of records and of A-16.
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import { eventually } from './server.ts'

/** A board's piles, stock and discardable piles as the page shows them, or null once it is gone. */
export function readBoard(page: Page) {
  return page.evaluate(() => {
    const root = document.querySelector('[data-testid="my-board"]')
    if (!root) return null
    const piles = [...root.querySelectorAll('.piles > *')].map((p) =>
      [...p.querySelectorAll<HTMLElement>('[data-card]')].map((e) => Number(e.dataset.card)),
    )
    const stock = document
      .querySelector('[data-testid="my-board-stock"]')
      ?.getAttribute('data-count')
    const hints = [...root.querySelectorAll<HTMLElement>('button.hint[data-testid^="top-"]')].map(
      (e) => Number(e.dataset.testid!.slice(4)),
    )
    return { piles, stock: Number(stock ?? Number.NaN), hints }
  })
}

/** One action of an Aces Up game: a discard, else a deal, else the end; false once it is over. */
export async function duelStep(page: Page): Promise<boolean> {
  const b = await readBoard(page)
  if (!b) return false
  const sig = JSON.stringify([b.piles, b.stock])
  const changed = () =>
    eventually(async () =>
      expect(JSON.stringify(await readBoard(page).then((x) => x && [x.piles, x.stock]))).not.toBe(
        sig,
      ),
    )
  if (b.hints.length > 0) {
    await page.getByTestId(`top-${b.hints[0]}`).click()
    await changed()
    return true
  }
  if (b.stock > 0) {
    await page.getByTestId('deal').click()
    await changed()
    return true
  }
  await page.getByTestId('finish').click()
  await eventually(async () => expect(await readBoard(page)).toBeNull())
  return false
}
