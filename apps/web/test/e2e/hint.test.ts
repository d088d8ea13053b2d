// Hints (docs/rules.md, "At the table (Idiot)"): at a practice table the Hint button says in
// words what the hard computer player would do in the player's seat, chooses its cards and puts
// the focus on what completes it; the player still makes the move. Among people there is no hint
// (idiot.test.ts checks that for players and spectators) unless the host created the table with
// hints for every player.
import { describe, expect, it } from 'vitest'
import { TABLE_DICTS } from '../../src/lib/i18n-table.ts'
import { browserFixture } from './fixture.ts'
import { createIdiotTable, focused, joinByLink, startGame, watchByLink } from './pages.ts'
import {
  browserTestsEnabled,
  eventually,
  expectNoAxeViolations,
  PHONE,
  screenshot,
} from './server.ts'

describe.runIf(browserTestsEnabled('hint'))('hints at a practice table', () => {
  const fx = browserFixture()

  it('the swap by hints to Ready, then three turns (or more, until one has a choice) played by the hint with the keyboard', async () => {
    const me = await fx.open(PHONE, 'sv')
    const { page, t } = me
    const tt = TABLE_DICTS.sv
    await page.goto(`${fx.url}/`)
    await page.getByLabel(t.yourName).fill('Astrid')
    await page.getByTestId('practise').click()
    await page.getByTestId('hand').waitFor()
    const said = page.getByTestId('hint-said')
    // The screen reader's status region says the same words.
    const status = page.getByTestId('hint-status')
    const hand = () =>
      page
        .locator('[data-testid="hand"] [data-card]')
        .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-card'))))
    const chosen = () =>
      page
        .locator('[data-testid="hand"] [aria-pressed="true"]')
        .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-card'))))

    // --- The swap: each hint names a swap (the hand's card chosen, the focus on the face-up
    // card to take) until the cards are as the bot would have them; then Ready.
    let swaps = 0
    for (;;) {
      await page.getByTestId('hint').click()
      await said.waitFor()
      await eventually(async () => expect(await said.textContent()).toMatch(/^Tips: (byt|behåll)/))
      const words = (await said.textContent()) ?? ''
      if (words === tt.hintReady) {
        expect((await focused(page)).testid).toBe('ready')
        await page.keyboard.press('Enter')
        break
      }
      expect(await chosen()).toHaveLength(1)
      const [give] = await chosen()
      const take = Number((await focused(page)).testid?.replace('faceup-', ''))
      expect(Number.isInteger(take)).toBe(true)
      await page.keyboard.press('Enter')
      await eventually(async () => {
        const now = await hand()
        expect(now).toContain(take)
        expect(now).not.toContain(give)
      })
      expect(++swaps).toBeLessThan(4)
    }

    // --- Play: on each of three turns the hint chooses the cards it names and Play is focused
    // (or Pick up, when that is what it says); Enter makes the move.
    // Below the hint, how much the choice matters (the bot's playouts), on a turn with a choice:
    // the deal is random, so turns go on (up to ten) until one had a choice.
    let oddsSeen = 0
    for (let turn = 0; turn < 3 || (oddsSeen === 0 && turn < 10); turn++) {
      const hint = page.getByTestId('hint')
      await hint.waitFor({ timeout: 30_000 })
      // The last hint is gone with the move it named.
      if (turn > 0) expect(await said.count()).toBe(0)
      await hint.click()
      await said.waitFor()
      await eventually(async () => expect(await said.textContent()).toMatch(/^Tips: (lägg|ta upp)/))
      const words = (await said.textContent()) ?? ''
      if (words === tt.hintPickUp) {
        expect((await focused(page)).testid).toBe('pickup')
      } else {
        expect((await focused(page)).testid).toBe('play')
        const cards = await chosen()
        expect(cards.length).toBeGreaterThan(0)
        expect(await page.getByTestId('play').isEnabled()).toBe(true)
        if (turn === 0) {
          await expectNoAxeViolations(page, 'a hint shown')
          await screenshot(page, 'hint-phone-play', { screen: true })
        }
      }
      const odds = page.getByTestId('hint-odds')
      if ((await odds.count()) > 0) {
        const o = (await odds.textContent()) ?? ''
        expect(o).toMatch(/^Utspelat \d+ gånger från gissningar av de dolda korten: /)
        expect(await status.textContent()).toBe(`${words} ${o}`)
        oddsSeen++
      }
      const before = await hand()
      await page.keyboard.press('Enter')
      // The move went: the hand changed (cards played and drawn, or the pile taken up).
      await eventually(async () => expect(await hand()).not.toEqual(before))
    }
    expect(oddsSeen).toBeGreaterThan(0)
  })
  it('a table created with hints for every player: both players have Hint, a spectator none', async () => {
    const host = await fx.open(PHONE, 'en')
    const guest = await fx.open(PHONE, 'nb')
    const spec = await fx.open(PHONE, 'en')
    const link = await createIdiotTable(host, fx.url, 'Astrid', 2, async () => {
      const box = host.page.getByLabel(host.t.hintsForAll)
      expect(await box.isChecked()).toBe(false)
      await box.check()
      // The box says what it is for.
      expect(await box.getAttribute('aria-describedby')).toBe('hints-about')
      expect(await host.page.locator('#hints-about').textContent()).toBe(host.t.hintsForAllAbout)
    })
    await joinByLink(guest, link, 'Bo')
    // The waiting room says so to whoever joins.
    expect(await guest.page.getByTestId('hints-on').textContent()).toBe(guest.t.hintsForAll)
    await watchByLink(spec, link)
    await startGame(host)
    for (const p of [host, guest]) {
      await p.page.getByTestId('hand').waitFor()
      await p.page.getByTestId('hint').waitFor()
    }
    expect(await guest.page.getByTestId('hint').textContent()).toBe(TABLE_DICTS.nb.hint)
    await guest.page.getByTestId('hint').click()
    await eventually(async () =>
      expect(await guest.page.getByTestId('hint-said').textContent()).toMatch(
        /^Tips: (bytt|behold)/,
      ),
    )
    await spec.page.getByTestId('pile').waitFor()
    expect(await spec.page.getByTestId('hint').count()).toBe(0)
  })
})
