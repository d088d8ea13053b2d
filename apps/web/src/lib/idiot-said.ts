// What a screen reader hears at an Idiot table (QA: with bots, every move changed two live
// regions, "Bot 1 played …" and "Bot 2's turn", about three announcements a second, faster than
// they can be spoken). The moves come in batches: what others play is gathered and said in one
// announcement once the table has been quiet for a moment, or at once when it is the reader's
// turn (then ending with "Your turn"), so a run of bot moves is one sentence, not six.

import type { IdiotEvent } from '@kortbord/engine'
import { sentences } from './announce.ts'
import { cardName, cardNames } from './card-names.ts'
import type { Dict, Lang } from './i18n.ts'

/** Whose table it is and in which words: `me` is the seat played on this page, or null. */
export interface Wording {
  readonly t: Dict
  readonly lang: Lang
  /** Who played each seat of the game. */
  readonly names: readonly string[]
  readonly me: number | null
}

/**
 * What a move did, in words, for the last-move line and the live region; null for what is not
 * said (a swap, a draw). With `you`, the reader's own moves are said to them ("You played …",
 * QA: the live region said "Astrid played …" to Astrid); the line on the screen names everyone.
 */
export function eventWords(e: IdiotEvent, w: Wording, you = false): string | null {
  const { t } = w
  if (e.t === 'over') return e.loser === w.me ? t.youAreIdiot : t.idiotIs(w.names[e.loser]!)
  if (!('seat' in e)) return null
  if (you && e.seat === w.me) return ownWords(e, w)
  const who = w.names[e.seat]!
  switch (e.t) {
    case 'burn':
      return t.logBurn(who)
    case 'pickup':
      return t.logPickup(who, e.cards.length)
    case 'out':
      return t.logOut(who, e.place)
    case 'uncover':
      return t.logUncover(who, cardName(w.lang, e.card))
    case 'play':
      return t.logPlayed(who, cardNames(w.lang, e.cards))
    default:
      return null
  }
}

/** The reader's own move, said to them. */
function ownWords(e: IdiotEvent, { t, lang }: Wording): string | null {
  switch (e.t) {
    case 'burn':
      return t.youBurned
    case 'pickup':
      return t.youPickedUp(e.cards.length)
    case 'out':
      return t.youAreOut(e.place)
    case 'uncover':
      return t.youUncovered(cardName(lang, e.card))
    case 'play':
      return t.youPlayed(cardNames(lang, e.cards))
    default:
      return null
  }
}

type Timers = {
  set: (f: () => void, ms: number) => unknown
  clear: (id: unknown) => void
}

const realTimers: Timers = {
  set: (f, ms) => setTimeout(f, ms),
  clear: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
}

/** How long the table must be quiet before the gathered moves are said. */
export const QUIET_MS = 1500
/**
 * A table that is never quiet (fast bots, watched: a move every 30 ms) is still said this often,
 * and only its latest {@link MAX_LINES} moves: the text stays short and fresh (QA: a spectator's
 * region grew to the whole game, 111 moves, as one text).
 */
export const MAX_WAIT_MS = 6000
export const MAX_LINES = 8

export class MoveNews {
  private pending: string[] = []
  private tail = ''
  /** The tail said last: said again only with moves before it (a bot's swap says nothing new). */
  private saidTail = ''
  private timer: unknown = null
  /** Since the first move gathered: says it within MAX_WAIT_MS however busy the table. */
  private deadline: unknown = null

  constructor(
    private readonly say: (text: string) => void,
    private readonly quietMs = QUIET_MS,
    private readonly timers: Timers = realTimers,
  ) {}

  /**
   * A move's words (`lines`, may be none) and what the table says after it (`tail`: whose turn,
   * or the result). `now`: say it at once (the reader's turn, the game's end), else once quiet.
   */
  push(lines: readonly string[], tail: string, now: boolean): void {
    this.pending.push(...lines)
    if (this.pending.length > MAX_LINES) this.pending.splice(0, this.pending.length - MAX_LINES)
    this.tail = tail
    if (this.timer !== null) this.timers.clear(this.timer)
    this.timer = null
    if (now) {
      this.flush()
      return
    }
    this.timer = this.timers.set(() => this.flush(), this.quietMs)
    this.deadline ??= this.timers.set(() => this.flush(), MAX_WAIT_MS)
  }

  /** Says what was gathered, if anything, with the latest tail; then starts afresh. */
  flush(): void {
    this.clearTimers()
    const quiet = this.pending.length === 0 && this.tail === this.saidTail
    const words = [...this.pending, this.tail].filter((s) => s !== '')
    this.saidTail = this.tail
    this.pending = []
    this.tail = ''
    if (words.length > 0 && !quiet) this.say(sentences(words))
  }

  /** Forgets what was gathered (the page goes, or the game is another one). */
  stop(): void {
    this.clearTimers()
    this.pending = []
    this.tail = ''
  }

  private clearTimers(): void {
    if (this.timer !== null) this.timers.clear(this.timer)
    if (this.deadline !== null) this.timers.clear(this.deadline)
    this.timer = null
    this.deadline = null
  }
}
