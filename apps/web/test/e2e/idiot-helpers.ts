// Idiot in the browser: creating and joining a table, reading what a page shows, and playing a
// turn the way the tests do (the first highlighted card, else pick up).
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import type { Person } from './pages.ts'
import { eventually } from './server.ts'

/**
 * A 52-card order (deck[0] is dealt first, docs/rules.md I-3) that gives a 2-player game of about 63
 * turns with this file's way of playing (both swap their first hand card with their first
 * face-up card; then always the first playable card), with pick-ups and burns on the way.
 */
export const IDIOT_DECK =
  '5S KH 3D AH AS 9C 6C 4C 6S 7H 9D 2H 4S TS JD QS QH 2S TH 4H 6D 3S 4D 7S 2D QD 8C 2C AC KD QC 9H 5D 8S 6H TC KS KC 5H 3H 5C 7C JC TD 8D JS JH 3C 8H 7D AD 9S'

export interface IdiotSnap {
  status: string
  pile: number | null
  /** Own hand, in screen order; null when the page shows no hand (spectators). */
  hand: number[] | null
  /** Own face-up cards, in screen order (row positions 0, 1, 2). */
  faceUp: number[]
  /** Highlighted (playable) own cards, in screen order. */
  hints: number[]
  /** Opponents as shown: seat → hand count and the text of their name line. */
  opponents: Record<number, { count: number; who: string; faces: number }>
  result: string | null
  next: boolean
  watching: boolean
  offline: boolean
}

/** Everything the tests read from an Idiot page, in one round trip. */
export function snap(page: Page): Promise<IdiotSnap> {
  return page.evaluate(() => {
    const q = (sel: string) => document.querySelector(sel)
    const num = (s: string | null | undefined) => {
      const m = /(\d+)\s*$/.exec(s ?? '')
      return m ? Number(m[1]) : null
    }
    const cardsIn = (sel: string) =>
      [...document.querySelectorAll<HTMLElement>(sel)].map((e) => Number(e.dataset.card))
    const hand = q('[data-testid="hand"]')
    const opponents: Record<number, { count: number; who: string; faces: number }> = {}
    for (const el of document.querySelectorAll<HTMLElement>('[data-testid^="opponent-"]')) {
      const seat = Number(el.dataset.testid!.slice('opponent-'.length))
      const countLabel = el.querySelector('.count')?.getAttribute('aria-label')
      opponents[seat] = {
        count: Number(/\d+/.exec(countLabel ?? '')?.[0] ?? Number.NaN),
        who: el.querySelector('.who')?.textContent?.replace(/\s+/g, ' ').trim() ?? '',
        // Cards shown face up at this opponent (their face-up row only; never their hand).
        faces: el.querySelectorAll('[data-card]').length,
      }
    }
    return {
      status: q('[data-testid="status"]')?.textContent?.trim() ?? '',
      pile: num(q('[data-testid="pile"]')?.getAttribute('aria-label')),
      hand: hand ? cardsIn('[data-testid="hand"] [data-card]') : null,
      faceUp: cardsIn('[data-testid^="faceup-"]'),
      hints: cardsIn('[data-testid="hand"] button.hint, button.hint[data-testid^="faceup-"]'),
      opponents,
      result: q('[data-testid="result"] h2')?.textContent?.trim() ?? null,
      next: q('[data-testid="next"]') !== null,
      watching: q('[data-testid="watching"]') !== null,
      offline: q('[data-testid="offline"]') !== null,
    }
  })
}

export type TurnAction = { type: 'play'; card: number } | { type: 'pickup' }

/**
 * Plays one turn on a page whose turn it is: the first highlighted card, then Play; with nothing
 * playable, Pick up. Waits until the page shows the move done (the card gone, or the pile taken).
 */
export async function playTurn(p: Person): Promise<TurnAction> {
  const { page, t } = p
  const s = await snap(page)
  expect(s.status).toBe(t.yourTurn)
  const card = s.hints[0]
  if (card !== undefined) {
    const fromHand = s.hand?.includes(card) ?? false
    const btn = page.getByTestId(fromHand ? `hand-${card}` : `faceup-${card}`)
    await btn.click()
    await expect.poll(() => btn.getAttribute('aria-pressed')).toBe('true')
    await page.getByTestId('play').click()
    await eventually(async () => {
      const after = await snap(page)
      expect(after.hand ?? []).not.toContain(card)
      expect(after.faceUp).not.toContain(card)
    })
    return { type: 'play', card }
  }
  expect(s.pile).toBeGreaterThan(0)
  await page.getByTestId('pickup').click()
  await eventually(async () => expect((await snap(page)).pile).toBe(0))
  return { type: 'pickup' }
}

/**
 * Ends an Idiot game of two at once: the guest's page goes away, the host ends the game with the
 * guest forfeiting it (I-16), and the guest comes back to the result.
 */
export async function endByForfeit(host: Person, guest: Person, link: string): Promise<void> {
  await guest.page.goto('about:blank')
  await host.page.getByTestId('forfeit-1').click()
  await host.page.getByTestId('forfeit-yes-1').click()
  await host.page.getByTestId('result').waitFor()
  await guest.page.goto(link)
  await guest.page.getByTestId('result').waitFor()
}
