// Idioten alone in real browsers: the home page offers the patience for one player (one
// game, without the options that need an opponent), the table starts at once with one board, a
// spectator sees it live, and the end says what the games left, with no winner, and Play again;
// the home page then lists the series among the games played here, with its replay.
import { describe, expect, it } from 'vitest'
import { RECORD_DICTS } from '../../src/lib/i18n-records.ts'
import { TABLE_DICTS } from '../../src/lib/i18n-table.ts'
import { DUEL_DECK, duelStep } from './duel-helpers.ts'
import { browserFixture } from './fixture.ts'
import { createSoloTable, fitsWidth, type Person, selectByLabel, watchByLink } from './pages.ts'
import {
  browserTestsEnabled,
  DESKTOP,
  eventually,
  expectNoAxeViolations,
  PHONE,
  screenshot,
} from './server.ts'

/** The score sheet's rows: points and cards left of each game played (the one seat's). */
function sheetRows(p: Person): Promise<{ points: number; left: number; won: boolean }[]> {
  return p.page.evaluate(() =>
    [...document.querySelectorAll('[data-testid="score-sheet"] tbody tr')].flatMap((tr) => {
      const cells = [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')
      if (cells.length < 2 || cells[0] === '') return []
      return [
        {
          points: Number(cells[0]),
          left: Number.parseInt(cells[1]!, 10),
          won: cells[1]!.includes('✓'),
        },
      ]
    }),
  )
}

describe.runIf(browserTestsEnabled('idioten-alone'))('Idioten alone (A-17)', () => {
  const fx = browserFixture({ deck: DUEL_DECK })

  it('[A-17] a series for one from the home page: one board, a watcher, the totals at the end, Play again', async () => {
    const me = await fx.open(PHONE, 'en')
    const { page, t } = me
    const tt = TABLE_DICTS.en
    const link = await createSoloTable(me, fx.url, 'Astrid', 'duel', async () => {
      await selectByLabel(page, t.players).selectOption('1')
      // Alone the form proposes one game and hides what needs an opponent.
      expect(await selectByLabel(page, t.gamesAlone).inputValue()).toBe('1')
      for (const gone of ['theirPiles', 'mode', 'sameDeal']) {
        expect(await page.locator(`[name="${gone}"]`).count(), gone).toBe(0)
      }
      expect(await selectByLabel(page, t.turnTimer).count()).toBe(0)
      await screenshot(page, 'idioten-alone-home')
      await selectByLabel(page, t.gamesAlone).selectOption('2')
    })
    // The table is the patience's, named Idioten, with one player's board and sheet.
    await page.getByTestId('my-board').waitFor()
    expect(await page.title()).toBe(`${tt.tableHeading('Idioten', link.slice(-6))} – kortbord`)
    expect(await page.locator('section.duel').getAttribute('aria-label')).toBe('Idioten')
    expect(await page.locator('[data-testid^="duel-player-"]').count()).toBe(1)
    expect(await page.locator('[data-testid="score-sheet"] th.name').allTextContents()).toEqual([
      'Astrid',
    ])
    expect(await page.getByTestId('my-clock').count()).toBe(0)
    expect(await page.getByTestId('sheet-explained').textContent()).toContain(tt.lowerBetter)
    expect(await fitsWidth(page)).toBe(true)
    await expectNoAxeViolations(page, 'Idioten alone, playing')
    await screenshot(page, 'idioten-alone-playing', { screen: true })

    // A spectator (Norwegian) sees the one board live, and nothing to play.
    const watcher = await fx.open(PHONE, 'nb')
    await watchByLink(watcher, link)
    await watcher.page.getByTestId('board-0').waitFor()
    expect(await watcher.page.getByTestId('my-board').count()).toBe(0)
    expect(await watcher.page.getByTestId('deal').count()).toBe(0)

    // The games follow one another on the one board (a game stuck at the end ends by itself).
    let steps = 0
    while (await duelStep(page)) expect(++steps).toBeLessThan(300)
    const result = page.getByTestId('result')
    await result.waitFor()
    const rows = await sheetRows(me)
    expect(rows).toHaveLength(2)
    const won = rows.filter((r) => r.won).length
    const left = rows[0]!.left + rows[1]!.left
    const points = rows[0]!.points + rows[1]!.points
    expect(await result.locator('h2').textContent()).toBe(tt.aloneResult(won, 2, left, points))
    expect(await page.getByTestId('decided').count()).toBe(0)
    expect(await page.getByTestId('tally').textContent()).toBe(tt.aloneTally(won))
    // The watcher sees the same end, in their words.
    const nb = TABLE_DICTS.nb
    await eventually(async () =>
      expect(await watcher.page.getByTestId('result').locator('h2').textContent()).toBe(
        nb.aloneResult(won, 2, left, points),
      ),
    )
    await expectNoAxeViolations(page, 'Idioten alone, over')
    await screenshot(page, 'idioten-alone-over', { screen: true })

    const record = `${fx.url}${await page.getByTestId('record-link-end').getAttribute('href')}`
    // Play again: a new series at once, the sheet empty.
    await page.getByTestId('next').click()
    await eventually(async () => expect(await page.getByTestId('result').count()).toBe(0))
    await page.getByTestId('my-board').waitFor()
    expect(await sheetRows(me)).toEqual([])
    // On a desktop the one board stands in the middle, as wide as is comfortable.
    await page.setViewportSize(DESKTOP.viewport!)
    await screenshot(page, 'idioten-alone-desktop', { screen: true })
    const box = (await page.getByTestId('duel-player-0').boundingBox())!
    expect(box.width).toBeLessThanOrEqual(DESKTOP.viewport!.width / 2)
    const sheet = (await page.getByTestId('score-sheet').boundingBox())!
    expect(sheet.width).toBeLessThanOrEqual(box.width + 1)
    expect(Math.abs(box.x + box.width / 2 - DESKTOP.viewport!.width / 2)).toBeLessThan(24)

    // The series' record replays it under the patience's name, with the one board.
    await page.goto(record)
    await page.getByTestId('replay-duel').waitFor()
    expect(await page.getByTestId('replay-title').textContent()).toBe(
      RECORD_DICTS.en.replayOf('Idioten'),
    )
    expect(await page.locator('[data-testid^="replay-player-"]').count()).toBe(1)
    await expectNoAxeViolations(page, 'Idioten alone, replay')
    await screenshot(page, 'idioten-alone-replay', { screen: true })

    // The home page lists the games played in this browser, newest first, each with its replay:
    // the series after Play again, then this one.
    await page.goto(`${fx.url}/`)
    const recent = page.getByTestId('recent-games').locator('a')
    await recent.first().waitFor()
    expect(await recent.count()).toBe(2)
    const path = new URL(record).pathname
    expect(await recent.nth(1).getAttribute('href')).toBe(path)
    expect(await recent.nth(1).textContent()).toContain('Idioten')
    expect(await recent.nth(1).textContent()).not.toContain('för två')
    // The table itself is listed under the name it is played by.
    expect(await page.getByTestId('your-tables').locator('a').textContent()).toBe(
      `Idioten · ${t.table(link.slice(-6))}`,
    )
    await expectNoAxeViolations(page, 'home with recent games')
    await screenshot(page, 'home-recent-games')
    await recent.nth(1).click()
    await page.getByTestId('replay-duel').waitFor()
    expect(new URL(page.url()).pathname).toBe(path)
  }, 180_000)
})
