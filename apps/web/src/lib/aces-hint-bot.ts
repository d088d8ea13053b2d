// The hint's thinking at Idioten alone (lib/aces-hint.ts): the engine's acesUpHint, in a module
// of its own, loaded when a hint is first asked for.
import {
  type AcesUpMove,
  type AcesUpThought,
  type AcesUpView,
  acesUpHint,
  Rng,
} from '@kortbord/engine'

/**
 * The hint for the player's own view (I-15: what they see and nothing more). The same position
 * gives the same hint: the guesses of the stock are seeded by the game's moves.
 */
export function acesHint(view: AcesUpView, moves: readonly AcesUpMove[]): AcesUpThought | null {
  return acesUpHint(view, moves, Rng.seeded(`aces-hint-${view.deals}-${view.moves}`))
}
