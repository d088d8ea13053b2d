// Accessibility and phone findings of a QA pass, each checked where only the page shows it: what
// screen readers are told (names, descriptions, languages, live regions), the keyboard, and the
// size and spacing of what a finger has to hit.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { RECORD_DICTS } from '../../src/lib/i18n-records.ts'
import { KLOCKAN_DECK } from './decks.ts'
import { browserFixture } from './fixture.ts'
import {
  createSoloTable,
  createTable,
  joinByLink,
  type Person,
  selectByLabel,
  startGame,
} from './pages.ts'
import { browserTestsEnabled, DESKTOP, expectNoAxeViolations, PHONE, screenshot } from './server.ts'

const GAMES = ['idiot', 'duel', 'klockan', 'herrarna'] as const

/** A phone held sideways: wide, and too short for a whole table. */
const SIDEWAYS = { ...PHONE, viewport: { width: 740, height: 360 } }

/** The texts marked lang="sv" inside `selector` (each element's own text). */
const swedishIn = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((root) =>
      [...root.querySelectorAll('[lang="sv"]')].map((e) => e.textContent?.trim() ?? ''),
    )

/** The text of the elements an element's aria-describedby points at. */
const descriptionOf = (page: Page, selector: string) =>
  page.locator(selector).evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent?.trim() ?? `(no #${id})`)
      .join(' '),
  )

/** The boxes of two elements and the space between them (0 when they touch or overlap). */
const spacing = (page: Page, a: string, b: string) =>
  page.evaluate(
    ([a, b]) => {
      const box = (s: string) => {
        const r = document.querySelector(s)!.getBoundingClientRect()
        return {
          left: r.left,
          right: r.right,
          top: r.top,
          bottom: r.bottom,
          w: r.width,
          h: r.height,
        }
      }
      const x = box(a)
      const y = box(b)
      const dx = Math.max(0, y.left - x.right, x.left - y.right)
      const dy = Math.max(0, y.top - x.bottom, x.top - y.bottom)
      return { a: x, b: y, gap: Math.max(dx, dy) }
    },
    [a, b] as const,
  )

/** WCAG 2.5.5's target size: 44 × 44 CSS px. */
const TARGET = 44

/**
 * What a finger may have to hit on the page as it is now and is smaller than TARGET either way
 * (a checkbox or radio button by its label, which takes the tap too), and whether the page is
 * wider than the screen.
 */
const targets = (page: Page) =>
  page.evaluate((min) => {
    const sel = 'button, a[href], select, input, textarea, summary, [role="option"], [tabindex="0"]'
    const small: string[] = []
    for (const el of document.querySelectorAll<HTMLElement>(sel)) {
      const box = el.matches('input[type="checkbox"], input[type="radio"]')
        ? (el.closest('label') ?? el)
        : el
      const r = box.getBoundingClientRect()
      // Not on the page now (a folded section, a hidden menu).
      if (r.width === 0 || r.height === 0 || getComputedStyle(box).visibility === 'hidden') continue
      if (r.width >= min - 0.01 && r.height >= min - 0.01) continue
      const what = el.dataset.testid ?? el.getAttribute('aria-label') ?? el.textContent?.trim()
      small.push(
        `${el.tagName.toLowerCase()} "${what?.slice(0, 40)}" ${r.width.toFixed(1)}×${r.height.toFixed(1)}`,
      )
    }
    return { small, overflow: document.documentElement.scrollWidth > window.innerWidth }
  }, TARGET)

/** A Klockan game alone, played to its end (KLOCKAN_DECK: 30 cards) with Run at its fastest. */
async function klockanToEnd(p: Person, url: string): Promise<void> {
  await createSoloTable(p, url, 'Astrid', 'klockan', async () => {})
  await p.page.getByTestId('speed-fast').click()
  await p.page.getByTestId('run').click()
  await p.page.getByTestId('result').waitFor({ timeout: 30_000 })
  await p.page.getByTestId('record-link-end').waitFor()
}

