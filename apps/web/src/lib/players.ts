// Whom a table's seats stand for (I-16). A seat can change hands between games: its player left
// and someone new sat down. The game on the table (the last one, until the next starts) is then
// still the one who played it, by name (TableInfo.players), while the seat, its presence and its
// tally are the newcomer's.
import type { TableInfo } from '@kortbord/protocol/wire'

type Seats = Pick<TableInfo, 'seats'>
type Shown = Pick<TableInfo, 'seats' | 'players'>

/** The seats' names now; an open seat is "#n". */
export function seatNames(info: Seats): string[] {
  return info.seats.map((s, i) => s.name ?? `#${i + 1}`)
}

/**
 * Per seat, the name the game shown was played under: who played it where that is not who sits
 * there now (a server of the version before sends no `players`: then whoever sits there).
 */
export function gameNames(info: Shown): string[] {
  return info.seats.map((s, i) => info.players?.[i] ?? s.name ?? `#${i + 1}`)
}

/**
 * The seat `seat` played in the game shown, or null: a seat taken since that game ended played
 * none of it, so its new player sees that game as a spectator does (not as their own cards).
 */
export function myGameSeat(info: Shown, seat: number | null): number | null {
  return seat !== null && (info.players?.[seat] ?? null) === null ? seat : null
}

/**
 * The tally of the people seated now, by name: "Astrid (0) · Bot 1 (2)", the count in brackets
 * so that it is never read as part of a numbered bot's name. An open seat has none.
 */
export function tallyLine(info: Pick<TableInfo, 'seats' | 'tally'>): string {
  return info.seats
    .flatMap((s, i) => (s.name === null ? [] : [`${s.name} (${info.tally[i] ?? 0})`]))
    .join(' · ')
}

/**
 * Whether the host's "Start now" says anything beside "Play again" (issue 15): not when every
 * other seated player is a bot, since bots always agree and "Play again" starts the game at once.
 */
export function startNowOffered(info: Seats, me: number | null): boolean {
  return info.seats.some((s, i) => i !== me && s.name !== null && s.bot === null)
}
