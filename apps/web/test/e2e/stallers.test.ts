// Stallers at the table (docs/rules.md I-16, "At the table"): turn clocks on every seat that must
// act, a player who lets the clock run out twice in a row shown as away, the others handing the
// seat to a bot (Idiot) or ending the game with the staller forfeiting it, the staller taking the
// seat back from the bot, and the host changing the timer in the waiting room and in the game.
// The server runs its clocks at 0.3 of their length (KORTBORD_TIMER_SCALE).
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { browserFixture } from './fixture.ts'
import { IDIOT_DECK, playTurn, snap } from './idiot-helpers.ts'
import {
  chooseTimer,
  createIdiotTable,
  createTable,
  focused,
  joinByLink,
  type Person,
  selectByLabel,
  startGame,
  watchByLink,
} from './pages.ts'
import { browserTestsEnabled, DESKTOP, desktopShot, eventually, PHONE, shot } from './server.ts'

const SCALE = 0.3
const HOST = 'Astrid'
const STALLER = 'Bo'

/** The text of a turn clock: whole seconds and "s", no glyph (no font has to have one). */
async function clockSeconds(page: Page, testid: string): Promise<number> {
  const text = (await page.getByTestId(testid).textContent())?.trim() ?? ''
  const m = /^(\d+) s$/.exec(text)
  if (!m) throw new Error(`clock ${testid} shows "${text}"`)
  return Number(m[1])
}

