// "How to play" in real browsers: opened from the home page, from the waiting room and from the
// table, at phone and desktop size; the player keeps their seat throughout.
import { mkdirSync } from 'node:fs'
import { parseCard } from '@kortbord/engine'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import duelTexts from '../../src/howto/duel.ts'
import idiotTexts from '../../src/howto/idiot.ts'
import klockanTexts from '../../src/howto/klockan.ts'
import { cardLabel } from '../../src/lib/card-names.ts'
import { browserFixture } from './fixture.ts'
import { snap } from './idiot-helpers.ts'
import {
  createIdiotTable,
  fitsWidth,
  joinByLink,
  type Person,
  pickGame,
  startGame,
} from './pages.ts'
import {
  browserTestsEnabled,
  DESKTOP,
  eventually,
  expectNoAxeViolations,
  PHONE,
  SCREENSHOTS,
} from './server.ts'

/** What the screen shows (the viewport, not the whole page: the dialog covers the viewport). */
async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png` })
  await expectNoAxeViolations(page, name)
}

/** Where the focus is: the test id of the focused element, and whether it is inside the dialog. */
const focus = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    return { testid: el?.dataset.testid ?? null, inDialog: el?.closest('dialog') != null }
  })

describe.skipIf(!browserTestsEnabled('howto.test.ts'))('How to play in the browser', () => {
  const fx = browserFixture()

  /** The open dialog, found by its role and its name (its heading). */
  const dialogOf = (p: Person, gameName: string) =>
    p.page.getByRole('dialog', { name: p.t.howToPlayGame(gameName) })

  for (const [size, opts] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`opens from the home page (${size}, Swedish): Idiot's special cards, the duel's score; Escape closes and gives focus back`, async () => {
      const p = await fx.open(opts, 'sv')
      const { page, t } = p
      await page.goto(`${fx.url}/`)
      const opener = page.getByRole('button', { name: t.howToPlayGame(t.idiot), exact: true })
      await opener.click()

      const dialog = dialogOf(p, t.idiot)
      await dialog.waitFor()
      expect((await focus(page)).inDialog).toBe(true)
      const sv = idiotTexts.sv
      await dialog.getByText(sv.intro, { exact: true }).waitFor()
      for (const s of sv.sections) {
        expect(await dialog.getByRole('heading', { name: s.h, level: 3 }).count()).toBe(1)
      }
      // The special cards as pictures, named in Swedish: a two, a ten, four sevens.
      for (const n of ['2H', 'TS', '7C', '7D', '7H', '7S']) {
        const name = cardLabel('sv', parseCard(n)!)
        expect(await dialog.getByRole('img', { name, exact: true }).count(), name).toBe(1)
      }
      // Nothing behind the dialog can be reached while it is open: the page is covered.
      await expect(
        page.getByRole('button', { name: t.create }).click({ trial: true, timeout: 1000 }),
      ).rejects.toThrow()
      await shot(page, `howto-${size}-home-idiot`)
      await dialog
        .getByRole('heading', { name: sv.sections[2]!.h })
        .evaluate((h) => h.scrollIntoView({ block: 'center' }))
      await shot(page, `howto-${size}-home-idiot-cards`)

      // The duel: how points come from cards left, that fewer win, what "best possible" is.
      await dialog.getByRole('button', { name: t.duel, exact: true }).click()
      const duel = dialogOf(p, t.duel)
      await duel.getByRole('heading', { name: t.best, level: 3 }).waitFor()
      const rows = await duel
        .locator('tbody tr')
        .evaluateAll((trs) =>
          trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')),
        )
      const table = duelTexts.sv.sections.flatMap((s) => s.blocks).find((b) => 'rows' in b)
      expect(rows).toEqual(table && 'rows' in table ? table.rows.map((r) => [...r]) : null)
      expect(await duel.getByRole('columnheader', { name: 'Poäng', exact: true }).count()).toBe(1)
      expect(await duel.getByText('lägst summa efter alla givar vinner').count()).toBe(1)
      await shot(page, `howto-${size}-home-duel`)
      await duel.locator('table').evaluate((h) => h.scrollIntoView({ block: 'center' }))
      await shot(page, `howto-${size}-home-duel-score`)

      await page.keyboard.press('Escape')
      await eventually(async () => expect(await page.getByRole('dialog').count()).toBe(0))
      await eventually(async () =>
        expect(await focus(page)).toEqual({ testid: 'howto-open', inDialog: false }),
      )
      expect(await opener.evaluate((el) => el === document.activeElement)).toBe(true)

      // The button follows the chosen game.
      await pickGame(page, 'klockan')
      await page.getByRole('button', { name: t.howToPlayGame(t.klockan), exact: true }).click()
      const klockan = dialogOf(p, t.klockan)
      await klockan.getByText(klockanTexts.sv.intro, { exact: true }).waitFor()
      expect(
        await klockan.getByRole('heading', { name: 'Klockan för två', level: 3 }).count(),
      ).toBe(1)
      await klockan
        .locator('figure')
        .first()
        .evaluate((f) => f.scrollIntoView({ block: 'center' }))
      await shot(page, `howto-${size}-home-klockan`)
      // Dom Åtta Herrarna: a whole foundation, ten to jack, in pictures.
      await klockan.getByRole('button', { name: t.herrarna, exact: true }).click()
      const herrarna = dialogOf(p, t.herrarna)
      const foundation = herrarna.locator('figure').first()
      await foundation.waitFor()
      expect(await foundation.getByRole('img').count()).toBe(13)
      await foundation.evaluate((f) => f.scrollIntoView({ block: 'center' }))
      await shot(page, `howto-${size}-home-herrarna`)
      await herrarna.getByRole('button', { name: t.close, exact: true }).click()
      await eventually(async () => expect(await page.getByRole('dialog').count()).toBe(0))
      await eventually(async () => expect((await focus(page)).testid).toBe('howto-open'))
      expect(fx.errorsOf(p)).toEqual([])
    })
  }

  for (const [lang, size, opts] of [
    ['nb', 'phone', PHONE],
    ['en', 'desktop', DESKTOP],
  ] as const) {
    it(`the duel's How to play in ${lang === 'nb' ? 'Norwegian' : 'English'} (${size}): every section, the score's bands, the cards named in ${lang}`, async () => {
      const p = await fx.open(opts, lang)
      const { page, t } = p
      await page.goto(`${fx.url}/`)
      // The button follows the game chosen on the home page.
      await pickGame(page, 'duel')
      const opener = page.getByRole('button', { name: t.howToPlayGame(t.duel), exact: true })
      await opener.click()
      const dialog = dialogOf(p, t.duel)
      const texts = duelTexts[lang]
      await dialog.getByText(texts.intro, { exact: true }).waitFor()
      expect((await focus(page)).inDialog).toBe(true)
      for (const section of texts.sections) {
        expect(
          await dialog.getByRole('heading', { name: section.h, level: 3 }).count(),
          section.h,
        ).toBe(1)
        for (const b of section.blocks) {
          if ('p' in b) expect(await dialog.getByText(b.p, { exact: true }).count(), b.p).toBe(1)
          if ('cards' in b) {
            for (const n of b.cards) {
              const name = cardLabel(lang, parseCard(n)!)
              expect(await dialog.getByRole('img', { name, exact: true }).count(), name).toBe(1)
            }
          }
          if ('head' in b) {
            for (const h of b.head) {
              expect(await dialog.getByRole('columnheader', { name: h, exact: true }).count()).toBe(
                1,
              )
            }
            const rows = await dialog
              .locator('tbody tr')
              .evaluateAll((trs) =>
                trs.map((tr) =>
                  [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? ''),
                ),
              )
            expect(rows).toEqual(b.rows.map((r) => [...r]))
          }
        }
      }
      // Nothing of another language's text.
      const other = lang === 'nb' ? duelTexts.en : duelTexts.nb
      expect(await dialog.getByText(other.intro, { exact: true }).count()).toBe(0)
      expect(await fitsWidth(page)).toBe(true)
      await shot(page, `howto-${size}-duel-${lang}`)
      await dialog.locator('table').evaluate((h) => h.scrollIntoView({ block: 'center' }))
      await shot(page, `howto-${size}-duel-${lang}-score`)
      await page.keyboard.press('Escape')
      await eventually(async () => expect(await page.getByRole('dialog').count()).toBe(0))
      expect(await opener.evaluate((el) => el === document.activeElement)).toBe(true)
      expect(fx.errorsOf(p)).toEqual([])
    })
  }

  it('opens from the waiting room and from the table, stays open while the game starts, and the seat is kept', async () => {
    const host = await fx.open(DESKTOP, 'en')
    const guest = await fx.open(PHONE, 'nb')
    const link = await createIdiotTable(host, fx.url, 'Astrid', 2)
    await joinByLink(guest, link, 'Bo')
    const tableUrl = guest.page.url()

    // The waiting room: the guest reads the rules there.
    expect(await fitsWidth(guest.page)).toBe(true)
    await shot(guest.page, 'howto-phone-lobby-button')
    await guest.page
      .getByRole('button', { name: guest.t.howToPlayGame(guest.t.idiot), exact: true })
      .click()
    const dialog = dialogOf(guest, guest.t.idiot)
    await dialog.getByText(idiotTexts.nb.intro, { exact: true }).waitFor()
    expect((await focus(guest.page)).inDialog).toBe(true)
    await shot(guest.page, 'howto-phone-lobby')

    // The host starts the game while the guest is still reading: the rules stay open, and the
    // table appears behind them.
    await startGame(host)
    await guest.page.getByTestId('hand').waitFor({ state: 'attached' })
    expect(await dialog.isVisible()).toBe(true)
    await guest.page.setViewportSize(DESKTOP.viewport!)
    await shot(guest.page, 'howto-desktop-table-guest')
    await guest.page.setViewportSize(PHONE.viewport!)

    // Closed with its button: the waiting room's button is gone, so the focus goes to the bar's.
    // The dialog is closed at once, but focus moves in its close event, a task later: wait for it.
    await dialog.getByRole('button', { name: guest.t.close, exact: true }).click()
    await eventually(async () => expect(await guest.page.getByRole('dialog').count()).toBe(0))
    await eventually(async () =>
      expect(await focus(guest.page)).toEqual({ testid: 'howto-open', inDialog: false }),
    )
    expect(guest.page.url()).toBe(tableUrl)
    const g = await snap(guest.page)
    expect(g.hand).toHaveLength(3)
    expect(g.status).toBe(guest.t.swapHint)
    expect(await fitsWidth(guest.page)).toBe(true)
    await shot(guest.page, 'howto-phone-table-closed')

    // The table: the host opens the rules from the bar, at desktop size and on a phone.
    const bar = host.page.getByRole('button', { name: host.t.rules, exact: true })
    await bar.click()
    const hostDialog = dialogOf(host, host.t.idiot)
    await hostDialog.getByText(idiotTexts.en.intro, { exact: true }).waitFor()
    for (const n of ['2H', 'TS']) {
      const name = cardLabel('en', parseCard(n)!)
      expect(await hostDialog.getByRole('img', { name, exact: true }).count(), name).toBe(1)
    }
    await shot(host.page, 'howto-desktop-table')
    await host.page.setViewportSize(PHONE.viewport!)
    await shot(host.page, 'howto-phone-table')
    await host.page.setViewportSize(DESKTOP.viewport!)
    await host.page.keyboard.press('Escape')
    await eventually(async () => expect(await host.page.getByRole('dialog').count()).toBe(0))
    expect(await bar.evaluate((el) => el === document.activeElement)).toBe(true)

    // Both still sit at the table: they get ready and the first turn starts.
    for (const p of [host, guest]) {
      await p.page.getByRole('button', { name: p.t.ready, exact: true }).click()
    }
    await eventually(async () => {
      const [h, gs] = [await snap(host.page), await snap(guest.page)]
      const hostFirst = h.status === host.t.yourTurn
      expect(h.status).toBe(hostFirst ? host.t.yourTurn : host.t.theirTurn('Bo'))
      expect(gs.status).toBe(hostFirst ? guest.t.theirTurn('Astrid') : guest.t.yourTurn)
    })
    expect(fx.errorsOf(host)).toEqual([])
    expect(fx.errorsOf(guest)).toEqual([])
  })
})
