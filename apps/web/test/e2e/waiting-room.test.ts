// The waiting room on a phone held sideways and on arrival (QA, stop 32): the host's Start was
// below the screen (y 478–522 of 375 in English, 530–574 in Swedish), and the heading the page
// focuses on arrival wore the keyboard's ring after a reload or an opened link.
import { beforeAll, describe, expect, it } from 'vitest'
import { browserFixture } from './fixture.ts'
import { createIdiotTable, joinByLink, type Person } from './pages.ts'
import { allowConsoleErrors, browserTestsEnabled, SIDEWAYS, screenshot } from './server.ts'

describe.skipIf(!browserTestsEnabled('waiting-room.test.ts'))('The waiting room', () => {
  const fx = browserFixture()
  let host: Person
  let guest: Person

  beforeAll(async () => {
    host = await fx.open({ viewport: SIDEWAYS[0]!, isMobile: true, hasTouch: true }, 'sv')
    guest = await fx.open({ viewport: SIDEWAYS[0]!, isMobile: true, hasTouch: true }, 'en')
  })

  it('held sideways, the host’s Start is on the screen at every phone size; the heading focused on arrival has no ring', async () => {
    const link = await createIdiotTable(host, fx.url, 'Bo', 4)
    await joinByLink(guest, link, 'Astrid')
    for (const size of SIDEWAYS) {
      await host.page.setViewportSize(size)
      await host.page.evaluate(() => window.scrollTo(0, 0))
      const start = host.page.getByRole('button', { name: host.t.start, exact: true })
      const box = await start.boundingBox()
      expect(box, `Start at ${size.width}x${size.height}`).not.toBeNull()
      expect(box!.y + box!.height, `Start at ${size.width}x${size.height}`).toBeLessThanOrEqual(
        size.height,
      )
      await screenshot(host.page, `waiting-room-host-${size.width}x${size.height}`)
    }
    // Arriving by a reload: the page puts the focus on the heading, without a ring.
    await guest.page.reload()
    const title = guest.page.getByTestId('lobby-title')
    await title.waitFor()
    await expect.poll(() => title.evaluate((e) => e === document.activeElement)).toBe(true)
    expect(await title.evaluate((e) => getComputedStyle(e).outlineStyle)).toBe('none')
  })

  let guestsTable = ''

  it('copying says whether it worked, a second tab of the seat offers it back, the new host is told', async () => {
    const link = await createIdiotTable(host, fx.url, 'Bo', 3)
    guestsTable = new URL(link).pathname.slice(3)
    await joinByLink(guest, link, 'Astrid')
    const g = guest.page
    const widths = () => g.getByTestId('copy-play').evaluate((e) => e.getBoundingClientRect().width)
    const before = await widths()
    // A browser that refuses the clipboard: said, and the link selected to copy by hand.
    await g.evaluate(() => {
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: () => Promise.reject(new Error('denied')) },
        configurable: true,
      })
    })
    await g.getByTestId('copy-play').click()
    await expect.poll(() => g.getByTestId('copied').textContent()).toBe(guest.t.copyFailed)
    expect(await g.evaluate(() => getSelection()?.toString())).toBe(link)
    expect(await widths()).toBe(before)
    await g.evaluate(() => {
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: () => Promise.resolve() },
      })
    })
    await g.getByTestId('copy-play').click()
    await expect.poll(() => g.getByTestId('copied').textContent()).toBe(guest.t.copied)

    // On a desktop the chat lines up with the waiting room (it was 40rem wide under 30rem).
    await g.setViewportSize({ width: 1280, height: 800 })
    const x = async (id: string) => (await g.getByTestId(id).boundingBox())!.x
    expect(Math.abs((await x('chat-toggle')) - (await x('lobby-title')))).toBeLessThanOrEqual(8)
    await g.setViewportSize(SIDEWAYS[0]!)

    // The same seat opened in a second tab: the first says so and offers it back, or Home.
    const second = await fx.contextOf(guest).newPage()
    await second.goto(link)
    await second.getByRole('heading', { name: guest.t.waitingRoom }).waitFor()
    const panel = g.getByTestId('stepped-back')
    await panel.waitFor()
    expect(await panel.getAttribute('role')).toBe('alert')
    expect(await panel.textContent()).toContain(guest.t.replaced)
    expect(await g.getByRole('button', { name: guest.t.home }).count()).toBe(1)
    await g.getByTestId('play-here').click()
    await g.getByRole('heading', { name: guest.t.waitingRoom }).waitFor()
    await second.getByTestId('stepped-back').waitFor()
    await second.close()

    // The host leaves: the guest is host now, and is told.
    await host.page.getByRole('button', { name: host.t.leave, exact: true }).click()
    const notice = g.getByTestId('notice')
    await notice.waitFor()
    expect(await notice.textContent()).toBe(guest.t.nowHost)
    await g.getByRole('button', { name: guest.t.start, exact: true }).waitFor()
  })

  it('an address that is no page says so with the way home, and the server answers 404; home leads back to one’s tables; an empty code asks for one', async () => {
    const p = guest.page
    // The browser's own line for the 404 answer of /nonsense.
    allowConsoleErrors(p, /404/)
    for (const path of ['/nonsense', '/t/AB', '/r/short']) {
      const r = await p.goto(`${fx.url}${path}`)
      expect(r?.status(), path).toBe(path === '/nonsense' ? 404 : 200)
      await p.getByTestId('no-page').waitFor()
      expect(await p.getByRole('heading', { level: 1 }).textContent()).toBe(guest.t.noSuchPage)
    }
    await p.getByRole('button', { name: guest.t.home }).click()
    // The home page leads back to the tables this browser has a seat at.
    const mine = p.getByTestId('your-tables')
    await mine.waitFor()
    // By game and code: "Idiot · Table ABC234".
    const back = mine.getByRole('link', { name: guest.t.table(guestsTable) })
    expect(await back.textContent()).toBe(`${guest.t.idiot} · ${guest.t.table(guestsTable)}`)
    await back.click()
    await p.getByRole('heading', { name: guest.t.waitingRoom }).waitFor()
    await p.goto(`${fx.url}/`)
    await p.getByRole('button', { name: guest.t.join, exact: true }).click()
    await expect.poll(() => p.getByTestId('home-message').textContent()).toBe(guest.t.needCode)
    // Not a page: a script still gets the plain 404.
    const api = await fetch(`${fx.url}/nonsense`)
    expect(api.status).toBe(404)
    expect(api.headers.get('content-type')).toContain('application/json')
  })
})
