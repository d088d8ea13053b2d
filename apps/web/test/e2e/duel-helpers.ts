// Playing Idioten för två from a page, shared by the browser tests of records, of A-16 and of the
// replay page.
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import type { Person } from './pages.ts'
import {
  chooseTimer,
  createSoloTable,
  createTable,
  joinByLink,
  selectByLabel,
  startGame,
} from './pages.ts'
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

/**
 * A table of Idioten alone created from the home page by `p` as `name`: `rounds` rounds
 * (the form's default, 1, if not given) of `piles` piles (default 4). Returns the table's link
 * once the player's board is on the page.
 */
export async function createIdiotenAlone(
  p: Person,
  url: string,
  name: string,
  opts: { readonly rounds?: string; readonly piles?: '4' | '5' | '8' } = {},
): Promise<string> {
  const { page, t } = p
  const link = await createSoloTable(p, url, name, 'duel', async () => {
    await selectByLabel(page, t.players).selectOption('1')
    if (opts.rounds) await selectByLabel(page, t.gamesAlone).selectOption(opts.rounds)
    if (opts.piles) await page.locator('select[name="myPiles"]').selectOption(opts.piles)
  })
  await page.getByTestId('my-board').waitFor()
  return link
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

/**
 * A match of one game with no turn timer: `p0` creates it (as `names[0]`), `p1` joins (as
 * `names[1]`), `beforeStart` runs with the table's link (a spectator comes to watch), `p0` starts,
 * and both play their games to the end by `duelStep`, a round at a time. Returns the address of
 * the match's record (its link on `p0`'s end screen).
 */
export async function playOneGameDuel(
  url: string,
  players: readonly [Person, Person],
  opts: { names?: readonly [string, string]; beforeStart?: (link: string) => Promise<void> } = {},
): Promise<string> {
  const [p0, p1] = players
  const [name0, name1] = opts.names ?? ['Astrid', 'Bo']
  const link = await createTable(p0, url, name0, 'duel', async () => {
    await selectByLabel(p0.page, p0.t.games).selectOption('1')
    await chooseTimer(p0, null)
  })
  await joinByLink(p1, link, name1)
  await opts.beforeStart?.(link)
  await startGame(p0)
  for (const p of players) await p.page.getByTestId('my-board').waitFor()
  const playing = [true, true]
  for (let steps = 0; playing[0] || playing[1]; steps++) {
    for (const [i, p] of players.entries()) if (playing[i]) playing[i] = await duelStep(p.page)
    expect(steps, 'both games end within 150 rounds').toBeLessThan(150)
  }
  const end = p0.page.getByTestId('record-link-end')
  await end.waitFor()
  return `${url}${await end.getAttribute('href')}`
}

/**
 * Both players get this order (an explicit deck deals every game of both players, A-10). With
 * the ways of playing below, seat 0 (discard, undo once, move to an empty pile, deal) leaves 27
 * cards and seat 1 (deals over a discard once, ends the game as soon as the stock is empty)
 * leaves 28: both score 3, and the cards left decide for seat 0.
 */
export const DUEL_DECK =
  '3D 5S TS 7H 8S 4C QD JD 4S 5H 2H 6D 6H 6S 9H 4D TD QC KH KC 5C 5D 3S KS AC 6C AH 2D QS 8C 3C 2C JH KD 2S TC QH 7C 9D 8H TH 9S AS 9C AD 4H JC 8D 3H JS 7S 7D'
