// A whole game of Idiot in real browsers: two players on phones (Swedish and English), a
// spectator (Norwegian) and a desktop spectator for the wide screenshots.

import { compareForHand, parseCards, setupIdiot } from '@kortbord/engine'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { TABLE_DICTS } from '../../src/lib/i18n-table.ts'
import { browserFixture } from './fixture.ts'
import { IDIOT_DECK, type IdiotSnap, playTurn, snap } from './idiot-helpers.ts'
import {
  createIdiotTable,
  focused,
  joinByLink,
  type Person,
  startGame,
  watchByLink,
} from './pages.ts'
import {
  browserTestsEnabled,
  DESKTOP,
  desktopShot,
  eventually,
  PHONE,
  screenshot,
  shot,
} from './server.ts'

const HOST = 'Astrid'
const GUEST = 'Bob'

describe.skipIf(!browserTestsEnabled('idiot.test.ts'))('Idiot in the browser', () => {
  const fx = browserFixture({ deck: IDIOT_DECK })
  let host: Person
  let guest: Person
  let spec: Person
  let desk: Person

  beforeAll(async () => {
    host = await fx.open(PHONE, 'sv')
    guest = await fx.open(PHONE, 'en')
    spec = await fx.open(PHONE, 'nb')
    desk = await fx.open(DESKTOP, 'en')
  })

  const names = [HOST, GUEST]

  /** Whose turn each page says it is, checked against the others: the seat, or null. */
  async function agreedTurn(): Promise<number | null> {
    return eventually(async () => {
      const [h, g, s] = await Promise.all([snap(host.page), snap(guest.page), snap(spec.page)])
      if (s.result !== null) return null
      const seat = names.findIndex((n) => s.status === spec.t.theirTurn(n))
      expect(seat, `spectator status "${s.status}"`).toBeGreaterThanOrEqual(0)
      expect(h.status).toBe(seat === 0 ? host.t.yourTurn : host.t.theirTurn(GUEST))
      expect(g.status).toBe(seat === 1 ? guest.t.yourTurn : guest.t.theirTurn(HOST))
      return seat
    })
  }

  /** What a spectator may see: the banner, no hand, opponents' hands as counts only. */
  function checkSpectator(s: IdiotSnap, hands: [number, number]) {
    expect(s.watching).toBe(true)
    expect(s.hand).toBeNull()
    expect(s.hints).toEqual([])
    expect(Object.keys(s.opponents).sort()).toEqual(['0', '1'])
    expect(s.opponents[0]!.count).toBe(hands[0])
    expect(s.opponents[1]!.count).toBe(hands[1])
    // Only the face-up row is drawn face up: at most three cards per player.
    expect(s.opponents[0]!.faces).toBeLessThanOrEqual(3)
    expect(s.opponents[1]!.faces).toBeLessThanOrEqual(3)
  }

  /** The server dealt KORTBORD_TEST_DECK (seat 0 deals from an explicit deck, I-3, I-5). */
  async function expectTestDeck(page: Page) {
    const dealt = setupIdiot({}, 2, { deck: parseCards(IDIOT_DECK) }).players[0]!
    const shown = await snap(page)
    const want = {
      hand: [...dealt.hand].sort(compareForHand),
      faceUp: dealt.row.map((r) => r.faceUp),
    }
    if (JSON.stringify({ hand: shown.hand, faceUp: shown.faceUp }) !== JSON.stringify(want)) {
      throw new Error(
        `the server did not deal KORTBORD_TEST_DECK: seat 0 shows ${JSON.stringify(shown.hand)} / ${JSON.stringify(shown.faceUp)}, the deck gives ${JSON.stringify(want)}`,
      )
    }
  }

  it('creates, joins, watches, swaps and plays a game to the end', async () => {
    // --- Home ----------------------------------------------------------------------------
    await desk.page.goto(`${fx.url}/`)
    await desk.page.getByRole('heading', { name: desk.t.newTable }).waitFor()
    await shot(desk.page, 'desktop-home')
    const link = await createIdiotTable(host, fx.url, HOST, 2, () =>
      screenshot(host.page, 'phone-home'),
    )
    const code = new URL(link).pathname.slice(3)
    expect(await host.page.getByTestId('table-code').textContent()).toBe(code)

    // --- Lobby: the guest joins by the link, the spectators watch -------------------------
    await joinByLink(guest, link, GUEST)
    await watchByLink(spec, link)
    await watchByLink(desk, link)
    await eventually(async () => {
      expect(await host.page.getByTestId('seat-1').textContent()).toContain(GUEST)
      expect(await host.page.getByTestId('spectators').textContent()).toBe(host.t.spectators(2))
    })
    expect(await guest.page.getByTestId('seat-0').textContent()).toContain(HOST)
    expect(await guest.page.getByText(guest.t.waitForHost(HOST)).count()).toBe(1)
    expect(await guest.page.getByRole('button', { name: guest.t.start }).count()).toBe(0)
    await shot(host.page, 'phone-lobby')
    await shot(desk.page, 'desktop-lobby')

    await startGame(host)

    // --- Swap phase ------------------------------------------------------------------------
    for (const p of [host, guest]) {
      await p.page.getByTestId('hand').waitFor()
      await eventually(async () => expect((await snap(p.page)).status).toBe(p.t.swapHint))
    }
    await expectTestDeck(host.page)
    await spec.page.getByTestId('pile').waitFor()
    expect(await spec.page.getByTestId('hand').count()).toBe(0)
    checkSpectator(await snap(spec.page), [3, 3])
    // Among people no hint is offered (docs/rules.md, hints), nor to anyone watching.
    for (const p of [host, guest, spec, desk])
      expect(await p.page.getByTestId('hint').count()).toBe(0)
    await shot(host.page, 'phone-swap')
    await shot(spec.page, 'phone-swap-spectator')
    await shot(desk.page, 'desktop-swap-spectator')
    await desktopShot(host.page, 'desktop-swap')

    for (const p of [host, guest]) {
      const before = await snap(p.page)
      expect(before.hand).toHaveLength(3)
      expect(before.faceUp).toHaveLength(3)
      const h = before.hand![0]!
      const f = before.faceUp[0]!
      await p.page.getByTestId(`hand-${h}`).click()
      // The chosen hand card is marked, and every face-up card is offered.
      expect(await p.page.getByTestId(`hand-${h}`).getAttribute('aria-pressed')).toBe('true')
      await p.page.getByTestId(`faceup-${f}`).click()
      await eventually(async () => {
        const after = await snap(p.page)
        expect(after.hand).toContain(f)
        expect(after.hand).not.toContain(h)
        // Same position: the hand card now lies where the face-up card was.
        expect(after.faceUp).toEqual([h, ...before.faceUp.slice(1)])
      })
    }
    // The others see the swapped face-up cards.
    const hostRow = (await snap(host.page)).faceUp
    await eventually(async () => {
      const onSpec = await spec.page
        .getByTestId('opponent-0')
        .locator('[data-card]')
        .evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.card)))
      expect(onSpec).toEqual(hostRow)
    })

    await host.page.getByRole('button', { name: host.t.ready, exact: true }).click()
    await eventually(async () => expect((await snap(host.page)).status).toBe(host.t.waitingReady))
    await eventually(async () => expect((await snap(guest.page)).opponents[0]!.who).toContain('✓'))
    await guest.page.getByRole('button', { name: guest.t.ready, exact: true }).click()

    // --- Play --------------------------------------------------------------------------------
    // Explicit deck: seat 0 deals, seat 1 (left of the dealer) plays first (I-5).
    expect(await agreedTurn()).toBe(1)
    const players = [host, guest]
    let turns = 0
    let pickups = 0
    let biggestHand = 0
    let burns = 0
    for (;;) {
      const seat = await agreedTurn()
      if (seat === null) break
      expect(turns, 'the game should end in well under 200 turns').toBeLessThan(200)
      const p = players[seat]!
      const before = await snap(p.page)
      const action = await playTurn(p)
      turns++
      if (action.type === 'pickup') {
        pickups++
        // A hand picked up from the pile wraps instead of shrinking below a finger (44 px).
        const sizes = await p.page
          .getByTestId('hand')
          .locator('button')
          .evaluateAll((els) => els.map((e) => e.getBoundingClientRect()))
        if (sizes.length > 12 && biggestHand <= 12) await shot(p.page, 'phone-big-hand')
        biggestHand = Math.max(biggestHand, sizes.length)
        for (const r of sizes) {
          expect(
            Math.min(r.width, r.height),
            `a card of a hand of ${sizes.length}`,
          ).toBeGreaterThanOrEqual(44)
          expect(r.right, 'the hand fits the phone').toBeLessThanOrEqual(PHONE.viewport!.width)
        }
      }
      const after = await snap(p.page)
      if (action.type === 'play' && after.pile === 0 && before.pile !== null) burns++
      // The pile count agrees on all three screens, and the spectator sees only counts.
      await eventually(async () => {
        const [h, g, s] = await Promise.all([snap(host.page), snap(guest.page), snap(spec.page)])
        expect(g.pile).toBe(h.pile)
        expect(s.pile).toBe(h.pile)
        expect(h.opponents[1]!.count).toBe(g.hand!.length)
        expect(g.opponents[0]!.count).toBe(h.hand!.length)
        checkSpectator(s, [h.hand!.length, g.hand!.length])
      })
      if (turns === 20) {
        await shot(p.page, 'phone-midgame-player')
        await shot(spec.page, 'phone-midgame-spectator')
        await shot(desk.page, 'desktop-midgame-spectator')
        await desktopShot(p.page, 'desktop-midgame-player')
      }
    }
    console.log(
      `idiot: ${turns} turns, ${pickups} pick-ups, ${burns} burns, biggest hand ${biggestHand}`,
    )
    expect(biggestHand, 'a pick-up gave a hand of more than six cards').toBeGreaterThan(6)
    expect(turns).toBeGreaterThan(20)

    // --- Result --------------------------------------------------------------------------------
    const [h, g, s] = await eventually(async () => {
      const all = await Promise.all([snap(host.page), snap(guest.page), snap(spec.page)])
      for (const x of all) expect(x.result).not.toBeNull()
      return all
    })
    const loser = names.findIndex((n) => s.result === spec.t.idiotIs(n))
    expect(loser, `spectator result "${s.result}"`).toBeGreaterThanOrEqual(0)
    expect(h.result).toBe(loser === 0 ? host.t.youAreIdiot : host.t.idiotIs(GUEST))
    expect(g.result).toBe(loser === 1 ? guest.t.youAreIdiot : guest.t.idiotIs(HOST))
    // The host may start at once; both players may ask to play again (issue 15).
    expect(h.next).toBe(true)
    expect(g.next).toBe(false)
    expect(s.next).toBe(false)
    expect(await guest.page.getByTestId('rematch-ask').count()).toBe(1)
    expect(await spec.page.getByTestId('rematch-ask').count()).toBe(0)
    // The keyboard's place: on the next game, not on a card that can no longer go (or nowhere,
    // for the player who went out first).
    for (const p of [host, guest]) {
      await eventually(async () =>
        expect(['rematch-ask', 'next']).toContain((await focused(p.page)).testid),
      )
    }
    expect(s.hand).toBeNull()
    expect(await host.page.getByTestId('next').textContent()).toContain(
      TABLE_DICTS[host.lang].startNow,
    )
    // The tally line counts the loser once.
    const tally = await spec.page.getByTestId('result').textContent()
    expect(tally).toContain(`${names[loser]} (1)`)
    await shot(host.page, 'phone-result')
    await shot(guest.page, 'phone-result-guest')
    await shot(spec.page, 'phone-result-spectator')
    await shot(desk.page, 'desktop-result-spectator')
    await desktopShot(host.page, 'desktop-result')

    for (const e of fx.errors()) expect(e.filter((x) => x.startsWith('pageerror'))).toEqual([])
    // A whole game of about 63 turns in three browsers: 51 s alone on a quiet 2-core machine,
    // over the suite's 120 s once on a loaded one, where a hung game is still told in 240 s.
  }, 240_000)
})
