// Idioten för två's table as a phone held sideways and a screen reader meet it (QA pass 2, items
// 2, 5 and 6): the player's own Deal / End round / Undo stay on the screen as the piles grow,
// and (its re-check) with every card dealt, four piles or eight, the top cards too, 44 px wide,
// while a spectator sees both boards side by side, each on the screen;
// the player hears their own moves (a discard, a move to a gap, what a deal brought, an undo)
// and what each top card can do, a spectator hears both players' moves, and nobody hears
// anything of a same-deal game they may not see yet (A-15); the keyboard starts at the table.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { cardName } from '../../src/lib/card-names.ts'
import { DUEL_SAID } from '../../src/lib/duel-said.ts'
import type { Lang } from '../../src/lib/i18n.ts'
import { DUEL_DECK, duelStep, readBoard } from './duel-helpers.ts'
import { browserFixture } from './fixture.ts'
import { listen, said } from './live.ts'
import {
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
  SIDEWAYS,
  screenshot,
} from './server.ts'

/** Upright phones and a desktop, measured alongside (they fitted before and must still). */
const UPRIGHT = [
  { width: 390, height: 844 },
  { width: 360, height: 640 },
  { width: 1280, height: 800 },
] as const
type Size = { readonly width: number; readonly height: number }

/** WCAG 2.5.5's target size: 44 × 44 CSS px. */
const TARGET = 44

/**
 * The page at `size`: what of the player's own Deal, End round and Undo is not wholly on the
 * screen without scrolling (its place on the page, the page at its top) nor where the page is
 * scrolled now (a focused card may have scrolled it), and the top cards to tap smaller than a
 * target. Each as a line for the failure message.
 */
async function offScreen(page: Page, size: Size): Promise<{ lines: string[]; worst: number }> {
  await page.setViewportSize(size)
  return page.evaluate(async (min) => {
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
    const lines: string[] = []
    let worst = 0
    const vh = window.innerHeight
    const at = `${window.innerWidth}x${vh}`
    for (const id of ['deal', 'finish', 'undo']) {
      const el = document.querySelector(`[data-testid="${id}"]`)
      if (!el) continue
      const r = el.getBoundingClientRect()
      const bottom = r.bottom + window.scrollY
      const below = Math.max(bottom - vh, r.bottom - vh, -r.top)
      worst = Math.max(worst, below)
      if (below > 0.5) {
        lines.push(
          `${at}: ${id} ${below.toFixed(1)} px off the screen (page bottom ${bottom.toFixed(1)}, on screen ${r.top.toFixed(1)}–${r.bottom.toFixed(1)}, scrollY ${window.scrollY})`,
        )
      }
    }
    for (const el of document.querySelectorAll('[data-testid="my-board"] button')) {
      const r = el.getBoundingClientRect()
      if (r.width < min - 0.01 || r.height < min - 0.01) {
        lines.push(
          `${at}: ${(el as HTMLElement).dataset.testid} is ${r.width.toFixed(1)} x ${r.height.toFixed(1)} px`,
        )
      }
    }
    return { lines, worst }
  }, TARGET)
}

