// The public frames of a game (issue 14): what a spectator was shown after each move, replayed
// on the server from the record and its deal, which only the server knows while the game is
// played. A frame is the engine's spectator view at that move and nothing else. A same-deal duel
// has no frames while it is played (recordHidesMoves): the spectator view hides a leader's game until
// the other player has finished theirs, but a frame a move would still count its moves.
// Served by GET /api/records/<id>/frames (record-routes.ts).
import {
  type Deal,
  duel,
  type GameRecord,
  herrarna,
  idiot,
  klockan,
  type RecordGame,
  type RecordMove,
  type RecordMoveOf,
  type Seat,
} from '@kortbord/engine'
import { applyPatch, diff, type GameView } from '@kortbord/protocol'
import {
  FRAMES_FORMAT,
  FRAMES_VERSION,
  type PublicFrame,
  type PublicFrames,
} from '@kortbord/protocol/frames'

interface Def {
  setup(opts: never, seats: number, deal: Deal): unknown
  apply(s: unknown, seat: Seat, m: RecordMoveOf): { ok: boolean; value?: unknown }
  view(s: unknown, viewer: 'spectator'): GameView
}
const DEFS = { idiot, duel, klockan, herrarna } as unknown as Record<RecordGame, Def>

/** A view patch with more operations than this is sent as the whole view instead. */
const MAX_OPS = 48

/**
 * The frames of one record, built move by move and kept so that a later request with more moves
 * only replays the new ones. Holds at most `max` frames: the oldest go (the first one kept is
 * then whole).
 */
export class FrameBuilder {
  private state: unknown
  private last: GameView
  /** The whole view of frames[0] (the others are patches, or whole). */
  private first: GameView
  private readonly frames: PublicFrame[] = []
  private k = 0

  /** The served result of the frames as they are now, made once (null: to make). */
  private served: { key: string; frames: PublicFrames; json: string } | null = null

  /**
   * Deals the record's game and starts the frames after `skip` of `moves` (those the cap on
   * frames leaves out: replayed, but neither viewed nor kept).
   */
  constructor(
    readonly record: Pick<GameRecord, 'id' | 'game' | 'options' | 'seats' | 'startedAt'>,
    deal: Deal,
    private readonly max: number,
    moves: readonly RecordMove[] = [],
    skip = 0,
  ) {
    const def = DEFS[record.game]
    this.state = def.setup(record.options as never, record.seats.length, deal)
    for (const m of moves.slice(0, skip)) this.state = this.applied(def, m)
    this.k = skip
    this.last = def.view(this.state, 'spectator')
    this.first = this.last
    const m = moves[skip - 1]
    this.frames.push(
      m
        ? {
            k: skip,
            v: m.v,
            at: m.at,
            seat: m.seat,
            ...(m.by ? { by: m.by } : {}),
            view: this.last,
          }
        : { k: 0, v: null, at: record.startedAt, seat: null, view: this.last },
    )
  }

  /** The builder of `record`'s frames, its first `max − 1` moves skipped when they will not be served. */
  static of(record: GameRecord, deal: Deal, max: number): FrameBuilder {
    const skip = Math.max(0, record.moves.length + 1 - max)
    return new FrameBuilder(record, deal, max, record.moves, skip)
  }

  private applied(def: Def, m: RecordMove): unknown {
    const res = def.apply(this.state, m.seat, m.move)
    if (!res.ok) throw new Error(`move ${this.k + 1} of record ${this.record.id} is refused`)
    this.k++
    return res.value
  }

  /** How many moves are in the frames so far. */
  get moves(): number {
    return this.k
  }

  /** Adds the frames of `moves` (the record's moves after those built). Throws on a move the engine refuses. */
  extend(moves: readonly RecordMove[]): void {
    const def = DEFS[this.record.game]
    for (const m of moves) {
      this.state = this.applied(def, m)
      const view = def.view(this.state, 'spectator')
      const p = diff(this.last, view)
      this.frames.push({
        k: this.k,
        v: m.v,
        at: m.at,
        seat: m.seat,
        ...(m.by ? { by: m.by } : {}),
        ...(p.length > MAX_OPS ? { view } : { p }),
      })
      this.last = view
      if (this.frames.length > this.max) this.dropFirst()
    }
  }

  private dropFirst(): void {
    this.frames.shift()
    const f = this.frames[0]!
    this.first = f.view ?? applyPatch(this.first, f.p!)
  }

  /** The frames as served, the first one whole, and as JSON: made once for the same moves. */
  result(over: boolean, truncated: boolean): { frames: PublicFrames; json: string } {
    const key = `${this.k}|${over}|${truncated}`
    if (this.served?.key === key) return this.served
    const [head, ...rest] = this.frames
    const { p: _p, ...first } = head!
    const frames: PublicFrames = {
      format: FRAMES_FORMAT,
      version: FRAMES_VERSION,
      id: this.record.id,
      game: this.record.game,
      moves: this.k,
      over,
      truncated,
      from: head!.k,
      frames: [{ ...first, view: this.first }, ...rest],
    }
    this.served = { key, frames, json: JSON.stringify(frames) }
    return this.served
  }
}

/**
 * The public frames of recently asked records, each kept as its builder: a request for a record
 * that has gained moves replays only those, one for the same moves replays nothing. At most
 * `entries` records are kept; the least recently asked goes first.
 */
export class FramesCache {
  private readonly builders = new Map<string, FrameBuilder>()

  constructor(
    private readonly entries: number,
    private readonly maxFrames: number,
  ) {}

  /** The frames of `record` (its moves as the store has them) dealt from `deal`. */
  framesOf(record: GameRecord, deal: Deal): PublicFrames {
    return this.served(record, deal).frames
  }

  /** The same, with its JSON (made once per record and move count). */
  served(record: GameRecord, deal: Deal): { frames: PublicFrames; json: string } {
    let b = this.builders.get(record.id)
    this.builders.delete(record.id)
    if (!b || b.moves > record.moves.length) b = FrameBuilder.of(record, deal, this.maxFrames)
    b.extend(record.moves.slice(b.moves))
    this.builders.set(record.id, b)
    while (this.builders.size > this.entries) {
      const oldest = this.builders.keys().next().value
      if (oldest === undefined) break
      this.builders.delete(oldest)
    }
    return b.result(record.end !== null, record.truncated === true)
  }

  /** Records whose frames are kept now (for tests). */
  get size(): number {
    return this.builders.size
  }
}
