// The pages every browser test goes through: home (create a table), the join form, the lobby.
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import type { Dict, Lang } from '../../src/lib/i18n.ts'
import { DICTS } from '../../src/lib/i18n-all.ts'
import { expectNoAxeViolations } from './server.ts'

/** A person at a page, with the texts of the language their browser asked for. */
export interface Person {
  readonly page: Page
  readonly lang: Lang
  readonly t: Dict
}

export const personOf = (page: Page, lang: Lang): Person => ({ page, lang, t: DICTS[lang] })

export const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The waiting room's heading, whether it waits for players or every seat is taken. */
export const lobbyHeading = (page: Page, t: Dict) =>
  page.getByRole('heading', {
    name: new RegExp(`^(${escapeRe(t.waitingRoom)}|${escapeRe(t.everyoneHere)})$`),
  })

/** A select by its label: its accessible name is the label and the chosen value ("Players 3"). */
export const selectByLabel = (page: Page, label: string) =>
  page.getByRole('combobox', { name: new RegExp(`^${escapeRe(label)}`) })

/** Whether the page fits its viewport's width (nothing to scroll sideways). */
export const fitsWidth = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)

/**
 * The page's width and the layout's: on a phone the browser widens the layout to whatever is
 * wider than the screen, so a page that fits has both at the screen's width.
 */
export const pageWidths = (page: Page) =>
  page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    layout: window.innerWidth,
  }))

/**
 * Home page: picks a game by tapping its name on its card (the radio button is visually hidden
 * inside it). By the name's own element: the text alone is not unique on an English or Norwegian
 * page, where "Idiot" is also a span of its own (lang="sv") in the practise blurb and How to play.
 */
export async function pickGame(
  page: Page,
  game: 'idiot' | 'duel' | 'klockan' | 'herrarna',
): Promise<void> {
  await page.locator(`#game-${game}`).click()
}

/**
 * Home page: type the name, pick the game (checked that it is chosen), set the options
 * (`configure`), run `beforeCreate` with the form filled in (screenshots), check it with axe-core
 * (`state`), create.
 */
async function fillAndCreate(
  p: Person,
  url: string,
  name: string,
  game: 'idiot' | 'duel' | 'klockan' | 'herrarna',
  configure: () => Promise<void>,
  beforeCreate: (() => Promise<void>) | undefined,
  state: string,
): Promise<void> {
  const { page, t } = p
  await page.goto(`${url}/`)
  await page.getByLabel(t.yourName).fill(name)
  await pickGame(page, game)
  expect(await page.locator(`input[name="game"][value="${game}"]`).isChecked()).toBe(true)
  await configure()
  await beforeCreate?.()
  await expectNoAxeViolations(page, state)
  await page.getByRole('button', { name: t.create }).click()
}

/**
 * Home page: type the name, pick the game, set the options (`configure`), create. Returns the
 * player link shown in the lobby. `beforeCreate` runs with the form filled in (screenshots).
 */
export async function createTable(
  p: Person,
  url: string,
  name: string,
  game: 'idiot' | 'duel' | 'klockan' | 'herrarna',
  configure: () => Promise<void>,
  beforeCreate?: () => Promise<void>,
): Promise<string> {
  const { page, t } = p
  await fillAndCreate(p, url, name, game, configure, beforeCreate, `home, ${game} chosen`)
  await lobbyHeading(page, t).waitFor()
  await expectNoAxeViolations(page, `waiting room of ${game}, host`)
  expect(new URL(page.url()).pathname).toMatch(/^\/t\/[A-Z0-9]{6}$/)
  const link = (await page.getByTestId('player-link').textContent())?.trim() ?? ''
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/t\/[A-Z0-9]{6}$/)
  expect(new URL(link).pathname).toBe(new URL(page.url()).pathname)
  return link
}

/** Home page: the turn timer of the game chosen (seconds, or null: off). */
export async function chooseTimer(p: Person, seconds: number | null): Promise<void> {
  await selectByLabel(p.page, p.t.turnTimer).selectOption(String(seconds ?? 0))
}

/**
 * Home page for an Idiot table of `seats` players; `timer` (seconds, or null: off) leaves the
 * default (30 s, I-16) when undefined.
 */
export function createIdiotTable(
  p: Person,
  url: string,
  name: string,
  seats: number,
  beforeCreate?: () => Promise<void>,
  timer?: number | null,
): Promise<string> {
  const configure = async () => {
    await selectByLabel(p.page, p.t.players).selectOption(String(seats))
    if (timer !== undefined) await chooseTimer(p, timer)
  }
  return createTable(p, url, name, 'idiot', configure, beforeCreate)
}

/**
 * Opens the player link and sends the join form of a new visitor with a name; the caller waits
 * for where it leads (the waiting room, or a table between two games). `beforeJoin` runs with
 * the form shown, before the name is typed (screenshots, measurements).
 */
export async function sendJoinForm(
  p: Person,
  link: string,
  name: string,
  beforeJoin?: () => Promise<void>,
): Promise<void> {
  const { page, t } = p
  await page.goto(link)
  await page.getByRole('heading', { name: t.joinAs(new URL(link).pathname.slice(3)) }).waitFor()
  await expectNoAxeViolations(page, 'join form')
  await beforeJoin?.()
  await page.getByLabel(t.yourName).fill(name)
  await page.getByRole('button', { name: t.join, exact: true }).click()
}

/** Opens the player link and joins with a name (the join form of a new visitor). */
export async function joinByLink(
  p: Person,
  link: string,
  name: string,
  beforeJoin?: () => Promise<void>,
): Promise<void> {
  await sendJoinForm(p, link, name, beforeJoin)
  await lobbyHeading(p.page, p.t).waitFor()
  await expectNoAxeViolations(p.page, 'waiting room, guest')
}

/** Opens the spectator link (`?watch`) and waits for the "watching" banner. */
export async function watchByLink(p: Person, link: string): Promise<void> {
  await p.page.goto(`${link}?watch`)
  await p.page.getByTestId('watching').waitFor()
  expect(await p.page.getByTestId('watching').textContent()).toBe(p.t.watching)
  await expectNoAxeViolations(p.page, 'watching')
}

/**
 * Home page: a patience played alone (Klockan or Idioten with one player, Dom Åtta Herrarna) starts at once
 * (issue 15): no waiting room, the game's table comes straight away. Returns the table's link.
 */
export async function createSoloTable(
  p: Person,
  url: string,
  name: string,
  game: 'klockan' | 'herrarna' | 'duel',
  configure: () => Promise<void>,
  beforeCreate?: () => Promise<void>,
): Promise<string> {
  const { page, t } = p
  await fillAndCreate(p, url, name, game, configure, beforeCreate, `home, ${game} alone chosen`)
  await page.locator(`section.${game}`).waitFor()
  expect(await lobbyHeading(page, t).count()).toBe(0)
  expect(new URL(page.url()).pathname).toMatch(/^\/t\/[A-Z0-9]{6}$/)
  return `${url}${new URL(page.url()).pathname}`
}

/** The host presses Start once every seat is taken. */
export async function startGame(host: Person): Promise<void> {
  const start = host.page.getByRole('button', { name: host.t.start })
  await expect.poll(() => start.isEnabled(), { timeout: 10_000 }).toBe(true)
  await start.click()
}

/** The focused element: its test id, its card, the group it is in. */
export const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    return {
      testid: el?.dataset.testid ?? null,
      card: el?.dataset.card ?? null,
      inHand: el?.closest('[data-testid="hand"]') != null,
      hint: el?.classList.contains('hint') ?? false,
      body: el === document.body,
    }
  })
