// A table's FocusKeeper (focus.ts) follows the views it shows: before each new view is shown,
// and after, the focus is kept or moved on to `target()`; and, given `playing`, a next game
// taking the focus in as the first one did. Called while a table component is set up.
import { untrack } from 'svelte'
import type { FocusKeeper } from './focus.ts'

export function followViews(
  keeper: FocusKeeper,
  view: () => unknown,
  target: () => HTMLElement | null,
  playing?: () => boolean,
): void {
  $effect.pre(() => {
    void view()
    untrack(() => keeper.before())
  })
  $effect(() => {
    void view()
    untrack(() => keeper.after(target))
  })
  if (!playing) return
  $effect(() => {
    const now = playing()
    untrack(() => keeper.playing(now, target))
  })
}
