// The replay page's logic (issue 14): fetching a game record, its move list in the engine's
// notation, and what verifying it with this browser's witness showed, as facts the page puts
// into words. The engine does the checking (verifyRecord); this only decides what to say.
import {
  type AcesUpEvent,
  type DuelView,
  formatMove,
  type GameRecord,
  type RecordMoveOf,
  type Verification,
  verifyRecord,
  type Witness,
} from '@kortbord/engine'
import { frameViews, type PublicFrames } from '@kortbord/protocol/frames'
import type { GameView } from '@kortbord/protocol/wire'
import { cardName } from './card-names.ts'
import type { KeptWitness } from './contribution.ts'
import type { Lang } from './i18n.ts'
import type { Check, RecordsDict, Unchecked } from './i18n-records.ts'

export type Loaded =
  | { readonly kind: 'ok'; readonly record: GameRecord }
  | { readonly kind: 'notFound' }
  | { readonly kind: 'failed' }

export const recordUrl = (id: string): string => `/api/records/${id}`
export const recordTextUrl = (id: string): string => `/api/records/${id}/text`
export const framesUrl = (id: string): string => `/api/records/${id}/frames`

/** A game in play as spectators saw it: every frame's view, rebuilt from the server's patches. */
export interface LiveReplay {
  readonly frames: PublicFrames
  /** views[i] is what frames.frames[i] showed. */
  readonly views: readonly GameView[]
}

export type LoadedFrames =
  | { readonly kind: 'ok'; readonly live: LiveReplay }
  | { readonly kind: 'none' }
  | { readonly kind: 'failed' }

/**
 * Fetches the public frames of a game being played (issue 14). 'none': the server cannot replay
 * it (no such record, or a game dealt before its deal was kept); 'failed': try again.
 */
export async function loadFrames(id: string, get: typeof fetch = fetch): Promise<LoadedFrames> {
  try {
    const r = await get(framesUrl(id), { headers: { accept: 'application/json' } })
    if (r.status === 404 || r.status === 409) return { kind: 'none' }
    if (!r.ok) return { kind: 'failed' }
    const frames = (await r.json()) as PublicFrames
    return { kind: 'ok', live: { frames, views: frameViews(frames) } }
  } catch {
    return { kind: 'failed' }
  }
}

/** The frames' moves as the list shows them: who moved, and on whose behalf. */
export function frameLines(f: PublicFrames): MoveLine[] {
  return f.frames.flatMap((fr) =>
    fr.k === 0 || fr.seat === null
      ? []
      : [{ k: fr.k, seat: fr.seat, text: '', move: null, by: fr.by ?? null }],
  )
}

/**
 * What a duel's move did, in a game in play (whose moves are not known yet): the events of the
 * mover's game as the frame after it shows them, when that game is seen and goes on from the
 * frame before (a move that ended a game, or a game hidden from spectators, tells nothing).
 */
export function duelFrameEvent(
  before: DuelView | undefined,
  after: DuelView | undefined,
  seat: number,
): AcesUpEvent | null {
  const a = after?.players[seat]
  const cur = a?.current
  if (!a || !cur || 'hidden' in cur || cur.moves === 0) return null
  const b = before?.players[seat]
  if (b !== undefined) {
    const prev = b.current
    if (b.results.length !== a.results.length || !prev || 'hidden' in prev) return null
    if (prev.moves === cur.moves) return null
  }
  const e = cur.recent[0]
  return e !== undefined && e.t !== 'end' ? e : null
}

/** A duel's move in a game in play, in words ('' when its frames do not tell). */
export function duelFrameWords(
  r: RecordsDict,
  lang: Lang,
  before: DuelView | undefined,
  after: DuelView | undefined,
  seat: number,
): string {
  const e = duelFrameEvent(before, after, seat)
  if (e === null) return ''
  switch (e.t) {
    case 'discard':
      return r.mvDiscard(cardName(lang, e.card))
    case 'move':
      return r.mvMove(cardName(lang, e.card), e.to + 1)
    case 'deal':
      return r.mvDeal
    case 'undo':
      return r.mvUndo
    default:
      return ''
  }
}

