// The home page without a name (issue 15, point 6): "Practise" and "Create" say on the screen
// that a name is needed, next to the field, and put the focus in it; nothing else happens.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { TABLE_DICTS } from '../../src/lib/i18n-table.ts'
import { browserFixture } from './fixture.ts'
import {
  createTable,
  fitsWidth,
  joinByLink,
  lobbyHeading,
  pageWidths,
  pickGame,
  selectByLabel,
  startGame,
} from './pages.ts'
import { browserTestsEnabled, DESKTOP, expectNoAxeViolations, PHONE, screenshot } from './server.ts'

/** The name's problem line and the focus: what the player sees and where typing would go. */
const nameState = (page: Page) =>
  page.evaluate(() => {
    const input = document.getElementById('home-name') as HTMLInputElement
    const problem = document.querySelector<HTMLElement>('[data-testid="name-problem"]')!
    const r = problem.getBoundingClientRect()
    const f = input.getBoundingClientRect()
    const inView = (b: DOMRect) => b.top >= 0 && b.bottom <= window.innerHeight && b.height > 0
    return {
      text: problem.textContent?.trim() ?? '',
      problemInView: inView(r),
      fieldInView: inView(f),
      focused: document.activeElement === input,
      invalid: input.getAttribute('aria-invalid'),
      describedBy: input.getAttribute('aria-describedby') === problem.id,
      path: location.pathname,
    }
  })

/**
 * The own board of eight piles: the piles by row (top to bottom, each left to right), the width
 * of its narrowest card, the height from the top of the first row to the bottom of the lowest
 * pile, the screen's height, and whether the page is wider than the screen.
 */
const eightPiles = (page: Page) =>
  page.evaluate(() => {
    const board = document.querySelector('[data-testid="my-board"]')!
    const piles = [...board.querySelectorAll<HTMLElement>('[data-testid^="pile-"]')].map((el) => ({
      i: Number(el.dataset.testid!.slice(5)),
      r: el.getBoundingClientRect(),
    }))
    const tops = [...new Set(piles.map((p) => Math.round(p.r.top)))].sort((a, b) => a - b)
    const rows = tops.map((top) =>
      piles
        .filter((p) => Math.round(p.r.top) === top)
        .sort((a, b) => a.r.left - b.r.left)
        .map((p) => p.i),
    )
    const cards = [...board.querySelectorAll('.piles [data-card]')].map(
      (c) => c.getBoundingClientRect().width,
    )
    return {
      rows,
      cardWidth: Math.round(Math.min(...cards) * 10) / 10,
      pilesHeight: Math.round(Math.max(...piles.map((p) => p.r.bottom)) - tops[0]!),
      screenHeight: window.innerHeight,
      overflow: document.documentElement.scrollWidth > window.innerWidth,
    }
  })

/**
 * The least card width of eight piles on a 360 px phone (in one row of eight it was 35 px):
 * dealt, and with piles of seven and of thirteen cards (76, 62 and 39 px when measured).
 */
const EIGHT_MIN = { dealt: 70, seven: 56, thirteen: 37 } as const

