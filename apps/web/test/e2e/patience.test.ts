// Klockan and Dom Åtta Herrarna in real browsers, on phones: Klockan för två played to the end
// by two players (Swedish and English) with a Norwegian spectator; Klockan with the rescue (K-5)
// run with Kör, stopped, rescued by the suggestion and run out; two decks; and Dom Åtta Herrarna
// stepped and run to its end with Kör, watched.
import {
  formatCards,
  herrarna,
  herrarnaDeck,
  herrarnaRunToEnd,
  type KlockanState,
  klockan,
  klockanRescueMove,
  klockanRunToEnd,
  klockanView,
  parseCards,
  startKlockan,
} from '@kortbord/engine'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { cardName } from '../../src/lib/card-names.ts'
import { TABLE_DICTS } from '../../src/lib/i18n-table.ts'
import { KLOCKAN_DECK } from './decks.ts'
import { browserFixture } from './fixture.ts'
import {
  createSoloTable,
  createTable,
  focused,
  joinByLink,
  type Person,
  selectByLabel,
  startGame,
  watchByLink,
} from './pages.ts'
import {
  browserTestsEnabled,
  DESKTOP,
  eventually,
  expectNoAxeViolations,
  PHONE,
  screenshot,
  type TestServer,
} from './server.ts'

/** Two decks for the second server: Dom Åtta Herrarna (367 steps) and Klockan with two decks. */
const TWO_DECKS = formatCards(herrarnaDeck('h3'))

const HOST = 'Astrid'
const GUEST = 'Bo'

interface ClockSnap {
  status: string
  /** "Turned n of total": the face-up count and the total. */
  faceUp: number
  total: number
  /** Face-up cards drawn on the clock (every other card is a back, which carries no card). */
  shown: number
  /** The section's buttons by test id (or text): enabled or not. */
  buttons: Record<string, boolean>
  result: string | null
  resultText: string
  news: string
}

function readClock(page: Page): Promise<ClockSnap | null> {
  return page.evaluate(() => {
    const root = document.querySelector('section.klockan')
    if (!root) return null
    const turned = root.querySelector('[data-testid="turned"]')?.textContent ?? ''
    const nums = [...turned.matchAll(/\d+/g)].map((m) => Number(m[0]))
    const buttons: Record<string, boolean> = {}
    // The speed of Run (issue 15) is a setting, not a move: left out here.
    for (const b of root.querySelectorAll<HTMLButtonElement>(
      'button:not([data-testid^="speed-"])',
    )) {
      buttons[b.dataset.testid ?? b.textContent!.trim()] = !b.disabled
    }
    return {
      status: root.querySelector('[data-testid="status"]')?.textContent?.trim() ?? '',
      faceUp: nums[0] ?? Number.NaN,
      total: nums[1] ?? Number.NaN,
      shown: root.querySelectorAll('[data-testid="clock"] [data-card]').length,
      buttons,
      result: root.querySelector('[data-testid="result"] h2')?.textContent?.trim() ?? null,
      resultText: root.querySelector('[data-testid="result"]')?.textContent ?? '',
      news: root.querySelector('[data-testid="news"]')?.textContent?.trim() ?? '',
    }
  })
}

interface LordsSnap {
  round: string
  built: string
  next: string
  buttons: Record<string, boolean>
  result: string | null
  foundations: number
}

