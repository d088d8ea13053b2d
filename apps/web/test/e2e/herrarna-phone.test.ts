// Dom Åtta Herrarna on a phone held sideways, and what a screen reader hears at its table (a QA
// pass): cards big enough to read on a short, wide screen (at least 36 px wide; they were 17.5),
// the pile's count beside the card's index, not over it, and Step / Run / Speed on the screen
// without scrolling (also upright at 360×640); every Step says once what it did, naming the card
// it moved (stepping through the reserve said nothing), the Waste names its top card, and Run
// says nothing while it plays.
import { formatCards, herrarnaDeck } from '@kortbord/engine'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { cardName } from '../../src/lib/card-names.ts'
import { browserFixture } from './fixture.ts'
import { listen, said } from './live.ts'
import { createSoloTable, type Person } from './pages.ts'
import {
  browserTestsEnabled,
  DESKTOP,
  eventually,
  expectNoAxeViolations,
  PHONE,
  SIDEWAYS,
  SIDEWAYS_PHONE,
  screenshot,
} from './server.ts'

/** As patience.test.ts's second server: a game of 367 steps that reaches round 3. */
const DECK = formatCards(herrarnaDeck('h3'))

const OTHERS = [
  { width: 360, height: 640 },
  { width: 390, height: 844 },
  DESKTOP.viewport!,
] as const
const CONTROLS = ['step', 'run', 'speed'] as const

interface Measure {
  /** The narrowest top card of a pile (px). */
  pile: number
  /** The narrowest foundation card (px). */
  foundation: number
  /** Piles whose count badge lies over the top card's index (its left third, upper 40 %). */
  badgeOverIndex: string[]
  /** Controls (Step, Run, Speed) not wholly on the screen with the page at its top. */
  off: string[]
  /** The page is no wider than the screen. */
  fits: boolean
}

function measure(page: Page): Promise<Measure> {
  return page.evaluate((ids) => {
    window.scrollTo(0, 0)
    const root = document.querySelector('section.herrarna')!
    const widths = (sel: string) =>
      [...root.querySelectorAll(sel)].map((e) => e.getBoundingClientRect().width)
    const badgeOverIndex: string[] = []
    for (const pile of root.querySelectorAll<HTMLElement>('[data-testid^="pile-"]')) {
      const badge = pile.querySelector('.count')
      const tops = pile.querySelectorAll('.in')
      const card = tops[tops.length - 1]?.querySelector('[data-card]')
      if (!badge || !card) continue
      const b = badge.getBoundingClientRect()
      const c = card.getBoundingClientRect()
      const index = { right: c.left + c.width / 3, bottom: c.top + c.height * 0.4 }
      if (b.left < index.right && b.top < index.bottom && b.bottom > c.top)
        badgeOverIndex.push(pile.dataset.testid!)
    }
    const off: string[] = []
    for (const id of ids) {
      const el = root.querySelector(`[data-testid="${id}"]`)
      if (!el) continue
      const r = el.getBoundingClientRect()
      if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5)
        off.push(`${id}: ${Math.round(r.top)}–${Math.round(r.bottom)} of ${innerHeight}`)
    }
    return {
      pile: Math.min(...widths('[data-testid^="pile-"] .in:last-child [data-card]')),
      foundation: Math.min(...widths('[data-testid^="foundation-"] [data-card]')),
      badgeOverIndex,
      off,
      fits: document.documentElement.scrollWidth <= innerWidth,
    }
  }, CONTROLS)
}

/** The cards on the table by where they lie: the top of each foundation and of the waste. */
const tops = (page: Page) =>
  page.evaluate(() => {
    const out: Record<string, number | null> = {}
    for (const el of document.querySelectorAll<HTMLElement>(
      '[data-testid^="foundation-"], [data-testid="heap-waste"]',
    )) {
      const c = el.querySelector<HTMLElement>('[data-card]')
      out[el.dataset.testid!] = c ? Number(c.dataset.card) : null
    }
    const built = document.querySelector('[data-testid="built"]')?.textContent ?? ''
    const waste = document.querySelector('[data-testid="heap-waste"]')?.textContent ?? ''
    return { out, built, waste }
  })

