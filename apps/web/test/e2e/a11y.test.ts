// Accessibility and phone findings of a QA pass, each checked where only the page shows it: what
// screen readers are told (names, descriptions, languages, live regions), the keyboard, and the
// size and spacing of what a finger has to hit.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { browserFixture } from './fixture.ts'
import { browserTestsEnabled, DESKTOP, expectNoAxeViolations, PHONE } from './server.ts'

const GAMES = ['idiot', 'duel', 'klockan', 'herrarna'] as const

/** The text of the elements an element's aria-describedby points at. */
const descriptionOf = (page: Page, selector: string) =>
  page.locator(selector).evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent?.trim() ?? `(no #${id})`)
      .join(' '),
  )

describe.skipIf(!browserTestsEnabled('a11y.test.ts'))('accessibility findings', () => {
  const fx = browserFixture()

  for (const [size, opts, lang] of [
    ['phone', PHONE, 'sv'],
    ['desktop', DESKTOP, 'en'],
  ] as const) {
    it(`home (${size}): a game's radio button is named by the game's name only, its blurb is its description`, async () => {
      const { page, t } = await fx.open(opts, lang)
      await page.goto(`${fx.url}/`)
      const blurbs = {
        idiot: t.idiotBlurb,
        duel: t.duelBlurb,
        klockan: t.klockanBlurb,
        herrarna: t.herrarnaBlurb,
      }
      for (const g of GAMES) {
        const radio = page.getByRole('radio', { name: t[g], exact: true })
        expect(await radio.count(), `the ${g} radio named "${t[g]}"`).toBe(1)
        expect(await radio.getAttribute('value')).toBe(g)
        expect(await descriptionOf(page, `input[name="game"][value="${g}"]`)).toBe(blurbs[g])
      }
      await expectNoAxeViolations(page, `home (${size})`)
    })
  }
})