describe.skipIf(!browserTestsEnabled('home.test.ts'))('The home page without a name', () => {
  const fx = browserFixture()

  for (const [size, opts, lang] of [
    ['phone', PHONE, 'sv'],
    ['desktop', DESKTOP, 'en'],
  ] as const) {
    it(`Practise and Create with an empty name (${size}): the reason on screen, the focus in the field`, async () => {
      const p = await fx.open(opts, lang)
      const { page, t } = p
      /** The reason on the screen and said, the field in view, focused and marked, still home. */
      const refused = {
        text: t.needName,
        problemInView: true,
        fieldInView: true,
        focused: true,
        invalid: 'true',
        describedBy: true,
        path: '/',
      }
      await page.goto(`${fx.url}/`)
      expect((await nameState(page)).text).toBe('')
      await expectNoAxeViolations(page, `home (${size}), no name`)

      // Practise, from below the fold on a phone: the page goes back up to the field.
      const practise = page.getByTestId('practise')
      await practise.scrollIntoViewIfNeeded()
      await practise.click()
      expect(await nameState(page)).toEqual(refused)
      await screenshot(page, `home-${size}-practise-no-name`, { screen: true })
      await expectNoAxeViolations(page, `home (${size}), Practise without a name`)

      // A name makes the reason go; taken away again, Create (at the end of the form) says it.
      await page.getByLabel(t.yourName).fill('Astrid')
      expect((await nameState(page)).text).toBe('')
      await page.getByLabel(t.yourName).fill('')
      const create = page.getByRole('button', { name: t.create, exact: true })
      await create.scrollIntoViewIfNeeded()
      // On a phone the field is far above by now: the page has to bring it back.
      if (size === 'phone') expect((await nameState(page)).fieldInView).toBe(false)
      await create.click()
      expect(await nameState(page)).toEqual(refused)
      expect(await lobbyHeading(page, t).count()).toBe(0)
      await screenshot(page, `home-${size}-create-no-name`, { screen: true })
      await expectNoAxeViolations(page, `home (${size}), Create without a name`)
    })
  }

  it('on a 320 px phone the form of every game fits the screen, in every language (the duel’s scoring select was wider)', async () => {
    for (const lang of ['sv', 'nb', 'en'] as const) {
      const { page } = await fx.open({ ...PHONE, viewport: { width: 320, height: 640 } }, lang)
      await page.goto(`${fx.url}/`)
      for (const game of ['idiot', 'klockan', 'herrarna', 'duel'] as const) {
        await pickGame(page, game)
        await expect
          .poll(() => pageWidths(page), { message: `${game} in ${lang}` })
          .toEqual({ page: 320, layout: 320 })
      }
      await screenshot(page, `home-phone-320-duel-${lang}`)
    }
  })

  it('every game card keeps its description right under its title, whatever its neighbour’s height (QA: 40 px apart beside a taller card)', async () => {
    for (const [opts, lang] of [
      [DESKTOP, 'en'],
      [PHONE, 'sv'],
    ] as const) {
      const { page } = await fx.open(opts, lang)
      await page.goto(`${fx.url}/`)
      const gaps = await page.locator('label.choice').evaluateAll((cards) =>
        cards.map((c) => {
          const title = c.querySelector('strong')!.getBoundingClientRect()
          const blurb = c.querySelector('small')!.getBoundingClientRect()
          return Math.round(blurb.top - title.bottom)
        }),
      )
      expect(gaps, `${lang}: ${gaps}`).toHaveLength(4)
      expect(Math.max(...gaps) - Math.min(...gaps), `${lang}: ${gaps}`).toBeLessThanOrEqual(1)
    }
  })

  it('[A-2][A-10] a duel of eight piles with two decks: chosen on the home page, the same deal only with two decks each, all eight piles on a phone in two rows of four, cards twice as wide as in one row', async () => {
    const host = await fx.open(PHONE, 'en')
    const guest = await fx.open(PHONE, 'sv')
    const { page, t } = host
    const configure = async () => {
      await selectByLabel(page, t.yourPiles).selectOption('8')
      // Two decks against one: the same cards cannot be dealt to both, and the page says why.
      const same = page.locator('input[name="sameDeal"]')
      expect(await same.isDisabled()).toBe(true)
      expect(await page.getByTestId('same-deal-decks').textContent()).toBe(t.sameDealDecks)
      await expectNoAxeViolations(page, 'home, eight piles against four')
      await selectByLabel(page, t.theirPiles).selectOption('8')
      expect(await same.isDisabled()).toBe(false)
      expect(await page.getByTestId('same-deal-decks').count()).toBe(0)
      await same.check()
    }
    const link = await createTable(host, fx.url, 'Astrid', 'duel', configure)
    await joinByLink(guest, link, 'Bo')
    await startGame(host)
    for (const p of [host, guest]) {
      const mine = p.page.getByTestId('my-board')
      await mine.waitFor()
      expect(await mine.locator('[data-testid^="pile-"]').count()).toBe(8)
      expect(await mine.locator('[data-testid^="pile-"] [data-card]').count()).toBe(8)
      expect(await fitsWidth(p.page)).toBe(true)
    }
    // The score sheet's bands are those of two decks, in each reader's language.
    for (const [p, lang] of [
      [host, 'en'],
      [guest, 'sv'],
    ] as const) {
      const said = await p.page.getByTestId('sheet-explained').textContent()
      expect(said).toContain(TABLE_DICTS[lang].scoreBandsTwoDecks)
      expect(said).not.toContain(TABLE_DICTS[lang].scoreBands)
    }
    await screenshot(page, 'home-phone-duel-eight-piles')
    await expectNoAxeViolations(page, 'duel of eight piles, phone')

    // On a phone the eight piles lie in two rows of four, in order: the cards are twice as wide
    // as in one row of eight (35 px). As the piles grow the cards get smaller, so that both rows
    // stay on the screen, but never as small as in one row.
    const expectRows = async (state: keyof typeof EIGHT_MIN) => {
      const l = await eightPiles(page)
      const said = `${state}: ${JSON.stringify(l)}`
      expect(l.overflow, said).toBe(false)
      expect(l.rows, said).toEqual([
        [0, 1, 2, 3],
        [4, 5, 6, 7],
      ])
      expect(l.cardWidth, said).toBeGreaterThanOrEqual(EIGHT_MIN[state])
      expect(l.pilesHeight, said).toBeLessThanOrEqual(l.screenHeight)
      await screenshot(page, `home-phone-duel-eight-piles-${state}`, { screen: true })
    }
    await expectRows('dealt')
    // Deals without a discard (over the warning): piles of seven cards, then of thirteen.
    const dealTo = async (stock: number) => {
      const left = page.getByTestId('my-board-stock')
      for (let was = Number(await left.getAttribute('data-count')); was > stock; was -= 8) {
        await page.getByTestId('deal').click()
        const warn = page.getByRole('alert').filter({ hasText: t.dealWarning })
        if (await warn.isVisible()) await page.getByTestId('deal').click()
        await expect.poll(() => left.getAttribute('data-count')).toBe(String(was - 8))
      }
    }
    await dealTo(48)
    // The same deal: the guest sees of the host's game only how many deals it has had.
    const hostOnGuest = guest.page.getByTestId('hidden-0')
    await expect.poll(() => hostOnGuest.textContent()).toContain(guest.t.dealtSoFar('Astrid', 6))
    expect(await hostOnGuest.textContent()).toContain(guest.t.hidden)
    await expectRows('seven')
    await expectNoAxeViolations(page, 'duel of eight piles, phone, seven cards a pile')
    await dealTo(0)
    await expectRows('thirteen')
    // A phone held sideways (too short for two rows) and a desktop keep one row of eight.
    for (const viewport of [
      { width: 740, height: 360 },
      { width: 1280, height: 800 },
    ]) {
      await guest.page.setViewportSize(viewport)
      const l = await eightPiles(guest.page)
      expect(l.rows, JSON.stringify({ viewport, ...l })).toEqual([[0, 1, 2, 3, 4, 5, 6, 7]])
      expect(l.overflow).toBe(false)
    }
  })
})

