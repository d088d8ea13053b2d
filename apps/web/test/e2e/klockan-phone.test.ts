// Klockan on a phone held sideways, and what a screen reader hears at its table (a QA pass):
// Turn (and Run / Stop) on the screen without scrolling at the start, mid-game and after a
// timeout's line, for both players of Klockan för två and alone; the rescue's panel (K-5) on the
// screen beside the clock, its cards targets; one announcement a card (the card, then whose turn),
// the suggestion said, the end of the game said once (and not again on a reload); alone, the
// count of cards turned clear of the piles beside it and the paces of Run on one row.
import {
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
import { DICTS } from '../../src/lib/i18n-all.ts'
import { TABLE_DICTS } from '../../src/lib/i18n-table.ts'
import { klockanPileName } from '../../src/lib/patience.ts'
import { KLOCKAN_DECK } from './decks.ts'
import { browserFixture } from './fixture.ts'
import { hush, listen, said } from './live.ts'
import {
  chooseTimer,
  createSoloTable,
  createTable,
  joinByLink,
  type Person,
  selectByLabel,
  startGame,
} from './pages.ts'
import {
  browserTestsEnabled,
  DESKTOP,
  eventually,
  expectNoAxeViolations,
  SIDEWAYS,
  SIDEWAYS_PHONE,
  screenshot,
} from './server.ts'

const UPRIGHT = [
  { width: 390, height: 844 },
  { width: 360, height: 640 },
] as const

/** WCAG 2.5.5's target size. */
const TARGET = 44

/**
 * The elements (by test id) that are not wholly on the screen as it is now: "turn: 357–401 of
 * 390". Missing ones are left out; `top` scrolls the page to its top first (no scrolling).
 */
function offScreen(page: Page, ids: readonly string[], top: boolean): Promise<string[]> {
  return page.evaluate(
    ({ ids, top }) => {
      if (top) window.scrollTo(0, 0)
      const out: string[] = []
      for (const id of ids) {
        for (const el of document.querySelectorAll(`[data-testid="${id}"]`)) {
          const r = el.getBoundingClientRect()
          if (r.top < -0.5 || r.left < -0.5) out.push(`${id}: top ${r.top.toFixed(1)}`)
          else if (r.bottom > window.innerHeight + 0.5 || r.right > window.innerWidth + 0.5)
            out.push(
              `${id}: ${r.top.toFixed(1)}–${r.bottom.toFixed(1)} of ${window.innerHeight}, ${r.right.toFixed(1)} of ${window.innerWidth}`,
            )
        }
      }
      return out
    },
    { ids, top },
  )
}

/** At each size, with the page at its top: the ids that are not wholly on the screen. */
async function offAtSizes(
  page: Page,
  sizes: readonly { width: number; height: number }[],
  ids: readonly string[],
  shot?: string,
): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {}
  for (const size of sizes) {
    await page.setViewportSize(size)
    await page.waitForTimeout(50)
    out[`${size.width}x${size.height}`] = await offScreen(page, ids, true)
    if (shot) await screenshot(page, `${shot}-${size.width}x${size.height}`, { screen: true })
  }
  return out
}

const none = (sizes: readonly { width: number; height: number }[]) =>
  Object.fromEntries(sizes.map((s) => [`${s.width}x${s.height}`, []]))

const faceUp = (page: Page) =>
  page.evaluate(() => {
    const s = document.querySelector('[data-testid="turned"]')?.textContent ?? ''
    return Number(/\d+/.exec(s)?.[0] ?? Number.NaN)
  })

