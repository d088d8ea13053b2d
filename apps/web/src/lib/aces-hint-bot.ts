// The hint's thinking at Idioten alone (lib/aces-hint.ts): the engine's acesUpHint with the
// page's seed and time limit. It runs in the hint's Web Worker (aces-hint-worker.ts).
import {
  type AcesUpMove,
  type AcesUpThought,
  type AcesUpView,
  acesUpHint,
  Rng,
} from '@kortbord/engine'

/** How long a hint may think on the page (its playouts stop early at this). */
export const ACES_HINT_THINK_MS = 300

/**
 * The hint for the player's own view (I-15: what they see and nothing more). The same position
 * gives the same hint when the clock lets it finish: the guesses of the stock are seeded by the
 * game's moves. `now` is its clock, given by tests that need the same answer on a slow machine.
 */
export function acesHint(
  view: AcesUpView,
  moves: readonly AcesUpMove[],
  now: () => number = () => performance.now(),
): AcesUpThought | null {
  return acesUpHint(view, moves, Rng.seeded(`aces-hint-${view.deals}-${view.moves}`), {
    deadline: now() + ACES_HINT_THINK_MS,
    now,
  })
}
