// "Kör" at a mechanical patience's table (AutoRun): a step at the pace the player chose (issue
// 15), read before every step, while the table's view is of this game, the page is online and
// `canStep` says so (`table`: the page's client). Leaving the page, or the connection going,
// ends a run. Called while the table component is set up.
import type { GameView } from '@kortbord/protocol/wire'
import { AutoRun } from './autorun.ts'
import type { TableClient } from './session.svelte.ts'
import { RUN_INTERVAL, tablePrefs } from './table-prefs.svelte.ts'

type RunGame = keyof typeof RUN_INTERVAL

export interface TableRunOptions<G extends RunGame> {
  /** Whether this view wants another step (the game's own rule). */
  canStep(view: Extract<GameView, { game: G }>): boolean
  /** The move one step sends. */
  move: unknown
  /** Told when running starts and stops. */
  onChange(running: boolean): void
}

export function tableRun<G extends RunGame>(
  table: () => TableClient,
  game: G,
  o: TableRunOptions<G>,
): AutoRun {
  const runner = new AutoRun({
    get intervalMs() {
      return RUN_INTERVAL[game][tablePrefs.speed]
    },
    canStep: () => {
      const client = table()
      const view = client.update?.view
      return (
        client.online && view?.game === game && o.canStep(view as Extract<GameView, { game: G }>)
      )
    },
    step: () => table().move(o.move),
    onChange: o.onChange,
  })
  $effect(() => () => runner.stop())
  $effect(() => {
    if (!table().online) runner.stop()
  })
  return runner
}