describe.skipIf(!browserTestsEnabled('stallers.test.ts'))('Stallers at the table', () => {
  const fx = browserFixture({
    deck: IDIOT_DECK,
    env: { KORTBORD_TIMER_SCALE: String(SCALE), BOT_DELAY_MS: '300' },
  })
  let host: Person
  let staller: Person
  let desk: Person

  beforeAll(async () => {
    host = await fx.open(PHONE, 'sv')
    staller = await fx.open(PHONE, 'en')
    desk = await fx.open(DESKTOP, 'en')
  })

  it('[I-16] a staller times out twice, a bot takes the seat, the staller takes it back; the host changes the timer', async () => {
    // --- Waiting room: the host changes the timer; the guest sees it -------------------------
    const link = await createIdiotTable(host, fx.url, HOST, 2, undefined, 60)
    await joinByLink(staller, link, STALLER)
    await watchByLink(desk, link)
    const setting = host.page.getByTestId('timer-setting')
    expect(await setting.inputValue()).toBe('60')
    await setting.selectOption('45')
    await eventually(async () =>
      expect(await staller.page.getByTestId('timer-shown').textContent()).toBe(
        staller.t.turnTimerIs(45),
      ),
    )
    // By keyboard: each arrow key is a change, and the select keeps the focus through them
    // (it is not disabled while a change is sent); the last choice is the one that counts.
    await setting.focus()
    await host.page.keyboard.press('ArrowDown')
    await host.page.keyboard.press('ArrowDown')
    expect((await focused(host.page)).testid).toBe('timer-setting')
    await eventually(async () => {
      const chosen = await setting.inputValue()
      expect(chosen).not.toBe('45')
      expect(await staller.page.getByTestId('timer-shown').textContent()).toBe(
        staller.t.turnTimerIs(chosen === 'off' ? null : Number(chosen)),
      )
    })
    expect((await focused(host.page)).testid).toBe('timer-setting')
    await setting.selectOption('45')
    await eventually(async () =>
      expect(await staller.page.getByTestId('timer-shown').textContent()).toBe(
        staller.t.turnTimerIs(45),
      ),
    )
    // Only the host has the control.
    expect(await staller.page.getByTestId('timer-setting').count()).toBe(0)
    await shot(host.page, 'stall-phone-lobby-timer')
    await desktopShot(host.page, 'stall-desktop-lobby-timer')

    await startGame(host)

    // --- Swap: every seat has a clock; the host is ready, the staller lets it run out -------
    await host.page.getByTestId('hand').waitFor()
    await host.page.getByTestId('my-clock').waitFor()
    // Exact: a clock never shows more than the turn (45 s, here run at 0.3).
    expect(await clockSeconds(host.page, 'my-clock')).toBeLessThanOrEqual(Math.ceil(45 * SCALE))
    expect(await clockSeconds(host.page, 'clock-1')).toBeLessThanOrEqual(Math.ceil(45 * SCALE))
    expect(await host.page.getByTestId('my-clock').getAttribute('aria-label')).toMatch(
      new RegExp(`^${host.t.yourTime}: \\d+ s$`),
    )
    await shot(staller.page, 'stall-phone-swap-clocks')
    await host.page.getByRole('button', { name: host.t.ready, exact: true }).click()

    // The staller's clock runs out in the swap (ready) and on their first turn (a card played
    // for them): two in a row, so they are away (seat 1 starts: seat 0 dealt, I-5).
    await eventually(
      async () =>
        expect(await host.page.getByTestId('opponent-1').getByTestId('away-1').count()).toBe(1),
      (45 * SCALE * 2 + 10) * 1000,
    )
    await eventually(async () =>
      expect(await staller.page.getByTestId('table-news').textContent()).toBe(
        staller.t.logTimeoutAction(STALLER, 'play'),
      ),
    )
    expect(await host.page.getByTestId('table-news').textContent()).toBe(
      host.t.logTimeoutAction(STALLER, 'play'),
    )
    // The staller is told how the others see them, and how to be back.
    await staller.page.getByTestId('shown-away').waitFor()
    expect(await staller.page.getByTestId('shown-away').textContent()).toBe(staller.t.shownAway)
    expect(await host.page.getByTestId('shown-away').count()).toBe(0)
    // The others are offered what to do about it; the staller is not offered it about anyone.
    const toBot = host.page.getByTestId('away-bot-1')
    await toBot.waitFor()
    expect(await host.page.getByTestId('forfeit-1').textContent()).toBe(host.t.endGame)
    expect(await staller.page.locator('[data-testid^="away-actions-"]').count()).toBe(0)
    await shot(host.page, 'stall-phone-away-actions')
    await shot(desk.page, 'stall-desktop-away-spectator')
    await desktopShot(host.page, 'stall-desktop-away-actions')

    // --- The host hands the seat to a bot ------------------------------------------------------
    await toBot.click()
    const banner = staller.page.getByTestId('bot-playing')
    await banner.waitFor()
    expect(await banner.textContent()).toContain(staller.t.botPlayingForYou)
    expect(await staller.page.getByTestId('shown-away').count()).toBe(0)
    await host.page.getByTestId('opponent-1').getByTestId('bot-1').waitFor()
    expect(await host.page.getByTestId('away-bot-1').count()).toBe(0)
    await eventually(async () =>
      expect(await desk.page.getByTestId('table-news').textContent()).toBe(desk.t.logBot(STALLER)),
    )
    // While the bot plays, the staller's own buttons are off.
    expect(await staller.page.getByTestId('pickup').isDisabled()).toBe(true)

    // The game goes on: the host plays, the bot answers for the staller.
    await eventually(async () => expect((await snap(host.page)).status).toBe(host.t.yourTurn))
    // The live regions stay in the page while their words change (a region that arrives with
    // its text already in it is often not read out).
    const lastMove = await host.page.getByTestId('news').elementHandle()
    const tableNews = await host.page.getByTestId('table-news').elementHandle()
    await playTurn(host)
    await eventually(async () => {
      const news = await host.page.getByTestId('news').textContent()
      expect(news?.startsWith(`${STALLER} `), `news "${news}"`).toBe(true)
    }, 15_000)
    expect(await lastMove!.evaluate((n) => n.isConnected)).toBe(true)
    await shot(staller.page, 'stall-phone-bot-playing')
    await desktopShot(staller.page, 'stall-desktop-bot-playing')

    // --- The staller takes the seat back --------------------------------------------------------
    await staller.page.getByTestId('take-back').click()
    await banner.waitFor({ state: 'detached' })
    await eventually(async () =>
      expect(await host.page.getByTestId('opponent-1').getByTestId('bot-1').count()).toBe(0),
    )
    expect(await host.page.getByTestId('opponent-1').getByTestId('away-1').count()).toBe(0)
    // Back in the seat: "a bot plays for …" is no longer news.
    await eventually(async () =>
      expect(await host.page.getByTestId('table-news').textContent()).toBe(''),
    )

    // --- The host turns the timer off from the table's menu ---------------------------------------
    await host.page.locator('details.people summary').click()
    await host.page.getByTestId('timer-setting').selectOption('off')
    await eventually(async () => {
      expect(await staller.page.getByTestId('table-news').textContent()).toBe(
        staller.t.logTimer(null),
      )
      expect(await tableNews!.evaluate((n) => n.isConnected && n.textContent)).toBe(
        host.t.logTimer(null),
      )
      expect(await host.page.locator('[role="timer"]').count()).toBe(0)
      expect(await staller.page.locator('[role="timer"]').count()).toBe(0)
    })
    await shot(host.page, 'stall-phone-menu-timer-off')

    // The staller plays their own turns again (a burn gives the host another turn first).
    for (let turn = 0; ; turn++) {
      expect(turn, 'the staller should get a turn').toBeLessThan(8)
      const who = await eventually(async () => {
        if ((await snap(staller.page)).status === staller.t.yourTurn) return staller
        if ((await snap(host.page)).status === host.t.yourTurn) return host
        throw new Error('nobody’s turn yet')
      })
      await playTurn(who)
      if (who === staller) break
    }
  })

  it('[I-16] a duel: the staller is away after two timeouts and forfeits the match; the next starts', async () => {
    // Fresh pages: the first test's table stays open.
    for (const p of [host, staller]) await p.page.goto('about:blank')
    const link = await createTable(host, fx.url, HOST, 'duel', async () => {
      await selectByLabel(host.page, host.t.games).selectOption('1')
      // The duel's own default is 60 s; 30 s here (9 s at this server's pace).
      expect(await selectByLabel(host.page, host.t.turnTimer).inputValue()).toBe('60')
      await chooseTimer(host, 30)
    })
    await joinByLink(staller, link, STALLER)
    await startGame(host)
    await host.page.getByTestId('my-board').waitFor()
    await staller.page.getByTestId('my-board').waitFor()
    // Each player has their own clock (they play at the same time).
    expect(await clockSeconds(staller.page, 'my-clock')).toBeLessThanOrEqual(Math.ceil(30 * SCALE))
    expect(await clockSeconds(staller.page, 'clock-0')).toBeLessThanOrEqual(Math.ceil(30 * SCALE))

    // The host keeps playing (a deal whenever their clock runs low); the staller does nothing.
    const forfeit = host.page.getByTestId('forfeit-1')
    const deadline = Date.now() + 60_000
    while (!(await forfeit.isVisible())) {
      expect(Date.now(), 'the staller should be away within a minute').toBeLessThan(deadline)
      const left = await clockSeconds(host.page, 'my-clock').catch(() => 99)
      if (left <= 4) {
        await host.page.getByTestId('deal').click()
        // dealing over a possible discard asks first.
        const warn = host.page.getByRole('alert').filter({ hasText: host.t.dealWarning })
        if (await warn.isVisible()) await host.page.getByTestId('deal').click()
      }
      await new Promise((r) => setTimeout(r, 300))
    }
    await eventually(async () =>
      expect(await staller.page.getByTestId('table-news').textContent()).toBe(
        staller.t.logTimeoutAction(STALLER, 'deal'),
      ),
    )

    // Ending the game asks first; cancelling changes nothing.
    await forfeit.click()
    const question = host.page.getByTestId('away-actions-1')
    expect(await question.textContent()).toContain(host.t.forfeitQuestion(STALLER))
    expect(await question.textContent()).toContain(host.t.forfeitTwo)
    await shot(host.page, 'stall-phone-duel-forfeit-confirm')
    await host.page.getByRole('button', { name: host.t.cancel }).click()
    await forfeit.click()
    await host.page.getByTestId('forfeit-yes-1').click()

    // Both see who forfeited and who won; the tally counts the match.
    const result = host.page.getByTestId('result')
    await result.waitFor()
    expect(await result.locator('h2').textContent()).toBe(host.t.youWin)
    expect(await result.textContent()).toContain(host.t.logForfeit(STALLER))
    expect(await result.textContent()).toContain(
      `${host.t.matchesWon}: ${HOST} (1) · ${STALLER} (0)`,
    )
    const theirs = staller.page.getByTestId('result')
    await theirs.waitFor()
    expect(await theirs.locator('h2').textContent()).toBe(staller.t.matchWinner(HOST))
    expect(await theirs.getByTestId('forfeit').textContent()).toBe(staller.t.youForfeited)
    // No clocks and no moves once the match is over.
    expect(await staller.page.locator('[role="timer"]').count()).toBe(0)
    expect(await staller.page.getByTestId('deal').count()).toBe(0)
    await shot(staller.page, 'stall-phone-duel-forfeited')
    await desktopShot(host.page, 'stall-desktop-duel-forfeit-result')

    // The next match starts, the staller plays again (their timeouts start from nothing).
    await host.page.getByTestId('next').click()
    await eventually(async () => {
      expect(await staller.page.getByTestId('result').count()).toBe(0)
      expect(await staller.page.getByTestId('my-clock').count()).toBe(1)
    })
    await staller.page.getByTestId('deal').click()
    expect(await host.page.getByTestId('duel-player-1').getByTestId('away-1').count()).toBe(0)
  })

  it('[I-16] Idiot: a player who dropped out forfeits; they are the Idiot, and the next game starts with them back', async () => {
    for (const p of [host, staller]) await p.page.goto('about:blank')
    const link = await createIdiotTable(host, fx.url, HOST, 2, undefined, null)
    await joinByLink(staller, link, STALLER)
    await startGame(host)
    await staller.page.getByTestId('hand').waitFor()
    // The staller's connection goes: away at once, no timer needed.
    await staller.page.goto('about:blank')
    const forfeit = host.page.getByTestId('forfeit-1')
    await forfeit.click()
    expect(await host.page.getByTestId('away-actions-1').textContent()).toContain(
      host.t.forfeitIdiot(STALLER),
    )
    await shot(host.page, 'stall-phone-idiot-forfeit-confirm')
    await host.page.getByTestId('forfeit-yes-1').click()
    const result = host.page.getByTestId('result')
    await result.waitFor()
    expect(await result.locator('h2').textContent()).toBe(host.t.logForfeit(STALLER))
    expect(await result.getByTestId('forfeit-idiot').textContent()).toBe(host.t.idiotIs(STALLER))
    expect(await result.textContent()).toContain(`${host.t.tally}: ${HOST} (0) · ${STALLER} (1)`)
    // The game is over: nothing to play, no more away actions.
    // (Still the swap phase: Ready is what there was to press.)
    expect(
      await host.page.getByRole('button', { name: host.t.ready, exact: true }).isVisible(),
    ).toBe(false)
    expect(await host.page.getByTestId('away-actions-1').count()).toBe(0)
    await shot(host.page, 'stall-phone-idiot-forfeited')
    await desktopShot(host.page, 'stall-desktop-idiot-forfeited')

    // The staller comes back to their seat and sees the same end.
    await staller.page.goto(link)
    const theirs = staller.page.getByTestId('result')
    await theirs.waitFor()
    expect(await theirs.locator('h2').textContent()).toBe(staller.t.youForfeited)
    expect(await theirs.getByTestId('forfeit-idiot').textContent()).toBe(staller.t.youAreIdiot)
    await host.page.getByTestId('next').click()
    for (const p of [host, staller]) {
      await eventually(async () => expect((await snap(p.page)).status).toBe(p.t.swapHint))
    }
  })
})