/** Every card of two decks, the second deck's marked (A-1): piles of 13 with eight piles. */
const TWO_DECKS = `${DUEL_DECK} ${DUEL_DECK.split(' ')
  .map((c) => `${c}'`)
  .join(' ')}`

/**
 * The boards `ids` at `size`, the page at its top (no scrolling): each pile's top card not wholly
 * on the screen or narrower than `min` px, and each covered card whose rank or suit the card on it
 * hides (the suits of buried cards decide what can be discarded later). Each as a line, with the
 * top cards' least width and where the boards lie.
 */
async function fitted(
  page: Page,
  size: Size,
  ids: readonly string[],
  min: number,
): Promise<{ lines: string[]; width: number; boards: { left: number; top: number }[] }> {
  await page.setViewportSize(size)
  // The board measures where its piles begin a frame after the page changes size.
  await page.waitForTimeout(150)
  return page.evaluate(
    async ({ ids, min }) => {
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
      const lines: string[] = []
      const vh = window.innerHeight
      const at = `${window.innerWidth}x${vh}`
      let width = Number.POSITIVE_INFINITY
      const boards: { left: number; top: number }[] = []
      if (document.documentElement.scrollWidth > window.innerWidth) {
        lines.push(`${at}: the page is ${document.documentElement.scrollWidth} px wide`)
      }
      for (const id of ids) {
        const board = document.querySelector(`[data-testid="${id}"]`)
        if (!board) {
          lines.push(`${at}: no ${id}`)
          continue
        }
        const b = board.getBoundingClientRect()
        boards.push({ left: Math.round(b.left), top: Math.round(b.top + window.scrollY) })
        for (const [i, pile] of [...board.querySelectorAll('.piles > *')].entries()) {
          const top = pile.querySelector('.in-pile.top .card')
          if (!top) continue
          const r = top.getBoundingClientRect()
          const y = r.top + window.scrollY
          width = Math.min(width, r.width)
          if (y < -0.5 || y + r.height > vh + 0.5 || r.left < -0.5 || r.right > innerWidth + 0.5) {
            lines.push(
              `${at}: ${id} pile ${i + 1}'s top card at ${y.toFixed(1)}–${(y + r.height).toFixed(1)} of ${vh}`,
            )
          }
          if (r.width < min - 0.01) {
            lines.push(`${at}: ${id} pile ${i + 1}'s top card is ${r.width.toFixed(1)} px wide`)
          }
          // A covered card shows its rank and the suit beside it down to 23/60 of its width: the
          // rank's baseline lies 19 units down a card drawn 60 wide, a J's hook and a Q's tail
          // reach 23; the suit's baseline is at 18.
          for (const el of pile.querySelectorAll('.in-pile:not(.top)')) {
            const card = el.querySelector('.card')!.getBoundingClientRect()
            const shown = el.nextElementSibling!.getBoundingClientRect().top - card.top
            if (
              el.querySelectorAll('text.idx, text.idx-suit').length !== 2 ||
              shown < (card.width * 23) / 60 - 0.25
            ) {
              lines.push(
                `${at}: ${id} pile ${i + 1}: a covered card shows ${shown.toFixed(1)} px of its ${card.width.toFixed(1)}`,
              )
              break
            }
          }
        }
      }
      return { lines, width: Math.round(width * 10) / 10, boards }
    },
    { ids, min },
  )
}

/** A card's name in words ("five of spades"), by its short name ("5S"). */
const named = (lang: Lang, card: string) => cardName(lang, cardOf(card))
const SUITS = 'CDHS'
const RANKS = '23456789TJQKA'
/** "5S" as the engine's card number (suit * 13 + rank - 2). */
const cardOf = (s: string) => SUITS.indexOf(s[1]!) * 13 + RANKS.indexOf(s[0]!)

const ariaLabel = (page: Page, testid: string) =>
  page.getByTestId(testid).getAttribute('aria-label')

/** Clicks, then waits until the own board has changed. */
async function acted(page: Page, click: () => Promise<void>): Promise<void> {
  const before = JSON.stringify(await readBoard(page))
  await click()
  await eventually(async () => expect(JSON.stringify(await readBoard(page))).not.toBe(before))
}

