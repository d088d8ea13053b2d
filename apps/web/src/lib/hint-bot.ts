// The hint's player: the hard computer player (issue 7) asked for the move it would make in the
// player's seat, with the playouts it weighed. It runs in the hint's Web Worker (hint-worker.ts):
// the bot's code is not part of the table's page.
import { type HardThought, hardThought, type IdiotView, Rng } from '@kortbord/engine'

/** How long a hint may think (the hard bot's playouts stop early at this). */
export const HINT_THINK_MS = 300
/** Playouts a hint may use: as many as the hard bot at a table (the server's 400). */
export const HINT_ROLLOUTS = 400

/**
 * The move the hard bot would make from `view`, the player's own view (I-15: it sees what the
 * player sees and nothing more), and what it weighed; null when the player has nothing to do.
 * The same position gives the same hint when the clock lets it finish: the bot's guesses of the
 * hidden cards are seeded by the move count.
 */
export function idiotHint(
  view: IdiotView,
  now: () => number = () => performance.now(),
): HardThought | null {
  const rng = Rng.seeded(`hint-${view.moves}`)
  return hardThought(view, rng, { rollouts: HINT_ROLLOUTS, deadline: now() + HINT_THINK_MS, now })
}
