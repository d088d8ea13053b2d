// What Klockan's table says (docs/rules.md K): whose turn it is, how the game ended, and what its
// one live region tells a screen reader. One announcement for each change of the table: what the
// table did (I-16: a timeout, a bot, the timer), the card just placed, then whose turn it is now,
// or how the game ended. Whatever was already so when the page came (a reload) is not news; the
// cards a run turns are not said one by one, the end it runs to is. Only Klockan's table (a lazy
// chunk) imports this, so the first page load carries none of it.

import type { KlockanView } from '@kortbord/engine'
import { sentences } from './announce.ts'
import type { Dict } from './i18n.ts'
import type { TableDict } from './i18n-table.ts'

/** Who sits at the game on the table: my seat in it (null: none), and each seat's name. */
export interface KlockanSeats {
  readonly me: number | null
  readonly names: readonly string[]
}

/** The result's box: its heading and lines, and whether the clock came out. */
export interface KlockanResult {
  readonly title: string
  readonly lines: readonly string[]
  readonly won: boolean
}

/** The status line: whose turn it is ('' alone, at the end, or while nobody's turn it is). */
export function klockanStatus(t: Dict, v: KlockanView, ended: boolean, s: KlockanSeats): string {
  if (v.phase === 'over' || v.players === 1 || ended) return ''
  if (v.turn === null) return ''
  return v.turn === s.me ? t.yourTurn : t.theirTurn(s.names[v.turn]!)
}

/**
 * How the game ended: by a forfeit (I-16; `forfeit` is whose and their name), or as the game's
 * outcome; null while it goes on.
 */
export function klockanResult(
  t: Dict,
  v: KlockanView,
  forfeit: { readonly seat: number; readonly name: string } | null,
  s: KlockanSeats,
): KlockanResult | null {
  if (forfeit) {
    const winner = 1 - forfeit.seat
    return {
      title: forfeit.seat === s.me ? t.youForfeited : t.logForfeit(forfeit.name),
      lines: [winner === s.me ? t.youWinGame : t.winnerIs(s.names[winner]!)],
      won: false,
    }
  }
  return v.outcome ? outcomeResult(t, v, v.outcome, s) : null
}

function outcomeResult(
  t: Dict,
  v: KlockanView,
  o: NonNullable<KlockanView['outcome']>,
  s: KlockanSeats,
): KlockanResult {
  const stop = t.stopCard(v.variant)
  const lines: string[] = []
  let title: string
  if (o.loser !== null && o.winner !== null) {
    title = o.loser === s.me ? t.klockanYouLose(stop) : t.klockanLoser(s.names[o.loser]!, stop)
    lines.push(o.winner === s.me ? t.youWinGame : t.winnerIs(s.names[o.winner]!))
    lines.push(o.won ? t.klockanWon : t.klockanLost(o.faceDown))
  } else {
    title = o.won ? t.klockanWon : t.klockanLost(o.faceDown)
  }
  if (v.variant === 'rescue') lines.push(o.rescued ? t.rescueUsed : t.rescueNotUsed)
  return { title, lines, won: o.won }
}

/** What Suggest chose (K-5): the card at `depth` of the `count` face-down cards in `pile`. */
export const klockanSuggested = (
  t: Dict,
  tt: TableDict,
  depth: number,
  count: number,
  pile: string,
): string => tt.suggested(t.depthLabel(depth, count), pile)

/**
 * What changes the announcement: a card, the turn, the phase, the end, a table event, a game
 * won. The same key again is the same news (in another language, perhaps).
 */
export const klockanSayKey = (
  v: KlockanView,
  ended: boolean,
  eventSeq: number | null,
  tally: readonly number[],
): string => `${v.moves}|${v.turn}|${v.phase}|${ended}|${eventSeq ?? ''}|${tally.join(',')}`

/** What the reader was last told of: the moves, the table's event, whether the game had ended. */
export interface KlockanHeard {
  readonly moves: number
  readonly event: number | null
  readonly ended: boolean
}

/** The table as it is now, in words. */
export interface KlockanNow {
  readonly moves: number
  /** The table's latest event (I-16) and its words, or null. */
  readonly event: { readonly seq: number; readonly text: string } | null
  /** The card just placed, or the rescue just made ('' before the first card). */
  readonly card: string
  /** A run is turning the cards. */
  readonly running: boolean
  readonly ended: boolean
  readonly result: KlockanResult | null
  /** Whose turn it is (klockanStatus). */
  readonly status: string
  /** Another player is choosing a rescue: its words, else ''. */
  readonly waiting: string
}

/**
 * The one announcement for a change since `heard`: the table's event, the card, then whose turn
 * it is now (or the result, once, when the game has just ended). '' when none of it is new.
 */
export function klockanSaid(heard: KlockanHeard, now: KlockanNow): string {
  const parts: string[] = []
  if (now.event !== null && now.event.seq !== heard.event) parts.push(now.event.text)
  if (now.moves !== heard.moves && now.card && !now.running) parts.push(now.card)
  if (now.ended && !heard.ended && now.result) parts.push(now.result.title, ...now.result.lines)
  else if (!now.ended) {
    if (now.status) parts.push(now.status)
    if (now.waiting) parts.push(now.waiting)
  }
  return sentences(parts)
}
