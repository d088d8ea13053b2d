// Bringing what just appeared onto the screen, for the first page load (the home page) and the
// tables alike: its own module, so that the home page does not load focus.ts with it.

/**
 * Brings an element that has just come (a game's result) into view, as little as it must: held
 * sideways, the finished table filled the screen and the result lay below it for a spectator
 * and after a reload (QA), with nothing to move the focus there.
 */
export function intoView(node: HTMLElement): void {
  requestAnimationFrame(() => node.scrollIntoView({ block: 'nearest' }))
}