describe.skipIf(!browserTestsEnabled('duel-table.test.ts'))('Idioten för två’s table', () => {
  const fx = browserFixture({ deck: DUEL_DECK })

  /**
   * A match of `games` rounds with undo, started by p0 with p1 joined (and `spec` watching), on
   * the fixture's server unless `url` names another; both play `piles` piles (four unless said).
   */
  async function match(
    p0: Person,
    p1: Person,
    opts: {
      games: number
      sameDeal?: boolean
      spec?: Person
      before?: () => Promise<void>
      url?: string
      piles?: 4 | 5 | 8
    },
  ): Promise<void> {
    const link = await createTable(p0, opts.url ?? fx.url, 'Astrid', 'duel', async () => {
      await selectByLabel(p0.page, p0.t.games).selectOption(String(opts.games))
      await selectByLabel(p0.page, p0.t.undo).selectOption('both')
      if (opts.piles) {
        await selectByLabel(p0.page, p0.t.yourPiles).selectOption(String(opts.piles))
        await selectByLabel(p0.page, p0.t.theirPiles).selectOption(String(opts.piles))
      }
      if (opts.sameDeal) await p0.page.locator('input[name="sameDeal"]').check()
    })
    await joinByLink(p1, link, 'Bo')
    if (opts.spec) await watchByLink(opts.spec, link)
    await opts.before?.()
    await startGame(p0)
    await p0.page.getByTestId('my-board').waitFor()
    await p1.page.getByTestId('my-board').waitFor()
  }

  it('[A-6, A-7, A-9] on a phone held sideways Deal, End round and Undo stay on the screen as the piles grow', async () => {
    const p0 = await fx.open({ ...PHONE, viewport: SIDEWAYS[0] }, 'en')
    const p1 = await fx.open(PHONE, 'sv')
    await match(p0, p1, { games: 1 })
    const page = p0.page
    // The keyboard starts at the table: at the first card to discard (5♠, A-4).
    await expect.poll(() => focused(page)).toMatchObject({ testid: 'top-1', hint: true })
    const problems: string[] = []
    // The most px off the screen by screen size: with piles of up to seven cards (a pile of a
    // usual round), and with longer ones (measured only).
    const worst: Record<string, number> = {}
    const worstLonger: Record<string, number> = {}
    let tallest = 0
    const check = async (when: string) => {
      const b = await readBoard(page)
      if (!b) return
      const longest = Math.max(...b.piles.map((p) => p.length))
      tallest = Math.max(tallest, longest)
      for (const size of [...SIDEWAYS, ...UPRIGHT]) {
        const r = await offScreen(page, size)
        const at = `${size.width}x${size.height}`
        const w = longest <= 7 ? worst : worstLonger
        w[at] = Math.max(w[at] ?? 0, r.worst)
        if (longest <= 7) {
          problems.push(...r.lines.map((l) => `${when} (longest pile ${longest}): ${l}`))
        }
      }
      await page.setViewportSize(SIDEWAYS[0])
    }

    // Deal after deal, over the warning (A-6), until a pile holds seven cards: each screen with
    // the warning shown too, as Deal is what is pressed next.
    await check('start')
    await screenshot(page, 'duel-sideways-844x390-start', { screen: true })
    for (let deals = 0; deals < 6; deals++) {
      const deal = page.getByTestId('deal')
      await acted(page, async () => {
        await deal.click()
        const warn = page.getByRole('alert').filter({ hasText: p0.t.dealWarning })
        await page.waitForTimeout(100)
        if (await warn.isVisible()) {
          await check(`deal ${deals + 1}, warned`)
          if (deals === 3) await screenshot(page, 'duel-sideways-844x390-warned', { screen: true })
          await deal.click()
        }
      })
      await check(`deal ${deals + 1}`)
    }
    for (const size of SIDEWAYS) {
      await page.setViewportSize(size)
      await screenshot(page, `duel-sideways-${size.width}x${size.height}-tall`, { screen: true })
    }
    for (const size of UPRIGHT) {
      await page.setViewportSize(size)
      await screenshot(page, `duel-upright-${size.width}x${size.height}-tall`, { screen: true })
    }
    await page.setViewportSize(SIDEWAYS[0])
    await expectNoAxeViolations(page, 'duel, sideways, tall piles')
    // Then on as a player would: discards first, then deals, to the end of the round (A-7).
    for (let n = 0; n < 120 && (await duelStep(page)); n++) await check(`step ${n + 1}`)
    expect(await readBoard(page)).toBeNull()
    console.log('duel: worst px off the screen by screen size', { worst, worstLonger, tallest })
    expect(tallest).toBeGreaterThanOrEqual(7)
    expect(problems).toEqual([])
  })

  /** Deals until the stock is empty, over the A-6 warning, discarding nothing: piles of 13. */
  async function dealOut(p: Person): Promise<void> {
    const { page } = p
    const warn = page.getByRole('alert').filter({ hasText: p.t.dealWarning })
    for (let n = 0; n < 20; n++) {
      const b = await readBoard(page)
      if (!b || b.stock === 0) return
      const before = JSON.stringify(b)
      await page.getByTestId('deal').click()
      const warned = await eventually(async () => {
        if (await warn.isVisible()) return true
        expect(JSON.stringify(await readBoard(page))).not.toBe(before)
        return false
      })
      if (warned) await acted(page, () => page.getByTestId('deal').click())
    }
    throw new Error('the stock did not run out in 20 deals')
  }

  /**
   * Piles of 13 (every card dealt, none discarded) held sideways (QA re-check): the player's own
   * End round and Undo and every top card on the screen without scrolling, the top cards 44 px
   * wide, every covered card's rank and suit shown; a spectator's two boards side by side, each
   * wholly on the screen, cards at least 32 px wide (no buttons, but to be read).
   */
  async function longPiles(piles: 4 | 8, url: string) {
    const p0 = await fx.open({ ...PHONE, viewport: SIDEWAYS[0] }, 'en')
    const p1 = await fx.open(PHONE, 'sv')
    const spec = await fx.open({ ...PHONE, viewport: SIDEWAYS[2] }, 'nb')
    await match(p0, p1, { games: 1, spec, url, piles })
    for (const p of [p0, p1]) await dealOut(p)
    const longest = (await readBoard(p0.page))!.piles.map((p) => p.length)
    expect(longest).toEqual(Array.from({ length: piles }, () => 13))
    await p0.page.getByTestId('finish').waitFor()
    const problems: string[] = []
    const widths: Record<string, unknown> = {}
    for (const size of SIDEWAYS) {
      const at = `${size.width}x${size.height}`
      const own = await fitted(p0.page, size, ['my-board'], TARGET)
      const buttons = await offScreen(p0.page, size)
      const watched = await fitted(spec.page, size, ['board-0', 'board-1'], 32)
      await screenshot(p0.page, `duel-${piles}-piles-13-${at}`, { screen: true })
      await screenshot(spec.page, `duel-${piles}-piles-13-spectator-${at}`, { screen: true })
      problems.push(...own.lines, ...buttons.lines, ...watched.lines.map((l) => `spectator ${l}`))
      // Side by side: both boards begin at the same height, the second to the right.
      const [a, b] = watched.boards
      if (a && b && (Math.abs(a.top - b.top) > 1 || b.left <= a.left)) {
        problems.push(
          `spectator ${at}: the boards are not side by side (${JSON.stringify(watched.boards)})`,
        )
      }
      widths[at] = { own: own.width, spectator: watched.width }
    }
    await p0.page.setViewportSize(SIDEWAYS[0])
    await expectNoAxeViolations(p0.page, `duel, ${piles} piles of 13, sideways`)
    await expectNoAxeViolations(spec.page, `duel, ${piles} piles of 13, sideways, spectator`)
    console.log(`duel: ${piles} piles of 13 held sideways, the top cards' width`, widths)
    expect(problems).toEqual([])
  }

  it('[A-6, A-7] held sideways, four piles of 13 cards: the player’s buttons and top cards on the screen, a spectator’s boards side by side', async () => {
    await longPiles(4, fx.url)
  })

  it('[A-1, A-2, A-6] held sideways, eight piles of 13 cards (two decks): the same, the player’s cards 44 px wide', async () => {
    const two = await fx.startServer({ deck: TWO_DECKS })
    await longPiles(8, two.url)
  })

  it('[A-4, A-5, A-6, A-9] a screen reader hears the player’s own moves and what a card can do; a spectator hears both players', async () => {
    const p0 = await fx.open(PHONE, 'en')
    const p1 = await fx.open(DESKTOP, 'sv')
    const spec = await fx.open(PHONE, 'nb')
    await match(p0, p1, {
      games: 1,
      spec,
      before: async () => {
        for (const p of [p0, p1, spec]) await listen(p.page)
      },
    })
    const { page } = p0
    const w = DUEL_SAID.en
    // The keyboard starts at the first card to discard (5♠: the 10♠ is higher, A-4), on a
    // phone and on a desktop; the player is told the round began and what was dealt.
    for (const p of [p0, p1]) {
      await expect.poll(() => focused(p.page)).toMatchObject({ testid: 'top-1', hint: true })
    }
    const layout = ['3D', '5S', 'TS', '7H']
    await expect
      .poll(() => said(page))
      .toContain(w.roundBegins(1, layout.map((c) => named('en', c)).join(', ')))
    expect(await ariaLabel(page, 'top-1')).toBe(`5♠, ${named('en', '5S')}, ${w.canDiscard}`)

    // A-4: Enter discards the focused card.
    await acted(page, () => page.keyboard.press('Enter'))
    await expect.poll(() => said(page)).toContain(w.discarded(named('en', '5S')))
    // Now pile 2 is empty (A-5): the other top cards can only be moved there.
    expect(await ariaLabel(page, 'top-0')).toBe(`3♦, ${named('en', '3D')}, ${w.canMove}`)
    await page.getByTestId('top-3').click()
    await expect.poll(() => page.getByTestId('top-3').getAttribute('aria-pressed')).toBe('true')
    await acted(page, () => page.getByTestId('empty-1').click())
    await expect.poll(() => said(page)).toContain(w.moved(named('en', '7H'), 2))
    // A-6: what a deal brought, the new top cards.
    await acted(page, () => page.getByTestId('deal').click())
    const dealt = ['8S', '4C', 'QD', 'JD'].map((c) => named('en', c)).join(', ')
    await expect.poll(() => said(page)).toContain(w.dealt(dealt))
    // A-9: the jack of diamonds goes (the queen is higher) and comes back.
    await acted(page, () => page.getByTestId('top-3').click())
    await expect.poll(() => said(page)).toContain(w.discarded(named('en', 'JD')))
    await acted(page, () => page.getByTestId('undo').click())
    await expect.poll(() => said(page)).toContain(w.undone(named('en', 'JD'), 4))
    // Each news once, nothing else of the moves.
    const mine = (await said(page)).filter((s) => !s.startsWith('Round 1 is over'))
    expect(mine).toEqual([
      w.roundBegins(1, layout.map((c) => named('en', c)).join(', ')),
      w.discarded(named('en', '5S')),
      w.moved(named('en', '7H'), 2),
      w.dealt(dealt),
      w.discarded(named('en', 'JD')),
      w.undone(named('en', 'JD'), 4),
    ])

    // The spectator heard each of Astrid's moves, named as hers; Bo heard none of them (his own
    // game is his to listen to).
    const nb = DUEL_SAID.nb
    await expect
      .poll(() => said(spec.page))
      .toEqual([
        nb.by('Astrid', nb.discarded(named('nb', '5S'))),
        nb.by('Astrid', nb.moved(named('nb', '7H'), 2)),
        nb.by('Astrid', nb.dealt(['8S', '4C', 'QD', 'JD'].map((c) => named('nb', c)).join(', '))),
        nb.by('Astrid', nb.discarded(named('nb', 'JD'))),
        nb.by('Astrid', nb.undone(named('nb', 'JD'), 4)),
      ])
    const sv = DUEL_SAID.sv
    expect(await said(p1.page)).toEqual([
      sv.roundBegins(1, layout.map((c) => named('sv', c)).join(', ')),
    ])
    // Bo discards: the spectator hears it, Astrid does not.
    await acted(p1.page, () => p1.page.getByTestId('top-1').click())
    await expect.poll(() => said(spec.page)).toContain(nb.by('Bo', nb.discarded(named('nb', '5S'))))
    expect((await said(page)).filter((s) => s.includes('Bo'))).toEqual([])
    for (const p of [p0, p1, spec]) await expectNoAxeViolations(p.page, 'duel, told')
  })

  it('[A-15] nobody hears a same-deal game they may not see yet', async () => {
    const p0 = await fx.open(PHONE, 'en')
    const p1 = await fx.open(PHONE, 'sv')
    const spec = await fx.open(PHONE, 'nb')
    await match(p0, p1, {
      games: 2,
      sameDeal: true,
      spec,
      before: async () => {
        for (const p of [p0, p1, spec]) await listen(p.page)
      },
    })
    await p1.page.getByTestId('hidden-0').waitFor()
    await spec.page.getByTestId('hidden-0').waitFor()
    // Both play the same first deal: each hears their own discard only; the spectator, who
    // could be either of them in a second tab, hears neither.
    await acted(p0.page, () => p0.page.getByTestId('top-1').click())
    await expect.poll(() => said(p0.page)).toContain(DUEL_SAID.en.discarded(named('en', '5S')))
    await acted(p1.page, () => p1.page.getByTestId('top-1').click())
    await expect.poll(() => said(p1.page)).toContain(DUEL_SAID.sv.discarded(named('sv', '5S')))
    await p0.page.waitForTimeout(500)
    expect(await said(spec.page)).toEqual([])
    const spoken = (p: Person) => said(p.page).then((all) => all.join(' | '))
    expect(await spoken(p0)).not.toMatch(/Bo/)
    expect(await spoken(p1)).not.toMatch(/Astrid/)
    // Nor is it in a top card's words on the other's page: the hidden board has no cards.
    expect(await p1.page.getByTestId('board-0').count()).toBe(0)
    expect(await spec.page.locator('[data-card]').count()).toBe(0)
  })
})
