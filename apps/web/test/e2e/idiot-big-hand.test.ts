// Idiot with a big hand (QA): a hand of sixteen cards and more, picked up from the pile. On a
// desktop (1280x800) Play lay below the fold (862–917); on a small phone held upright (360x640)
// the buttons kept on the screen stood over the hand's third row (about 22 px of each card), and
// the "you were away" banner (about 70 px) pushed everything further down. Now Play and Pick up
// are on the screen without scrolling and stand over none of the player's cards, at the page's
// top and scrolled to the hand's end or the page's, with the banner and without it.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { browserFixture } from './fixture.ts'
import { IDIOT_DECK, snap } from './idiot-helpers.ts'
import { createIdiotTable, startGame } from './pages.ts'
import { browserTestsEnabled, DESKTOP, eventually, PHONE, screenshot } from './server.ts'

/** The turn timer's length (15 s, the least) runs at this share: the timer plays for a staller. */
const SCALE = 0.1
const BIG = 16
const SCREENS = [
  { name: 'desktop-1280x800', ...DESKTOP.viewport! },
  { name: 'portrait-360x640', width: 360, height: 640 },
  { name: 'portrait-390x844', width: 390, height: 844 },
] as const

interface Box {
  top: number
  bottom: number
  left: number
  right: number
}
type Scroll = 'top' | 'hand end' | 'page end'

/** Where the buttons and the player's own cards are with the page scrolled to `where`. */
function measure(page: Page, where: Scroll) {
  return page.evaluate((where) => {
    const hand = document.querySelector('[data-testid="hand"]')!
    if (where === 'top') window.scrollTo(0, 0)
    else if (where === 'page end') window.scrollTo(0, document.documentElement.scrollHeight)
    else hand.scrollIntoView({ block: 'end' })
    const box = (e: Element) => {
      const r = e.getBoundingClientRect()
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }
    }
    return {
      height: window.innerHeight,
      buttons: ['play', 'pickup'].map((id) => ({
        id,
        ...box(document.querySelector(`[data-testid="${id}"]`)!),
      })),
      cards: [
        ...document.querySelectorAll('[data-testid="hand"] .card, [data-testid^="faceup-"]'),
      ].map(box),
      hand: hand.querySelectorAll('.card').length,
    }
  }, where)
}

const over = (a: Box, b: Box) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom

/** What is wrong on the screen as it is (none: an empty list). */
async function problems(page: Page, screen: string): Promise<string[]> {
  const found: string[] = []
  for (const where of ['top', 'hand end', 'page end'] as const) {
    const m = await measure(page, where)
    const at = `${screen}, hand ${m.hand}, ${where}`
    const covered = m.cards.filter((c) => m.buttons.some((b) => over(b, c)))
    if (covered.length > 0) {
      const most = Math.max(
        ...covered.map((c) =>
          Math.max(...m.buttons.map((b) => Math.min(b.bottom, c.bottom) - Math.max(b.top, c.top))),
        ),
      )
      found.push(`${at}: the buttons cover ${covered.length} cards (up to ${Math.round(most)} px)`)
    }
    if (where !== 'top') continue
    for (const b of m.buttons) {
      if (b.top < 0 || b.bottom > m.height) {
        found.push(`${at}: ${b.id} at ${Math.round(b.top)}–${Math.round(b.bottom)} of ${m.height}`)
      }
    }
  }
  return found
}

describe.skipIf(!browserTestsEnabled('idiot-big-hand.test.ts'))('Idiot with a big hand', () => {
  const fx = browserFixture({
    deck: IDIOT_DECK,
    env: { KORTBORD_TIMER_SCALE: String(SCALE), BOT_DELAY_MS: '60' },
  })

  it('[I-16] with sixteen cards and more, Play and Pick up are on the screen without scrolling and over none of the cards, with the “you were away” banner and without it', async () => {
    const p = await fx.open({ ...PHONE, viewport: SCREENS[1] }, 'en')
    const { page, t } = p
    await createIdiotTable(p, fx.url, 'Astrid', 4, undefined, 15)
    for (const seat of [1, 2, 3]) {
      await page.getByTestId(`add-bot-${seat}`).click()
      await page.getByTestId(`bot-${seat}`).waitFor()
    }
    await startGame(p)
    await page.getByTestId('hand').waitFor()

    // The player does nothing: the timer marks them ready, then takes up the pile for them turn
    // after turn (I-16), so they are shown as away, with the banner, and their hand grows.
    await eventually(async () => {
      expect((await snap(page)).hand?.length ?? 0).toBeGreaterThanOrEqual(BIG)
      expect(await page.getByTestId('shown-away').count()).toBe(1)
    }, 90_000)
    const found: string[] = []
    for (const s of SCREENS) {
      await page.setViewportSize(s)
      found.push(...(await problems(page, `${s.name}, away banner`)))
      await screenshot(page, `idiot-big-hand-away-${s.name}`, { screen: true })
    }

    // The host turns the timer off and the player makes a move: they are back, the banner goes.
    await page.setViewportSize(SCREENS[1])
    await page.locator('details.people summary').click()
    await page.getByTestId('timer-setting').selectOption('off')
    await eventually(async () => expect((await snap(page)).status).toBe(t.yourTurn), 30_000)
    const before = await snap(page)
    if ((before.pile ?? 0) > 0) await page.getByTestId('pickup').click()
    else {
      await page.getByTestId(`hand-${before.hints[0]}`).click()
      await page.getByTestId('play').click()
    }
    await page.getByTestId('shown-away').waitFor({ state: 'detached' })
    expect((await snap(page)).hand?.length ?? 0).toBeGreaterThanOrEqual(BIG - 1)
    for (const s of SCREENS) {
      await page.setViewportSize(s)
      found.push(...(await problems(page, s.name)))
      await screenshot(page, `idiot-big-hand-${s.name}`, { screen: true })
    }
    expect(found).toEqual([])
  })
})
