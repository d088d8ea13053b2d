// The record and replay page's QA pass in real browsers: the best way keeps the keyboard's place
// (its button, its ends, its own arrow keys) and shows both boards at the deal alike; a phone held
// sideways has the board and its controls on the screen; a game in play is checked again without
// losing the focus and its move list says what each move was; the window's title names the record;
// a step is heard once; the page of a missing record has its heading and no error of its own.
import { formatCard, fullDeck, Rng, solveAcesUp } from '@kortbord/engine'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { lineStates } from '../../src/lib/best-way.ts'
import { RECORD_DICTS } from '../../src/lib/i18n-records.ts'
import { playOneGameDuel } from './duel-helpers.ts'
import { browserFixture } from './fixture.ts'
import { endByForfeit, playTurn, snap } from './idiot-helpers.ts'
import { createIdiotTable, focused, joinByLink, type Person, startGame } from './pages.ts'
import {
  allowConsoleErrors,
  browserTestsEnabled,
  DESKTOP,
  eventually,
  expectNoAxeViolations,
  PHONE,
  SIDEWAYS,
  screenshot,
} from './server.ts'

/** The deal of best.test.ts: its best way is found in well under a second. */
const deck = Rng.seeded('keep-20').shuffle(fullDeck(1))
const exact = solveAcesUp(deck, 4, { maxNodes: 5_000_000 })
/** Moves of the best way as the replay steps through them. */
const moves = lineStates(deck, 4, exact.line).length - 1
/** The best way's first deal: its step. */
const firstDeal = exact.line.findIndex((m) => m.type === 'deal') + 1

const text = async (page: Page, testid: string) =>
  ((await page.getByTestId(testid).textContent()) ?? '').trim()

/** The cards of a board's piles, pile by pile (not its heaps). */
const piles = (page: Page, testid: string) =>
  page
    .getByTestId(testid)
    .evaluate((root) =>
      [...root.querySelectorAll('.piles > *')].map((p) =>
        [...p.querySelectorAll<HTMLElement>('[data-card]')].map((e) => Number(e.dataset.card)),
      ),
    )

/**
 * Counts, from now on, the frames in which the keyboard's focus is nowhere (on the page's body):
 * `lostFrames` reads the count.
 */
const watchFocus = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { lost: number }
    w.lost = 0
    const look = () => {
      if (document.activeElement === document.body || document.activeElement === null) w.lost++
      requestAnimationFrame(look)
    }
    requestAnimationFrame(look)
  })
const lostFrames = (page: Page) => page.evaluate(() => (window as unknown as { lost: number }).lost)

/**
 * Where a screen reader finds `words` on the page (in `within`): the elements whose own text they
 * are, less those hidden from it (aria-hidden, display: none).
 */
