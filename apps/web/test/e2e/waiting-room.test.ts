// The waiting room on a phone held sideways and on arrival (QA, stop 32): the host's Start was
// below the screen (y 478–522 of 375 in English, 530–574 in Swedish), and the heading the page
// focuses on arrival wore the keyboard's ring after a reload or an opened link.
import { beforeAll, describe, expect, it } from 'vitest'
import { browserFixture } from './fixture.ts'
import { createIdiotTable, joinByLink, lobbyHeading, type Person } from './pages.ts'
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
    // Chromium here has no share sheet: no Share button, the copy buttons only.
    expect(await host.page.evaluate(() => typeof navigator.share)).toBe('undefined')
    expect(await host.page.getByTestId('share-play').count()).toBe(0)
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
    // A seat is still open: the heading says the table waits for players.
    expect(await g.getByTestId('lobby-title').textContent()).toBe(guest.t.waitingRoom)
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
    await lobbyHeading(second, guest.t).waitFor()
    const panel = g.getByTestId('stepped-back')
    await panel.waitFor()
    expect(await panel.getAttribute('role')).toBe('alert')
    expect(await panel.textContent()).toContain(guest.t.replaced)
    expect(await g.getByRole('button', { name: guest.t.home }).count()).toBe(1)
    await g.getByTestId('play-here').click()
    await lobbyHeading(g, guest.t).waitFor()
    await second.getByTestId('stepped-back').waitFor()
    await second.close()

    // The host leaves: the guest is host now, and is told.
    await host.page.getByRole('button', { name: host.t.leave, exact: true }).click()
    const notice = g.getByTestId('notice')
    await notice.waitFor()
    expect(await notice.textContent()).toBe(guest.t.nowHost)
    await g.getByRole('button', { name: guest.t.start, exact: true }).waitFor()
  })

  it('on a phone with a share sheet, Share sends the player or spectator link and the game in words; closing the sheet says nothing, a refused share copies instead; Start stays on the screen', async () => {
    const phone = await fx.open({ viewport: SIDEWAYS[0]!, isMobile: true, hasTouch: true }, 'sv')
    // A share sheet (Web Share) that records what it was given, and fails as a test asks.
    await fx.contextOf(phone).addInitScript(() => {
      const w = window as unknown as { shared: unknown[]; shareFails: string | null }
      w.shared = []
      w.shareFails = null
      Object.defineProperty(navigator, 'share', {
        value: async (data: unknown) => {
          w.shared.push(data)
          if (w.shareFails) throw new DOMException('no share', w.shareFails)
        },
        configurable: true,
      })
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: () => Promise.resolve() },
        configurable: true,
      })
    })
    const link = await createIdiotTable(phone, fx.url, 'Cilla', 4)
    const p = phone.page
    const t = phone.t
    for (const size of SIDEWAYS) {
      await p.setViewportSize(size)
      await p.evaluate(() => window.scrollTo(0, 0))
      const box = await p.getByRole('button', { name: t.start, exact: true }).boundingBox()
      expect(box!.y + box!.height, `Start at ${size.width}x${size.height}`).toBeLessThanOrEqual(
        size.height,
      )
    }
    await screenshot(p, 'waiting-room-share-sideways')
    // With a mouse (a desktop's share dialog is a detour) the copy buttons stay.
    const desk = await fx.open({ viewport: { width: 1280, height: 800 } }, 'en')
    await fx.contextOf(desk).addInitScript(() => {
      Object.defineProperty(navigator, 'share', { value: async () => {}, configurable: true })
    })
    await joinByLink(desk, link, 'Dag')
    await lobbyHeading(desk.page, desk.t).waitFor()
    expect(await desk.page.evaluate(() => typeof navigator.share)).toBe('function')
    expect(await desk.page.getByTestId('copy-play').count()).toBe(1)
    expect(await desk.page.getByTestId('share-play').count()).toBe(0)
    // The share buttons take the copy buttons' place (the sheet offers copying).
    expect(await p.getByTestId('copy-play').count()).toBe(0)
    expect(await p.getByTestId('share-watch').textContent()).toBe(t.shareWatchLink)
    type W = { shared: unknown[]; shareFails: string | null }
    const shared = () => p.evaluate(() => (window as unknown as W).shared)
    const fails = (name: string) =>
      p.evaluate((n) => {
        ;(window as unknown as W).shareFails = n
      }, name)
    const said = () => p.getByTestId('copied').textContent()

    await p.getByTestId('share-play').click()
    const sent = { title: `${t.idiot} – kortbord`, text: t.shareText(t.idiot), url: link }
    await expect.poll(shared).toEqual([sent])
    expect(await said()).toBe('')
    await p.getByTestId('share-watch').click()
    const watch = { ...sent, text: t.shareWatchText(t.idiot), url: `${link}?watch` }
    await expect.poll(shared).toEqual([sent, watch])
    // The sheet closed without sharing: nothing to say.
    await fails('AbortError')
    await p.getByTestId('share-play').click()
    await expect.poll(shared).toHaveLength(3)
    await p.waitForTimeout(200)
    expect(await said()).toBe('')
    // Refused (a policy, no gesture): the link is copied instead, and that is said.
    await fails('NotAllowedError')
    await p.getByTestId('share-play').click()
    await expect.poll(said).toBe(t.copied)
    expect(await shared()).toHaveLength(4)
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
    await lobbyHeading(p, guest.t).waitFor()
    await p.goto(`${fx.url}/`)
    await p.getByRole('button', { name: guest.t.join, exact: true }).click()
    await expect.poll(() => p.getByTestId('home-message').textContent()).toBe(guest.t.needCode)
    // Not a page: a script still gets the plain 404.
    const api = await fetch(`${fx.url}/nonsense`)
    expect(api.status).toBe(404)
    expect(api.headers.get('content-type')).toContain('application/json')
  })
})
