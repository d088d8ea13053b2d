// Coming back in the middle of an Idiot game: a reload keeps the seat (the token is in the
// browser's storage), and a dropped network shows the disconnected banner until it returns.
import type { BrowserContext, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { browserFixture } from './fixture.ts'
import { IDIOT_DECK, playTurn, snap } from './idiot-helpers.ts'
import { createIdiotTable, joinByLink, type Person, startGame } from './pages.ts'
import {
  allowConsoleErrors,
  browserTestsEnabled,
  eventually,
  expectNoAxeViolations,
  PHONE,
  screenshot,
} from './server.ts'

const HOST = 'Astrid'
const GUEST = 'Bob'

/**
 * Records, on `page`, every text the name line of the opponent at `seat` shows from now on (a
 * reload's "away" lasts only a moment, too short to be sure to catch by polling).
 */
async function recordOpponent(page: Page, seat: number): Promise<() => Promise<string[]>> {
  await page.evaluate((s) => {
    const w = window as unknown as { __seen: string[]; __obs?: MutationObserver }
    w.__seen = []
    const read = () => {
      const text = document
        .querySelector(`[data-testid="opponent-${s}"] .who`)
        ?.textContent?.replace(/\s+/g, ' ')
        .trim()
      if (text !== undefined && w.__seen.at(-1) !== text) w.__seen.push(text)
    }
    w.__obs?.disconnect()
    w.__obs = new MutationObserver(read)
    w.__obs.observe(document.body, { subtree: true, childList: true, characterData: true })
    read()
  }, seat)
  return () => page.evaluate(() => (window as unknown as { __seen: string[] }).__seen)
}

describe.skipIf(!browserTestsEnabled('reload.test.ts'))('Coming back to an Idiot game', () => {
  const fx = browserFixture({ deck: IDIOT_DECK })
  let host: Person
  let guest: Person
  let guestContext: BrowserContext

  beforeAll(async () => {
    host = await fx.open(PHONE, 'sv')
    guest = await fx.open(PHONE, 'en')
    guestContext = fx.contextOf(guest)
  })

  /** Whose turn both pages say it is (waits until they agree). */
  function agreedTurn(): Promise<Person> {
    return eventually(async () => {
      const [h, g] = await Promise.all([snap(host.page), snap(guest.page)])
      if (h.status === host.t.yourTurn && g.status === guest.t.theirTurn(HOST)) return host
      if (g.status === guest.t.yourTurn && h.status === host.t.theirTurn(GUEST)) return guest
      throw new Error(`no agreed turn: "${h.status}" / "${g.status}"`)
    })
  }

  /** Plays `n` turns, whoever's they are (each page says whose turn it is). */
  async function playTurns(n: number) {
    for (let i = 0; i < n; i++) await playTurn(await agreedTurn())
  }

  const away = (who: string) => who.includes(host.t.away)

  it('a reload keeps the seat and the hand; a network drop shows the banner', async () => {
    // No turn timer: the guest's turn must wait while their network is down (I-16 would play it).
    const link = await createIdiotTable(host, fx.url, HOST, 2, undefined, null)
    await joinByLink(guest, link, GUEST)
    await startGame(host)
    for (const p of [host, guest]) {
      await p.page.getByRole('button', { name: p.t.ready, exact: true }).click()
    }
    await playTurns(8)
    // The guest's page has the last move too (playTurn waits for the mover's page only; CI once
    // took the guest's picture before the host's eighth card reached it): both agree whose turn
    // it is and show the same pile.
    await agreedTurn()
    await eventually(async () => {
      const [h, g] = await Promise.all([snap(host.page), snap(guest.page)])
      expect(g.pile).toBe(h.pile)
    })

    // --- Reload ----------------------------------------------------------------------------
    const before = await snap(guest.page)
    expect(before.hand!.length).toBeGreaterThan(0)
    const seen = await recordOpponent(host.page, 1)
    expect(away((await seen())[0]!)).toBe(false)
    await guest.page.reload()
    // Back at the seat without being asked to join again.
    await guest.page.getByTestId('hand').waitFor()
    expect(await guest.page.getByRole('button', { name: guest.t.join, exact: true }).count()).toBe(
      0,
    )
    await expectNoAxeViolations(guest.page, 'reloaded at the table')
    await eventually(async () => {
      const after = await snap(guest.page)
      expect(after.hand).toEqual(before.hand)
      expect(after.faceUp).toEqual(before.faceUp)
      expect(after.pile).toBe(before.pile)
      expect(after.status).toBe(before.status)
    })
    // The host saw the guest away for a moment, and back.
    await eventually(async () => {
      const texts = await seen()
      expect(texts.some(away), `host saw ${JSON.stringify(texts)}`).toBe(true)
      expect(away(texts.at(-1)!)).toBe(false)
    })
    expect((await snap(host.page)).opponents[1]!.who).toBe(GUEST)
    await playTurns(2)
    // The guest's turn next, so that they can try to play while offline. Both pages must agree
    // first (the guest's may not show the host's last move yet), and a burn gives the host
    // another turn.
    while ((await agreedTurn()) !== guest) await playTurn(host)

    // --- Network drop -------------------------------------------------------------------------
    const held = await snap(guest.page)
    // The browser logs the reconnection attempts that fail while the network is down.
    allowConsoleErrors(guest.page, /net::ERR_INTERNET_DISCONNECTED/)
    await guestContext.setOffline(true)
    const banner = guest.page.getByTestId('offline')
    // At once, when the browser says it is offline (QA: 19 s, socket.io's ping timeout).
    await banner.waitFor({ timeout: 3000 })
    expect(await banner.textContent()).toBe(guest.t.disconnected)
    // The guest's cards stay on the screen while it is offline.
    expect((await snap(guest.page)).hand).toEqual(held.hand)
    await eventually(
      async () => expect(away((await snap(host.page)).opponents[1]!.who)).toBe(true),
      30_000,
    )
    // Offline, a card can still be chosen but not played: Play and Pick up wait for the
    // connection, and the card stays in hand.
    expect((await snap(guest.page)).status).toBe(guest.t.yourTurn)
    const card = held.hints[0]!
    await guest.page.getByTestId(`hand-${card}`).click()
    expect(await guest.page.getByTestId('play').isDisabled()).toBe(true)
    expect(await guest.page.getByTestId('pickup').isDisabled()).toBe(true)
    expect((await snap(guest.page)).hand).toContain(card)
    await screenshot(guest.page, 'phone-offline')
    await expectNoAxeViolations(guest.page, 'offline')
    // Put the card back (deselect) so the game below starts from a clean choice.
    await guest.page.getByTestId(`hand-${card}`).click()
    await screenshot(host.page, 'phone-opponent-away')
    await expectNoAxeViolations(host.page, 'opponent away')
    await guestContext.setOffline(false)
    await banner.waitFor({ state: 'detached', timeout: 30_000 })
    await eventually(async () => {
      expect(away((await snap(host.page)).opponents[1]!.who)).toBe(false)
      const back = await snap(guest.page)
      expect(back.hand).toEqual(held.hand)
      expect(back.offline).toBe(false)
    }, 15_000)
    // Back online, the chosen card can be played: the game goes on.
    await playTurns(2)
  })
})
