// Issue 15 in real browsers: an Idiot turn played with the keyboard alone (the focus follows the
// player's next action and stays put while others act, and looks different from a selection
// and a hint), the next game by agreement (waiting room, bots, after a game), the chat with its
// refusals, the title alert of a hidden tab with its sound and buzz, card motion and its absence
// under reduced motion, and cards that use a desktop's width. axe-core checks every state.
import type { BrowserContextOptions, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { Lang } from '../../src/lib/i18n.ts'
import { DICTS } from '../../src/lib/i18n-all.ts'
import { RECORD_DICTS } from '../../src/lib/i18n-records.ts'
import { TABLE_DICTS } from '../../src/lib/i18n-table.ts'
import { browserFixture } from './fixture.ts'
import { endByForfeit, IDIOT_DECK, playTurn, snap } from './idiot-helpers.ts'
import {
  createIdiotTable,
  createTable,
  fitsWidth,
  focused,
  joinByLink,
  lobbyHeading,
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
} from './server.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * The table page's header on a narrow screen: kortbord, the code, Rules and the language on one
 * line (the watcher count may go below), nothing past the screen's right edge.
 */
async function expectHeaderFits(page: Page, width: number): Promise<void> {
  const bar = await page.evaluate(() => {
    const kids = [...document.querySelector('header.bar')!.children]
    const line = kids.filter((k) => !k.matches('.watchers'))
    const middles = line.map((k) => k.getBoundingClientRect()).map((b) => b.top + b.height / 2)
    return {
      spread: Math.max(...middles) - Math.min(...middles),
      right: Math.max(...kids.map((k) => k.getBoundingClientRect().right)),
      page: document.documentElement.scrollWidth,
    }
  })
  expect(bar.spread).toBeLessThan(2)
  expect(bar.right).toBeLessThanOrEqual(width)
  expect(bar.page).toBeLessThanOrEqual(width)
}

/**
 * Controls a finger can miss: visible buttons, links, selects and disclosure summaries smaller
 * than 24 px either way (WCAG 2.2, target size); a checkbox counts by its label, which takes
 * the tap too.
 */
const smallTargets = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('button, a[href], select, summary, input')]
      .map((el) => (el instanceof HTMLInputElement ? (el.closest('label') ?? el) : el))
      .filter((el) => el.getClientRects().length > 0)
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.height < 24 || box.width < 24)
      .map(
        ({ el, box }) =>
          `${el.tagName} "${el.textContent?.trim().slice(0, 30)}" ${Math.round(box.width)}x${Math.round(box.height)}`,
      ),
  )

/**
 * Counts, from now on, the tones the page plays and the buzzes it asks for (navigator.vibrate);
 * the function returned reads both counts.
 */
async function countAlerts(page: Page): Promise<() => Promise<{ tones: number; buzz: number }>> {
  await page.evaluate(() => {
    const w = window as unknown as { __tones: number; __buzz: number }
    w.__tones = 0
    w.__buzz = 0
    const start = OscillatorNode.prototype.start
    OscillatorNode.prototype.start = function (...a: Parameters<typeof start>) {
      w.__tones++
      return start.apply(this, a)
    }
    Object.defineProperty(navigator, 'vibrate', {
      configurable: true,
      value: () => {
        w.__buzz++
        return true
      },
    })
  })
  return () =>
    page.evaluate(() => {
      const w = window as unknown as { __tones: number; __buzz: number }
      return { tones: w.__tones, buzz: w.__buzz }
    })
}

/**
 * Counts, from now on, the animations the page starts (Element.animate) in `window.__anims`; the
 * function returned reads the count.
 */
async function countAnimations(page: Page): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    const w = window as unknown as { __anims: number }
    w.__anims = 0
    const animate = Element.prototype.animate
    Element.prototype.animate = function (...a: Parameters<typeof animate>) {
      w.__anims++
      return animate.apply(this, a)
    }
  })
  return () => page.evaluate(() => (window as unknown as { __anims: number }).__anims)
}

