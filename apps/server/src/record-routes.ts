// The game records over HTTP (issue 14): `GET /api/records/<id>` as JSON, `/text` in the text
// notation, and `/frames`, the public frames of the game: what spectators were shown after each
// move. While the game is played the record is only its header (settings, seats, commitment,
// contributions): its moves would tell a same-deal opponent about a deal they have yet to play,
// and the deal is revealed at the end; the frames are the engine's spectator views, which hide
// exactly that. A same-deal match has no frames until it is over: one frame per move, with its
// time, would count the moves a player makes in a game the other may not see yet. A record whose game was abandoned (its table is gone) is served closed, its deal
// revealed (abandoned.ts). Every read counts against its address's limit.
import { type GameRecord, recordHidesMoves, recordText } from '@kortbord/engine'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { AbandonedHeads, type Settled, settleAbandoned } from './abandoned.ts'
import { HEAD_DIGITS } from './game-records.ts'
import { clientAddress, type Limits, type trustFunction } from './limits.ts'
import { FramesCache } from './public-frames.ts'
import type { TableStore } from './store.ts'

/** A game record's id, as the store makes them. */
export const RECORD_ID = /^[a-z2-9]{12}$/

export interface RecordRoutesOptions {
  /** Frames served at most for one record (the latest), and records whose frames are kept built. */
  readonly maxFrames: number
  readonly framesCached: number
  /** Moves a record keeps at most (RECORD_MAX_MOVES). */
  readonly maxMoves: number
}

type Req = { params: unknown; raw: import('node:http').IncomingMessage }

const refuse = (reply: FastifyReply, status: number, code: string, message: string) =>
  reply.code(status).send({ ok: false, error: { code, message } })

export function serveRecords(
  fastify: FastifyInstance,
  store: TableStore,
  limits: Limits,
  trust: ReturnType<typeof trustFunction>,
  opts: RecordRoutesOptions,
): FramesCache {
  const frames = new FramesCache(opts.framesCached, opts.maxFrames)
  const heads = new AbandonedHeads()

  /** The record asked for, counted against the address; null once the reply is sent. */
  const find = async (req: Req, reply: FastifyReply): Promise<Settled | null> => {
    const id = (req.params as { id?: string }).id ?? ''
    if (!RECORD_ID.test(id)) {
      await refuse(reply, 404, 'NO_SUCH_RECORD', 'no such record')
      return null
    }
    const over = await limits.recordRead(clientAddress(req.raw, trust))
    if (over) {
      await reply.code(429).send({ ok: false, error: over })
      return null
    }
    const r = await store.loadRecord(id).catch(() => undefined)
    if (r === undefined) {
      await refuse(reply, 503, 'UNAVAILABLE', 'try again')
      return null
    }
    if (r === null) {
      await refuse(reply, 404, 'NO_SUCH_RECORD', 'no such record')
      return null
    }
    const settled = await settleAbandoned(store, r, opts.maxMoves, heads).catch(() => undefined)
    if (settled === undefined) {
      await refuse(reply, 503, 'UNAVAILABLE', 'try again')
      return null
    }
    // A finished record never changes again; one being played changes with every move.
    reply.header('cache-control', settled.record.end ? 'public, max-age=3600' : 'no-store')
    return settled
  }
  /**
   * What may be shown of a record: all of it once the game is over, its header before, with its
   * head as the table shows heads (16 hex digits): the whole of one would let anyone compute the
   * heads after it and test guesses of moves they may not see.
   */
  const published = (r: GameRecord): GameRecord =>
    r.end ? r : { ...r, moves: [], head: r.head.slice(0, HEAD_DIGITS) }

  fastify.get('/api/records/:id', async (req, reply) => {
    const s = await find(req, reply)
    return s ? published(s.record) : reply
  })
  fastify.get('/api/records/:id/text', async (req, reply) => {
    const s = await find(req, reply)
    if (!s) return reply
    return reply.type('text/plain; charset=utf-8').send(recordText(published(s.record)))
  })
  fastify.get('/api/records/:id/frames', async (req, reply) => {
    const s = await find(req, reply)
    if (!s) return reply
    const { record: r, deal } = s
    if (deal === null)
      return refuse(reply, 409, 'NO_FRAMES', 'this game cannot be replayed: its deal is not kept')
    if (r.end === null && recordHidesMoves(r))
      return refuse(reply, 409, 'NO_FRAMES', 'a same-deal match can be replayed once it is over')
    try {
      return reply.type('application/json; charset=utf-8').send(frames.served(r, deal).json)
    } catch {
      return refuse(reply, 409, 'NO_FRAMES', 'this game cannot be replayed')
    }
  })
  return frames
}
