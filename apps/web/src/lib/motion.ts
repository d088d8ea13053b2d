// Card motion (issue 15): short animations with the Web Animations API, after the page already
// shows the new state (a move is never held back for them, and the server never waits), each
// cancelled by the next on the same card, and none at all under prefers-reduced-motion.

export const stillPlease = (): boolean =>
  globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? true

/** Where things were before the page changed, by a key of the caller's choosing. */
export type Rects = Map<string, DOMRect>

export function rectsOf(
  root: ParentNode | null,
  selector: string,
  key: (el: HTMLElement) => string | undefined,
): Rects {
  const out: Rects = new Map()
  if (!root) return out
  for (const el of root.querySelectorAll<HTMLElement>(selector)) {
    const k = key(el)
    if (k !== undefined) out.set(k, el.getBoundingClientRect())
  }
  return out
}

/** Moves `el` from where `from` was to where it is now (a card dealt, played, picked up). */
export function flyFrom(el: Element | null, from: DOMRect | undefined, delay = 0, ms = 240): void {
  if (!el || !from || stillPlease() || typeof (el as HTMLElement).animate !== 'function') return
  const to = el.getBoundingClientRect()
  if (to.width === 0) return
  const dx = from.left + from.width / 2 - (to.left + to.width / 2)
  const dy = from.top + from.height / 2 - (to.top + to.height / 2)
  const s = Math.max(0.3, Math.min(2, from.width / to.width))
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return
  for (const a of el.getAnimations()) a.cancel()
  el.animate(
    [
      { transform: `translate(${dx}px, ${dy}px) scale(${s})`, opacity: 0.6 },
      { transform: 'none', opacity: 1 },
    ],
    { duration: ms, delay, easing: 'cubic-bezier(0.2, 0.7, 0.3, 1)', fill: 'backwards' },
  )
}

/** A short flare on `el` (a burned pile, a heap that grew). */
export function flare(el: Element | null, colour = 'rgb(255 120 0 / 0.9)'): void {
  if (!el || stillPlease() || typeof (el as HTMLElement).animate !== 'function') return
  for (const a of el.getAnimations()) a.cancel()
  el.animate(
    [
      { boxShadow: `0 0 0 0 ${colour}`, transform: 'scale(1.04)' },
      { boxShadow: '0 0 0 1.2rem rgb(0 0 0 / 0)', transform: 'none' },
    ],
    { duration: 450, easing: 'ease-out' },
  )
}

/** A ghost of `el` (cards leaving: a pile burned, picked up by someone else) flying to `to`. */
export function flyAway(from: DOMRect | undefined, to: Element | null, ms = 300): void {
  if (!from || !to || stillPlease()) return
  const end = to.getBoundingClientRect()
  const ghost = document.createElement('div')
  ghost.setAttribute('aria-hidden', 'true')
  ghost.className = 'card-ghost'
  Object.assign(ghost.style, {
    position: 'fixed',
    left: `${from.left}px`,
    top: `${from.top}px`,
    width: `${from.width}px`,
    height: `${from.height}px`,
    borderRadius: '0.35rem',
    background: '#f4f4f5',
    boxShadow: '0 0.2rem 0.6rem rgb(0 0 0 / 0.4)',
    pointerEvents: 'none',
    zIndex: '20',
  })
  document.body.append(ghost)
  const dx = end.left + end.width / 2 - (from.left + from.width / 2)
  const dy = end.top + end.height / 2 - (from.top + from.height / 2)
  const a = ghost.animate(
    [
      { transform: 'none', opacity: 0.9 },
      { transform: `translate(${dx}px, ${dy}px) scale(0.4)`, opacity: 0 },
    ],
    { duration: ms, easing: 'ease-in' },
  )
  const done = () => ghost.remove()
  a.onfinish = done
  a.oncancel = done
}