describe.skipIf(!browserTestsEnabled('enjoy.test.ts'))('A table players enjoy (issue 15)', () => {
  const fx = browserFixture({ deck: IDIOT_DECK })

  /**
   * Astrid (the host, in English) and Bo (in `guestLang`) at a new Idiot table of two with no turn
   * timer, in the waiting room; each person in a fresh browser (as `fx.open` makes one).
   */
  async function twoAtIdiot(
    guestLang: Lang = 'sv',
    hostOpts: BrowserContextOptions = PHONE,
    guestOpts: BrowserContextOptions = PHONE,
  ): Promise<{ host: Person; guest: Person; link: string }> {
    const host = await fx.open(hostOpts, 'en')
    const guest = await fx.open(guestOpts, guestLang)
    const link = await createIdiotTable(host, fx.url, 'Astrid', 2, undefined, null)
    await joinByLink(guest, link, 'Bo')
    return { host, guest, link }
  }

  /** Whose turn it is, once both pages agree (0: a, 1: b). */
  function turnOf(a: Person, b: Person, names: [string, string]): Promise<0 | 1> {
    return eventually(async () => {
      const [x, y] = [await snap(a.page), await snap(b.page)]
      if (x.status === a.t.yourTurn && y.status === b.t.theirTurn(names[0])) return 0
      if (y.status === b.t.yourTurn && x.status === a.t.theirTurn(names[1])) return 1
      throw new Error(`no agreed turn: "${x.status}" / "${y.status}"`)
    })
  }

  it('[I-4, I-8] an Idiot turn with the keyboard alone: the focus goes to the next action, stays put while others play, and looks unlike a choice or a hint', async () => {
    const { host, guest } = await twoAtIdiot()
    const { page, t } = host

    // Start with the keyboard: the waiting room goes, the focus lands in the hand.
    await page.getByRole('button', { name: t.start }).focus()
    await page.keyboard.press('Enter')
    await page.getByTestId('hand').waitFor()
    await eventually(async () => expect((await focused(page)).inHand).toBe(true))
    await expectNoAxeViolations(page, 'swap, keyboard')

    // The hand is one Tab stop; the arrows move in it.
    const first = (await focused(page)).card
    await page.keyboard.press('ArrowRight')
    const second = (await focused(page)).card
    expect(second).not.toBe(first)
    expect(await page.locator('[data-testid="hand"] button[tabindex="0"]').count()).toBe(1)

    // Swap: Space on a hand card, Shift+Tab to the face-up cards, Space on one.
    await page.keyboard.press('Space')
    expect(await page.locator(`[data-testid="hand-${second}"]`).getAttribute('aria-pressed')).toBe(
      'true',
    )
    // Focus, choice and hint look different: a white outline; an amber ring and a lift; mint.
    const looks = await page.evaluate((c) => {
      const el = document.querySelector<HTMLElement>(`[data-card="${c}"]`)!
      const s = getComputedStyle(el)
      const face = document.querySelector<HTMLElement>('button[data-testid^="faceup-"].hint')
      return {
        outline: s.outlineColor,
        outlineStyle: s.outlineStyle,
        selected: s.boxShadow,
        lifted: s.transform,
        hint: face ? getComputedStyle(face).boxShadow : '',
      }
    }, second)
    expect(looks.outlineStyle).toBe('solid')
    expect(looks.outline).toBe('rgb(255, 255, 255)')
    expect(looks.selected).toContain('rgb(245, 158, 11)')
    expect(looks.lifted).not.toBe('none')
    expect(looks.hint).toContain('rgb(110, 231, 183)')
    await screenshot(page, 'enjoy-phone-keyboard-swap-chosen')
    await page.keyboard.press('Shift+Tab')
    expect((await focused(page)).testid).toMatch(/^faceup-/)
    await page.keyboard.press('Space')
    // The swap is made: the focus goes to Ready.
    await eventually(async () => expect((await focused(page)).testid).toBe('ready'))
    await page.keyboard.press('Enter')
    // Ready: back to the hand, to wait for the first turn there.
    await eventually(async () => expect((await focused(page)).inHand).toBe(true))
    await expectNoAxeViolations(page, 'ready, keyboard')

    await guest.page.getByRole('button', { name: guest.t.ready, exact: true }).click()
    let keyboardTurns = 0
    for (let i = 0; i < 12 && keyboardTurns < 3; i++) {
      const seat = await turnOf(host, guest, ['Astrid', 'Bo'])
      if (seat === 1) {
        // The other player plays: the host's focus stays on the same card.
        const before = await focused(page)
        await playTurn(guest)
        await sleep(300)
        const after = await focused(page)
        expect(after.card).toBe(before.card)
        expect(after.testid).toBe(before.testid)
        continue
      }
      const s = await snap(page)
      if (!(await focused(page)).inHand) {
        // A burn gave another turn: the focus is on the card to play or on Pick up already.
        expect((await focused(page)).hint || (await focused(page)).testid === 'pickup').toBe(true)
      }
      if (s.hints.some((c) => s.hand?.includes(c))) {
        // Walk the hand with the arrows to a card that can be played, choose it, Tab to Play.
        await page.locator('[data-testid="hand"] button[tabindex="0"]').focus()
        await page.keyboard.press('Home')
        for (let k = 0; k < 20 && !(await focused(page)).hint; k++)
          await page.keyboard.press('ArrowRight')
        const card = Number((await focused(page)).card)
        expect(s.hints).toContain(card)
        await page.keyboard.press('Space')
        await page.keyboard.press('Tab')
        expect((await focused(page)).testid).toBe('play')
        await page.keyboard.press('Enter')
        await eventually(async () => expect((await snap(page)).hand).not.toContain(card))
      } else {
        // Nothing to play from the hand: Pick up (or a face-up card) is the next action.
        await page.locator('[data-testid="pickup"]').focus()
        await page.keyboard.press('Enter')
        await eventually(async () => expect((await snap(page)).pile).toBe(0))
      }
      keyboardTurns++
      // After the move: never the page's start; the hand, or the next card to play.
      await eventually(async () => {
        const f = await focused(page)
        expect(f.body).toBe(false)
        expect(f.inHand || f.hint || f.testid === 'pickup').toBe(true)
      })
      if (keyboardTurns === 1) {
        await screenshot(page, 'enjoy-phone-keyboard-after-play')
        await expectNoAxeViolations(page, 'after a keyboard play')
      }
    }
    expect(keyboardTurns).toBe(3)
  })

  it('the next game by agreement: ready in the waiting room, bots agree, Play again after a game', async () => {
    const { host, guest, link } = await twoAtIdiot('nb')
    const tt = TABLE_DICTS.en

    // The waiting room: the host's Start is their ready, so they are offered no Ready of their
    // own and are not awaited (QA: two buttons); the guest is ready, and the host sees it.
    expect(await host.page.getByTestId('rematch-ask').count()).toBe(0)
    expect(await host.page.getByTestId('rematch-waiting').textContent()).toBe(tt.waitingFor('Bo'))
    expect(await guest.page.getByTestId('rematch-waiting').textContent()).toBe(
      TABLE_DICTS.nb.waitingForYou([]),
    )
    await guest.page.getByTestId('rematch-ask').click()
    await eventually(async () => {
      expect(await host.page.getByTestId('rematch-in').textContent()).toBe(tt.agreed('Bo'))
      expect(await host.page.getByTestId('rematch-waiting').count()).toBe(0)
    })
    // The guest's own page hears it on its own socket, which may come a moment after the host's.
    await eventually(async () => {
      expect(await guest.page.getByTestId('rematch-ask').count()).toBe(0)
      // In the waiting room the game starts when the host starts it; the guest is not named
      // after "you are in".
      const said = await guest.page.getByTestId('rematch-status').textContent()
      expect(said).toContain(TABLE_DICTS.nb.youAgreedHost('Astrid'))
      expect(said).not.toContain('Bo')
    })
    // Every seat taken: the heading no longer says it waits for players (QA: it did, above Start).
    expect(await host.page.getByTestId('lobby-title').textContent()).toBe(host.t.everyoneHere)
    expect(await guest.page.getByTestId('lobby-title').textContent()).toBe(guest.t.everyoneHere)
    await screenshot(host.page, 'enjoy-phone-lobby-ready')
    // The smallest phones (320 px): the header stays on one line, inside the screen.
    await host.page.setViewportSize({ width: 320, height: 640 })
    await expectHeaderFits(host.page, 320)
    expect(await smallTargets(host.page)).toEqual([])
    await screenshot(host.page, 'enjoy-320-lobby')
    await host.page.setViewportSize(PHONE.viewport!)
    await expectNoAxeViolations(host.page, 'waiting room, one ready')
    await expectNoAxeViolations(guest.page, 'waiting room, ready')
    // The host starts.
    await host.page.getByRole('button', { name: host.t.start, exact: true }).click()
    for (const p of [host, guest]) {
      await eventually(async () => expect((await snap(p.page)).status).toBe(p.t.swapHint))
    }

    // A game ends (the guest drops out and forfeits); both ask for the next one.
    await endByForfeit(host, guest, link)
    // Everyone seated may ask; only the host may also start at once.
    expect(await guest.page.getByTestId('next').count()).toBe(0)
    expect(await host.page.getByTestId('next').count()).toBe(1)
    await guest.page.getByTestId('rematch-ask').click()
    await eventually(async () =>
      expect(await host.page.getByTestId('rematch-waiting').textContent()).toBe(
        tt.waitingForYou([]),
      ),
    )
    // The guest's focus went to what the bar says now: once the guest's own answer came, which
    // may be after the host already saw the broadcast.
    await eventually(async () => expect((await focused(guest.page)).testid).toBe('rematch-status'))
    await screenshot(host.page, 'enjoy-phone-rematch-waiting')
    await host.page.locator('details.people > summary').click()
    expect(await smallTargets(host.page)).toEqual([])
    expect(await smallTargets(guest.page)).toEqual([])
    await host.page.locator('details.people > summary').click()
    await screenshot(guest.page, 'enjoy-phone-rematch-asked')
    await expectNoAxeViolations(host.page, 'result, rematch awaited')
    await expectNoAxeViolations(guest.page, 'result, rematch asked')
    await host.page.setViewportSize(DESKTOP.viewport!)
    await screenshot(host.page, 'enjoy-desktop-rematch-waiting')
    await expectNoAxeViolations(host.page, 'result, rematch awaited, desktop')
    await host.page.setViewportSize(PHONE.viewport!)
    await host.page.getByTestId('rematch-ask').click()
    for (const p of [host, guest]) {
      await eventually(async () => expect((await snap(p.page)).status).toBe(p.t.swapHint))
    }

    // With bots, the host alone decides: the bots agree by themselves, and the host starts.
    const solo = await fx.open(PHONE, 'en')
    await createIdiotTable(solo, fx.url, 'Cy', 3, undefined, null)
    // By keyboard: the waiting room starts with the focus on its heading; a button that goes
    // away with its seat hands the focus on (to the next seat to fill, else that seat's Remove).
    expect((await focused(solo.page)).testid).toBe('lobby-title')
    const keyOn = async (testid: string) => {
      await solo.page.getByTestId(testid).focus()
      await solo.page.keyboard.press('Enter')
    }
    await keyOn('add-bot-1')
    await solo.page.getByTestId('bot-1').waitFor()
    await eventually(async () => expect((await focused(solo.page)).testid).toBe('add-bot-2'))
    expect(await solo.page.getByTestId('add-bot-2').getAttribute('aria-label')).toBe(
      solo.t.addBotAt(3),
    )
    await solo.page.keyboard.press('Enter')
    await solo.page.getByTestId('bot-2').waitFor()
    await eventually(async () => expect((await focused(solo.page)).testid).toBe('remove-2'))
    await solo.page.keyboard.press('Enter')
    await solo.page.getByTestId('add-bot-2').waitFor()
    await eventually(async () => expect((await focused(solo.page)).testid).toBe('add-bot-2'))
    await solo.page.keyboard.press('Enter')
    await solo.page.getByTestId('bot-2').waitFor()
    expect(await solo.page.getByTestId('rematch-status').textContent()).toContain(tt.botsAgree)
    expect(await solo.page.getByTestId('rematch-ask').count()).toBe(0)
    await solo.page.getByRole('button', { name: solo.t.start, exact: true }).click()
    await eventually(async () => expect((await snap(solo.page)).status).toBe(solo.t.swapHint))
  })

  it('the host starts the next game at once with "Start now" while a request waits for them', async () => {
    const { host, guest, link } = await twoAtIdiot()
    const tt = TABLE_DICTS.en
    await startGame(host)
    for (const p of [host, guest]) {
      await eventually(async () => expect((await snap(p.page)).status).toBe(p.t.swapHint))
    }
    await endByForfeit(host, guest, link)

    // Bo asks for the next game; Astrid has not agreed, and starts it herself.
    await guest.page.getByTestId('rematch-ask').click()
    await eventually(async () =>
      expect(await host.page.getByTestId('rematch-in').textContent()).toBe(tt.agreed('Bo')),
    )
    const next = host.page.getByTestId('next')
    expect(await next.textContent()).toBe(tt.startNow)
    expect(await host.page.getByTestId('rematch-ask').textContent()).toBe(tt.playAgain)
    await screenshot(host.page, 'enjoy-phone-start-now-offered')
    await expectNoAxeViolations(host.page, 'result, a request waiting, Start now offered')
    await host.page.setViewportSize(DESKTOP.viewport!)
    await screenshot(host.page, 'enjoy-desktop-start-now-offered')
    await expectNoAxeViolations(host.page, 'result, Start now offered, desktop')
    await host.page.setViewportSize(PHONE.viewport!)
    await next.click()

    // Game 2 for both, without Astrid's agreement: the bar has gone, the history says so, and
    // Astrid's focus is in her new hand.
    for (const p of [host, guest]) {
      await eventually(async () => expect((await snap(p.page)).status).toBe(p.t.swapHint))
      expect(await p.page.getByTestId('rematch').count()).toBe(0)
      expect(await p.page.getByTestId('result').count()).toBe(0)
    }
    await eventually(async () =>
      expect(await host.page.getByTestId('history-latest').textContent()).toBe(
        RECORD_DICTS.en.evStarted(2),
      ),
    )
    await eventually(async () => expect((await focused(host.page)).inHand).toBe(true))
    await screenshot(host.page, 'enjoy-phone-started-now')
    await expectNoAxeViolations(host.page, 'game 2, started by the host')
    await expectNoAxeViolations(guest.page, 'game 2, for the one who asked')
  })

  it('the alert switches are kept over a reload, and a turn buzzes only while vibrate is on', async () => {
    const { host, guest } = await twoAtIdiot()
    const page = guest.page
    const sound = page.getByTestId('alert-sound')
    const vibrate = page.getByTestId('alert-vibrate')
    // Phones buzz unless told not to; the sound waits to be asked for.
    expect(await vibrate.isChecked()).toBe(true)
    expect(await sound.isChecked()).toBe(false)
    await vibrate.uncheck()
    await sound.check()
    const stored = () =>
      page.evaluate(() => [
        localStorage.getItem('kortbord.alert.sound'),
        localStorage.getItem('kortbord.alert.vibrate'),
      ])
    expect(await stored()).toEqual(['1', '0'])
    await screenshot(page, 'enjoy-phone-alerts-set')
    await expectNoAxeViolations(page, 'waiting room, sound on, vibrate off')

    await page.reload()
    await lobbyHeading(page, guest.t).waitFor()
    expect(await sound.isChecked()).toBe(true)
    expect(await vibrate.isChecked()).toBe(false)
    // Count the tones and buzzes from now on.
    const counts = await countAlerts(page)

    await startGame(host)
    for (const p of [host, guest]) {
      await p.page.getByRole('button', { name: p.t.ready, exact: true }).click()
    }
    // Bo (seat 1) has the first turn: a tone, and no buzz.
    await eventually(async () => expect((await snap(page)).status).toBe(guest.t.yourTurn))
    await eventually(async () => expect((await counts()).tones).toBeGreaterThanOrEqual(1))
    expect((await counts()).buzz).toBe(0)

    // At the table the same switches are in the players' menu, as set; vibrate goes back on.
    await page.locator('details.people > summary').click()
    expect(await sound.isChecked()).toBe(true)
    expect(await vibrate.isChecked()).toBe(false)
    await vibrate.check()
    expect(await stored()).toEqual(['1', null])
    await screenshot(page, 'enjoy-phone-alerts-at-table')
    await expectNoAxeViolations(page, 'table, the players’ menu with the alert settings')
    await page.setViewportSize(DESKTOP.viewport!)
    await screenshot(page, 'enjoy-desktop-alerts-at-table')
    await expectNoAxeViolations(page, 'table, alert settings, desktop')
    await page.setViewportSize(PHONE.viewport!)
    await playTurn(guest)
    while ((await snap(host.page)).status === host.t.yourTurn) {
      await playTurn(host)
      await sleep(200)
    }
    await eventually(async () => expect((await snap(page)).status).toBe(guest.t.yourTurn))
    await eventually(async () => expect((await counts()).buzz).toBe(1))
    expect((await counts()).tones).toBeGreaterThanOrEqual(2)
    await page.reload()
    await page.getByTestId('hand').waitFor()
    await page.locator('details.people > summary').click()
    expect(await vibrate.isChecked()).toBe(true)
    expect(await sound.isChecked()).toBe(true)
  })

  it('chat: text only, reactions, spectators apart and switched off, a seat muted, refusals in words', async () => {
    const { host, guest, link } = await twoAtIdiot()
    const spec = await fx.open(DESKTOP, 'nb')
    const [en, sv, nb] = [TABLE_DICTS.en, TABLE_DICTS.sv, TABLE_DICTS.nb]
    await watchByLink(spec, link)

    // Folded away at first: it takes no room from the table.
    const toggle = host.page.getByTestId('chat-toggle')
    expect(await toggle.getAttribute('aria-expanded')).toBe('false')
    expect(await host.page.getByTestId('chat-input').isVisible()).toBe(false)
    await toggle.click()
    expect(await toggle.getAttribute('aria-expanded')).toBe('true')
    await host.page.getByTestId('chat-input').fill('  <b>hej</b>  på  dig ')
    await host.page.getByTestId('chat-send').click()
    // The guest hears it read out and sees how many are new; opened, it is text, not markup.
    await eventually(async () =>
      expect(await guest.page.getByTestId('chat-live').textContent()).toBe(
        sv.said('Astrid', '<b>hej</b> på dig'),
      ),
    )
    expect(await guest.page.getByTestId('chat-unread').textContent()).toBe(sv.chatUnread(1))
    await guest.page.getByTestId('chat-toggle').click()
    const line = guest.page.getByTestId('chat-line').last()
    expect(await line.textContent()).toContain('<b>hej</b> på dig')
    expect(await guest.page.locator('[data-testid="chat-lines"] b').count()).toBe(0)
    // On a 320 px phone with the chat open and someone watching, nothing sticks out (QA: the
    // field and Send did, and the header with the watcher count).
    await guest.page.setViewportSize({ width: 320, height: 640 })
    await eventually(async () =>
      expect(await guest.page.getByTestId('spectators').textContent()).toBe(guest.t.spectators(1)),
    )
    await expectHeaderFits(guest.page, 320)
    await screenshot(guest.page, 'enjoy-320-chat')
    await guest.page.setViewportSize(PHONE.viewport!)
    // The host's field empties on the server's answer, which its own socket hears.
    await eventually(async () =>
      expect(await host.page.getByTestId('chat-input').inputValue()).toBe(''),
    )

    // A quick reaction, in words of each reader's language.
    await guest.page.getByTestId('react-nice').click()
    await eventually(async () =>
      expect(await host.page.getByTestId('chat-line').last().textContent()).toContain(
        en.reactions.nice,
      ),
    )
    await eventually(async () =>
      expect(await spec.page.getByTestId('chat-live').textContent()).toBe(
        nb.said('Bo', nb.reactions.nice),
      ),
    )

    // A spectator's line goes to the spectators' part.
    await spec.page.getByTestId('chat-toggle').click()
    await spec.page.getByTestId('chat-input').fill('heja!')
    await spec.page.getByTestId('chat-send').click()
    await eventually(async () =>
      expect(await host.page.getByTestId('chat-view-spectators').textContent()).toBe(
        `${en.chatSpectators} (1)`,
      ),
    )
    expect(await host.page.getByTestId('chat-lines').textContent()).not.toContain('heja!')
    await host.page.getByTestId('chat-view-spectators').click()
    expect(await host.page.getByTestId('chat-lines').textContent()).toContain('heja!')
    await screenshot(host.page, 'enjoy-phone-chat-spectators')
    await expectNoAxeViolations(host.page, 'chat open, spectators’ lines')
    await screenshot(spec.page, 'enjoy-desktop-chat-spectator')
    await expectNoAxeViolations(spec.page, 'chat open, spectator')

    // The host turns the spectators' chat off: the spectator is told, and can no longer write.
    await host.page.getByTestId('spectator-chat').uncheck()
    await spec.page.getByTestId('spectator-chat-off').waitFor()
    expect(await spec.page.getByTestId('chat-input').count()).toBe(0)
    expect(await spec.page.getByTestId('react-gg').count()).toBe(0)
    await expectNoAxeViolations(spec.page, 'chat, spectators off')
    await host.page.getByTestId('chat-view-players').click()

    // The guest mutes the host on this device: remembered over a reload.
    await guest.page.getByTestId('mute-0').click()
    expect(await guest.page.getByTestId('mute-0').getAttribute('aria-pressed')).toBe('true')
    await host.page.getByTestId('chat-input').fill('muted?')
    await host.page.getByTestId('chat-send').click()
    await guest.page.getByTestId('chat-muted-note').waitFor()
    expect(await guest.page.getByTestId('chat-lines').textContent()).not.toContain('muted?')
    await guest.page.reload()
    await guest.page.getByTestId('chat-toggle').click()
    expect(await guest.page.getByTestId('mute-0').getAttribute('aria-pressed')).toBe('true')
    expect(await guest.page.getByTestId('chat-lines').textContent()).not.toContain('muted?')
    await screenshot(guest.page, 'enjoy-phone-chat-muted')
    await expectNoAxeViolations(guest.page, 'chat, a seat muted')

    // Too much at once: the server refuses, and the page says why in words.
    const error = host.page.getByTestId('chat-error')
    for (let i = 0; i < 8 && !(await error.isVisible()); i++) {
      await host.page.getByTestId('chat-input').fill(`message ${i}`)
      await host.page.getByTestId('chat-send').click()
      await eventually(async () => {
        const cleared = (await host.page.getByTestId('chat-input').inputValue()) === ''
        expect(cleared || (await error.isVisible())).toBe(true)
      })
    }
    expect(await error.textContent()).toBe(DICTS.en.errors.CHAT_RATE_LIMITED)
    // The refused text stays in the field, to send again later.
    expect(await host.page.getByTestId('chat-input').inputValue()).toMatch(/^message \d$/)
    await screenshot(host.page, 'enjoy-phone-chat-refused')
    await expectNoAxeViolations(host.page, 'chat, refused')
    await host.page.setViewportSize(DESKTOP.viewport!)
    await screenshot(host.page, 'enjoy-desktop-chat-refused')
    await host.page.setViewportSize(PHONE.viewport!)
    // Empty text is refused on the page, before anything is sent.
    await host.page.getByTestId('chat-input').fill('   ')
    await host.page.getByTestId('chat-send').click()
    expect(await error.textContent()).toBe(DICTS.en.errors.CHAT_EMPTY)
  })

  it('turn alerts: while hidden the title and icon say it is your turn, with a sound and a buzz if wanted', async () => {
    const { host, guest } = await twoAtIdiot()
    const tt = TABLE_DICTS.sv
    const page = guest.page
    // Count the tones and buzzes the page makes.
    const counts = await countAlerts(page)
    // The sound is off until asked for; asking plays it once, so the player knows it.
    const sound = page.getByTestId('alert-sound')
    expect(await sound.isChecked()).toBe(false)
    await sound.check()
    expect((await counts()).tones).toBe(1)
    expect(await page.evaluate(() => localStorage.getItem('kortbord.alert.sound'))).toBe('1')
    await expectNoAxeViolations(page, 'waiting room with the alert settings')

    await host.page.getByRole('button', { name: host.t.start }).click()
    for (const p of [host, guest]) {
      await p.page.getByRole('button', { name: p.t.ready, exact: true }).click()
    }
    // The guest (seat 1) plays first: then the tab goes into the background.
    await eventually(async () => expect((await snap(page)).status).toBe(guest.t.yourTurn))
    await playTurn(guest)
    const title = await page.title()
    expect(title).toContain('kortbord')
    expect(title).not.toContain(tt.yourTurnTitle)
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', {
        configurable: true,
        get: () => 'hidden',
      })
      document.dispatchEvent(new Event('visibilitychange'))
    })
    const before = await counts()
    // The host plays until it is the guest's turn again (a burn gives the host another).
    while ((await snap(host.page)).status === host.t.yourTurn) {
      await playTurn(host)
      await sleep(200)
    }
    await eventually(async () => {
      expect(await page.title()).toBe(`${tt.yourTurnTitle} ${title}`)
      expect(await page.locator('link[rel="icon"]').getAttribute('href')).toContain('circle')
    })
    const after = await counts()
    expect(after.tones).toBeGreaterThan(before.tones)
    expect(after.buzz).toBeGreaterThan(before.buzz)
    // Back in view: the title and the icon are as before.
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', {
        configurable: true,
        get: () => 'visible',
      })
      document.dispatchEvent(new Event('visibilitychange'))
    })
    await eventually(async () => {
      expect(await page.title()).toBe(title)
      expect(await page.locator('link[rel="icon"]').getAttribute('href')).not.toContain('circle')
    })
  })

  for (const motion of ['no-preference', 'reduce'] as const) {
    it(`card motion ${motion === 'reduce' ? 'is skipped under reduced motion' : 'plays, short, when motion is welcome'}; the cards use a desktop's width`, async () => {
      const { host, guest } = await twoAtIdiot(
        'en',
        { ...DESKTOP, reducedMotion: motion },
        { ...PHONE, reducedMotion: motion },
      )
      // Count every animation the pages start from now on, and every CSS animation running.
      for (const p of [host, guest]) {
        await countAnimations(p.page)
        await p.page.evaluate(() => {
          const w = window as unknown as { __css: number }
          w.__css = 0
          setInterval(() => {
            w.__css += document.getAnimations().filter((x) => x instanceof CSSAnimation).length
          }, 20)
        })
      }
      const counted = (page: Page) =>
        page.evaluate(() => {
          const w = window as unknown as { __anims: number; __css: number }
          return { anims: w.__anims, css: w.__css }
        })
      await host.page.getByRole('button', { name: host.t.start }).click()
      for (const p of [host, guest]) {
        const ready = p.page.getByRole('button', { name: p.t.ready, exact: true })
        await ready.waitFor()
        // Ready once the deal has landed: a card still flying over the button took the click
        // once (a swap began instead, CI, motion on).
        await p.page.waitForFunction(() => document.getAnimations().length === 0)
        await ready.click()
      }
      for (let i = 0; i < 4; i++) {
        const seat = await turnOf(host, guest, ['Astrid', 'Bo'])
        await playTurn(seat === 0 ? host : guest)
      }
      await sleep(400)
      const [h, g] = [await counted(host.page), await counted(guest.page)]
      console.log(`motion ${motion}: host ${JSON.stringify(h)}, guest ${JSON.stringify(g)}`)
      if (motion === 'reduce') {
        expect(h).toEqual({ anims: 0, css: 0 })
        expect(g).toEqual({ anims: 0, css: 0 })
      } else {
        // The deal (13 cards on each screen), then the plays and draws, were animated.
        expect(h.anims).toBeGreaterThan(14)
        expect(g.anims).toBeGreaterThan(14)
        // Short: nothing is still moving a moment after the last move.
        await sleep(2600)
        expect(await host.page.evaluate(() => document.getAnimations().length)).toBe(0)
      }
      // After the last move's line has faded: still AA contrast everywhere.
      await sleep(motion === 'reduce' ? 0 : 100)
      await expectNoAxeViolations(host.page, `desktop table, motion ${motion}`)
      await expectNoAxeViolations(guest.page, `phone table, motion ${motion}`)

      // The desktop's cards are big enough to read and tap; the phone's table stays whole.
      const sizes = await host.page.evaluate(() => {
        const w = (sel: string) =>
          Math.min(
            ...[...document.querySelectorAll(sel)].map((e) => e.getBoundingClientRect().width),
          )
        return {
          hand: w('[data-testid="hand"] [data-card]'),
          row: w('.mine .row .card'),
          opponent: w('.opp-cards .card'),
        }
      })
      console.log('desktop card widths (px)', sizes)
      expect(sizes.hand).toBeGreaterThanOrEqual(70)
      expect(sizes.row).toBeGreaterThanOrEqual(70)
      expect(sizes.opponent).toBeGreaterThanOrEqual(36)
      expect(await fitsWidth(guest.page)).toBe(true)
      if (motion === 'no-preference') {
        await screenshot(host.page, 'enjoy-desktop-idiot-table')
        await screenshot(guest.page, 'enjoy-phone-idiot-table')
      }
    })
  }

  for (const motion of ['no-preference', 'reduce'] as const) {
    it(`Aces Up: a discard and a deal ${motion === 'reduce' ? 'do not move under reduced motion' : 'glide from where the cards were'}`, async () => {
      const host = await fx.open({ ...DESKTOP, reducedMotion: motion }, 'en')
      const guest = await fx.open({ ...PHONE, reducedMotion: motion }, 'sv')
      const link = await createTable(host, fx.url, 'Astrid', 'duel', async () => {
        await selectByLabel(host.page, host.t.games).selectOption('1')
      })
      await joinByLink(guest, link, 'Bo')
      await startGame(host)
      const page = host.page
      await page.getByTestId('my-board').waitFor()
      const anims = await countAnimations(page)
      // The test deck lays K♥ beside A♥: the king can be discarded.
      const hint = page.locator('[data-testid="my-board"] button.hint').first()
      await hint.click()
      await eventually(async () =>
        expect(await page.locator('[data-testid="my-board"] .discard [data-card]').count()).toBe(1),
      )
      const afterDiscard = await anims()
      // Keyboard: the focus went on to the next action (another discard, else Deal).
      await eventually(async () => {
        const next = await focused(page)
        expect(next.hint || next.testid === 'deal', JSON.stringify(next)).toBe(true)
      })
      await page.getByTestId('deal').click()
      await eventually(async () =>
        expect(Number(await page.getByTestId('my-board-stock').getAttribute('data-count'))).toBe(
          44,
        ),
      )
      const afterDeal = await anims()
      console.log(
        `aces up, motion ${motion}: ${afterDiscard} after a discard, ${afterDeal} after a deal`,
      )
      if (motion === 'reduce') expect(afterDeal).toBe(0)
      else {
        expect(afterDiscard).toBeGreaterThanOrEqual(1)
        expect(afterDeal - afterDiscard).toBeGreaterThanOrEqual(4)
      }
      await sleep(600)
      await expectNoAxeViolations(page, `duel, motion ${motion}`)
      if (motion === 'no-preference') await screenshot(page, 'enjoy-desktop-duel-playing')
    })
  }
})
