// A one-game match of Idioten för två in real browsers: two players on phones play their Aces Up
// games at the same time (discards, a move to an empty pile, deals, the A-6 warning, one undo,
// an early end), a spectator watches both boards, and the score sheet and best possible fill in.
import { formatCard, parseCards } from '@kortbord/engine'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { TABLE_DICTS } from '../../src/lib/i18n-table.ts'
import { DUEL_DECK } from './duel-helpers.ts'
import { browserFixture } from './fixture.ts'
import {
  createTable,
  joinByLink,
  type Person,
  pageWidths,
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

const NAMES = ['Astrid', 'Bo'] as const

/** The narrowest phone in use: 320 px wide. */
const NARROW = { width: 320, height: 640 }

/**
 * The page on a 320 × 640 screen for a moment: nothing is wider than the screen (on a phone the
 * browser would widen the layout to what is wider, so both widths are the screen's).
 */
async function fitsNarrow(p: Person, name: string): Promise<void> {
  await p.page.setViewportSize(NARROW)
  await expect.poll(() => pageWidths(p.page)).toEqual({ page: NARROW.width, layout: NARROW.width })
  await screenshot(p.page, name)
  await p.page.setViewportSize(PHONE.viewport!)
}

interface Board {
  piles: number[][]
  stock: number
  /** Piles whose top card is offered for a discard (button.hint). */
  hints: number[]
}

/** A board as a page shows it (own: my-board; others: board-<seat>), or null if none is shown. */
function readBoard(page: Page, testid: string): Promise<Board | null> {
  return page.evaluate((id) => {
    const root = document.querySelector(`[data-testid="${id}"]`)
    if (!root) return null
    const piles = [...root.querySelectorAll('.piles > *')].map((p) =>
      [...p.querySelectorAll<HTMLElement>('[data-card]')].map((e) => Number(e.dataset.card)),
    )
    const stockCount = document.querySelector<HTMLElement>(`[data-testid="${id}-stock"]`)?.dataset
      .count
    const hints = [...root.querySelectorAll<HTMLElement>('button.hint[data-testid^="top-"]')].map(
      (e) => Number(e.dataset.testid!.slice(4)),
    )
    return { piles, stock: Number(stockCount ?? Number.NaN), hints }
  }, testid)
}

interface SheetCell {
  points: string
  left: string
  best: string
}

/** Row `game` of the score sheet: each player's three cells, or null while they are empty. */
function readSheet(page: Page, game: number): Promise<[SheetCell | null, SheetCell | null]> {
  return page.evaluate((i) => {
    const row = document.querySelectorAll('[data-testid="score-sheet"] tbody tr')[i]
    const cells = row ? [...row.querySelectorAll('td')] : []
    const out: (SheetCell | null)[] = []
    let k = 0
    for (let p = 0; p < 2; p++) {
      const c = cells[k]
      if (!c || c.colSpan === 3) {
        out.push(null)
        k += 1
        continue
      }
      out.push({
        points: cells[k]!.textContent!.trim(),
        left: cells[k + 1]!.textContent!.trim(),
        best: cells[k + 2]!.textContent!.trim(),
      })
      k += 3
    }
    return out as [SheetCell | null, SheetCell | null]
  }, game)
}

describe.skipIf(!browserTestsEnabled('duel.test.ts'))('Idioten för två in the browser', () => {
  const fx = browserFixture({ deck: DUEL_DECK })
  let players: [Person, Person]
  let spec: Person

  beforeAll(async () => {
    players = [await fx.open(PHONE, 'en'), await fx.open(PHONE, 'sv')]
    spec = await fx.open(PHONE, 'nb')
  })

  /** Waits until the other player's page and the spectator's show `seat`'s board as its owner does. */
  async function mirrored(seat: 0 | 1) {
    await eventually(async () => {
      const own = await readBoard(players[seat].page, 'my-board')
      const other = await readBoard(players[1 - seat]!.page, `board-${seat}`)
      const watched = await readBoard(spec.page, `board-${seat}`)
      const piles = own?.piles ?? null
      expect(other?.piles ?? null).toEqual(piles)
      expect(watched?.piles ?? null).toEqual(piles)
      // Nobody is offered the other's cards to tap.
      expect(other?.hints ?? []).toEqual([])
      expect(watched?.hints ?? []).toEqual([])
    })
  }

  const sig = (b: Board | null) => JSON.stringify(b && [b.piles, b.stock])

  /** Clicks, then waits until the own board changed (or is gone: the game ended). */
  async function act(
    page: Page,
    before: Board,
    click: () => Promise<void>,
    timeoutMs = 10_000,
  ): Promise<Board | null> {
    await click()
    return eventually(async () => {
      const after = await readBoard(page, 'my-board')
      expect(sig(after)).not.toBe(sig(before))
      return after
    }, timeoutMs)
  }

  /**
   * An action of two taps (pick a card, then an empty pile; deal, then deal anyway), tried again
   * if the first tap was forgotten in between: DuelTable clears the pending choice on every
   * table update, the other player's moves and a solver result included (reported as a bug).
   */
  async function twoTaps(
    page: Page,
    before: Board,
    taps: () => Promise<Board | null>,
  ): Promise<Board | null> {
    for (let attempt = 1; ; attempt++) {
      // A retried first tap may have been the one that went through.
      const now = await readBoard(page, 'my-board')
      if (sig(now) !== sig(before)) return now
      try {
        return await taps()
      } catch (e) {
        if (attempt === 3) throw e
        console.warn(`duel: a two-tap action was interrupted, again (${String(e).slice(0, 120)})`)
      }
    }
  }

  const done = { undo: false, warning: false, move: false, finish: false, deals: 0 }

  /** One action of `seat`; false once its game is over. The two seats play differently. */
  async function step(seat: 0 | 1): Promise<boolean> {
    const { page, t } = players[seat]
    const b = await readBoard(page, 'my-board')
    if (!b) return false
    const deal = page.getByTestId('deal')
    // seat 1 deals over a possible discard once and is warned first.
    if (seat === 1 && !done.warning && b.hints.length > 0 && b.stock > 0) {
      const alert = page.getByRole('alert').filter({ hasText: t.dealWarning })
      const after = await twoTaps(page, b, async () => {
        if (!(await alert.isVisible())) {
          await deal.click()
          await alert.waitFor()
        }
        expect(sig(await readBoard(page, 'my-board'))).toBe(sig(b))
        return act(page, b, () => deal.click(), 3_000)
      })
      expect(after!.stock).toBe(b.stock - 4)
      expect(await alert.count()).toBe(0)
      done.warning = true
      done.deals++
      return true
    }
    const pile = b.hints[0]
    if (pile !== undefined) {
      const card = b.piles[pile]!.at(-1)!
      const after = await act(page, b, () => page.getByTestId(`top-${pile}`).click())
      expect(after?.piles[pile]?.at(-1)).not.toBe(card)
      // seat 0 takes its first discard back once: the card returns to its pile.
      if (seat === 0 && !done.undo && after) {
        const undo = page.getByTestId('undo')
        await expect.poll(() => undo.isEnabled()).toBe(true)
        await act(page, after, () => undo.click())
        await expect
          .poll(() => page.getByTestId(`top-${pile}`).getAttribute('data-card'))
          .toBe(String(card))
        expect(sig(await readBoard(page, 'my-board'))).toBe(sig(b))
        await expect.poll(() => undo.isEnabled()).toBe(false)
        done.undo = true
      }
      return true
    }
    const finish = page.getByTestId('finish')
    if (seat === 1 && b.stock === 0) {
      await finish.click()
      await eventually(async () => expect(await readBoard(page, 'my-board')).toBeNull())
      done.finish = true
      return false
    }
    const empty = b.piles.findIndex((p) => p.length === 0)
    const tall = b.piles.findIndex((p) => p.length >= 2)
    if (empty >= 0 && tall >= 0) {
      const card = b.piles[tall]!.at(-1)!
      const top = page.getByTestId(`top-${tall}`)
      const after = await twoTaps(page, b, async () => {
        if ((await top.getAttribute('aria-pressed')) !== 'true') await top.click()
        await expect.poll(() => top.getAttribute('aria-pressed')).toBe('true')
        return act(page, b, () => page.getByTestId(`empty-${empty}`).click({ timeout: 3_000 }))
      })
      expect(after?.piles[empty]).toEqual([card])
      done.move = true
      return true
    }
    if (b.stock > 0) {
      await act(page, b, () => deal.click())
      if (seat === 0) done.deals++
      return true
    }
    await finish.click()
    await eventually(async () => expect(await readBoard(page, 'my-board')).toBeNull())
    return false
  }

  it('plays a one-game match to the end with undo, watched live', async () => {
    const [p0, p1] = players
    const configure = async () => {
      await selectByLabel(p0.page, p0.t.games).selectOption('1')
      await selectByLabel(p0.page, p0.t.undo).selectOption('both')
    }
    const link = await createTable(p0, fx.url, NAMES[0], 'duel', configure, () =>
      screenshot(p0.page, 'phone-duel-home'),
    )
    await joinByLink(p1, link, NAMES[1])
    await watchByLink(spec, link)
    await startGame(p0)

    // Both boards appear on every page; each player's own board is the one they can tap.
    for (const [i, p] of players.entries()) {
      await p.page.getByTestId('my-board').waitFor()
      await p.page.getByTestId(`board-${1 - i}`).waitFor()
      expect(await p.page.getByTestId(`board-${i}`).count()).toBe(0)
    }
    await spec.page.getByTestId('board-0').waitFor()
    await spec.page.getByTestId('board-1').waitFor()
    expect(await spec.page.getByTestId('my-board').count()).toBe(0)
    expect(await spec.page.getByTestId('deal').count()).toBe(0)
    const first = await readBoard(p0.page, 'my-board')
    const layout = parseCards(DUEL_DECK).slice(0, 4)
    if (JSON.stringify(first?.piles) !== JSON.stringify(layout.map((c) => [c]))) {
      throw new Error(
        `the server did not deal KORTBORD_TEST_DECK: the layout is ${JSON.stringify(first?.piles.map((p) => p.map(formatCard)))}, not ${layout.map(formatCard).join(' ')}`,
      )
    }
    expect(first!.stock).toBe(48)
    // Undo is offered but there is nothing to take back yet.
    expect(await p0.page.getByTestId('undo').isDisabled()).toBe(true)
    await mirrored(0)
    await mirrored(1)

    // The players take turns at acting (both games run at once, A-10); after every action the
    // other two screens show the new board.
    const playing: [boolean, boolean] = [true, true]
    let steps = 0
    while (playing[0] || playing[1]) {
      for (const seat of [0, 1] as const) {
        if (!playing[seat]) continue
        playing[seat] = await step(seat)
        steps++
        await mirrored(seat)
        if (steps === 30) {
          await screenshot(p0.page, 'phone-duel-player')
          // The Swedish player's page on a 320 px phone: the score sheet's full headings were
          // wider than the screen there.
          await fitsNarrow(p1, 'phone-320-duel-player')
          await screenshot(spec.page, 'phone-duel-spectator')
          await expectNoAxeViolations(p0.page, 'duel, playing')
          await expectNoAxeViolations(spec.page, 'duel, playing, spectator')
          await spec.page.setViewportSize(DESKTOP.viewport!)
          await screenshot(spec.page, 'desktop-duel-spectator')
          await expectNoAxeViolations(spec.page, 'duel, playing, spectator, desktop')
          await spec.page.setViewportSize(PHONE.viewport!)
        }
      }
      expect(steps, 'both games should end within 200 actions').toBeLessThan(200)
    }
    console.log(`duel: ${steps} actions`, done)
    expect(done).toMatchObject({ undo: true, warning: true, move: true, finish: true })

    // The score sheet, on all three screens; the best possible arrives from the solver.
    const sheets = await eventually(async () => {
      const all = await Promise.all([p0, p1, spec].map((p) => readSheet(p.page, 0)))
      for (const row of all) {
        for (const cell of row) {
          expect(cell).not.toBeNull()
          expect(cell!.best).toMatch(/^\d+$/)
        }
      }
      return all
    }, 30_000)
    expect(sheets[1]).toEqual(sheets[0])
    expect(sheets[2]).toEqual(sheets[0])
    const [a, b] = sheets[0] as [SheetCell, SheetCell]
    for (const cell of [a, b]) {
      const left = Number.parseInt(cell.left, 10)
      expect(left).toBeGreaterThanOrEqual(4)
      // points from the cards left.
      expect(Number(cell.points)).toBe(left === 4 ? 0 : left <= 8 ? 1 : left <= 14 ? 2 : 3)
      expect(Number(cell.best)).toBeLessThanOrEqual(left)
      expect(Number(cell.best)).toBeGreaterThanOrEqual(4)
    }
    console.log('duel sheet', a, b)

    // The result: lower points win, then fewer cards left.
    const la = Number.parseInt(a.left, 10)
    const lb = Number.parseInt(b.left, 10)
    const winner =
      Number(a.points) !== Number(b.points)
        ? Number(a.points) < Number(b.points)
          ? 0
          : 1
        : la !== lb
          ? la < lb
            ? 0
            : 1
          : null
    const expected = (p: Person, seat: number | null) =>
      winner === null
        ? p.t.matchDraw
        : winner === seat
          ? p.t.youWin
          : p.t.matchWinner(NAMES[winner])
    await eventually(async () => {
      expect(await p0.page.getByTestId('result').locator('h2').textContent()).toBe(expected(p0, 0))
      expect(await p1.page.getByTestId('result').locator('h2').textContent()).toBe(expected(p1, 1))
      expect(await spec.page.getByTestId('result').locator('h2').textContent()).toBe(
        expected(spec, null),
      )
    })
    // The match's outcome comes onto the screen by itself, as Idiot's and Klockan's do (QA: on a
    // phone it lay two screens below the boards the match ended with, nothing saying it was there).
    for (const p of [p0, p1, spec]) {
      await eventually(async () => {
        const box = await p.page.getByTestId('result').locator('h2').boundingBox()
        const height = await p.page.evaluate(() => window.innerHeight)
        expect(
          box && box.y >= 0 && box.y + box.height <= height,
          `${p.lang}: ${JSON.stringify(box)}`,
        ).toBe(true)
      })
    }
    // The matches won at this table, as Idiot's and Klockan's results count their games (it was
    // shown only after a forfeit).
    const won = (seat: number) => (winner === seat ? 1 : 0)
    for (const p of [p0, p1, spec]) {
      expect(await p.page.getByTestId('tally').textContent()).toBe(
        `${p.t.matchesWon}: ${NAMES[0]} (${won(0)}) · ${NAMES[1]} (${won(1)})`,
      )
    }
    // At equal points the result says what decided it; else nothing more.
    for (const p of [p0, p1, spec]) {
      const tt = TABLE_DICTS[p.lang]
      const level = Number(a.points) === Number(b.points)
      const said = await p.page.getByTestId('decided').allTextContents()
      if (!level) expect(said).toEqual([])
      else if (winner === null) expect(said).toEqual([tt.levelAll(Number(a.points), la)])
      else
        expect(said).toEqual([tt.onCardsLeft(Number(a.points), Math.min(la, lb), Math.max(la, lb))])
    }
    expect(await p0.page.getByTestId('next').count()).toBe(1)
    expect(await p1.page.getByTestId('next').count()).toBe(0)
    expect(await spec.page.getByTestId('next').count()).toBe(0)

    // Issue 15: the boards stay as they ended, and the sheet says what its figures mean.
    for (const p of [p0, p1, spec]) {
      for (const seat of [0, 1]) {
        const final = p.page.getByTestId(`final-${seat}`)
        await final.waitFor()
        // Four aces at least lie on a board that ended (A-11: 4 cards left at best).
        expect(await final.locator('[data-card]').count()).toBeGreaterThanOrEqual(4)
      }
      const tt = TABLE_DICTS[p.lang]
      const explained = (await p.page.getByTestId('sheet-explained').textContent()) ?? ''
      expect(explained).toContain(tt.scoreBands)
      expect(explained).toContain(tt.lowerWins)
      expect(explained).toContain(tt.bestExplained(false))
    }
    const left0 = await p0.page
      .getByTestId('final-0')
      .locator('[data-card]')
      .evaluateAll((els) => els.filter((e) => !e.closest('.heaps')).length)
    expect(left0).toBe(Number.parseInt(a.left, 10))
    // The rules' own words on the score are one tap away, and the player stays at the table.
    await p1.page.getByTestId('score-rules').click()
    const dialog = p1.page.getByRole('dialog', { name: p1.t.howToPlayGame(p1.t.duel) })
    await dialog.getByRole('heading', { name: p1.t.best, level: 3 }).waitFor()
    await expectNoAxeViolations(p1.page, 'duel result, the score rules open')
    await p1.page.keyboard.press('Escape')
    await eventually(async () => expect(await p1.page.getByRole('dialog').count()).toBe(0))
    expect(
      await p1.page.getByTestId('score-rules').evaluate((b) => b === document.activeElement),
    ).toBe(true)

    await screenshot(p0.page, 'phone-duel-result')
    await fitsNarrow(p1, 'phone-320-duel-result')
    // Every covered card of a pile shows its rank and its suit above the card on it (the suits
    // of buried cards decide what can be discarded later).
    const covered = await p0.page.evaluate(() =>
      [...document.querySelectorAll('.in-pile:not(.top)')].map((el) => {
        const next = el.nextElementSibling!.getBoundingClientRect().top
        const idx = [...el.querySelectorAll('text.idx, text.idx-suit')]
        return idx.length === 2 && idx.every((x) => x.getBoundingClientRect().bottom <= next + 0.5)
      }),
    )
    expect(covered.length).toBeGreaterThan(10)
    expect(covered.every(Boolean)).toBe(true)
    await screenshot(spec.page, 'phone-duel-result-spectator')
    for (const p of [p0, p1, spec]) await expectNoAxeViolations(p.page, 'duel, result')
    await spec.page.setViewportSize(DESKTOP.viewport!)
    await screenshot(spec.page, 'desktop-duel-result-spectator')
    await expectNoAxeViolations(spec.page, 'duel, result, desktop')
    await p0.page.setViewportSize(DESKTOP.viewport!)
    await screenshot(p0.page, 'desktop-duel-result')
    await p0.page.setViewportSize(PHONE.viewport!)

    for (const e of fx.errors()) expect(e.filter((x) => x.startsWith('pageerror'))).toEqual([])
  })

  it('[A-10] a game that ends before the match does gives way to the next deal, and a screen reader hears how it ended', async () => {
    const [p0, p1] = players
    const configure = async () => {
      await selectByLabel(p0.page, p0.t.games).selectOption('2')
    }
    await p0.page.goto(fx.url)
    const link = await createTable(p0, fx.url, NAMES[0], 'duel', configure)
    await joinByLink(p1, link, NAMES[1])
    await startGame(p0)
    const said = p0.page.getByTestId('game-over-said')
    await p0.page.getByTestId('my-board').waitFor()
    expect(await said.textContent()).toBe('')
    // Astrid deals her first game out (over the warning) and ends it.
    for (let i = 0; i < 40 && (await readSheet(p0.page, 0))[0] === null; i++) {
      const finish = p0.page.getByTestId('finish')
      if (await finish.isVisible()) await finish.click()
      else {
        await p0.page.getByTestId('deal').click()
        const warn = p0.page.getByRole('alert').filter({ hasText: p0.t.dealWarning })
        if (await warn.isVisible()) await p0.page.getByTestId('deal').click()
      }
      await new Promise((r) => setTimeout(r, 150))
    }
    const [mine] = await readSheet(p0.page, 0)
    expect(mine).not.toBeNull()
    // Her second game is on the table at once; the live region says how the first one ended.
    await p0.page.getByTestId('my-board').waitFor()
    const left = Number.parseInt(mine!.left, 10)
    const tt = TABLE_DICTS[p0.lang]
    await expect
      .poll(() => said.textContent())
      .toBe(tt.gameOverSaid(1, left, Number(mine!.points), left === 4))
    // The other player hears nothing of it.
    expect(await p1.page.getByTestId('game-over-said').textContent()).toBe('')
  })
})
