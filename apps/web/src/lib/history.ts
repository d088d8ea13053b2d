// The table's history in words (issue 14): every public entry of the log the server sends, as a
// sentence. The log is public by construction (I-15, A-15): nothing here looks at a view.
import type { IdiotEvent } from '@kortbord/engine'
import type { LogEntry } from '@kortbord/protocol/wire'
import { cardName, cardNames } from './card-names.ts'
import type { Lang } from './i18n.ts'
import type { RecordsDict } from './i18n-records.ts'
import { isTableEvent } from './table-news.ts'

/** A seat's name as the table knows it, or "#2" for a seat without one. */
const nameOf = (names: readonly string[], seat: number): string => names[seat] ?? `#${seat + 1}`

function describeGame(
  e: IdiotEvent,
  names: readonly string[],
  t: RecordsDict,
  lang: Lang,
): string | null {
  switch (e.t) {
    case 'swap':
      return t.evSwap(nameOf(names, e.seat), cardName(lang, e.fromHand), cardName(lang, e.fromRow))
    case 'ready':
      return t.evReady(nameOf(names, e.seat))
    case 'start':
      return t.evStart(nameOf(names, e.seat))
    case 'play':
      return e.from === 'row'
        ? t.evPlayedRow(nameOf(names, e.seat), cardNames(lang, e.cards))
        : t.evPlayed(nameOf(names, e.seat), cardNames(lang, e.cards))
    case 'uncover':
      return t.evUncover(nameOf(names, e.seat), cardName(lang, e.card))
    case 'burn':
      return t.evBurn(e.reason, e.count)
    case 'draw':
      return t.evDraw(nameOf(names, e.seat), e.count)
    case 'pickup':
      return t.evPickup(nameOf(names, e.seat), e.cards.length)
    case 'out':
      return t.evOut(nameOf(names, e.seat), e.place)
    case 'over':
      return t.evIdiot(nameOf(names, e.loser))
    default:
      return null
  }
}

/** One log entry in words, or null for an entry this page does not know (a newer server's). */
export function describeEntry(
  e: LogEntry,
  names: readonly string[],
  t: RecordsDict,
  lang: Lang,
): string | null {
  switch (e.t) {
    case 'game':
      return describeGame(e.e, names, t, lang)
    case 'started':
      return t.evStarted(e.gameNo)
    case 'joined':
      return t.evJoined(e.name)
    case 'left':
      return t.evLeft(e.name)
    case 'away':
      return t.evAway(e.name)
    case 'back':
      return t.evBack(e.name)
    case 'removed':
      return t.evRemoved(e.name)
    case 'timeout':
      return t.evTimeout(nameOf(names, e.seat), e.action)
    case 'best':
      return t.evBest(nameOf(names, e.seat), e.index + 1, e.best)
    case 'bot':
      return t.evBot(e.name, e.level, nameOf(names, e.by))
    case 'forfeit':
      return t.evForfeit(e.name, nameOf(names, e.by))
    case 'timer':
      return t.evTimer(e.turnSeconds)
    case 'rematch':
      return t.evRematch(e.name)
    case 'ended':
      if (names.length === 1) return e.winner === 0 ? t.evCameOut(e.gameNo) : t.evNotOut(e.gameNo)
      return e.winner === null ? t.evTied(e.gameNo) : t.evWon(e.gameNo, nameOf(names, e.winner))
    default:
      return null
  }
}

export interface HistoryLine {
  readonly seq: number
  readonly at: number
  readonly text: string
  /** A game began here: the panel sets it apart. */
  readonly start: boolean
  /**
   * The table says this itself as it happens (the Idiot table's line of the last move, the
   * table's news line), so the history's live region does not say it a second time.
   */
  readonly told: boolean
  /**
   * Half of a seat's quick away-and-back ({@link BLIP_MS}: a reload): the list and its latest
   * line leave it out, but the live region, which said the away as it came, says the back too.
   */
  readonly blip: boolean
}

/** Idiot events the table's own "last move" line says (a draw goes with its play). */
const TOLD_GAME = new Set<IdiotEvent['t']>([
  'play',
  'pickup',
  'burn',
  'out',
  'uncover',
  'over',
  'draw',
])

const toldByTable = (e: LogEntry): boolean =>
  (e.t === 'game' && TOLD_GAME.has(e.e.t)) || isTableEvent(e)

/**
 * The seats' names as they were at each entry of the log (oldest first), from the names the
 * seats have now and the entries that carry a seat's name: walking back, a seat had the name of
 * each such entry before it, and before someone sat down on it someone else had it (named when
 * the log says so, else "#n"). So an old line keeps the name of who played then.
 */
export function namesThen(log: readonly LogEntry[], now: readonly string[]): (readonly string[])[] {
  const out = new Array<readonly string[]>(log.length)
  let cur: readonly string[] = now
  for (let i = log.length - 1; i >= 0; i--) {
    out[i] = cur
    const e = log[i]!
    if (!('name' in e) || !('seat' in e) || typeof e.seat !== 'number') continue
    const before = e.t === 'joined' ? `#${e.seat + 1}` : e.name
    if (cur[e.seat] !== before) {
      const next = cur.slice()
      next[e.seat] = before
      cur = next
    }
  }
  return out
}

/**
 * A seat away and back again within this long is a reload or a network blip, not news: the
 * history's list leaves both lines out (QA, stop 32: every reload added "is away" and "is back").
 */
export const BLIP_MS = 15_000

/** The indices of away/back pairs of one seat at most {@link BLIP_MS} apart. */
function blips(log: readonly LogEntry[]): Set<number> {
  const out = new Set<number>()
  const away = new Map<number, number>()
  log.forEach((e, i) => {
    if (e.t === 'away') away.set(e.seat, i)
    else if (e.t === 'back') {
      const j = away.get(e.seat)
      if (j !== undefined && e.at - log[j]!.at <= BLIP_MS) out.add(i).add(j)
      away.delete(e.seat)
    }
  })
  return out
}

/**
 * The log as lines of words, oldest first (entries without words are left out; a seat's quick
 * away-and-back is marked `blip`).
 */
export function historyLines(
  log: readonly LogEntry[],
  names: readonly string[],
  t: RecordsDict,
  lang: Lang,
): HistoryLine[] {
  const then = namesThen(log, names)
  const quick = blips(log)
  const out: HistoryLine[] = []
  log.forEach((e, i) => {
    const text = describeEntry(e, then[i]!, t, lang)
    if (text === null) return
    const start = e.t === 'started'
    out.push({ seq: e.seq, at: e.at, text, start, told: toldByTable(e), blip: quick.has(i) })
  })
  return out
}

/**
 * What a live region should say after an update: the lines newer than `seen` (the last seq it
 * announced), or nothing on the first look (what was there before is not news); never a line the
 * table says itself (`told`), so that nothing is heard twice.
 */
export function newsSince(lines: readonly HistoryLine[], seen: number | null): string {
  if (seen === null) return ''
  return lines
    .filter((l) => l.seq > seen && !l.told)
    .map((l) => l.text)
    .join('. ')
}
