// A table's life around the game (issue 13): names refused with their reason as they are typed
// and sent as the server keeps them, the spectator count as presence (not versions), a table
// closed once every player has left, and the page's Content-Security-Policy holding.
import { beforeAll, describe, expect, it } from 'vitest'
import { TABLE_DICTS } from '../../src/lib/i18n-table.ts'
import { browserFixture } from './fixture.ts'
import {
  joinByLink,
  lobbyHeading,
  type Person,
  pickGame,
  selectByLabel,
  watchByLink,
} from './pages.ts'
import {
  browserTestsEnabled,
  DESKTOP,
  eventually,
  expectNoAxeViolations,
  PHONE,
  pageProblems,
  screenshot,
} from './server.ts'

describe.skipIf(!browserTestsEnabled('table-life.test.ts'))('A table’s life', () => {
  const fx = browserFixture()
  let host: Person
  let guest: Person
  let spec: Person
  let desk: Person

  beforeAll(async () => {
    host = await fx.open(PHONE, 'en')
    guest = await fx.open(PHONE, 'sv')
    spec = await fx.open(PHONE, 'nb')
    desk = await fx.open(DESKTOP, 'en')
  })

  it('refuses a name with its reason while it is typed, and sends it as the server keeps it', async () => {
    const { page, t } = host
    await page.goto(`${fx.url}/`)
    const field = page.getByLabel(t.yourName)
    const problem = page.getByTestId('name-problem')
    // An untouched empty field is not scolded.
    await field.fill('')
    expect(await field.getAttribute('aria-invalid')).toBeNull()
    expect(await problem.textContent()).toBe('')

    // A zero-width space (it comes along with copied text): refused at once, and why.
    await field.fill('Bo\u200b')
    expect(await problem.textContent()).toBe(t.errors.NAME_INVISIBLE_CHARS)
    expect(await field.getAttribute('aria-invalid')).toBe('true')
    const described = await field.getAttribute('aria-describedby')
    expect(described).toBe(await problem.getAttribute('id'))
    expect(await page.locator(`#${described}`).textContent()).toBe(t.errors.NAME_INVISIBLE_CHARS)
    await screenshot(page, 'life-phone-name-refused')
    await expectNoAxeViolations(page, 'home, a name refused')
    await page.setViewportSize(DESKTOP.viewport!)
    await screenshot(page, 'life-desktop-name-refused')
    await expectNoAxeViolations(page, 'home, a name refused, desktop')
    await page.setViewportSize(PHONE.viewport!)
    // Creating is held back, and the field has the focus.
    await page.getByRole('button', { name: t.create }).click()
    expect(await lobbyHeading(page, t).count()).toBe(0)
    expect(await field.evaluate((e) => e === document.activeElement)).toBe(true)

    // Too long, counted as a reader counts: 25 letters.
    await field.fill('a'.repeat(25))
    expect(await problem.textContent()).toBe(t.errors.NAME_TOO_LONG)
    // Emptied after a try: now it is asked for.
    await field.fill('')
    expect(await problem.textContent()).toBe(t.needName)

    // Å written as A and a combining ring, with spaces around: sent as one letter, trimmed.
    await field.fill('  A\u030asa ')
    expect(await field.getAttribute('aria-invalid')).toBeNull()
    expect(await problem.textContent()).toBe('')
    // Klockan för två offers its own timer (20 s), the patience alone none.
    await pickGame(page, 'klockan')
    expect(await selectByLabel(page, t.turnTimer).count()).toBe(0)
    await selectByLabel(page, t.players).selectOption('2')
    expect(await selectByLabel(page, t.turnTimer).inputValue()).toBe('20')
    await pickGame(page, 'idiot')
    expect(await selectByLabel(page, t.turnTimer).inputValue()).toBe('30')
    await page.getByRole('button', { name: t.create }).click()
    await lobbyHeading(page, t).waitFor()
    const seat = (await page.getByTestId('seat-0').locator('strong').textContent()) ?? ''
    expect(seat).toBe('Åsa'.normalize('NFC'))
    expect(seat).not.toBe('Åsa'.normalize('NFD'))
  })

  it('counts spectators by presence, and closes the table for them once every player has left', async () => {
    const link = `${fx.url}${new URL(host.page.url()).pathname}`
    // The join form asks for a name before it sends anything. It starts at the name; the page
    // knows the table's game from the form's look (table:peek) and names it, but offers no
    // game's rules before the guest is at the table.
    await guest.page.goto(link)
    await guest.page.getByTestId('peek').waitFor()
    await eventually(async () =>
      expect(await guest.page.evaluate(() => document.activeElement?.id)).toBe('join-name'),
    )
    const code = new URL(link).pathname.split('/').pop() ?? ''
    expect(await guest.page.getByRole('heading', { level: 1 }).textContent()).toBe(
      `${TABLE_DICTS[guest.lang].tableHeading(guest.t.idiot, code)}${code}`,
    )
    expect(await guest.page.getByTestId('howto-open').count()).toBe(0)
    await guest.page.getByRole('button', { name: guest.t.join, exact: true }).click()
    expect(await guest.page.getByTestId('name-problem').textContent()).toBe(guest.t.needName)
    await expectNoAxeViolations(guest.page, 'join form, no name')
    expect(await guest.page.getByLabel(guest.t.yourName).getAttribute('aria-invalid')).toBe('true')
    await joinByLink(guest, link, 'Bo')

    await watchByLink(spec, link)
    await watchByLink(desk, link)
    for (const p of [host, guest, spec]) {
      await eventually(async () =>
        expect(await p.page.getByTestId('spectators').textContent()).toBe(p.t.spectators(2)),
      )
    }
    // On a phone the watchers are an eye and a number, and the header stays one line: the
    // table's code, the watchers, Rules and the language side by side.
    for (const p of [host, guest, spec]) {
      const rows = await p.page
        .locator('header.bar > *')
        .evaluateAll((els) => els.map((e) => e.getBoundingClientRect()))
      const [lowestTop, highestBottom] = [
        Math.max(...rows.map((r) => r.top)),
        Math.min(...rows.map((r) => r.bottom)),
      ]
      expect(lowestTop, `${p.lang}: one line, every item beside the others`).toBeLessThan(
        highestBottom,
      )
      expect(await p.page.locator('header.bar .watchers .short').textContent()).toBe('2')
    }
    await screenshot(guest.page, 'life-phone-watched-header', { screen: true })
    // One spectator goes: the players hear of it without anything else happening.
    await desk.page.goto('about:blank')
    await eventually(async () =>
      expect(await host.page.getByTestId('spectators').textContent()).toBe(host.t.spectators(1)),
    )
    await eventually(async () =>
      expect(await guest.page.getByTestId('spectators').textContent()).toBe(guest.t.spectators(1)),
    )

    // The page keeps to its Content-Security-Policy, and the check sees it when it does not.
    await spec.page.evaluate(() => {
      const s = document.createElement('script')
      s.textContent = 'window.__inline = 1'
      document.head.append(s)
    })
    await eventually(async () => {
      expect(pageProblems().join('\n')).toMatch(/securitypolicyviolation: script-src/)
    })
    expect(await spec.page.evaluate(() => (window as { __inline?: number }).__inline)).toBe(
      undefined,
    )

    // Every player leaves: the spectator is told the table is closed, and can go home.
    await guest.page.getByRole('button', { name: guest.t.leave }).click()
    await guest.page.getByRole('heading', { name: guest.t.newTable }).waitFor()
    await host.page.getByRole('button', { name: host.t.leave }).click()
    await host.page.getByRole('heading', { name: host.t.newTable }).waitFor()
    const closed = spec.page.getByTestId('closed')
    await closed.waitFor()
    expect(await closed.textContent()).toContain(spec.t.closed)
    await screenshot(spec.page, 'life-phone-closed')
    await expectNoAxeViolations(spec.page, 'table closed')
    await spec.page.setViewportSize(DESKTOP.viewport!)
    await screenshot(spec.page, 'life-desktop-closed')
    await expectNoAxeViolations(spec.page, 'table closed, desktop')
    await spec.page.setViewportSize(PHONE.viewport!)
    await spec.page.getByTestId('go-home').click()
    await spec.page.getByRole('heading', { name: spec.t.newTable }).waitFor()
    expect(new URL(spec.page.url()).pathname).toBe('/')
    // The code leads nowhere now, and the page says so for good (lost-table.test.ts).
    await spec.page.goto(`${link}?watch`)
    await eventually(async () =>
      expect(await spec.page.getByTestId('missing').textContent()).toContain(
        spec.t.errors.NO_SUCH_TABLE,
      ),
    )
    await expectNoAxeViolations(spec.page, 'no such table')
  })
})