/** The page's language chunks the page fetched (i18n-en/sv/nb), each with who asked for it. */
const wordsFetched = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => e as PerformanceResourceTiming)
      .flatMap((e) => {
        const lang = /\/assets\/i18n-(en|sv|nb)-[\w-]+\.js$/.exec(e.name)?.[1]
        return lang === undefined ? [] : [{ lang, by: e.initiatorType }]
      }),
  )

describe.skipIf(!browserTestsEnabled('home.test.ts'))("The page's first load", () => {
  const fx = browserFixture()

  it("brings the words of the player's language with its first requests: the browser's, then the one chosen", async () => {
    // A Swedish browser: the server's page preloads the Swedish words (a <link>), so the page's
    // own import finds them on the way instead of asking one round trip after its start.
    const { page, context } = await fx.person({ ...PHONE, locale: 'sv-SE' })
    await page.goto(`${fx.url}/`)
    await expect.poll(() => page.locator('h1').textContent()).toContain('kortbord')
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('sv')
    const first = await wordsFetched(page)
    expect(first.map((w) => w.lang)).toEqual(['sv'])
    expect(first[0]!.by, 'the Swedish words were fetched by the import, not preloaded').not.toBe(
      'script',
    )
    // The player picks Norsk: the page remembers it (storage and a cookie), and a later load
    // preloads Norwegian although the browser still asks for Swedish. (A browser with what this
    // one stores but an empty cache: this one has the Norwegian words cached since the switch.)
    await page.locator('select.lang').selectOption('nb')
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('nb')
    await expect
      .poll(async () => (await context.cookies()).find((c) => c.name === 'lang')?.value)
      .toBe('nb')
    const stored = await context.storageState()
    const later = await fx.person({ ...PHONE, locale: 'sv-SE', storageState: stored })
    await later.page.goto(`${fx.url}/`)
    expect(await later.page.evaluate(() => document.documentElement.lang)).toBe('nb')
    const again = await wordsFetched(later.page)
    expect(again.map((w) => w.lang)).toEqual(['nb'])
    expect(again[0]!.by).not.toBe('script')
  })

  // These two open their pages directly: person()'s goto waits for the page to mount.
  it('shows the name on the felt while the words are on their way, then the page in its place', async () => {
    const context = await fx.browser.newContext({ ...PHONE, locale: 'en-GB' })
    try {
      const page = await context.newPage()
      let release = () => {}
      const held = new Promise<void>((r) => {
        release = r
      })
      await page.route(/\/assets\/i18n-en-[\w-]+\.js$/, async (route) => {
        await held
        await route.continue()
      })
      await page.goto(`${fx.url}/`, { waitUntil: 'commit' })
      const boot = page.locator('#app > .boot')
      await expect.poll(() => boot.textContent(), { timeout: 5_000 }).toBe('kortbord')
      // Faded in after a moment (0.4 s, then 0.3 s), so a quick load never flashes it: longer
      // than expect.poll's one second allows when the page itself was slow to come (a run just
      // after a build failed there once).
      const opacity = () => boot.evaluate((e) => getComputedStyle(e).opacity)
      await expect.poll(opacity, { timeout: 5_000 }).toBe('1')
      await screenshot(page, 'boot-phone')
      release()
      await page.getByRole('heading', { name: 'kortbord' }).waitFor()
      expect(await boot.count()).toBe(0)
    } finally {
      await context.close()
    }
  })

  it('says without JavaScript that the game needs it, in the three languages', async () => {
    const context = await fx.browser.newContext({ ...PHONE, javaScriptEnabled: false })
    try {
      const page = await context.newPage()
      await page.goto(`${fx.url}/`)
      // Without scripts a noscript's words are part of the page (with them, only its text).
      const said = page.locator('p.noscript')
      expect(await said.isVisible()).toBe(true)
      for (const words of ['needs JavaScript', 'behöver JavaScript', 'trenger JavaScript']) {
        expect(await said.textContent()).toContain(words)
      }
    } finally {
      await context.close()
    }
  })
})
