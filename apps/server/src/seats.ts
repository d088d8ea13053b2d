// Pure helpers over a table's seat records: who sits where, who hosts, who is away.
import type { Seat } from '@kortbord/engine'
import type { SeatRecord, TableRecord } from './store.ts'

export const openSeat: SeatRecord = {
  name: null,
  tokenHash: null,
  connected: false,
  holder: null,
  graceUntil: null,
  gone: false,
  timeouts: 0,
}

/** The seats with `seat` changed by `patch` (a new array; records are immutable). */
export function withSeat(
  seats: readonly SeatRecord[],
  seat: Seat,
  patch: Partial<SeatRecord>,
): SeatRecord[] {
  const out = seats.slice()
  out[seat] = { ...out[seat]!, ...patch }
  return out
}

/** Whether the host's seat holds a player who has not left. */
export function hostPresent(seats: readonly SeatRecord[], host: Seat): boolean {
  const h = seats[host]
  return h !== undefined && h.name !== null && !h.gone
}

/** The host, or if they have gone, the first player still at the table (else unchanged). */
export function nextHost(seats: readonly SeatRecord[], host: Seat): Seat {
  if (hostPresent(seats, host)) return host
  const connected = seats.findIndex((x) => x.name !== null && !x.gone && x.connected && !x.bot)
  if (connected >= 0) return connected
  const any = seats.findIndex((x) => x.name !== null && !x.gone && !x.bot)
  return any >= 0 ? any : host
}

/**
 * Away (I-16): a seated person who is disconnected, has gone, or let the turn timer run out
 * `timeoutsForAway` times in a row. The others need not wait for them: they may hand the seat to
 * a bot (Idiot) or end the game with them forfeiting. A bot is never away.
 */
export function isAway(s: SeatRecord, timeoutsForAway: number): boolean {
  if (s.name === null || s.bot) return false
  return !s.connected || s.gone || s.timeouts >= timeoutsForAway
}

/**
 * The first game of someone who sits down now (SeatRecord.since): the one being played, whose
 * cards at that seat they take over, else the next one.
 */
export function firstGame(r: Pick<TableRecord, 'status' | 'gameNo'>): number {
  return r.status === 'playing' ? r.gameNo : r.gameNo + 1
}

/**
 * I-16: a tally counts for whoever sits in the seat, so a seat nobody sits in counts 0, and the
 * next player to sit down starts from 0, not from what the one before them lost or won.
 */
export function seatedTally(
  seats: readonly SeatRecord[],
  tally: readonly number[],
): readonly number[] {
  return tally.some((n, i) => n !== 0 && seats[i]?.name === null)
    ? tally.map((n, i) => (seats[i]?.name === null ? 0 : n))
    : tally
}

/**
 * Per seat, the name its cards in the game shown (the one being played, or the last) were
 * played under, where that is not whoever sits there now: the seat is open (its player went), or
 * its player sat down after that game. Null where the seat's player is the one who played it.
 */
export function shownPlayers(
  r: Pick<TableRecord, 'seats' | 'gameNo' | 'gameRecord'>,
): (string | null)[] {
  const g = r.gameRecord ?? null
  return r.seats.map((s, i) =>
    g !== null && (s.name === null || (s.since ?? 0) > r.gameNo)
      ? (g.seats[i]?.name ?? null)
      : null,
  )
}

/** Nobody sits at the table any more (every seat open): nobody can ever come back to it. */
export const deserted = (seats: readonly SeatRecord[]): boolean =>
  seats.every((s) => s.name === null || (s.bot ?? null) !== null)
