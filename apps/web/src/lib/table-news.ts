// What the table did around the game (docs/rules.md I-16, "At the table"): turn timers running
// out, a bot taking an away player's seat, a game ended by forfeit, the host changing the timer.
// The page shows the latest such event in words beside the game's own "last move" line.
import type { GameId, LogEntry, TableInfo, TimeoutAction } from '@kortbord/protocol/wire'

type Entry<T extends LogEntry['t']> = Extract<LogEntry, { t: T }>
export type TableEvent = Entry<'timeout'> | Entry<'bot'> | Entry<'forfeit'> | Entry<'timer'>

export const isTableEvent = (e: LogEntry): e is TableEvent =>
  e.t === 'timeout' || e.t === 'bot' || e.t === 'forfeit' || e.t === 'timer'

/** Idiot events that are a player's own decision: another seat's one makes older news stale. */
const ACTIONS = new Set(['play', 'pickup', 'swap', 'ready'])

/** Where the current game's entries begin: after the last `started` (0 if none is held). */
function gameStart(log: readonly LogEntry[]): number {
  for (let i = log.length - 1; i >= 0; i--) if (log[i]!.t === 'started') return i + 1
  return 0
}

/**
 * The latest table event of the current game while it is still news: until another seat than
 * the one it concerns makes a move of its own (the timed-out player's forced move, or the bot's
 * moves for them, keep it current), and a bot's taking a seat until its player takes it back.
 * Games that log no moves (the duel, Klockan) keep it until the next one.
 */
export function latestTableEvent(log: readonly LogEntry[]): TableEvent | null {
  const from = gameStart(log)
  for (let i = log.length - 1; i >= from; i--) {
    const e = log[i]!
    if (!isTableEvent(e)) continue
    const subject = e.t === 'timer' ? null : e.seat
    const after = log.slice(i + 1)
    const stale = after.some(
      (x) => x.t === 'game' && ACTIONS.has(x.e.t) && 'seat' in x.e && x.e.seat !== subject,
    )
    // A bot plays for the seat only until its player is back in it.
    const retaken = e.t === 'bot' && after.some((x) => x.t === 'back' && x.seat === e.seat)
    return stale || retaken ? null : e
  }
  return null
}

/** The forfeit that ended the current game, if it ended so. */
export function forfeitOf(log: readonly LogEntry[]): Entry<'forfeit'> | null {
  const from = gameStart(log)
  for (let i = log.length - 1; i >= from; i--) {
    const e = log[i]!
    if (e.t === 'forfeit') return e
  }
  return null
}

/** The words a table event needs (a part of the dictionary). */
export interface TableEventTexts {
  logTimeoutAction: (name: string, action: TimeoutAction) => string
  logBot: (name: string) => string
  logForfeit: (name: string) => string
  logTimer: (seconds: number | null) => string
}

export function describeTableEvent(
  e: TableEvent,
  names: readonly string[],
  t: TableEventTexts,
): string {
  switch (e.t) {
    case 'timeout':
      return t.logTimeoutAction(names[e.seat] ?? `#${e.seat + 1}`, e.action)
    case 'bot':
      return t.logBot(e.name)
    case 'forfeit':
      return t.logForfeit(e.name)
    case 'timer':
      return t.logTimer(e.turnSeconds)
  }
}

/** Whether a table can run a turn timer: someone may wait for someone (not a patience alone). */
export function timedGame(game: GameId, settings: TableInfo['settings']): boolean {
  if (game === 'idiot' || game === 'duel') return true
  return game === 'klockan' && (settings as { seats?: number }).seats === 2
}

/** The table's turn timer in seconds, or null when it is off (or the game has none). */
export function turnSecondsOf(info: Pick<TableInfo, 'game' | 'settings'>): number | null {
  if (!timedGame(info.game, info.settings)) return null
  return (info.settings as { turnSeconds?: number | null }).turnSeconds ?? null
}

/** The choices the host has for the timer (seconds; null is off), within the server's 15–120. */
export const TIMER_CHOICES: readonly (number | null)[] = [null, 15, 20, 30, 45, 60, 90, 120]

/** The choices, with the current setting among them even if it is an unusual one. */
export function timerChoices(current: number | null): (number | null)[] {
  const all = [...TIMER_CHOICES]
  if (current !== null && !all.includes(current)) all.push(current)
  return all.sort((a, b) => (a ?? 0) - (b ?? 0))
}
