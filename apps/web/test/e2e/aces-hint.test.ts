// Hints at Idioten alone (docs/rules.md, A-17 hints): the Hint button says in words which move
// leaves the fewest cards as far as the player can know, picks a card to move into a gap, and
// puts the focus on what completes the hint; the player still makes the move. A spectator of the
// table has no hint (nor has a match for two: duel-table.test.ts).
import { describe, expect, it } from 'vitest'
import { TABLE_DICTS } from '../../src/lib/i18n-table.ts'
import { createIdiotenAlone, DUEL_DECK, readBoard } from './duel-helpers.ts'
import { browserFixture } from './fixture.ts'
import { focused, watchByLink } from './pages.ts'
import {
  browserTestsEnabled,
  eventually,
  expectNoAxeViolations,
  PHONE,
  screenshot,
} from './server.ts'

describe.runIf(browserTestsEnabled('aces-hint'))('hints at Idioten alone', () => {
  const fx = browserFixture({ deck: DUEL_DECK })

  it('[A-17] a game played by the hint with the keyboard: discards, a move into a gap, deals', async () => {
    const me = await fx.open(PHONE, 'en')
    const { page } = me
    const tt = TABLE_DICTS.en
    const link = await createIdiotenAlone(me, fx.url, 'Astrid')
    const said = page.getByTestId('hint-said')
    const status = page.getByTestId('hint-status')

    // A spectator sees the board and no Hint.
    const watcher = await fx.open(PHONE, 'en')
    await watchByLink(watcher, link)
    await watcher.page.getByTestId('board-0').waitFor()
    expect(await watcher.page.getByTestId('hint').count()).toBe(0)

    const kinds = new Set<string>()
    let pictured = false
    for (let step = 0; step < 40; step++) {
      const before = await readBoard(page)
      if (before === null) break
      await page.getByTestId('hint').click()
      await eventually(async () => expect(await said.textContent()).toMatch(/^Hint: /))
      const words = (await said.textContent()) ?? ''
      // The screen reader's status region says the same, with how much the choice matters.
      await eventually(async () => expect(await status.textContent()).toContain(words))
      const f = await focused(page)
      if (words === tt.hintDeal) {
        expect(f.testid).toBe('deal')
        kinds.add('deal')
      } else if (words === tt.hintFinish) {
        expect(f.testid).toBe('finish')
        kinds.add('finish')
      } else if (words.startsWith('Hint: discard')) {
        expect(f.testid).toMatch(/^top-\d$/)
        const pile = Number(f.testid!.slice(4))
        expect(before.hints).toContain(pile)
        kinds.add('discard')
      } else {
        // A move into a gap: its card is picked, the focus is on the gap.
        expect(words).toMatch(/^Hint: move the .+ to the empty pile \d\.$/)
        expect(f.testid).toMatch(/^empty-\d$/)
        expect(words.endsWith(`pile ${Number(f.testid!.slice(6)) + 1}.`)).toBe(true)
        expect(await page.locator('[data-testid="my-board"] [aria-pressed="true"]').count()).toBe(1)
        kinds.add('move')
      }
      if (!pictured && (await page.getByTestId('hint-left').count()) > 0) {
        expect(await page.getByTestId('hint-left').textContent()).toMatch(
          /^Played out \d+ times on guesses of the stock: the hint’s move left \d+\.\d cards on average/,
        )
        await expectNoAxeViolations(page, 'Idioten alone, a hint')
        await screenshot(page, 'aces-hint', { screen: true })
        pictured = true
      }
      await page.keyboard.press('Enter')
      const sig = JSON.stringify(before)
      await eventually(async () => expect(JSON.stringify(await readBoard(page))).not.toBe(sig))
      // The hint was for that position: it is gone once the move is made.
      expect(await said.count()).toBe(0)
      if (kinds.has('discard') && kinds.has('deal') && kinds.size >= 3 && step > 20) break
    }
    expect([...kinds]).toEqual(expect.arrayContaining(['discard', 'deal']))
    expect(pictured).toBe(true)
  })
})
