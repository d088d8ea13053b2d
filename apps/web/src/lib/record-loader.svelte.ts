// Loading a game record for its page (issue 14): the record, and while the game is played what
// the table showed so far (its public frames); fetched again on "Check again" and "Try again".
import { recordHidesMoves } from '@kortbord/engine'
import { type Loaded, type LoadedFrames, loadFrames, loadRecord } from './replay.ts'

export class RecordLoader {
  /** The record, or why there is none (null until fetched). */
  loaded = $state.raw<Loaded | null>(null)
  /** A game in play: its public frames (null until fetched, or when the game is over). */
  frames = $state.raw<LoadedFrames | null>(null)
  /** Fetching again ("Check again", "Try again"): the page stays as it is until the answer. */
  #loading = false

  /**
   * Fetches record `id`: the first time with the page emptied, again (`again`) with the page kept
   * as it is until the answer (false when a fetch again is already under way).
   */
  async load(id: string, again = false): Promise<boolean> {
    if (again && this.#loading) return false
    this.#loading = true
    if (!again) {
      this.loaded = null
      this.frames = null
    }
    try {
      const got = await loadRecord(id)
      // While the game is played, what the table showed so far, from its latest move on.
      const live =
        got.kind === 'ok' && got.record.end === null && !recordHidesMoves(got.record)
          ? await loadFrames(id)
          : null
      this.loaded = got
      this.frames = live
    } finally {
      this.#loading = false
    }
    return true
  }
}