/** Fetches a record; a missing one and a failure (offline, the store away) are told apart. */
export async function loadRecord(id: string, get: typeof fetch = fetch): Promise<Loaded> {
  try {
    const r = await get(recordUrl(id), { headers: { accept: 'application/json' } })
    if (r.status === 404) return { kind: 'notFound' }
    if (!r.ok) return { kind: 'failed' }
    const record = (await r.json()) as GameRecord
    return record && typeof record === 'object' ? { kind: 'ok', record } : { kind: 'failed' }
  } catch {
    return { kind: 'failed' }
  }
}

export interface MoveLine {
  /** 1 for the first move: the state after it is states[k]. */
  readonly k: number
  readonly seat: number
  /** The move in the record's notation ('' for a frame of a game in play). */
  readonly text: string
  /** The move itself, for its words (null for a frame of a game in play: not known). */
  readonly move: RecordMoveOf | null
  readonly by: 'timer' | 'bot' | null
}

/** Every move of the record in the engine's notation, with who made it on the seat's behalf. */
export function moveLines(r: GameRecord): MoveLine[] {
  return r.moves.map((m, i) => ({
    k: i + 1,
    seat: m.seat,
    text: formatMove(r.game, m.move),
    move: m.move,
    by: m.by ?? null,
  }))
}

/** verifyRecord's problem, put as the page says it: the player's own contribution apart. */
export type ProblemKey = Verification['problems'][number]['code'] | 'OWN_ENTROPY'

export interface Report {
  /** 'playing': the game is not over, there is nothing to check yet. */
  readonly state: 'verified' | 'fixed' | 'failed' | 'playing'
  /** What was checked (a passed verification). */
  readonly checked: readonly Check[]
  /** What could not be checked here, and why. */
  readonly unchecked: readonly Unchecked[]
  readonly problems: readonly { readonly key: ProblemKey; readonly message: string }[]
}

/** The witness verifyRecord takes, from what this browser kept (seat and value go together). */
export function witnessFor(kept: KeptWitness | null): Witness {
  const w: { seat?: number; entropy?: string; head?: string } = {}
  if (kept?.seat !== undefined && kept.entropy !== undefined) {
    w.seat = kept.seat
    w.entropy = kept.entropy
  }
  if (kept?.head) w.head = kept.head
  return w
}

/** Verifies the record with this browser's witness and says what that showed. */
export function verifyReport(r: GameRecord, kept: KeptWitness | null): Report {
  if (r.end === null || r.deal === null)
    return { state: 'playing', checked: [], unchecked: [], problems: [] }
  const w = witnessFor(kept)
  const v = verifyRecord(r, w)
  const own = w.seat !== undefined && (r.entropy[w.seat] ?? '') !== w.entropy
  if (!v.ok) {
    const problems = v.problems.map((p) => ({
      key: (p.code === 'ENTROPY_MISMATCH' && own && /your own/.test(p.message)
        ? 'OWN_ENTROPY'
        : p.code) as ProblemKey,
      message: p.message,
    }))
    return { state: 'failed', checked: [], unchecked: [], problems }
  }
  const checked: Check[] = v.shuffle === 'verified' ? ['seed', 'deal'] : []
  if (v.shuffle === 'verified' && w.entropy !== undefined) checked.push('yours')
  checked.push('moves', 'chain')
  if (w.head !== undefined) checked.push('seen')
  const unchecked: Unchecked[] = []
  if (kept === null) unchecked.push('noWitness')
  else {
    if (kept.seat !== undefined && kept.entropy === undefined && v.shuffle === 'verified')
      unchecked.push(r.seats[kept.seat]?.bot ? 'bot' : 'noEntropy')
    if (!kept.head) unchecked.push('noHead')
  }
  return {
    state: v.shuffle === 'verified' ? 'verified' : 'fixed',
    checked,
    unchecked,
    problems: [],
  }
}

/** Playing speeds, in moves per second at 1×. */
export const SPEEDS = [0.5, 1, 2, 4, 8] as const
export const stepMs = (speed: number): number => Math.round(800 / speed)

/**
 * A screen with room for the verification's list of what was checked, open above the replay:
 * 48rem wide and 32rem high. A phone held sideways is wide but short: there it is folded.
 */
export const WIDE_ENOUGH = '(min-width: 48rem) and (min-height: 32rem)'