describe.skipIf(!browserTestsEnabled('herrarna-phone.test.ts'))(
  'Dom Åtta Herrarna on a phone',
  () => {
    const fx = browserFixture({ deck: DECK })
    let me: Person

    beforeAll(async () => {
      me = await fx.open(SIDEWAYS_PHONE, 'en')
    })

    it('[H-5] sideways: cards at least 36 px wide, the count off the index, Step / Run / Speed on the screen; upright and desktop no worse', async () => {
      const { page, t } = me
      await createSoloTable(me, fx.url, 'Astrid', 'herrarna', async () => {})
      await page.getByTestId('foundations').waitFor()
      // Run into round 2, while the hand is dealt out (the busiest table: piles with a count,
      // foundations, the hand).
      await page.getByTestId('speed-fast').click()
      await page.getByTestId('run').click()
      const [fromHand] = t.stepDealHand('\u0000').split('\u0000')
      await eventually(
        async () =>
          expect(await page.getByTestId('next-step').textContent()).toContain(fromHand!.trim()),
        60_000,
      )
      await page.getByTestId('stop').click()
      await page.getByTestId('run').waitFor()
      await page.waitForTimeout(400)

      const got: Record<string, Measure> = {}
      for (const size of [...SIDEWAYS, ...OTHERS]) {
        await page.setViewportSize(size)
        await page.waitForTimeout(100)
        const key = `${size.width}x${size.height}`
        got[key] = await measure(page)
        await screenshot(page, `herrarna-phone-${key}`, { screen: true })
      }
      console.log(`herrarna sizes: ${JSON.stringify(got)}`)
      for (const [key, m] of Object.entries(got)) {
        expect(m.off, key).toEqual([])
        expect(m.badgeOverIndex, key).toEqual([])
        expect(m.fits, key).toBe(true)
      }
      for (const s of SIDEWAYS) {
        const m = got[`${s.width}x${s.height}`]!
        expect(m.pile, `${s.width}x${s.height}`).toBeGreaterThanOrEqual(36)
        expect(m.foundation, `${s.width}x${s.height}`).toBeGreaterThanOrEqual(30)
      }
      // Upright and on a desktop as big as before (61 and 51.9 px).
      expect(got['390x844']!.pile).toBeGreaterThanOrEqual(60)
      expect(got['1280x800']!.pile).toBeGreaterThanOrEqual(51.5)
      await page.setViewportSize(SIDEWAYS[0])
      await expectNoAxeViolations(page, 'Dom Åtta Herrarna sideways, round 2')
    })

    it('[H-5] Swedish and Norwegian (longer words): Step, Run and Speed in one row at 360×640', async () => {
      for (const lang of ['sv', 'nb'] as const) {
        const other = await fx.open({ ...PHONE, viewport: { width: 360, height: 640 } }, lang)
        await createSoloTable(other, fx.url, 'Bo', 'herrarna', async () => {})
        await other.page.getByTestId('foundations').waitFor()
        const m = await measure(other.page)
        await screenshot(other.page, `herrarna-phone-360x640-${lang}`, { screen: true })
        expect(m.off, lang).toEqual([])
        expect(m.fits, lang).toBe(true)
        await other.page.setViewportSize(SIDEWAYS[1])
        const w = await measure(other.page)
        expect(w.off, lang).toEqual([])
        expect(w.fits, lang).toBe(true)
        await fx.contextOf(other).close()
      }
    })

    it('[H-5] each Step says once what it did, naming the card; the Waste names its top card; Run says nothing while it plays', async () => {
      const { page, t, lang } = me
      // On to round 2's reserve: a card turned up at each Step.
      const turn = t.nextStep(t.stepTurn)
      await page.getByTestId('run').click()
      await eventually(
        async () => expect(await page.getByTestId('next-step').textContent()).toBe(turn),
        60_000,
      )
      await page.getByTestId('stop').click()
      await page.getByTestId('run').waitFor()
      await page.waitForTimeout(400)
      expect(await page.getByTestId('next-step').textContent()).toBe(turn)
      for (const size of [...SIDEWAYS, ...OTHERS]) {
        await page.setViewportSize(size)
        await page.waitForTimeout(100)
        await screenshot(page, `herrarna-phone-reserve-${size.width}x${size.height}`, {
          screen: true,
        })
      }
      await page.setViewportSize(SIDEWAYS[0])
      await listen(page)
      let heard = 0
      for (let k = 1; k <= 8; k++) {
        const before = await tops(page)
        await page.getByTestId('step').click()
        const after = await eventually(async () => {
          const now = await tops(page)
          expect(JSON.stringify(now)).not.toBe(JSON.stringify(before))
          return now
        })
        // The card the step moved: a foundation's new top, or the waste's.
        const moved = Object.entries(after.out).find(
          ([where, c]) => c !== null && c !== before.out[where],
        )
        expect(moved, JSON.stringify({ before, after })).toBeDefined()
        const name = cardName(lang, moved![1]!)
        await eventually(async () => expect((await said(page)).length).toBeGreaterThan(heard))
        await page.waitForTimeout(200)
        const now = await said(page)
        const news = now.slice(heard)
        heard = now.length
        if (k <= 3) console.log(`herrarna step ${k}: ${JSON.stringify(news)}`)
        expect(news, JSON.stringify(news)).toHaveLength(1)
        expect(news[0]!.toLowerCase(), news[0]).toContain(name)
        if (moved![0] === 'heap-waste') {
          const label = (await page.getByTestId('heap-waste').getAttribute('aria-label')) ?? ''
          expect(label, label).toContain(name)
        }
      }
      // Run plays on without a word, and says where it stopped once.
      await page.getByTestId('run').click()
      await page.waitForTimeout(1500)
      const during = (await said(page)).length - heard
      await page.getByTestId('stop').click()
      await page.getByTestId('run').waitFor()
      await page.waitForTimeout(500)
      const all = (await said(page)).slice(heard)
      console.log(`herrarna run: ${during} said while running, then ${JSON.stringify(all)}`)
      expect(during).toBe(0)
      expect(all.length).toBeLessThanOrEqual(2)
      await expectNoAxeViolations(page, 'Dom Åtta Herrarna sideways, stepped')
      // Round 3's eight places, sideways too: beside the foundations, the controls on the screen.
      await page.getByTestId('run').click()
      await eventually(
        async () => expect(await page.getByTestId('round').textContent()).toBe(t.round(3)),
        60_000,
      )
      await page.getByTestId('stop').click()
      await page.getByTestId('run').waitFor()
      await page.waitForTimeout(400)
      for (const size of SIDEWAYS.slice(0, 2)) {
        await page.setViewportSize(size)
        await page.waitForTimeout(100)
        const m = await measure(page)
        await screenshot(page, `herrarna-phone-round3-${size.width}x${size.height}`, {
          screen: true,
        })
        expect(m.off, `${size.width}x${size.height}`).toEqual([])
        expect(m.fits).toBe(true)
      }
      for (const e of fx.errors()) expect(e.filter((x) => x.startsWith('pageerror'))).toEqual([])
    })
  },
)
