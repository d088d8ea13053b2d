// Keeping the keyboard's place at a table (issue 15): after the player's own action the focus
// goes to where their next action is (the page's own choice, `target`); when others act it stays
// where it is, unless what had it is gone (a card played, a button the game took away), and then
// it goes to the next action too, never back to the page's start.

import { tick } from 'svelte'
import { rowNeighbour } from './roving.ts'

/** An element that no longer holds the focus in any useful way. */
function lost(el: Element | null): boolean {
  if (el === null || el === document.body || !el.isConnected) return true
  return (el as HTMLButtonElement).disabled === true
}

export class FocusKeeper {
  #pending = false
  #had = false
  #playing: boolean | null = null

  constructor(private readonly root: () => HTMLElement | null) {}

  /** The player acted (a move was sent): the next view moves the focus on. */
  acted(): void {
    this.#pending = true
  }

  /** The action was refused: the focus stays where it is. */
  refused(): void {
    this.#pending = false
  }

  /** Sends the player's move (`send` resolves whether it was taken): acted, or refused. */
  async act(send: () => Promise<boolean>): Promise<void> {
    this.acted()
    if (!(await send())) this.refused()
  }

  /** Before the page shows a new view ($effect.pre): whether the focus is at this table. */
  before(): void {
    const r = this.root()
    this.#had = r?.contains(document.activeElement) ?? false
  }

  /** After the page shows it ($effect): moves the focus to `target()` if that is due. */
  after(target: () => HTMLElement | null): void {
    const r = this.root()
    if (r === null) return
    const active = document.activeElement
    const moveOn = this.#pending
      ? lost(active) || r.contains(active)
      : this.#had && (lost(active) || !r.contains(active))
    this.#pending = false
    if (moveOn) focusSoon(target)
  }

  /**
   * Whether a game is in play ($effect, as it changes): when the next one begins at a table
   * already shown (after "Play again", or the host's "Start now", whose button went busy and so
   * gave up the focus on the way), a focus that is nowhere goes in, as when the table first shows.
   */
  playing(now: boolean, target: () => HTMLElement | null): void {
    if (now && this.#playing === false) this.arrive(target)
    this.#playing = now
  }

  /** When the table first shows (the game began): the focus goes in if it was nowhere. */
  arrive(target: () => HTMLElement | null): void {
    enter(target)
  }

  /**
   * Kör and Stopp take each other's place (AutoRun's onChange, `running` now): once the page
   * shows the one now offered, a focus left nowhere follows to it, or to `otherwise` where Kör
   * is gone too (the run ended the game). Kör waits, disabled, while the last move's answer is on
   * its way: focusSoon tries again.
   */
  runSwitched(running: boolean, otherwise: () => HTMLElement | null): void {
    const find = (id: string) =>
      this.root()?.querySelector<HTMLElement>(`[data-testid="${id}"]`) ?? null
    void tick().then(() =>
      this.arrive(() => (running ? find('stop') : (find('run') ?? otherwise()))),
    )
  }
}

/** A page part that has just appeared: the focus goes to `target` if it was nowhere. */
export function enter(target: () => HTMLElement | null): void {
  if (lost(document.activeElement)) focusSoon(target)
}

/**
 * Focuses `target()` now, or a moment later if it is disabled just now (a button waits for the
 * server's answer): tried for up to a second, as long as nothing else has taken the focus.
 */
function focusSoon(
  target: () => HTMLElement | null,
  tries = 20,
  from: Element | null = document.activeElement,
): void {
  const el = target()
  if (el && !lost(el)) {
    el.focus()
    // An element that cannot hold the focus (no tabindex) did not take it: try again.
    if (document.activeElement === el) return
  }
  if (tries > 0)
    setTimeout(() => {
      const now = document.activeElement
      if (now === from || lost(now)) focusSoon(target, tries - 1, from)
    }, 50)
}

/** Arrow keys move between the buttons of a group (a hand of cards): one Tab stop for all. */
export function roving(node: HTMLElement): { destroy(): void } {
  let current: HTMLElement | null = null
  const items = () => [...node.querySelectorAll<HTMLElement>('button')]
  const apply = () => {
    const list = items()
    if (list.length === 0) return
    if (current === null || !list.includes(current)) {
      current = list.find((b) => b === document.activeElement) ?? list[0]!
    }
    for (const b of list) b.tabIndex = b === current ? 0 : -1
  }
  const onKey = (e: KeyboardEvent) => {
    const list = items()
    const at = list.indexOf(e.target as HTMLElement)
    if (at < 0) return
    // A hand that wraps onto more lines: Up and Down go to the line above or below.
    const row =
      e.key === 'ArrowUp' || e.key === 'ArrowDown'
        ? rowNeighbour(
            list.map((b) => b.getBoundingClientRect()),
            at,
            e.key,
          )
        : null
    const to =
      row ??
      (e.key === 'ArrowRight' || e.key === 'ArrowDown'
        ? Math.min(at + 1, list.length - 1)
        : e.key === 'ArrowLeft' || e.key === 'ArrowUp'
          ? Math.max(at - 1, 0)
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? list.length - 1
              : -1)
    if (to < 0) return
    e.preventDefault()
    current = list[to]!
    apply()
    current.focus()
  }
  const onFocus = (e: FocusEvent) => {
    const t = e.target as HTMLElement
    if (items().includes(t)) {
      current = t
      apply()
    }
  }
  const watch = new MutationObserver(apply)
  watch.observe(node, { childList: true, subtree: true })
  node.addEventListener('keydown', onKey)
  node.addEventListener('focusin', onFocus)
  apply()
  return {
    destroy() {
      watch.disconnect()
      node.removeEventListener('keydown', onKey)
      node.removeEventListener('focusin', onFocus)
    },
  }
}
