/**
 * The public frames of a game (issue 14, docs/protocol.md "Game records"): what a spectator was
 * shown after each move, served by `GET /api/records/<id>/frames` while the game is played (the
 * record itself shows only its header then). Each frame is the engine's spectator view at that
 * move, whole or as a patch of the frame before ({@link applyPatch}'s format). No zod here: the
 * web client uses it.
 */
import type { RecordGame, Seat } from '@kortbord/engine'
import { applyPatch, type Patch } from './delta.ts'
import type { GameView } from './wire.ts'

export const FRAMES_FORMAT = 'kortbord-frames'
export const FRAMES_VERSION = 1

/** One moment of the game as spectators saw it: after `k` moves (0: the deal). */
export interface PublicFrame {
  readonly k: number
  /** The table version the k-th move made (null for the deal). */
  readonly v: number | null
  /** When: the move's time (the deal: the game's start), epoch ms. */
  readonly at: number
  /** Who moved (null for the deal), and whether the timer or a bot moved for them. */
  readonly seat: Seat | null
  readonly by?: 'timer' | 'bot'
  /** The spectator view whole (the first frame, or when a patch would be long)… */
  readonly view?: GameView
  /** …or the patch that turns the frame before's view into this one. */
  readonly p?: Patch
}

export interface PublicFrames {
  readonly format: typeof FRAMES_FORMAT
  readonly version: typeof FRAMES_VERSION
  readonly id: string
  readonly game: RecordGame
  /** Moves the record holds: the last frame's k. */
  readonly moves: number
  /** Whether the game is over (then the whole record is public: replay it instead). */
  readonly over: boolean
  /** The record was cut short at RECORD_MAX_MOVES: later moves have no frame. */
  readonly truncated: boolean
  /** The k of the first frame: earlier ones are left out beyond the cap on frames. */
  readonly from: number
  readonly frames: readonly PublicFrame[]
}

/** Every frame's spectator view, rebuilt from the patches. Throws on frames that do not fit. */
export function frameViews(f: Pick<PublicFrames, 'frames'>): GameView[] {
  const out: GameView[] = []
  for (const fr of f.frames) {
    const prev = out[out.length - 1]
    if (fr.view !== undefined) out.push(fr.view)
    else if (prev !== undefined && fr.p !== undefined) out.push(applyPatch(prev, fr.p))
    else throw new Error(`frame ${fr.k} has neither a view nor a patch of one`)
  }
  return out
}