const heard = (page: Page, words: string, within = 'main') =>
  page.evaluate(
    ([words, within]) =>
      [...document.querySelectorAll<HTMLElement>(`${within} *`)]
        .filter(
          (el) =>
            [...el.childNodes].some(
              (n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim(),
            ) &&
            el.textContent?.trim() === words &&
            el.closest('[aria-hidden="true"]') === null &&
            getComputedStyle(el).display !== 'none',
        )
        .map((el) => el.dataset.testid ?? el.tagName),
    [words, within] as const,
  )

/** Collects, from now on, every text put into a live region of the page. */
const watchSaid = (page: Page) =>
  page.evaluate(() => {
    const said: string[] = []
    ;(window as unknown as { said: string[] }).said = said
    const live = '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]'
    new MutationObserver((records) => {
      for (const r of records) {
        const region = (r.target instanceof Element ? r.target : r.target.parentElement)?.closest(
          live,
        )
        if (region?.textContent?.trim()) said.push(region.textContent.trim())
      }
    }).observe(document.body, { childList: true, characterData: true, subtree: true })
  })
const saidSoFar = (page: Page) =>
  page.evaluate(() => [...new Set((window as unknown as { said: string[] }).said)])

describe.skipIf(!browserTestsEnabled('replay-page.test.ts'))('the replay page, QA pass', () => {
  const fx = browserFixture({
    deck: deck.map(formatCard).join(' '),
    env: { RECORD_READS_PER_ADDRESS_PER_MINUTE: '1000' },
  })
  let players: [Person, Person]
  let desk: Person
  /** The duel's record page. */
  let duelUrl = ''

  beforeAll(async () => {
    players = [await fx.open(PHONE, 'en'), await fx.open(PHONE, 'sv')]
    desk = await fx.open(DESKTOP, 'en')
  })

  it('[A-16] the best way keeps the keyboard’s place, steps by its own keys and starts both boards at the deal', async () => {
    duelUrl = await playOneGameDuel(fx.url, players)

    const r = RECORD_DICTS.en
    const { page } = desk
    await page.goto(duelUrl)
    await page.getByTestId('verify-ok').waitFor()
    // The window's title names the game's record (it said "kortbord" alone).
    expect(await page.title()).toBe(`${r.replayOf(r.games.duel)} – kortbord`)
    const n = (await page.getByTestId('move-list').locator('li').count()) - 1
    expect(await text(page, 'replay-step')).toBe(r.stepOf(0, n))

    // "Show the best way" by the keyboard: the focus never falls to the page, during the search
    // or after it, and ends on the best way's first step.
    await page.getByTestId('show-best-way').focus()
    await watchFocus(page)
    await page.keyboard.press('Enter')
    await page.getByTestId('best-way-summary').waitFor({ timeout: 60_000 })
    await eventually(async () => expect((await focused(page)).testid).toBe('best-way-forward'))
    expect(await lostFrames(page)).toBe(0)
    const step = () => text(page, 'best-way-step')
    expect(await step()).toBe(r.stepOf(0, moves))

    // At the deal both boards show the cards just dealt (the game as played showed its first deal
    // played out: its pile 4 already emptied).
    const dealt = await piles(page, 'best-way-board')
    expect(dealt).toEqual(deck.slice(0, 4).map((c) => [c]))
    expect(await piles(page, 'best-way-own')).toEqual(dealt)
    await page.getByTestId('best-way').scrollIntoViewIfNeeded()
    await screenshot(page, 'replay-qa-best-way-deal', { screen: true })

    // The arrow keys on its buttons step the best way, not the replay above (which stepped to
    // "Move 1 of n" while the best way stayed put).
    await page.keyboard.press('ArrowRight')
    expect(await step()).toMatch(new RegExp(`^${r.stepOf(1, moves)}: `))
    await page.keyboard.press('ArrowRight')
    expect(await step()).toMatch(new RegExp(`^${r.stepOf(2, moves)}: `))
    await page.keyboard.press('ArrowLeft')
    expect(await step()).toMatch(new RegExp(`^${r.stepOf(1, moves)}: `))
    expect(await text(page, 'replay-step')).toBe(r.stepOf(0, n))
    // End and Home too; the button that had the focus is disabled there: it goes to the other.
    await page.keyboard.press('End')
    expect(await step()).toMatch(new RegExp(`^${r.stepOf(moves, moves)}: `))
    expect((await focused(page)).testid).toBe('best-way-back')
    await page.keyboard.press('Home')
    expect(await step()).toBe(r.stepOf(0, moves))
    expect((await focused(page)).testid).toBe('best-way-forward')
    expect(await text(page, 'replay-step')).toBe(r.stepOf(0, n))
    // "To the end" and "To the deal" disable themselves: the focus goes on as the replay's does.
    await watchFocus(page)
    await page.getByTestId('best-way-end').focus()
    await page.keyboard.press('Enter')
    expect(await step()).toMatch(new RegExp(`^${r.stepOf(moves, moves)}: `))
    expect((await focused(page)).testid).toBe('best-way-back')
    await page.getByTestId('best-way-start').focus()
    await page.keyboard.press('Enter')
    expect(await step()).toBe(r.stepOf(0, moves))
    expect((await focused(page)).testid).toBe('best-way-forward')
    expect(await lostFrames(page)).toBe(0)
    // The slider steps itself; the replay's keys still step the replay from its own controls,
    // and keep the focus when a key takes it to an end.
    await page.getByTestId('replay-forward').focus()
    await page.keyboard.press('ArrowRight')
    expect(await text(page, 'replay-step')).toMatch(new RegExp(`^${r.stepOf(1, n)}: `))
    expect(await step()).toBe(r.stepOf(0, moves))
    await page.keyboard.press('End')
    expect(await text(page, 'replay-step')).toMatch(new RegExp(`^${r.stepOf(n, n)}: `))
    expect((await focused(page)).testid).toBe('replay-back')
    await expectNoAxeViolations(page, 'best way shown, desktop')

    // In Swedish: the game as played, and a deal of the best way, in natural words.
    const { page: sv } = players[1]
    await sv.goto(duelUrl)
    await sv.getByTestId('show-best-way').click()
    await sv.getByTestId('best-way-summary').waitFor({ timeout: 60_000 })
    const rs = RECORD_DICTS.sv
    expect(await sv.title()).toBe(`${rs.replayOf(rs.games.duel)} – kortbord`)
    const heading = async () =>
      (
        (await sv
          .getByTestId('best-way')
          .locator('h3')
          .first()
          .evaluate((h) => h.textContent)) ?? ''
      )
        .replace(/\s+/g, ' ')
        .trim()
    // Bo's own round first, as he played it.
    expect(await heading()).toBe('Så spelade Bo lika långt in i talongen')
    await sv.getByTestId('best-way-slider').fill(String(firstDeal))
    expect(await text(sv, 'best-way-step')).toBe(`${rs.stepOf(firstDeal, moves)}: ge nästa kort`)
    // Just after that deal, both boards have the cards it dealt on top.
    const tops = async (id: string) => (await piles(sv, id)).map((p) => p.at(-1))
    expect(await tops('best-way-own')).toEqual(await tops('best-way-board'))
    // The best way's step is said once, by its hidden live region; a switch of the language is
    // no news: the region falls silent and the line on the screen is read instead (it said the
    // step again in the new words).
    const svStep = await text(sv, 'best-way-step')
    await expect.poll(() => text(sv, 'best-way-step-news')).toBe(svStep)
    expect(await heard(sv, svStep)).toEqual(['best-way-step-news'])
    await sv.getByRole('combobox', { name: players[1].t.language }).selectOption('en')
    await expect
      .poll(() => text(sv, 'best-way-step'))
      .toMatch(new RegExp(`^${r.stepOf(firstDeal, moves)}: `))
    const enStep = await text(sv, 'best-way-step')
    expect(await text(sv, 'best-way-step-news')).toBe('')
    expect(await heard(sv, enStep)).toEqual(['best-way-step'])
    // A step to another move is news again, in the new words.
    await sv.getByTestId('best-way-forward').click()
    await expect
      .poll(() => text(sv, 'best-way-step-news'))
      .toMatch(new RegExp(`^${r.stepOf(firstDeal + 1, moves)}: `))
    await sv.getByRole('combobox', { name: desk.t.language }).selectOption('sv')
  }, 300_000)

  it('the replay is said once: by its live region, or by its line when that region is silent', async () => {
    expect(duelUrl).not.toBe('')
    const r = RECORD_DICTS.en
    const { page } = desk
    await page.goto(duelUrl)
    await page.getByTestId('verify-ok').waitFor()
    const n = (await page.getByTestId('move-list').locator('li').count()) - 1
    await watchSaid(page)
    await page.getByTestId('replay-forward').click()
    const line = await text(page, 'replay-step')
    expect(line).toMatch(new RegExp(`^${r.stepOf(1, n)}: Astrid `))
    await expect.poll(() => text(page, 'replay-step-news')).toBe(line)
    // Read on the page once (the line on the screen and the live region both said it), and said
    // once.
    expect(await heard(page, line)).toEqual(['replay-step-news'])
    expect((await saidSoFar(page)).filter((s) => s.includes(line))).toEqual([line])
    // In another language the region is silent (a switch is no news): the line is read instead.
    await page.getByRole('combobox', { name: desk.t.language }).selectOption('sv')
    const sv = RECORD_DICTS.sv
    await expect.poll(() => text(page, 'replay-step')).toMatch(new RegExp(`^${sv.stepOf(1, n)}: `))
    const svLine = await text(page, 'replay-step')
    expect(await text(page, 'replay-step-news')).toBe('')
    expect(await heard(page, svLine)).toEqual(['replay-step'])
    // The window's title follows the language.
    expect(await page.title()).toBe(`${sv.replayOf(sv.games.duel)} – kortbord`)
    await page.getByRole('combobox', { name: players[1].t.language }).selectOption('en')
  })

  it('a phone held sideways has the board and its controls on the screen, the checks folded', async () => {
    expect(duelUrl).not.toBe('')
    // A player (what their browser saw checked too) and someone who was not there, as QA had
    // them: 844×390 in Swedish (the board began at y 340, its controls at 562–606), 667×375 in
    // English, and 740×360.
    const cases = [
      [players[1], SIDEWAYS[0]],
      [players[0], SIDEWAYS[2]],
      [await fx.open({ ...PHONE, viewport: SIDEWAYS[1] }, 'en'), SIDEWAYS[1]],
    ] as const
    for (const [p, size] of cases) {
      const { page } = p
      await page.setViewportSize(size)
      await page.goto(duelUrl)
      await page.getByTestId('verify-ok').waitFor()
      const at = await page.evaluate(() => {
        const box = (s: string) => document.querySelector(s)!.getBoundingClientRect()
        return {
          open: document.querySelector('[data-testid="verify-ok"] details')!.hasAttribute('open'),
          board: box('[data-testid="replay-board"]').top,
          controls: box('[data-testid="replay-forward"]').bottom,
          verify: box('[data-testid="verify-ok"]').top,
          height: window.innerHeight,
          fits: document.documentElement.scrollWidth <= window.innerWidth,
        }
      })
      const where = `${size.width}x${size.height} ${p.lang}: ${JSON.stringify(at)}`
      expect(at.open, where).toBe(false)
      expect(at.board, where).toBeGreaterThanOrEqual(0)
      expect(at.controls, where).toBeLessThanOrEqual(at.height)
      // The verification is on the screen too, beside the board.
      expect(at.verify, where).toBeLessThan(at.height)
      expect(at.fits, where).toBe(true)
      await screenshot(page, `replay-qa-sideways-${size.width}-${p.lang}`, { screen: true })
      await expectNoAxeViolations(page, `replay held sideways, ${size.width}x${size.height}`)
    }
    // Upright again, the board comes after the verification as before.
    for (const p of players) await p.page.setViewportSize(PHONE.viewport!)
  })

  it('a game in play: checked again without losing the focus, each move said in the list', async () => {
    const [host, guest] = await Promise.all([fx.open(PHONE, 'en'), fx.open(PHONE, 'en')])
    const watcher = await fx.open(PHONE, 'en')
    const link = await createIdiotTable(host, fx.url, 'Ann', 2, undefined, null)
    await joinByLink(guest, link, 'Bo')
    await startGame(host)
    for (const p of [host, guest]) {
      await p.page.getByTestId('hand').waitFor()
      await p.page.getByRole('button', { name: p.t.ready, exact: true }).click()
    }
    const turn = async () => {
      const who = await eventually(async () => {
        const [a, b] = await Promise.all([snap(host.page), snap(guest.page)])
        if (a.status === host.t.yourTurn) return host
        if (b.status === guest.t.yourTurn) return guest
        throw new Error('no page shows its turn')
      })
      await playTurn(who)
    }
    for (let i = 0; i < 4; i++) await turn()
    const href = (await guest.page.getByTestId('record-link').getAttribute('href')) ?? ''
    const id = href.slice(3)
    const r = RECORD_DICTS.en
    const { page } = watcher
    await page.goto(`${fx.url}${href}`)
    await page.getByTestId('replay-board').waitFor()
    expect(await page.title()).toBe(`${r.replayOf(r.games.idiot)} – kortbord`)
    const m = Number(/ of (\d+)/.exec(await text(page, 'replay-step'))![1])
    // The list says what each move was, as the step line does (it said "1. Ann", "2. Ann"…).
    const lines = async () =>
      (await page.getByTestId('move-list').locator('li').allTextContents())
        .slice(1)
        .map((t) => t.replace(/\s+/g, ' ').trim())
    const said = await lines()
    expect(said).toHaveLength(m)
    expect(said.filter((t) => /^\d+\. (Ann|Bo)$/.test(t))).toEqual([])
    expect(
      said.every((t) => /^\d+\. (Ann|Bo) (is ready|plays first|played|picked up)/.test(t)),
    ).toBe(true)
    const what = (await text(page, 'replay-step')).replace(`${r.stepOf(m, m)}: `, '')
    expect(said.at(-1)).toBe(`${m}. ${what}`)
    await page.getByTestId('move-3').click()
    const third = (await text(page, 'replay-step')).replace(`${r.stepOf(3, m)}: `, '')
    expect(said[2]).toBe(`3. ${third}`)
    // Said once on the stage: the board's own line says the step's words again, and is left to
    // the step (a screen reader found the move three times: there, in the step line and in the
    // step's live region).
    const news = await text(page, 'replay-news')
    expect(third).toBe(news)
    expect(await heard(page, news)).toEqual([])
    expect(await heard(page, await text(page, 'replay-step'))).toEqual(['replay-step-news'])

    // "Check again" by the keyboard: the page is fetched again and the focus stays on the button
    // (the whole page was drawn again, and the focus fell to the page).
    const again = async (last = `/api/records/${id}/frames`) => {
      await watchFocus(page)
      const answered = page.waitForResponse((res) => res.url().endsWith(last))
      await page.getByTestId('check-again').focus()
      await page.keyboard.press('Enter')
      await answered
    }
    await again()
    await eventually(async () => expect(await text(page, 'replay-step')).toContain(` of ${m}: `))
    expect((await focused(page)).testid).toBe('check-again')
    expect(await lostFrames(page)).toBe(0)
    // A move later, checking again shows it, the focus still on the button.
    await turn()
    await again()
    await eventually(async () =>
      expect(await text(page, 'replay-step')).toMatch(new RegExp(`^${r.stepOf(m + 1, m + 1)}: `)),
    )
    expect((await focused(page)).testid).toBe('check-again')
    expect(await lostFrames(page)).toBe(0)
    await screenshot(page, 'replay-qa-live-checked-again')
    await expectNoAxeViolations(page, 'a game in play checked again')
    // Once the game is over, the button goes with the game in play: the focus goes to the replay.
    await endByForfeit(host, guest, link)
    await again(`/api/records/${id}`)
    await page.getByTestId('verify-ok').waitFor()
    await eventually(async () => expect((await focused(page)).testid).toBe('replay-forward'))
    expect(await lostFrames(page)).toBe(0)
  }, 300_000)

  it('no record at the link: a heading, a title, and no console error of the page’s own', async () => {
    const p = await fx.open(PHONE, 'sv')
    const { page } = p
    // The browser itself logs every answer of 404 to a fetch as a failed resource; the page logs
    // nothing of its own (its fetch expects a 404 for a record that is gone).
    allowConsoleErrors(page, /^console: Failed to load resource: .* 404 \(Not Found\)$/)
    await page.goto(`${fx.url}/r/abcdefghjkmn`)
    await page.getByTestId('record-missing').waitFor()
    const r = RECORD_DICTS.sv
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(r.noRecord)
    expect(await page.title()).toBe(`${r.noRecord} – kortbord`)
    await expectNoAxeViolations(page, 'no record at this link')
    await screenshot(page, 'replay-qa-missing')
    const errors = fx.errorsOf(p)
    expect(errors).toEqual([
      'console: Failed to load resource: the server responded with a status of 404 (Not Found)',
    ])
  })
})