/** Klockan played to its end, then its record's replay page (in the person's language). */
async function klockanReplay(p: Person, url: string): Promise<void> {
  await klockanToEnd(p, url)
  const href = (await p.page.getByTestId('record-link-end').getAttribute('href')) ?? ''
  expect(href).toMatch(/^\/r\//)
  await p.page.goto(`${url}${href}`)
  await p.page.getByTestId('verify-ok').waitFor()
}

describe.skipIf(!browserTestsEnabled('a11y.test.ts'))('accessibility findings', () => {
  const fx = browserFixture({ deck: KLOCKAN_DECK })

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

  it('the games’ Swedish names are marked lang="sv" inside English and Norwegian text, not on a Swedish page', async () => {
    for (const lang of ['en', 'nb', 'sv'] as const) {
      const { page, t } = await fx.open(PHONE, lang)
      await page.goto(`${fx.url}/`)
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang)
      const marked = lang === 'sv' ? [] : [t.idiot, t.duel, t.klockan, t.herrarna]
      expect(await swedishIn(page, '.games')).toEqual(marked)
      // "How to play Idiot": the sentence the page's, the name Swedish.
      expect(await swedishIn(page, '[data-testid="howto-open"]')).toEqual(
        lang === 'sv' ? [] : [t.idiot],
      )
      expect((await page.getByTestId('howto-open').textContent())?.trim()).toBe(
        t.howToPlayGame(t.idiot),
      )
    }
    // A table's heading: "Klockan, table ABC234".
    const p: Person = await fx.open(PHONE, 'en')
    await createSoloTable(p, fx.url, 'Astrid', 'klockan', async () => {})
    expect(await swedishIn(p.page, 'h1')).toEqual([p.t.klockan])
    await expectNoAxeViolations(p.page, 'Klockan, English')
  })

  // A phone held upright, one held sideways (where both fit on one line) and a desktop.
  for (const [size, opts] of [
    ['phone', PHONE],
    ['phone sideways', SIDEWAYS],
    ['desktop', DESKTOP],
  ] as const) {
    it(`the end of a Klockan game (${size}): the record's link is 24 px away from Next game`, async () => {
      const p = await fx.open(opts, 'en')
      await klockanToEnd(p, fx.url)
      const s = await spacing(p.page, '[data-testid="record-link-end"]', '[data-testid="next"]')
      expect(s.gap, JSON.stringify(s)).toBeGreaterThanOrEqual(24)
      for (const target of [s.a, s.b]) expect(target.h).toBeGreaterThanOrEqual(24)
      await screenshot(p.page, `a11y-klockan-end-${size.replace(' ', '-')}`, { screen: true })
      await expectNoAxeViolations(p.page, `the end of Klockan (${size})`)
    })
  }

  it('a phone with a notch held sideways: nothing to read or tap lies under the notch, the rounded corners or the home bar (home, Idiot, How to play, Idioten för två, Klockan, Dom Åtta Herrarna)', async () => {
    const p = await fx.open({ ...PHONE, viewport: { width: 844, height: 390 } }, 'sv')
    const { page, t } = p
    // An iPhone's safe area held sideways: 47 px each side, 21 px of home bar below.
    const inset = { top: 0, left: 47, right: 47, bottom: 21 }
    const cdp = await fx.contextOf(p).newCDPSession(page)
    await cdp.send('Emulation.setSafeAreaInsetsOverride', { insets: inset })
    const outside = (where: string) =>
      page.evaluate(
        async ([where, inset]) => {
          await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
          const w = window.innerWidth
          const h = window.innerHeight
          const found: string[] = []
          if (document.documentElement.scrollWidth > w)
            found.push(`${where}: the page is ${document.documentElement.scrollWidth} px wide`)
          const sel =
            'button, a, input, select, summary, h1, h2, h3, p, li, label, [data-card], th, td'
          // Shown: not hidden, nor in a folded <details> (whose content keeps its boxes), nor a
          // screen reader's text of one pixel.
          const shown = (el: HTMLElement) => {
            const r = el.getBoundingClientRect()
            return r.width > 1 && r.height > 1 && el.checkVisibility({ visibilityProperty: true })
          }
          for (const el of document.querySelectorAll<HTMLElement>(sel)) {
            if (!shown(el)) continue
            const r = el.getBoundingClientRect()
            const name = `${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : ''} "${(el.textContent ?? '').trim().slice(0, 20)}"`
            if (r.left < inset.left - 0.5 || r.right > w - inset.right + 0.5)
              found.push(
                `${where}: ${name} at x ${r.left.toFixed(1)}–${r.right.toFixed(1)} of ${w}`,
              )
          }
          // At the end of the page (or of the dialog open over it), the last of it is above the
          // home bar.
          const dialog = document.querySelector('dialog[open]')
          const scroller = dialog ?? document.scrollingElement!
          // The page may still grow (a practice bot's move adds a line): scroll again until
          // the end is reached, then measure in the same task, before anything can change.
          for (let tries = 0; tries < 20; tries++) {
            scroller.scrollTo({ top: scroller.scrollHeight, behavior: 'instant' })
            await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
            if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1) break
          }
          let lowest = 0
          let what = ''
          for (const el of (dialog ?? document).querySelectorAll<HTMLElement>(sel)) {
            if ((!dialog && el.closest('dialog')) || !shown(el)) continue
            const r = el.getBoundingClientRect()
            if (r.bottom > lowest) {
              lowest = r.bottom
              what = `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? '').trim().slice(0, 20)}"`
            }
          }
          if (lowest > h - inset.bottom + 0.5)
            found.push(
              `${where}: the page ends at ${lowest.toFixed(1)} (${what}, scrolled ${window.scrollY} of ${document.documentElement.scrollHeight}), under the home bar (${h - inset.bottom})`,
            )
          scroller.scrollTo({ top: 0, behavior: 'instant' })
          return found
        },
        [where, inset] as const,
      )
    const problems: string[] = []
    await page.goto(`${fx.url}/`)
    await page.getByLabel(t.yourName).waitFor()
    problems.push(...(await outside('home')))
    await page.getByLabel(t.yourName).fill('Astrid')
    await page.getByTestId('practise').click()
    await page.getByTestId('hand').waitFor()
    problems.push(...(await outside('Idiot')))
    await screenshot(page, 'a11y-notch-idiot', { screen: true })
    // How to play: the panel on the right keeps clear of the notch too.
    await page.getByRole('button', { name: t.rules }).first().click()
    await page.getByTestId('howto-body').locator('h3').first().waitFor()
    problems.push(...(await outside('How to play')))
    await page.getByTestId('howto-close').click()
    // Idioten för två: the own board's buttons stay by the piles (sticky), above the home bar.
    const guest = await fx.open(PHONE, 'en')
    const link = await createTable(p, fx.url, 'Astrid', 'duel', async () => {})
    await joinByLink(guest, link, 'Bo')
    await startGame(p)
    await page.getByTestId('my-board').waitFor()
    problems.push(...(await outside('Idioten för två')))
    await screenshot(page, 'a11y-notch-duel', { screen: true })
    await createSoloTable(p, fx.url, 'Astrid', 'klockan', async () => {})
    problems.push(...(await outside('Klockan')))
    await screenshot(page, 'a11y-notch-klockan', { screen: true })
    // Dom Åtta Herrarna on a server of its own (this one deals the Klockan test deck).
    const plain = await fx.startServer()
    await createSoloTable(p, plain.url, 'Astrid', 'herrarna', async () => {})
    problems.push(...(await outside('Dom Åtta Herrarna')))
    await screenshot(page, 'a11y-notch-herrarna', { screen: true })
    expect(problems).toEqual([])
  })

  it('Idiot on a phone held sideways: the hand is a target wide, never narrower than the face-up cards, and the own cards fit the screen', async () => {
    const p = await fx.open(SIDEWAYS, 'sv')
    const { page, t } = p
    await page.goto(`${fx.url}/`)
    await page.getByLabel(t.yourName).fill('Astrid')
    await page.getByTestId('practise').click()
    await page.getByTestId('hand').waitFor()
    const m = await page.evaluate(() => {
      const widths = (sel: string) =>
        [...document.querySelectorAll(sel)].map((e) => e.getBoundingClientRect().width)
      return {
        hand: widths('[data-testid="hand"] .card'),
        faceUp: widths('[data-testid^="faceup-"]'),
        mine: document.querySelector('.mine')!.getBoundingClientRect().height,
        page: document.documentElement.scrollHeight,
        screen: window.innerHeight,
      }
    })
    const shown = JSON.stringify(m)
    expect(m.hand, shown).toHaveLength(3)
    expect(m.faceUp, shown).toHaveLength(3)
    // 360 px are too few for the whole table (the page scrolls), not for the hand: each card is
    // a target, as wide as the face-up cards, and the face-up row, the hand and Ready are on the
    // screen at once.
    expect(m.page, shown).toBeGreaterThan(m.screen)
    for (const w of m.hand) {
      expect(w, shown).toBeGreaterThanOrEqual(TARGET)
      expect(w, shown).toBeGreaterThanOrEqual(Math.max(...m.faceUp) - 0.01)
    }
    expect(m.mine, shown).toBeLessThanOrEqual(m.screen)
    expect(await targets(page)).toEqual({ small: [], overflow: false })
    await screenshot(page, 'a11y-idiot-phone-sideways')
    await expectNoAxeViolations(page, 'Idiot on a phone held sideways')
  })

  it('Klockan on a phone held sideways: the clock is 5 × 3, its cards readable, Turn on the screen below it, the rescue’s piles targets', async () => {
    const p = await fx.open(SIDEWAYS, 'sv')
    const { page, t } = p
    await createSoloTable(p, fx.url, 'Astrid', 'klockan', async () => {
      await selectByLabel(page, t.variant).selectOption('rescue')
    })
    await page.getByTestId('clock').waitFor()
    const m = await page.evaluate(() => {
      window.scrollTo(0, 0)
      const hours = [...document.querySelectorAll('[data-testid="clock"] .hour')].map((e) =>
        e.getBoundingClientRect(),
      )
      return {
        rows: new Set(hours.map((r) => Math.round(r.top))).size,
        columns: new Set(hours.map((r) => Math.round(r.left))).size,
        card: document.querySelector('[data-testid="clock"] .card')!.getBoundingClientRect().width,
        turn: document.querySelector('[data-testid="turn"]')!.getBoundingClientRect().bottom,
        screen: window.innerHeight,
      }
    })
    const shown = JSON.stringify(m)
    // Five rows of piles left 12 px cards on a 360 px high screen, and Turn below it anyway.
    expect({ rows: m.rows, columns: m.columns }, shown).toEqual({ rows: 3, columns: 5 })
    // Never below the least card elsewhere (2.2rem, as an opponent's small card).
    expect(m.card, shown).toBeGreaterThanOrEqual(2.2 * 16)
    expect(m.turn, shown).toBeLessThanOrEqual(m.screen)
    expect(await targets(page)).toEqual({ small: [], overflow: false })
    await screenshot(page, 'a11y-klockan-phone-sideways', { screen: true })
    // Run to the rescue (KLOCKAN_DECK: after 30 cards): every pile offered is a target.
    await page.getByTestId('speed-fast').click()
    await page.getByTestId('run').click()
    await page.getByTestId('rescue').waitFor({ timeout: 30_000 })
    expect(await targets(page)).toEqual({ small: [], overflow: false })
    await screenshot(page, 'a11y-klockan-phone-sideways-rescue')
    await expectNoAxeViolations(page, 'Klockan on a phone held sideways, the rescue offered')
  })

  it('the replay page: the verification is said once, and not again when the language is switched', async () => {
    const p = await fx.open(DESKTOP, 'en')
    const { page } = p
    await klockanReplay(p, fx.url)
    // The box is no live region (nor inside one): its words change with the language.
    const live = '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]'
    expect(
      await page
        .getByTestId('verify-ok')
        .evaluate(
          (box, live) => box.closest(live) !== null || box.querySelector(live) !== null,
          live,
        ),
    ).toBe(false)
    // The result is said by the region beside it: the box's heading (the mark left out).
    const heading = async () =>
      ((await page.locator('[data-testid="verify-ok"] h2').textContent()) ?? '').replace(/^✓ /, '')
    const en = await heading()
    expect([RECORD_DICTS.en.verified, RECORD_DICTS.en.fixedNothing]).toContain(en)
    await expect.poll(() => page.getByTestId('verify-news').textContent()).toBe(en)
    expect(await page.getByTestId('verify-alert').textContent()).toBe('')
    // The game's name in the title is Swedish (lang="sv"), the rest English.
    expect(await swedishIn(page, 'h1')).toEqual([RECORD_DICTS.en.games.klockan])

    // The step line itself is no live region either; a hidden one says the step.
    const step = (await page.getByTestId('replay-step').textContent()) ?? ''
    expect(
      await page.getByTestId('replay-step').evaluate((el, live) => el.closest(live) !== null, live),
    ).toBe(false)
    await expect.poll(() => page.getByTestId('replay-step-news').textContent()).toBe(step)

    // Everything added to the verification's and the step's live regions from now on.
    await page.evaluate(() => {
      const said: string[] = []
      ;(window as unknown as { said: string[] }).said = said
      for (const id of ['verify-news', 'verify-alert', 'replay-step-news']) {
        const el = document.querySelector(`[data-testid="${id}"]`)!
        new MutationObserver(() => {
          if (el.textContent) said.push(el.textContent)
        }).observe(el, { childList: true, characterData: true, subtree: true })
      }
    })
    await page.getByRole('combobox', { name: p.t.language }).selectOption('sv')
    await expect.poll(heading).not.toBe(en)
    const sv = await heading()
    expect([RECORD_DICTS.sv.verified, RECORD_DICTS.sv.fixedNothing]).toContain(sv)
    await page.waitForTimeout(300)
    expect(await page.evaluate(() => (window as unknown as { said: string[] }).said)).toEqual([])
    expect(await page.getByTestId('verify-news').textContent()).toBe('')
    expect(await page.getByTestId('replay-step-news').textContent()).toBe('')
    expect(await page.getByTestId('replay-step').textContent()).not.toBe(step)
    // A step to another move is said, in the new language.
    await page.getByRole('listbox').getByRole('option', { selected: true }).focus()
    await page.keyboard.press('End')
    await expect.poll(() => page.getByTestId('replay-step-news').textContent()).not.toBe('')
    const moved = (await page.getByTestId('replay-step').textContent()) ?? ''
    expect(await page.getByTestId('replay-step-news').textContent()).toBe(moved)
    expect(moved).not.toBe(step)
    await expectNoAxeViolations(page, 'replay page, switched to Swedish')
  })

  it('the replay page: the move list is one Tab stop, a listbox the arrow keys, Home and End go through', async () => {
    const p = await fx.open(PHONE, 'en')
    const { page } = p
    const r = RECORD_DICTS.en
    await klockanReplay(p, fx.url)
    const list = page.getByRole('listbox', { name: r.moves })
    expect(await list.count()).toBe(1)
    const total = await list.getByRole('option').count()
    // The deal and the 30 cards turned (KLOCKAN_DECK): many options, one Tab stop.
    expect(total).toBe(31)

    // Tab through the whole page from its top (to where the focus leaves it): the list is
    // reached once, on the move shown (the deal).
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    const stops: { inList: boolean; k: string | null }[] = []
    for (let i = 0; i < 100; i++) {
      await page.keyboard.press('Tab')
      const stop = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null
        if (!el || el === document.body) return null
        return { inList: el.closest('[data-testid="move-list"]') !== null, k: el.dataset.k ?? null }
      })
      if (stop === null) break
      stops.push(stop)
    }
    expect(stops.length, 'the page has other Tab stops').toBeGreaterThan(5)
    expect(stops.length, 'Tab left the page at its end').toBeLessThan(100)
    const inList = stops.filter((s) => s.inList)
    expect(inList, JSON.stringify(stops)).toEqual([{ inList: true, k: '0' }])

    // The keys: the option moved to is focused, selected and shown.
    const at = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement
        const selected = [
          ...document.querySelectorAll('[data-testid="move-list"] [aria-selected="true"]'),
        ]
        const tabbable = [...document.querySelectorAll('[data-testid="move-list"] [tabindex="0"]')]
        return {
          focused: el.dataset.k ?? null,
          selected: selected.map((e) => (e as HTMLElement).dataset.k),
          tabbable: tabbable.map((e) => (e as HTMLElement).dataset.k),
          step: document.querySelector('[data-testid="replay-board"]')?.getAttribute('data-step'),
        }
      })
    const expectAt = async (k: number) =>
      expect(await at()).toEqual({
        focused: String(k),
        selected: [String(k)],
        tabbable: [String(k)],
        step: String(k),
      })
    await list.getByRole('option', { name: r.dealt }).focus()
    await expectAt(0)
    await page.keyboard.press('ArrowDown')
    await expectAt(1)
    expect(await page.getByTestId('replay-step').textContent()).toMatch(
      new RegExp(`^${r.stepOf(1, 30)}: Astrid`),
    )
    // Each key and the move it goes to (Arrow Down on the last move stays there).
    for (const [key, k] of [
      ['ArrowRight', 2],
      ['End', 30],
      ['ArrowDown', 30],
      ['PageUp', 20],
      ['ArrowUp', 19],
      ['ArrowLeft', 18],
      ['Home', 0],
    ] as const) {
      await page.keyboard.press(key)
      await expectAt(k)
    }
    // Each option is named by its move in words; the one shown is the selected one.
    await page.keyboard.press('ArrowDown')
    const selected = list.getByRole('option', { selected: true })
    expect(await selected.count()).toBe(1)
    expect(await selected.textContent()).toMatch(/^\s*1\.\s+Astrid: /)
    expect(await list.getByRole('option', { name: /^5\. Astrid: / }).count()).toBe(1)

    // Stepped by the controls, the list's Tab stop follows the move shown.
    await page.getByTestId('replay-forward').click()
    expect((await at()).tabbable).toEqual(['2'])
    expect((await at()).selected).toEqual(['2'])
    await expectNoAxeViolations(page, 'replay page, the move list by keyboard')
  })

  for (const [size, opts] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`every target is at least 44 × 44 px and nothing is wider than the screen (${size}): home, each game's table, its chat, menus and dialogs, the replay`, async () => {
      const p = await fx.open(opts, 'en')
      const guest = await fx.open(opts, 'nb')
      const { page, t } = p
      const found: Record<string, Awaited<ReturnType<typeof targets>>> = {}
      // A dialog covers the screen, not the whole page: its picture is of the screen.
      const check = async (state: string, { on = page, screen = false } = {}) => {
        found[state] = await targets(on)
        await screenshot(on, `a11y-targets-${size}-${state}`, { screen })
      }
      await page.goto(`${fx.url}/`)
      await check('home')
      await page.getByLabel(t.yourName).fill('Astrid')
      await page.getByTestId('practise').click()
      await page.getByTestId('hand').waitFor()
      await check('idiot')
      const link = await createTable(p, fx.url, 'Astrid', 'duel', async () => {})
      // What a guest opening the table's link sees first.
      await joinByLink(guest, link, 'Bo', () => check('join-form', { on: guest.page }))
      await check('waiting-room')
      // How to play, over the waiting room.
      await page.getByTestId('howto-lobby').click()
      await page.getByTestId('howto-body').locator('h3').first().waitFor()
      await check('howto', { screen: true })
      await page.getByTestId('howto-close').click()
      await page.getByTestId('howto').waitFor({ state: 'detached' })
      await startGame(p)
      await page.getByTestId('my-board').waitFor()
      await check('duel')
      // The chat, opened and typed in; then the spectators' lines (the host's switch).
      await page.getByTestId('chat-toggle').click()
      await page.getByTestId('chat-input').fill('Lycka till!')
      await check('chat')
      await page.getByTestId('chat-send').click()
      await page.getByTestId('chat-line').waitFor()
      await page.getByTestId('chat-view-spectators').click()
      await page.getByTestId('spectator-chat').waitFor()
      await check('chat-spectators')
      await page.getByTestId('chat-toggle').click()
      // The history and the players' menu, unfolded.
      await page.locator('[data-testid="history"] > summary').click()
      await page.locator('details.people > summary').click()
      await check('menus')
      await page.locator('[data-testid="history"] > summary').click()
      await page.locator('details.people > summary').click()
      // The guest leaves: what the host may do about it, the question, the end of the match.
      await guest.page.locator('details.people > summary').click()
      await guest.page.getByRole('button', { name: guest.t.leave, exact: true }).click()
      // In the middle of a game it is asked first, with the focus on staying.
      await guest.page.getByTestId('leave-ask').waitFor()
      expect(
        await guest.page
          .getByRole('button', { name: guest.t.stay })
          .evaluate((e) => e === document.activeElement),
      ).toBe(true)
      await expectNoAxeViolations(guest.page, 'leave during a game: the question')
      await guest.page.getByTestId('leave-yes').click()
      await guest.page.waitForURL(`${fx.url}/`)
      await page.getByTestId('forfeit-1').waitFor()
      await check('away-actions')
      await page.getByTestId('forfeit-1').click()
      await page.getByTestId('forfeit-yes-1').waitFor()
      await check('forfeit-question')
      await page.getByTestId('forfeit-yes-1').click()
      await page.getByTestId('rematch').waitFor()
      await check('duel-end')
      // Dom Åtta Herrarna is dealt from two decks: a server without the test deck.
      const other = await fx.startServer()
      await createSoloTable(p, other.url, 'Astrid', 'herrarna', async () => {})
      await page.getByTestId('step').click()
      await check('herrarna')
      await createSoloTable(p, fx.url, 'Astrid', 'klockan', async () => {})
      await page.getByTestId('turn').click()
      await check('klockan')
      await page.getByTestId('run').click()
      await page.getByTestId('record-link-end').waitFor({ timeout: 30_000 })
      await check('klockan-end')
      await page.goto(`${fx.url}${await page.getByTestId('record-link-end').getAttribute('href')}`)
      await page.getByTestId('verify-ok').waitFor()
      await check('replay')
      expect(found).toEqual(
        Object.fromEntries(Object.keys(found).map((k) => [k, { small: [], overflow: false }])),
      )
    })
  }
})