describe.skipIf(!browserTestsEnabled('klockan-phone.test.ts'))('Klockan on a phone', () => {
  const fx = browserFixture({ deck: KLOCKAN_DECK })
  let host: Person
  let guest: Person

  beforeAll(async () => {
    host = await fx.open(SIDEWAYS_PHONE, 'sv')
    guest = await fx.open(SIDEWAYS_PHONE, 'en')
  })

  it('[K-6][I-16] Klockan för två sideways: Turn is on the screen for both, at the start, mid-game and after a timeout; one announcement a card, the card first; the end said once', async () => {
    const deck = parseCards(KLOCKAN_DECK)
    const o = klockan.outcome(klockanRunToEnd(startKlockan(deck, 'standard', 2, 0)))!
    expect(o.loser).toBe(1)
    const link = await createTable(host, fx.url, 'Astrid', 'klockan', async () => {
      await selectByLabel(host.page, host.t.variant).selectOption('standard')
      await selectByLabel(host.page, host.t.players).selectOption('2')
      await chooseTimer(host, 15)
    })
    await joinByLink(guest, link, 'Bo')
    await startGame(host)
    const players = [host, guest] as const
    for (const p of players) await p.page.getByTestId('turn').waitFor()
    const onTurn = async () => {
      for (const p of players)
        if (
          await p.page
            .getByTestId('turn')
            .isEnabled()
            .catch(() => false)
        )
          return p
      return null
    }

    // At the start, for both (the one on turn and the one waiting).
    const start = {
      host: await offAtSizes(host.page, SIDEWAYS, ['turn'], 'klockan-two-sideways-start-host'),
      guest: await offAtSizes(guest.page, SIDEWAYS, ['turn'], 'klockan-two-sideways-start-guest'),
    }
    expect(start).toEqual({ host: none(SIDEWAYS), guest: none(SIDEWAYS) })
    for (const p of players) await p.page.setViewportSize(SIDEWAYS[0])
    await expectNoAxeViolations(host.page, 'Klockan för två sideways, start')

    // Four cards: each is said once to the other player, the card before whose turn it is.
    for (const p of players) await listen(p.page)
    for (let k = 1; k <= 4; k++) {
      const p = (await eventually(async () => {
        const x = await onTurn()
        expect(x).not.toBeNull()
        return x
      }))!
      const other = p === host ? guest : host
      await hush(other.page)
      await p.page.getByTestId('turn').click()
      await eventually(async () => expect(await faceUp(other.page)).toBe(k))
      const card = (await other.page.getByTestId('news').textContent())?.trim() ?? ''
      expect(card).not.toBe('')
      await eventually(async () => expect((await said(other.page)).length).toBeGreaterThan(0))
      await other.page.waitForTimeout(300)
      const heard = await said(other.page)
      expect(heard, JSON.stringify(heard)).toHaveLength(1)
      expect(heard[0]!.startsWith(card), heard[0]).toBe(true)
      expect(heard[0]!.endsWith(`${other.t.yourTurn}.`), heard[0]).toBe(true)
    }
    const mid = {
      host: await offAtSizes(host.page, SIDEWAYS, ['turn'], 'klockan-two-sideways-mid-host'),
      guest: await offAtSizes(guest.page, SIDEWAYS, ['turn'], 'klockan-two-sideways-mid-guest'),
    }
    expect(mid).toEqual({ host: none(SIDEWAYS), guest: none(SIDEWAYS) })
    for (const p of players) await p.page.setViewportSize(SIDEWAYS[0])

    // Nobody turns: after 15 s the server turns the card, and says so on a line of its own.
    const late = (await onTurn())!
    const waiting = late === host ? guest : host
    const lateName = late === host ? 'Astrid' : 'Bo'
    for (const p of players) await hush(p.page)
    const timedOut = waiting.t.logTimeoutAction(lateName, 'turn')
    await eventually(
      async () =>
        expect(await waiting.page.getByTestId('table-news').textContent()).toContain(timedOut),
      25_000,
    )
    await eventually(async () => expect(await faceUp(late.page)).toBe(5))
    await waiting.page.waitForTimeout(300)
    // One announcement: what the table did, the card, and whose turn it is now.
    const heard = await said(waiting.page)
    expect(heard, JSON.stringify(heard)).toHaveLength(1)
    const card = (await waiting.page.getByTestId('news').textContent())?.trim() ?? ''
    const at = (s: string) => heard[0]!.indexOf(s)
    expect(at(timedOut), heard[0]).toBe(0)
    expect(at(card), heard[0]).toBeGreaterThan(at(timedOut))
    expect(heard[0]!.endsWith(`${waiting.t.yourTurn}.`), heard[0]).toBe(true)
    const timeout = {
      late: await offAtSizes(late.page, SIDEWAYS, ['turn'], 'klockan-two-sideways-timeout-late'),
      waiting: await offAtSizes(
        waiting.page,
        SIDEWAYS,
        ['turn'],
        'klockan-two-sideways-timeout-on-turn',
      ),
    }
    expect(timeout).toEqual({ late: none(SIDEWAYS), waiting: none(SIDEWAYS) })
    // Upright and on a desktop too (pictures to look at).
    expect(await offAtSizes(waiting.page, UPRIGHT, ['turn'], 'klockan-two-timeout')).toEqual(
      none(UPRIGHT),
    )
    expect(
      await offAtSizes(waiting.page, [DESKTOP.viewport!], ['turn'], 'klockan-two-timeout'),
    ).toEqual(none([DESKTOP.viewport!]))
    for (const p of players) await p.page.setViewportSize(SIDEWAYS[0])
    await expectNoAxeViolations(waiting.page, 'Klockan för två sideways, after a timeout')

    // To the end: the fourth king, who turned it, who won and the cards left are said once.
    for (const p of players) await hush(p.page)
    for (let k = 0; k < 40; k++) {
      if ((await host.page.getByTestId('result').count()) > 0) break
      const p = await onTurn()
      if (p === null) {
        await host.page.waitForTimeout(50)
        continue
      }
      const before = await faceUp(p.page)
      await p.page.getByTestId('turn').click()
      await eventually(async () => {
        const r = (await p.page.getByTestId('result').count()) > 0
        expect(r || (await faceUp(p.page)) > before).toBe(true)
      })
    }
    for (const [p, loser, winner] of [
      [host, host.t.klockanLoser('Bo', host.t.stopCard('standard')), host.t.youWinGame],
      [guest, guest.t.klockanYouLose(guest.t.stopCard('standard')), guest.t.winnerIs('Astrid')],
    ] as const) {
      await p.page.getByTestId('result').waitFor()
      await eventually(async () =>
        expect((await said(p.page)).some((x) => x.includes(loser))).toBe(true),
      )
      await p.page.waitForTimeout(300)
      const end = (await said(p.page)).filter((x) => x.includes(loser))
      expect(end).toHaveLength(1)
      expect(end[0]).toContain(winner)
      expect(end[0]).toContain(p.t.klockanLost(o.faceDown))
      // The result's box is no live region of its own (it would come with its words in it).
      expect(await p.page.getByTestId('result').getAttribute('role')).toBeNull()
    }
    await screenshot(guest.page, 'klockan-two-sideways-end', { screen: true })
    await expectNoAxeViolations(guest.page, 'Klockan för två sideways, the end')
    // A reload of the game that is over says nothing of it again; held sideways, its result is
    // brought into view (QA: it lay below the finished clock, 24 px of it on the screen).
    await guest.page.reload()
    await guest.page.getByTestId('result').waitFor()
    await eventually(async () => {
      const box = await guest.page.locator('[data-testid="result"] h2').boundingBox()
      expect(box!.y + box!.height).toBeLessThanOrEqual(SIDEWAYS[0].height)
      expect(box!.y).toBeGreaterThanOrEqual(0)
    })
    await listen(guest.page)
    await guest.page.waitForTimeout(500)
    expect(await said(guest.page)).toEqual([])
    expect((await guest.page.getByTestId('said').textContent())?.trim()).toBe('')
  })

  it('[K-5] Klockan with a rescue, sideways: Turn and Run on the screen, the rescue beside the clock with 44 px cards, the suggestion said, the end said', async () => {
    let s: KlockanState = startKlockan(parseCards(KLOCKAN_DECK), 'rescue', 1)
    while (s.phase === 'turn') {
      const r = klockan.apply(s, 0, { type: 'turn' })
      if (!r.ok) throw new Error(r.error.code)
      s = r.value
    }
    const offered = klockanView(s, 0)
    const best = klockanRescueMove(offered, 'deepest-of-fullest')
    if (best.type !== 'rescue') throw new Error('no rescue to suggest')
    const { page, t } = host
    await page.setViewportSize(SIDEWAYS[1])
    await createSoloTable(host, fx.url, 'Astrid', 'klockan', async () => {
      await selectByLabel(page, t.variant).selectOption('rescue')
    })
    await page.getByTestId('turn').waitFor()
    expect(
      await offAtSizes(page, SIDEWAYS, ['turn', 'run'], 'klockan-rescue-sideways-start'),
    ).toEqual(none(SIDEWAYS))
    await page.getByTestId('turn').click()
    await eventually(async () => expect(await faceUp(page)).toBe(1))
    await page.getByTestId('speed-slow').click()
    await page.getByTestId('run').click()
    await page.getByTestId('stop').waitFor()
    expect(await offAtSizes(page, SIDEWAYS, ['turn', 'stop'])).toEqual(none(SIDEWAYS))
    await page.getByTestId('speed-fast').click()
    await page.getByTestId('rescue').waitFor({ timeout: 30_000 })

    // Swedish: a pile with one face-down card is "1 nedvänd", not "1 nedvända".
    const one = offered.piles.findIndex((p) => p.faceDown === 1)
    expect(one).toBeGreaterThanOrEqual(0)
    expect(await page.getByTestId(`pile-${one}`).getAttribute('aria-label')).toMatch(
      /: 1 nedvänd(;|$)/,
    )

    // At each size: a pile, then the suggestion; the panel, its cards and buttons and the pile
    // chosen are on the screen at once, and the suggestion is said.
    await listen(page)
    const pileName = klockanPileName(t, 'sv', 'rescue', offered.piles[best.pile]!)
    const results: Record<string, string[]> = {}
    const small: string[] = []
    for (const size of SIDEWAYS) {
      await page.setViewportSize(size)
      await page.getByTestId(`pile-${one}`).click()
      await hush(page)
      await page.getByTestId('suggest').click()
      await eventually(async () => expect((await said(page)).length).toBeGreaterThan(0))
      const heard = await said(page)
      expect(heard, JSON.stringify(heard)).toHaveLength(1)
      expect(heard[0]).toContain(pileName)
      expect(heard[0]).toContain(t.depthLabel(best.depth ?? 0, offered.piles[best.pile]!.faceDown))
      await page.waitForTimeout(400)
      const key = `${size.width}x${size.height}`
      results[key] = await offScreen(
        page,
        ['rescue', 'suggest', 'decline', 'rescue-go', `depth-${best.depth}`, `pile-${best.pile}`],
        false,
      )
      for (const b of await page.locator('[data-testid^="depth-"]').all()) {
        const r = (await b.boundingBox())!
        if (r.width < TARGET - 0.01 || r.height < TARGET - 0.01)
          small.push(`${key}: ${r.width.toFixed(1)}×${r.height.toFixed(1)}`)
      }
      await screenshot(page, `klockan-rescue-sideways-suggested-${key}`, { screen: true })
    }
    expect({ results, small }).toEqual({ results: none(SIDEWAYS), small: [] })
    await expectNoAxeViolations(page, 'Klockan rescue sideways, suggested')
    for (const size of UPRIGHT) {
      await page.setViewportSize(size)
      await page.getByTestId('suggest').click()
      await page.waitForTimeout(400)
      await screenshot(page, `klockan-rescue-suggested-${size.width}x${size.height}`, {
        screen: true,
      })
    }
    await page.setViewportSize(SIDEWAYS[0])

    // The rescue, then Run to the end: the result is said once; a reload says nothing.
    await page.getByTestId('rescue-go').click()
    await page.getByTestId('rescue').waitFor({ state: 'detached' })
    await hush(page)
    await page.getByTestId('run').click()
    await page.getByTestId('result').waitFor({ timeout: 30_000 })
    const title = (await page.locator('[data-testid="result"] h2').textContent())?.trim() ?? ''
    // The suggested card wins this deal (as in patience.test.ts).
    expect(title).toBe(t.klockanWon)
    await eventually(async () =>
      expect((await said(page)).some((x) => x.includes(title))).toBe(true),
    )
    await page.waitForTimeout(300)
    expect((await said(page)).filter((x) => x.includes(title))).toHaveLength(1)
    await screenshot(page, 'klockan-rescue-sideways-end', { screen: true })
    await page.reload()
    await page.getByTestId('result').waitFor()
    await listen(page)
    await page.waitForTimeout(500)
    expect(await said(page)).toEqual([])
  })

  it('[K-6] Klockan alone held sideways: "Turned 20 of 52" clear of the piles beside it, the three paces of Run on one row, in every language', async () => {
    const p = await fx.open(SIDEWAYS_PHONE, 'en')
    const { page, t } = p
    await createSoloTable(p, fx.url, 'Astrid', 'klockan', async () => {
      await selectByLabel(page, t.variant).selectOption('standard')
    })
    const turn = page.getByTestId('turn')
    for (let k = 1; k <= 20; k++) {
      await expect.poll(() => turn.isEnabled()).toBe(true)
      await turn.click()
      await eventually(async () => expect(await faceUp(page)).toBe(k))
    }
    // QA re-check at 667x375: the count touched the ring of the 3 o'clock pile (drawn 3 px
    // outside the pile whose turn it is), and "Fast" went to a row of its own below "Speed".
    const problems: string[] = []
    for (const lang of ['en', 'sv', 'nb'] as const) {
      await page.locator('header select').selectOption(lang)
      await expect
        .poll(() => page.getByTestId('turned').textContent())
        .toBe(DICTS[lang].turnedOf(20, 52))
      for (const size of SIDEWAYS) {
        await page.setViewportSize(size)
        await page.waitForTimeout(50)
        const at = `${lang} ${size.width}x${size.height}`
        const m = await page.evaluate(() => {
          const box = (e: Element) => e.getBoundingClientRect()
          const turned = box(document.querySelector('[data-testid="turned"]')!)
          // The least gap between the count and a pile, either way.
          const gaps = [...document.querySelectorAll('[data-pile]')].map((e) => {
            const r = box(e)
            const dx = Math.max(r.left - turned.right, turned.left - r.right, 0)
            const dy = Math.max(r.top - turned.bottom, turned.top - r.bottom, 0)
            return Math.max(dx, dy)
          })
          const paces = ['slow', 'normal', 'fast'].map((s) =>
            box(document.querySelector(`[data-testid="speed-${s}"]`)!),
          )
          return {
            gap: Math.min(...gaps),
            rows: new Set(paces.map((r) => Math.round(r.top))).size,
            right: Math.max(...paces.map((r) => r.right)),
          }
        })
        if (m.gap < 6) problems.push(`${at}: the count is ${m.gap.toFixed(1)} px from a pile`)
        if (m.rows !== 1) problems.push(`${at}: the paces lie on ${m.rows} rows`)
        if (m.right > size.width) problems.push(`${at}: the paces end at ${m.right.toFixed(1)}`)
        problems.push(
          ...(await offScreen(page, ['turn', 'run', 'speed'], true)).map((x) => `${at}: ${x}`),
        )
        await screenshot(page, `klockan-alone-sideways-${lang}-${size.width}x${size.height}`, {
          screen: true,
        })
      }
    }
    expect(problems).toEqual([])
    await page.setViewportSize(SIDEWAYS[2])
    await expectNoAxeViolations(page, 'Klockan alone sideways, 20 cards turned')
  })

  it('the words of the suggestion said exist in English, Swedish and Norwegian', () => {
    for (const lang of ['en', 'sv', 'nb'] as const) {
      const tt = TABLE_DICTS[lang]
      expect(tt.suggested('X', 'Y')).toContain('X')
      expect(tt.suggested('X', 'Y')).toContain('Y')
    }
  })
})
