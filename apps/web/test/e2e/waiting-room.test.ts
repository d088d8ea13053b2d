// The waiting room on a phone held sideways and on arrival (QA, stop 32): the host's Start was
// below the screen (y 478–522 of 375 in English, 530–574 in Swedish), and the heading the page
// focuses on arrival wore the keyboard's ring after a reload or an opened link.
import { beforeAll, describe, expect, it } from 'vitest'
import { browserFixture } from './fixture.ts'
import { createIdiotTable, joinByLink, type Person } from './pages.ts'
import { browserTestsEnabled, SIDEWAYS, screenshot } from './server.ts'

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
})