function readLords(page: Page): Promise<LordsSnap | null> {
  return page.evaluate(() => {
    const root = document.querySelector('section.herrarna')
    if (!root) return null
    const buttons: Record<string, boolean> = {}
    // The speed of Run (issue 15) is a setting, not a move: left out here.
    for (const b of root.querySelectorAll<HTMLButtonElement>(
      'button:not([data-testid^="speed-"])',
    )) {
      buttons[b.dataset.testid ?? b.textContent!.trim()] = !b.disabled
    }
    return {
      round: root.querySelector('[data-testid="round"]')?.textContent?.trim() ?? '',
      built: root.querySelector('[data-testid="built"]')?.textContent?.trim() ?? '',
      next: root.querySelector('[data-testid="next-step"]')?.textContent?.trim() ?? '',
      buttons,
      result: root.querySelector('[data-testid="result"] h2')?.textContent?.trim() ?? null,
      foundations: root.querySelectorAll('[data-testid^="foundation-"] [data-card]').length,
    }
  })
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * The foundations whose count ("3/13") reaches into the 2px ring the next foundation's card
 * gets. Which foundation is next when the pictures are taken is chance, so contrast alone
 * found this only now and then (mint under light text, 1.4:1); the layout is checked on all.
 */
function captionsUnderRing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const RING = 2
    const bad: string[] = []
    for (const f of document.querySelectorAll<HTMLElement>('[data-testid^="foundation-"]')) {
      const card = f.querySelector(':scope > span')!.getBoundingClientRect()
      const caption = f.querySelector(':scope > small')!.getBoundingClientRect()
      if (caption.top < card.bottom + RING)
        bad.push(`${f.dataset.testid}: ${caption.top - card.bottom}px`)
    }
    return bad
  })
}

/**
 * What `read` gives once it gives the same twice 300 ms apart: Stopp turns its button back at
 * once, but a step already in flight still lands.
 */
async function heldStill<T>(read: () => Promise<T>): Promise<T> {
  let held = await read()
  await eventually(async () => {
    await sleep(300)
    const now = await read()
    const still = JSON.stringify(now) === JSON.stringify(held)
    held = now
    expect(still).toBe(true)
  })
  return held
}

