// A table's part in the game records and the verifiable shuffle (issue 14): what a start, a move
// and an end do to the record, as pure functions of the table's record. The table saves them;
// the store keeps the records (store.ts, RecordEffects).
import { createHash, randomBytes } from 'node:crypto'
import {
  chainKey,
  chainLine,
  chainStart,
  commitment,
  type Deal,
  FAIR_VERSION,
  type GameRecord,
  RECORD_FORMAT,
  RECORD_VERSION,
  type RecordEnd,
  type RecordMove,
  type Seat,
} from '@kortbord/engine'
import type { FairInfo } from '@kortbord/protocol'
import type { RecordEffects, TableRecord } from './store.ts'

/** The engine's chainNext with Node's native SHA-256 (the same hash, 20× faster than JS's). */
const nextHead = (head: string, game: GameRecord['game'], m: RecordMove): string =>
  createHash('sha256')
    .update(chainLine(head, game, m), 'utf8')
    .digest('hex')

/**
 * The head of a record's chain after the moves it holds. The stored header keeps the head it was
 * opened (or closed) with, and the moves are appended apart; this is the head the players saw
 * after its last move.
 */
export function headAfter(rec: GameRecord): string {
  let head = chainStart(rec.id, rec.commitment, chainKey(rec))
  for (const m of rec.moves) head = nextHead(head, rec.game, m)
  return head
}

/** A fresh secret seed for a game to come, and its commitment (published). */
export function newFair(): { seed: string; commitment: string } {
  const seed = randomBytes(32).toString('hex')
  return { seed, commitment: commitment(seed) }
}

/** A record's id: 12 random base32 characters (60 bits), no relation to the table's code. */
export function newRecordId(): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789'
  return Array.from(randomBytes(12), (b) => alphabet[b & 31]).join('')
}

/** The contributions a game is dealt with: each seat's, '' for a bot or a seat that sent none. */
export function contributions(r: TableRecord): string[] {
  return r.seats.map((s, i) => (s.bot ? '' : (r.entropy?.[i] ?? '')))
}

/** The deal of the next game: fixed (tests) or the verifiable one from the committed seed. */
export function nextDeal(r: TableRecord, gameNo: number, fixed: Deal | null): Deal {
  if (fixed) return fixed
  const seed = (r.fair ?? { next: newFair() }).next.seed
  return { fair: { v: 1, seed, entropy: contributions(r), game: gameNo } }
}

/** The record of a game that starts: its header, with no moves yet. */
export function openRecord(
  r: TableRecord,
  gameNo: number,
  options: Record<string, unknown>,
  deal: Deal,
  now: number,
): GameRecord {
  const id = newRecordId()
  const fair = 'fair' in deal ? deal.fair : null
  const c = fair ? commitment(fair.seed) : null
  return {
    format: RECORD_FORMAT,
    version: RECORD_VERSION,
    id,
    game: r.game,
    gameNo,
    options,
    seats: r.seats.map((s) => ({ name: s.name ?? '', bot: s.bot ?? null })),
    shuffle: fair ? FAIR_VERSION : 'fixed',
    commitment: c,
    entropy: fair ? fair.entropy : [],
    deal: null,
    moves: [],
    end: null,
    startedAt: now,
    endedAt: null,
    // Keyed by the seed, secret until the end: nobody can compute the heads the table shows.
    head: chainStart(id, c, fair ? fair.seed : null),
  }
}

/** How a move (and maybe the end of the game) changes the record; nothing once it has ended. */
export function recordMove(
  r: TableRecord,
  entry: RecordMove,
  end: RecordEnd | null,
  maxMoves: number,
): { gameRecord: GameRecord; gameRecordMoves: number; effects: RecordEffects } | null {
  const rec = r.gameRecord
  if (!rec || rec.end !== null) return null
  const count = r.gameRecordMoves ?? 0
  // A record keeps at most maxMoves moves; a longer game is marked as cut short.
  const kept = count < maxMoves
  let next: GameRecord = kept
    ? { ...rec, head: nextHead(rec.head, rec.game, entry) }
    : { ...rec, truncated: true }
  if (end) next = closed(r, next, end, entry.at)
  return {
    gameRecord: next,
    gameRecordMoves: kept ? count + 1 : count,
    effects: {
      ...(kept ? { move: { id: rec.id, entry } } : {}),
      ...(end ? { header: next } : {}),
    },
  }
}

/** A game that ends without a move (a forfeit): the record closes. */
export function endRecord(
  r: TableRecord,
  end: RecordEnd,
  now: number,
): { gameRecord: GameRecord; effects: RecordEffects } | null {
  const rec = r.gameRecord
  if (!rec || rec.end !== null) return null
  const next = closed(r, rec, end, now)
  return { gameRecord: next, effects: { header: next } }
}

/** The record once the game is over: the deal revealed, the end and when. */
function closed(r: TableRecord, rec: GameRecord, end: RecordEnd, now: number): GameRecord {
  return { ...rec, deal: r.fair?.current ?? null, end, endedAt: now }
}

/** Hex digits of the chain head sent with every update (verifyRecord matches the prefix). */
export const HEAD_DIGITS = 16

/** What everyone at the table sees of the shuffle and the record (TableInfo.fair). */
export function fairInfo(r: TableRecord): FairInfo {
  const g = r.gameRecord ?? null
  // The head's first 16 hex digits (64 bits): enough to hold a record to what was seen, and
  // every update carries it.
  const head = g ? g.head.slice(0, HEAD_DIGITS) : null
  if (g && g.end === null && r.status === 'playing')
    return { commitment: g.commitment, entropy: g.entropy, record: g.id, head }
  return {
    commitment: r.fair?.next.commitment ?? null,
    entropy: r.seats.map((_, i) => r.entropy?.[i] ?? ''),
    record: g?.id ?? null,
    head,
  }
}

/** The seats' contributions with `seat`'s replaced (e.g. a new player, a freed seat). */
export function withEntropy(r: TableRecord, seat: Seat, value: string): string[] {
  const e = r.seats.map((_, i) => r.entropy?.[i] ?? '')
  e[seat] = value
  return e
}
