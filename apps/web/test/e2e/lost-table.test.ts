// When the table is not there (QA, stop 32): a wrong link, a table a restart of the server took
// with it (the default in-memory store keeps nothing), a full table, a table that takes no
// spectators. Each says so for as long as it is true and offers the way on (Home, Watch, Join),
// where before a refusal passed after five seconds and left a join form, a blank page or a dead
// game. And on a phone a refusal on the home page, or the chat opened, is brought on screen.
import { beforeAll, describe, expect, it } from 'vitest'
import { TABLE_DICTS } from '../../src/lib/i18n-table.ts'
import { browserFixture } from './fixture.ts'
import {
  createIdiotTable,
  createTable,
  escapeRe,
  joinByLink,
  lobbyHeading,
  type Person,
  selectByLabel,
} from './pages.ts'
import {
  allowConsoleErrors,
  browserTestsEnabled,
  eventually,
  expectNoAxeViolations,
  screenshot,
} from './server.ts'

/** An upright phone of 360 × 640, the smallest the QA measured. */
const SMALL_PHONE = {
  viewport: { width: 360, height: 640 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
}
/** Longer than TablePage's five seconds for a passing refusal. */
const PAST_A_PASSING_REFUSAL_MS = 5600

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** The element's box lies within the screen's height. */
async function onScreen(p: Person, testid: string): Promise<{ top: number; bottom: number }> {
  const box = await p.page.getByTestId(testid).boundingBox()
  if (box === null) throw new Error(`${testid} is not shown`)
  return { top: box.y, bottom: box.y + box.height }
}

describe.skipIf(!browserTestsEnabled('lost-table.test.ts'))('When the table is not there', () => {
  const fx = browserFixture()
  let host: Person
  let guest: Person
  let third: Person
  let watcher: Person

  beforeAll(async () => {
    host = await fx.open(SMALL_PHONE, 'en')
    guest = await fx.open(SMALL_PHONE, 'sv')
    third = await fx.open(SMALL_PHONE, 'en')
    watcher = await fx.open(SMALL_PHONE, 'nb')
  })

  it('a wrong link: opening or watching it says there is no such table, before any name is typed, and keeps saying it, with Home', async () => {
    const link = `${fx.url}/t/ABCDEF`
    await third.page.goto(link)
    const missing = third.page.getByTestId('missing')
    await missing.waitFor()
    expect(await missing.textContent()).toContain(third.t.errors.NO_SUCH_TABLE)
    // The way on, and no form to fill in for a table that is not there.
    expect(await third.page.getByLabel(third.t.yourName).count()).toBe(0)
    // The tab names the table, as a seated player's does (it said only "kortbord").
    expect(await third.page.title()).toBe(`${third.t.table('ABCDEF')} – kortbord`)
    await watcher.page.goto(`${link}?watch`)
    await watcher.page.getByTestId('missing').waitFor()
    expect(await watcher.page.getByTestId('missing').textContent()).toContain(
      watcher.t.errors.NO_SUCH_TABLE,
    )
    await sleep(PAST_A_PASSING_REFUSAL_MS)
    expect(await missing.isVisible()).toBe(true)
    expect(await watcher.page.getByTestId('missing').isVisible()).toBe(true)
    await expectNoAxeViolations(third.page, 'no such table')
    await third.page.getByTestId('go-home').click()
    await third.page.getByRole('button', { name: third.t.create }).waitFor()
  })

  it('a full table: the join form says so before a name is typed, or keeps saying so when the last seat went meanwhile, beside Watch; the watch link of a table without spectators offers the seat', async () => {
    // Two seats: the form says what the link leads to, and then the last seat goes meanwhile.
    const link = await createIdiotTable(host, fx.url, 'Bo', 2)
    await third.page.goto(link)
    const peek = third.page.getByTestId('peek')
    await peek.waitFor()
    expect(await peek.textContent()).toMatch(
      new RegExp(
        `${third.t.idiot}.*${escapeRe(third.t.peekHost('Bo'))}.*${third.t.seatsTaken(1, 2)}`,
        's',
      ),
    )
    await joinByLink(guest, link, 'Astrid')
    await third.page.getByLabel(third.t.yourName).fill('Vera')
    await third.page.getByRole('button', { name: third.t.join, exact: true }).click()
    const refusal = third.page.getByTestId('refusal')
    await refusal.waitFor()
    expect(await refusal.textContent()).toBe(third.t.errors.TABLE_FULL)
    await sleep(PAST_A_PASSING_REFUSAL_MS)
    expect(await refusal.isVisible()).toBe(true)
    // Said once: the passing banner does not say it again.
    expect(await third.page.getByTestId('error').count()).toBe(0)
    await third.page.getByRole('button', { name: third.t.watchInstead }).click()
    await third.page.getByTestId('watching').waitFor()
    expect(await refusal.count()).toBe(0)
    // Someone opening the link now learns it before typing a name: no name to fill, Watch first.
    await watcher.page.goto(link)
    const full = watcher.page.getByTestId('refusal')
    await full.waitFor()
    expect(await full.textContent()).toBe(watcher.t.errors.TABLE_FULL)
    expect(await watcher.page.getByLabel(watcher.t.yourName).count()).toBe(0)
    expect(await watcher.page.getByTestId('peek').textContent()).toContain(
      watcher.t.seatsTaken(2, 2),
    )
    await expectNoAxeViolations(watcher.page, 'a full table’s join form')
    await screenshot(watcher.page, 'join-form-full', { screen: true })
    // The tab names the game too, as a seated player's does.
    const tt = TABLE_DICTS[watcher.lang]
    expect(await watcher.page.title()).toBe(
      `${tt.tableHeading(watcher.t.idiot, new URL(link).pathname.slice(3))} – kortbord`,
    )
    await watcher.page.getByRole('button', { name: watcher.t.watch, exact: true }).click()
    await watcher.page.getByTestId('watching').waitFor()

    // No spectators here: the watch link says so and offers the free seat.
    const closed = await createTable(host, fx.url, 'Bo', 'idiot', async () => {
      await selectByLabel(host.page, host.t.players).selectOption('3')
      await host.page.getByLabel(host.t.allowWatching).uncheck()
    })
    await watcher.page.goto(`${closed}?watch`)
    const said = watcher.page.getByTestId('refusal')
    await said.waitFor()
    expect(await said.textContent()).toBe(watcher.t.errors.SPECTATORS_OFF)
    // Watching is off: the form offers the seat only.
    expect(await watcher.page.getByTestId('watch-instead').count()).toBe(0)
    await watcher.page.getByLabel(watcher.t.yourName).fill('Nils')
    await watcher.page.getByRole('button', { name: watcher.t.join, exact: true }).click()
    await lobbyHeading(watcher.page, watcher.t).waitFor()
    expect(await said.count()).toBe(0)

    // Full, and no watching: nothing to fill in, the way home.
    const shut = await createTable(host, fx.url, 'Bo', 'idiot', async () => {
      await selectByLabel(host.page, host.t.players).selectOption('2')
      await host.page.getByLabel(host.t.allowWatching).uncheck()
    })
    await joinByLink(guest, shut, 'Astrid')
    await third.page.goto(shut)
    const none = third.page.getByTestId('refusal')
    await none.waitFor()
    expect(await none.textContent()).toBe(third.t.fullNoWatch)
    expect(await third.page.getByTestId('peek').textContent()).not.toContain('Bo')
    expect(await third.page.getByLabel(third.t.yourName).count()).toBe(0)
    await third.page.getByRole('button', { name: third.t.home }).click()
    await third.page.getByRole('button', { name: third.t.create }).waitFor()
  })

  it('a restart that lost the table: the page says so instead of the dead table', async () => {
    // A server of its own, started again on the same port with an empty store.
    const first = await fx.startServer()
    const p = await fx.open(SMALL_PHONE, 'en')
    // The page logs its socket's failures while the server is away.
    allowConsoleErrors(
      p.page,
      /ERR_CONNECTION_REFUSED|WebSocket|socket\.io|Failed to load resource/,
    )
    await createIdiotTable(p, first.url, 'Bo', 2)
    await first.stop()
    const again = await fx.startServer({ env: { PORT: String(first.port) } })
    expect(again.port).toBe(first.port)
    await eventually(() => p.page.getByTestId('missing').waitFor({ timeout: 1000 }), 30_000)
    expect(await p.page.getByTestId('missing').textContent()).toContain(p.t.errors.NO_SUCH_TABLE)
    expect(await lobbyHeading(p.page, p.t).count()).toBe(0)
    // The seat's token went with the table: a reload asks what the link leads to and says the
    // same before any name is typed.
    await p.page.reload()
    await p.page.getByTestId('missing').waitFor()
    expect(await p.page.getByLabel(p.t.yourName).count()).toBe(0)
  })

  it('on a phone, a refusal on the home page and an opened chat are on screen', async () => {
    const { page, t } = third
    await page.goto(`${fx.url}/`)
    await page.getByLabel(t.code).fill('abc')
    await page.getByRole('button', { name: t.join, exact: true }).click()
    await page.getByTestId('home-message').waitFor()
    expect(await page.getByTestId('home-message').textContent()).toBe(t.errors.NO_SUCH_TABLE)
    await eventually(async () => {
      const m = await onScreen(third, 'home-message')
      expect(m.top).toBeGreaterThanOrEqual(0)
      expect(m.bottom).toBeLessThanOrEqual(641)
    })

    // The chat of a waiting room, opened at the bottom of a 360 × 640 screen.
    const link = await createIdiotTable(host, fx.url, 'Bo', 3)
    await joinByLink(guest, link, 'Astrid')
    await guest.page.evaluate(() => window.scrollTo(0, 0))
    await guest.page.getByTestId('chat-toggle').click()
    await eventually(async () => {
      const box = await guest.page.locator('#chat-body').boundingBox()
      expect(box).not.toBeNull()
      expect(box!.y).toBeGreaterThanOrEqual(0)
      expect(box!.y).toBeLessThan(640 - 100)
    })
  })
})
