// "What would the hint do?" on an Idioten replay (docs/rules.md, A-17 hints), on a phone: a game
// of Idioten alone played plainly (discard the first card that can go, else deal; never a move
// into a gap), then its record's replay: the hint's move beside a move made, in words with the
// cards left in the playouts, and every move checked in turn (in a Web Worker kept for all of
// them), with the moves that left clearly more cards listed, each a step to that move.
import { describe, expect, it } from 'vitest'
import { RECORD_DICTS } from '../../src/lib/i18n-records.ts'
import { createIdiotenAlone, DUEL_DECK, duelStep } from './duel-helpers.ts'
import { browserFixture } from './fixture.ts'
import { focused } from './pages.ts'
import {
  browserTestsEnabled,
  eventually,
  expectNoAxeViolations,
  PHONE,
  screenshot,
} from './server.ts'

describe.runIf(browserTestsEnabled('aces-review'))('the hint beside an Idioten replay', () => {
  const fx = browserFixture({ deck: DUEL_DECK })

  it('[A-17] each move beside the hint’s, and every move checked', async () => {
    const me = await fx.open(PHONE, 'en')
    const { page } = me
    const r = RECORD_DICTS.en
    await createIdiotenAlone(me, fx.url, 'Astrid', { rounds: '1' })
    for (let steps = 0; await duelStep(page); steps++) expect(steps).toBeLessThan(150)
    const end = page.getByTestId('record-link-end')
    await end.waitFor()
    await page.goto(`${fx.url}${await end.getAttribute('href')}`)
    // The moves of the list (not the deal).
    const moves = page.locator('[data-testid="move-list"] [role="option"]:not([data-k="0"])')
    await moves.first().waitFor()
    const n = await moves.count()
    expect(n).toBeGreaterThan(10)

    // A discard its player made: the hint's move from what she saw then, and whether she did the
    // same; the focus goes to the answer.
    await page.getByTestId('move-1').click()
    const ask = page.getByTestId('hint-review-ask')
    expect(await page.getByTestId('hint-review').textContent()).toContain(r.reviewAboutCards)
    await ask.click()
    const review = page.getByTestId('hint-review-said')
    await eventually(async () =>
      expect(await review.textContent()).toMatch(
        /^Before move 1: Hint: (discard the .+|move the .+ to the empty pile \d|deal the next cards|end the round)\. Astrid did (the same|otherwise(; that move left \d+\.\d cards on average in the playouts)?)\.$/,
      ),
    )
    expect((await focused(page)).testid).toBe('hint-review-said')
    expect(await ask.count()).toBe(0)

    // Every move in turn: the progress, then the moves that left clearly more cards than the
    // hint's. This plain player never fills a gap, so some are listed.
    // Alone, every move is the player's own: no "Check my moves" beside "Check every move".
    expect(await page.getByTestId('hint-review-mine').count()).toBe(0)
    const started = Date.now()
    await page.getByTestId('hint-review-all').click()
    const progress = page.getByTestId('hint-review-progress')
    expect((await focused(page)).testid).toBe('hint-review-progress')
    await eventually(
      async () => expect(await progress.textContent()).toMatch(/^(Moves that left|No move left)/),
      120_000,
    )
    console.log(`aces-review: ${n} moves checked in ${Date.now() - started} ms`)
    // A screen reader was told the check began, and how it ended: not each move on the way.
    expect(await page.getByTestId('hint-review-news').textContent()).toBe(r.reviewLookAgainCards)
    // Another language shows the same news in its words, and does not say it again.
    await page.locator('header select').selectOption('sv')
    await eventually(async () =>
      expect(await progress.textContent()).toBe(RECORD_DICTS.sv.reviewLookAgainCards),
    )
    expect(await page.getByTestId('hint-review-news').textContent()).toBe('')
    await page.locator('header select').selectOption('en')
    await eventually(async () => expect(await progress.textContent()).toBe(r.reviewLookAgainCards))
    expect(await progress.textContent()).toBe(r.reviewLookAgainCards)
    const again = page.locator('[data-testid^="look-again-"]')
    console.log(`aces-review: ${await again.count()} moves to look at again`)
    // How often she made the hint's move, of every move she made (no undo, no timer here).
    const summary = await page.getByTestId('hint-review-summary').textContent()
    const [, same, checked, toLook] = summary!
      .match(/^Astrid: the hint’s move (\d+) times of (\d+), (\d+) to look at again\.$/)!
      .map(Number)
    expect(checked).toBe(n)
    expect(same).toBeGreaterThan(0)
    expect(same).toBeLessThan(n)
    expect(toLook).toBe(await again.count())
    const first = again.first()
    const k = Number((await first.getAttribute('data-testid'))?.slice('look-again-'.length))
    expect(await first.textContent()).toMatch(
      new RegExp(`^Move ${k}, Astrid: (\\d+\\.\\d) cards left against (\\d+\\.\\d)$`),
    )
    const [, played, hint] = (await first.textContent())!.match(
      /: (\S+) cards left against (\S+)$/,
    )!
    expect(Number(played)).toBeGreaterThan(Number(hint))
    // The list of moves marks the same moves, and says so to a screen reader.
    const marks = page.getByTestId('move-list').getByTestId('move-mark')
    expect(await marks.count()).toBe(await again.count())
    expect(await page.getByTestId(`move-${k}`).getByTestId('move-mark').count()).toBe(1)
    expect(await page.getByTestId(`move-${k}`).textContent()).toContain(`, ${r.lookAgainMark}`)
    await first.click()
    expect(await first.getAttribute('aria-current')).toBe('step')
    // At that move, its review is known already, with the same figure.
    expect(await review.textContent()).toMatch(
      new RegExp(
        `Astrid did otherwise; that move left ${played} cards on average in the playouts\\.$`,
      ),
    )
    expect(await page.getByTestId('hint-review-odds').textContent()).toMatch(
      /^Played out \d+ times/,
    )
    await screenshot(page, 'aces-review-phone')
    await expectNoAxeViolations(page, 'Idioten replay, a move to look at again')
  })
})