describe.skipIf(!browserTestsEnabled('patience.test.ts'))(
  'Klockan and Dom Åtta Herrarna in the browser',
  () => {
    // The browser only: this describe starts its two servers itself (the fixture stops them).
    const fx = browserFixture(false)
    let one: TestServer
    let two: TestServer
    let host: Person
    let guest: Person
    let spec: Person

    beforeAll(async () => {
      // One after the other: two servers starting at once on a busy machine may miss the 30 s.
      one = await fx.startServer({ deck: KLOCKAN_DECK })
      two = await fx.startServer({ deck: TWO_DECKS })
      host = await fx.open(PHONE, 'sv')
      guest = await fx.open(PHONE, 'en')
      spec = await fx.open(PHONE, 'nb')
    })

    it('Klockan för två: two players take turns to the fourth king, watched; the loser is told', async () => {
      const deck = parseCards(KLOCKAN_DECK)
      const end = klockanRunToEnd(startKlockan(deck, 'standard', 2, 0))
      const o = klockan.outcome(end)!
      expect(o.loser).toBe(1)

      const link = await createTable(host, one.url, HOST, 'klockan', async () => {
        await selectByLabel(host.page, host.t.variant).selectOption('standard')
        await selectByLabel(host.page, host.t.players).selectOption('2')
      })
      await joinByLink(guest, link, GUEST)
      await watchByLink(spec, link)
      expect(await host.page.getByTestId('game-name').textContent()).toBe(
        `${host.t.klockanForTwo} · ${host.t.variantStandard}`,
      )
      await startGame(host)

      const players = [host, guest] as const
      for (const p of [...players, spec]) await p.page.getByTestId('clock').waitFor()
      let turns = 0
      for (;;) {
        const [h, g, s] = await Promise.all(
          players.map((p) => readClock(p.page)).concat(readClock(spec.page)),
        )
        if (h!.result !== null && g!.result !== null && s!.result !== null) break
        // Whose turn: the spectator says it by name, each player as "your turn" or the other's name.
        const seat = [HOST, GUEST].findIndex((n) => s!.status === spec.t.theirTurn(n))
        if (seat < 0 || h!.faceUp !== s!.faceUp || g!.faceUp !== s!.faceUp) {
          await sleep(50)
          continue
        }
        expect(h!.status).toBe(seat === 0 ? host.t.yourTurn : host.t.theirTurn(GUEST))
        expect(g!.status).toBe(seat === 1 ? guest.t.yourTurn : guest.t.theirTurn(HOST))
        // K-6: only the player on turn may turn; för två has no Kör; the spectator has no buttons.
        expect(h!.buttons).toEqual({ turn: seat === 0 })
        expect(g!.buttons).toEqual({ turn: seat === 1 })
        expect(s!.buttons).toEqual({})
        // Only face-up cards are drawn with their faces.
        for (const x of [h!, g!, s!]) expect(x.shown).toBe(x.faceUp)
        expect(turns % 2).toBe(seat)
        const p = players[seat]!
        await p.page.getByTestId('turn').click()
        turns++
        await eventually(async () =>
          expect((await readClock(p.page))!.faceUp).toBeGreaterThan(h!.faceUp),
        )
        if (turns === 12) {
          await screenshot(host.page, 'phone-klockan-two-midgame')
          await screenshot(spec.page, 'phone-klockan-two-midgame-spectator')
          await expectNoAxeViolations(host.page, 'Klockan för två, midgame')
          await expectNoAxeViolations(spec.page, 'Klockan för två, midgame, spectator')
        }
        expect(turns).toBeLessThanOrEqual(52)
      }
      expect(turns).toBe(o.turned)

      const [h, g, s] = await Promise.all([host, guest, spec].map((p) => readClock(p.page)))
      expect(h!.result).toBe(host.t.klockanLoser(GUEST, host.t.stopCard('standard')))
      expect(h!.resultText).toContain(host.t.youWinGame)
      expect(g!.result).toBe(guest.t.klockanYouLose(guest.t.stopCard('standard')))
      expect(g!.resultText).toContain(guest.t.winnerIs(HOST))
      expect(s!.result).toBe(spec.t.klockanLoser(GUEST, spec.t.stopCard('standard')))
      expect(s!.resultText).toContain(spec.t.winnerIs(HOST))
      for (const [x, p] of [
        [h!, host],
        [g!, guest],
        [s!, spec],
      ] as const) {
        expect(x.resultText).toContain(p.t.klockanLost(o.faceDown))
        expect(x.shown).toBe(52 - o.faceDown)
      }
      // Either player may ask to play again (issue 15), the host may also deal at once; the
      // spectator has no buttons at all.
      expect(h!.buttons).toEqual({ 'rematch-ask': true, next: true })
      expect(g!.buttons).toEqual({ 'rematch-ask': true })
      expect(s!.buttons).toEqual({})
      await screenshot(host.page, 'phone-klockan-two-result')
      await screenshot(guest.page, 'phone-klockan-two-result-guest')
      await screenshot(spec.page, 'phone-klockan-two-result-spectator')
      for (const p of [host, guest, spec])
        await expectNoAxeViolations(p.page, 'Klockan för två, result')
    })

    it('Klockan med en räddning: Kör, Stopp, the rescue by the suggestion, and out', async () => {
      // The same deck: the rescue is offered where the standard game stopped.
      let s: KlockanState = startKlockan(parseCards(KLOCKAN_DECK), 'rescue', 1)
      while (s.phase === 'turn') {
        const r = klockan.apply(s, 0, { type: 'turn' })
        if (!r.ok) throw new Error(r.error.code)
        s = r.value
      }
      expect(s.phase).toBe('rescue')
      const offered = klockanView(s, 0)
      const best = klockanRescueMove(offered, 'deepest-of-fullest')
      if (best.type !== 'rescue') throw new Error('no rescue to suggest')
      const fullest = offered.piles[best.pile]!.faceDown

      // Alone: the game starts at once, with no waiting room (issue 15).
      await createSoloTable(
        guest,
        one.url,
        GUEST,
        'klockan',
        async () => {
          const seats = selectByLabel(guest.page, guest.t.players)
          await selectByLabel(guest.page, guest.t.variant).selectOption('rescue')
          // K-6: för två is not played with the rescue.
          expect(
            await guest.page.locator('select[name="klockanSeats"] option[value="2"]').isDisabled(),
          ).toBe(true)
          expect(await seats.inputValue()).toBe('1')
          expect(await guest.page.getByText(guest.t.forTwoNoRescue).count()).toBe(1)
        },
        () => screenshot(guest.page, 'phone-klockan-home'),
      )
      const page = guest.page
      const t = guest.t
      await page.getByTestId('clock').waitFor()
      let c = (await readClock(page))!
      expect(c.buttons).toEqual({ turn: true, run: true })
      expect(c.faceUp).toBe(0)
      expect(c.total).toBe(52)
      await expectNoAxeViolations(page, 'Klockan alone, dealt')

      // By keyboard: Enter turns a card and the focus stays on the button for the next one
      // (QA: it fell to the page after the first, and the next three presses did nothing).
      await page.getByTestId('turn').focus()
      // What became of each press (CI lost one in a loaded run, once): clicks on Turn, and where
      // the focus was at each key.
      await page.evaluate(() => {
        const w = window as unknown as { presses: string[] }
        w.presses = []
        document.addEventListener(
          'keydown',
          (e) => {
            const el = document.activeElement as HTMLButtonElement | null
            w.presses.push(
              `key ${e.key} on ${el?.dataset.testid ?? el?.tagName} disabled=${el?.disabled}`,
            )
          },
          true,
        )
        document.addEventListener('click', (e) => {
          w.presses.push(`click ${(e.target as HTMLElement).dataset.testid ?? ''}`)
        })
      })
      const presses = async () => {
        const error = page.getByTestId('error')
        const shown = (await error.count()) > 0 ? await error.textContent() : 'none'
        const w = await page.evaluate(() => (window as unknown as { presses: string[] }).presses)
        return `presses: ${JSON.stringify(w)}; error shown: ${shown}`
      }
      for (let i = 1; i <= 4; i++) {
        // The button is off while the last turn's answer is awaited (the view may come first).
        await eventually(async () => expect(await page.getByTestId('turn').isEnabled()).toBe(true))
        await page.keyboard.press('Enter')
        await eventually(async () =>
          expect((await readClock(page))!.faceUp, await presses()).toBe(i),
        )
        await eventually(async () => expect((await focused(page)).testid).toBe('turn'))
      }

      // Kör, then Stopp: the count stands still.
      await page.getByTestId('run').click()
      await page.getByTestId('stop').waitFor()
      await eventually(async () =>
        expect((await readClock(page))!.faceUp).toBeGreaterThanOrEqual(4),
      )
      await page.getByTestId('stop').click()
      await page.getByTestId('run').waitFor()
      const stopped = await heldStill(async () => (await readClock(page))!.faceUp)
      await sleep(600)
      expect((await readClock(page))!.faceUp).toBe(stopped)
      expect(stopped).toBeLessThan(s.turned)
      await screenshot(page, 'phone-klockan-midgame')
      await expectNoAxeViolations(page, 'Klockan alone, stopped')

      // Kör again: it runs until the rescue is offered, and stops there by itself.
      await page.getByTestId('run').click()
      await page.getByTestId('rescue').waitFor({ timeout: 30_000 })
      c = (await readClock(page))!
      expect(c.faceUp).toBe(s.turned)
      expect(c.buttons.turn).toBeUndefined()
      expect(c.buttons.run).toBeUndefined()
      expect(await page.getByTestId('rescue').textContent()).toContain(
        t.rescueExplain(t.stopCard('rescue'), offered.faceDown),
      )
      // Every pile with a face-down card is offered, and only those.
      const offeredPiles = offered.piles.flatMap((p, i) => (p.faceDown > 0 ? [`pile-${i}`] : []))
      expect(
        Object.keys(c.buttons)
          .filter((k) => k.startsWith('pile-'))
          .sort(),
      ).toEqual(offeredPiles.sort())
      await screenshot(page, 'phone-klockan-rescue')
      await expectNoAxeViolations(page, 'Klockan, the rescue offered')

      // A pile first: one back per face-down card, top to bottom.
      const some = offered.piles.findIndex((p) => p.faceDown > 1)
      await page.getByTestId(`pile-${some}`).click()
      expect(await page.locator('[data-testid^="depth-"]').count()).toBe(
        offered.piles[some]!.faceDown,
      )
      expect(await page.getByTestId('rescue-go').isDisabled()).toBe(true)
      // Then the suggestion: the deepest card of the fullest pile, chosen and explained.
      await page.getByTestId('suggest').click()
      expect(await page.getByTestId(`pile-${best.pile}`).getAttribute('aria-pressed')).toBe('true')
      expect(await page.locator('[data-testid^="depth-"]').count()).toBe(fullest)
      expect(await page.getByTestId(`depth-${best.depth}`).getAttribute('aria-pressed')).toBe(
        'true',
      )
      expect(await page.getByTestId('rescue').textContent()).toContain(t.suggestWhy)
      await screenshot(page, 'phone-klockan-rescue-suggested')
      await expectNoAxeViolations(page, 'Klockan, a rescue suggested')
      await page.getByTestId('rescue-go').click()
      await page.getByTestId('rescue').waitFor({ state: 'detached' })
      await eventually(async () =>
        expect((await page.getByTestId('king').textContent())?.trim()).toBeTruthy(),
      )

      await page.getByTestId('run').click()
      await page.getByTestId('result').waitFor({ timeout: 30_000 })
      c = (await readClock(page))!
      expect(c.result).toBe(t.klockanWon)
      expect(c.resultText).toContain(t.rescueUsed)
      expect(c.shown).toBe(52)
      expect(c.buttons).toEqual({ next: true })
      await screenshot(page, 'phone-klockan-result')
      await expectNoAxeViolations(page, 'Klockan alone, result')
    })

    it('Klockan with two decks: 26 piles fit the phone; Run at three speeds; a 10 reads as 10', async () => {
      await createSoloTable(host, two.url, HOST, 'klockan', async () => {
        await selectByLabel(host.page, host.t.variant).selectOption('twoDecks')
      })
      const page = host.page
      await page.getByTestId('clock').waitFor()
      expect(await page.locator('[data-testid^="pile-"]').count()).toBe(26)
      await screenshot(page, 'phone-klockan-twodecks-start')
      await expectNoAxeViolations(page, 'Klockan with two decks, dealt')

      // Run's speed (issue 15): slow, then fast, for the same time; remembered on this device.
      const turnedIn = async (speed: 'slow' | 'fast') => {
        await page.getByTestId(`speed-${speed}`).click()
        expect(await page.getByTestId(`speed-${speed}`).getAttribute('aria-pressed')).toBe('true')
        const from = (await readClock(page))!.faceUp
        await page.getByTestId('run').click()
        await sleep(1800)
        await page.getByTestId('stop').click()
        await page.getByTestId('run').waitFor()
        await eventually(async () => expect((await focused(page)).testid).toBe('run'))
        await sleep(300)
        return (await readClock(page))!.faceUp - from
      }
      const slow = await turnedIn('slow')
      const fast = await turnedIn('fast')
      console.log(`klockan run: ${slow} cards slow, ${fast} fast, in 1.8 s each`)
      expect(slow).toBeGreaterThan(0)
      expect(fast).toBeGreaterThan(slow * 2)
      expect(await page.evaluate(() => localStorage.getItem('kortbord.run.speed'))).toBe('fast')

      await page.getByTestId('run').click()
      await eventually(
        async () => expect((await readClock(page))!.faceUp).toBeGreaterThanOrEqual(40),
        30_000,
      )
      await page.getByTestId('stop').click()
      await page.getByTestId('run').waitFor()
      const c = (await readClock(page))!
      expect(c.total).toBe(104)
      expect(c.shown).toBe(c.faceUp)
      // Every pile lies inside the screen's width.
      const outside = await page.evaluate(
        () =>
          [...document.querySelectorAll('[data-testid^="pile-"]')].filter((e) => {
            const r = e.getBoundingClientRect()
            return r.left < 0 || r.right > window.innerWidth
          }).length,
      )
      expect(outside).toBe(0)
      // A face-up 10 under the next card of its fan shows its whole index, never just "1".
      const coveredTens = () =>
        page.evaluate(() => {
          const out: { whole: boolean }[] = []
          for (const ups of document.querySelectorAll('[data-testid="clock"] .ups')) {
            const cards = [...ups.querySelectorAll<HTMLElement>('.up')]
            cards.forEach((up, k) => {
              const idx = up.querySelector('text.idx')
              const next = cards[k + 1]
              if (idx?.textContent !== '10' || !idx || !next) return
              out.push({
                whole: idx.getBoundingClientRect().right <= next.getBoundingClientRect().left + 0.5,
              })
            })
          }
          return out
        })
      let tens = await coveredTens()
      // Run on until two tens lie in the 10 o'clock fan (or the game ends).
      while (tens.length === 0 && (await readClock(page))!.buttons.run) {
        await page.getByTestId('run').click()
        await sleep(400)
        await page
          .getByTestId('stop')
          .click()
          .catch(() => {})
        await sleep(300)
        tens = await coveredTens()
      }
      console.log(`klockan: ${tens.length} covered tens checked`)
      expect(tens.length).toBeGreaterThan(0)
      expect(tens.every((x) => x.whole)).toBe(true)
      await screenshot(page, 'phone-klockan-twodecks-midgame')
      await expectNoAxeViolations(page, 'Klockan with two decks, stopped')
      await page.setViewportSize(DESKTOP.viewport!)
      await screenshot(page, 'desktop-klockan-twodecks-midgame')
      await expectNoAxeViolations(page, 'Klockan with two decks, desktop')
      await page.setViewportSize(PHONE.viewport!)
    })

    it('Dom Åtta Herrarna: Steg, then Kör to the end, watched', async () => {
      const end = herrarnaRunToEnd(herrarna.setup({}, 1, { deck: parseCards(TWO_DECKS) }))
      const o = herrarna.outcome(end)!
      const link = await createSoloTable(host, two.url, HOST, 'herrarna', async () => {
        expect(await host.page.getByText(host.t.herrarnaNoOptions).count()).toBe(1)
      })
      await watchByLink(spec, link)
      const page = host.page
      const t = host.t
      await page.getByTestId('foundations').waitFor()
      let l = (await readLords(page))!
      expect(l.round).toBe(t.round(1))
      expect(l.next).toBe(t.nextStep(t.stepDeal(t.pileRef(1))))
      expect(l.buttons).toEqual({ step: true, run: true })
      await expectNoAxeViolations(page, 'Dom Åtta Herrarna, dealt')
      // Step keeps the focus, for the next step (issue 15).
      await page.getByTestId('step').focus()
      for (let i = 1; i <= 3; i++) {
        await page.getByTestId('step').click()
        await eventually(async () =>
          expect((await readLords(page))!.next).toBe(t.nextStep(t.stepDeal(t.pileRef(i + 1)))),
        )
        // A screen reader hears the card the step dealt, before where the next one goes.
        const top = await page
          .getByTestId(`pile-${i - 1}`)
          .locator('[data-card]')
          .last()
          .getAttribute('data-card')
        const did = TABLE_DICTS[host.lang].didDeal(cardName(host.lang, Number(top)), t.pileRef(i))
        await eventually(async () =>
          expect(await page.getByTestId('step-done').textContent()).toBe(
            did.charAt(0).toUpperCase() + did.slice(1),
          ),
        )
      }
      await eventually(async () =>
        expect(await page.getByTestId('step').evaluate((b) => b === document.activeElement)).toBe(
          true,
        ),
      )
      await eventually(async () =>
        expect((await readLords(spec.page))!.next).toBe(
          spec.t.nextStep(spec.t.stepDeal(spec.t.pileRef(4))),
        ),
      )
      expect((await readLords(spec.page))!.buttons).toEqual({})

      const started = Date.now()
      // By keyboard: Kör gives way to Stopp, and the focus goes with it (not lost to the page).
      await page.getByTestId('run').focus()
      await page.keyboard.press('Enter')
      await eventually(async () => expect((await focused(page)).testid).toBe('stop'))
      // In each round: Stopp, both pages agree and hold still for their pictures, then Kör again.
      const shot = async (round: 1 | 2 | 3, name: string) => {
        await eventually(async () => {
          const now = (await readLords(page))!
          expect(now.round).toBe(t.round(round))
          if (round === 1) expect(now.foundations).toBeGreaterThan(1)
        }, 60_000)
        await page.getByTestId('stop').click()
        await page.getByTestId('run').waitFor()
        await eventually(async () => expect((await focused(page)).testid).toBe('run'))
        // Once the page holds still, the spectator must agree and nothing may move.
        const held = await heldStill(async () => (await readLords(page))!)
        await eventually(async () =>
          expect((await readLords(spec.page))!.built).toBe(
            spec.t.builtOf(Number(/\d+/.exec(held.built)![0])),
          ),
        )
        await sleep(300)
        expect((await readLords(page))!.next).toBe(held.next)
        await screenshot(page, name)
        await screenshot(spec.page, `${name}-spectator`)
        expect(await captionsUnderRing(page)).toEqual([])
        await expectNoAxeViolations(page, `Dom Åtta Herrarna, ${name}`)
        await expectNoAxeViolations(spec.page, `Dom Åtta Herrarna, ${name}, spectator`)
        await page.getByTestId('run').click()
      }
      await shot(1, 'phone-herrarna-round1')
      await shot(2, 'phone-herrarna-round2')
      await shot(3, 'phone-herrarna-round3')
      await page.getByTestId('result').waitFor({ timeout: 90_000 })
      console.log(`herrarna: ${end.steps} steps in ${((Date.now() - started) / 1000).toFixed(1)} s`)
      // The run ended the game: the focus is on the next game, not lost with Stopp.
      await eventually(async () => expect((await focused(page)).testid).toBe('next'))
      l = (await readLords(page))!
      expect(l.result).toBe(o.won ? t.herrarnaWon : t.herrarnaLost(o.left))
      expect(l.buttons).toEqual({ next: true })
      await eventually(async () =>
        expect((await readLords(spec.page))!.result).toBe(
          o.won ? spec.t.herrarnaWon : spec.t.herrarnaLost(o.left),
        ),
      )
      expect((await readLords(spec.page))!.buttons).toEqual({})
      await screenshot(page, 'phone-herrarna-result')
      await screenshot(spec.page, 'phone-herrarna-result-spectator')
      await expectNoAxeViolations(page, 'Dom Åtta Herrarna, result')
      await expectNoAxeViolations(spec.page, 'Dom Åtta Herrarna, result, spectator')
      await page.setViewportSize(DESKTOP.viewport!)
      await screenshot(page, 'desktop-herrarna-result')
      await expectNoAxeViolations(page, 'Dom Åtta Herrarna, result, desktop')
      await page.setViewportSize(PHONE.viewport!)

      for (const e of fx.errors()) expect(e.filter((x) => x.startsWith('pageerror'))).toEqual([])
    })
  },
)
