// Card motion at an Idiot table (issue 15): dealing, playing, picking up, burning; never under
// reduced motion (lib/motion). Where things were is taken before the page shows a new view, and
// the cards fly from there once it does.
import type { IdiotView } from '@kortbord/engine'
import { flare, flyAway, flyFrom, type Rects, rectsOf } from './motion.ts'

interface Snapshot {
  pile: DOMRect | undefined
  draw: DOMRect | undefined
  cards: Rects
  seats: Rects
  hand: ReadonlySet<number>
}

/** The view shown and whose page it is: `me` is the seat played on this page, or null. */
export interface Shown {
  readonly view: IdiotView
  readonly me: number | null
  readonly gameNo: number
}

export class IdiotMotion {
  private before: Snapshot | null = null
  /** The game whose deal was shown. */
  private dealtFor = -1
  /** The move count of the view the page showed last (the snapshot is taken with the new one). */
  private shownMoves = -1

  constructor(private readonly root: () => HTMLElement | null) {}

  private q(sel: string): HTMLElement | null {
    return this.root()?.querySelector<HTMLElement>(sel) ?? null
  }

  /** Before the page shows a new view ($effect.pre): where everything is. */
  take(): void {
    const root = this.root()
    this.before = {
      pile: this.q('[data-testid="pile"]')?.getBoundingClientRect(),
      draw: this.q('[data-testid="draw"]')?.getBoundingClientRect(),
      cards: rectsOf(root, '.mine [data-card]', (e) => e.dataset.card),
      seats: rectsOf(root, '[data-testid^="opponent-"]', (e) => e.dataset.testid),
      hand: new Set(
        [...(root?.querySelectorAll<HTMLElement>('[data-testid="hand"] [data-card]') ?? [])].map(
          (e) => Number(e.dataset.card),
        ),
      ),
    }
  }

  /** After the page shows it ($effect): the cards move from where they were. */
  show(s: Shown): void {
    const b = this.before
    const was = this.shownMoves
    this.shownMoves = s.view.moves
    if (!b || !this.root()) return
    if (s.view.moves === 0 && this.dealtFor !== s.gameNo) {
      this.dealtFor = s.gameNo
      this.deal()
      return
    }
    if (s.view.moves !== was + 1) return
    const placed = this.moved(s, b)
    // Cards drawn after a play come from the draw pile.
    for (const c of s.me === null ? [] : (s.view.players[s.me]!.hand ?? [])) {
      if (!b.hand.has(c) && !placed.has(c)) flyFrom(this.card('[data-testid="hand"]', c), b.draw)
    }
  }

  private card(sel: string, c: number): HTMLElement | null {
    return this.q(`${sel} [data-card="${c}"]`)
  }

  /** A new deal: every card comes from the draw pile, one after another. */
  private deal(): void {
    const from = this.q('[data-testid="draw"]')?.getBoundingClientRect()
    this.root()
      ?.querySelectorAll('.mine [data-card], .opp-cards .card')
      .forEach((el, i) => {
        flyFrom(el, from, i * 25)
      })
  }

  /** The last move's plays, pick-ups and burns; returns the cards that moved into place. */
  private moved(s: Shown, b: Snapshot): Set<number> {
    const placed = new Set<number>()
    for (const e of s.view.recent) {
      if (e.t === 'play') {
        for (const c of e.cards) {
          placed.add(c)
          const from = e.seat === s.me ? b.cards.get(String(c)) : b.seats.get(`opponent-${e.seat}`)
          flyFrom(this.card('[data-testid="pile"]', c), from)
        }
      } else if (e.t === 'pickup') {
        if (e.seat === s.me) {
          for (const c of e.cards) {
            placed.add(c)
            flyFrom(this.card('[data-testid="hand"]', c), b.pile)
          }
        } else flyAway(b.pile, this.q(`[data-testid="opponent-${e.seat}"]`))
      } else if (e.t === 'burn') {
        flare(this.q('[data-testid="pile"]'))
        flyAway(b.pile, this.q('[data-testid="burned"]'))
      }
    }
    return placed
  }
}
