// A replay's moves in words (issue 14): the move list's lines and the step line under the board,
// from the record's moves, or in a game in play from what its table showed (its public frames).
import {
  type DuelView,
  type GameRecord,
  type HerrarnaState,
  type HerrarnaView,
  herrarnaView,
  type IdiotState,
  type IdiotView,
  idiotView,
  type KlockanState,
  type KlockanView,
  klockanView,
} from '@kortbord/engine'
import { describeEntry } from './history.ts'
import type { Dict, Lang } from './i18n.ts'
import type { RecordsDict } from './i18n-records.ts'
import { moveWords } from './move-words.ts'
import { herrarnaStepText, klockanNewsText } from './patience.ts'
import { duelFrameWords, type LiveReplay, type MoveLine } from './replay.ts'

/** What the words are made from: the record and its replay, and the page's language. */
export interface ReplaySource {
  readonly record: GameRecord | null
  /** A game in play: what its table showed (null for a finished game). */
  readonly live: LiveReplay | null
  /** A finished game's state after each move (null when it cannot be replayed). */
  readonly states: readonly unknown[] | null
  /** The first move one can step to (a live game's first kept frame). */
  readonly first: number
  readonly names: readonly string[]
  readonly r: RecordsDict
  readonly t: Dict
  readonly lang: Lang
}

/**
 * The patiences' moves are all "step" or "turn": the list says what each one did, from the
 * tables' views (a game in play: from its public frames; a finished one: from its replayed
 * states); null for another game.
 */
export function stepViewsOf(
  record: GameRecord | null,
  live: LiveReplay | null,
  states: readonly unknown[] | null,
): readonly unknown[] | null {
  const g = record?.game
  if (g !== 'herrarna' && g !== 'klockan') return null
  if (live !== null) return live.views
  const view = (s: unknown) =>
    g === 'herrarna'
      ? herrarnaView(s as HerrarnaState, 'spectator')
      : klockanView(s as KlockanState, 'spectator')
  return states?.map(view) ?? null
}

export class ReplayWords {
  constructor(
    private readonly src: ReplaySource,
    /** The patiences' tables after each move (stepViewsOf). */
    readonly stepViews: readonly unknown[] | null,
  ) {}

  #viewAt(step: number): unknown {
    return this.stepViews?.[step - (this.src.live !== null ? this.src.first : 0)]
  }

  /** Move `move` in words: Herrarna's from the table before it, Klockan's from the table after. */
  whatOf(move: number, text: string): string | null {
    const { record, live, t, lang } = this.src
    if (record?.game === 'herrarna') {
      const v = this.#viewAt(move - 1) as HerrarnaView | undefined
      return v ? herrarnaStepText(t, lang, v) : null
    }
    const v = this.#viewAt(move) as KlockanView | undefined
    // A turn (or a rescue) says where the card went: by the move's notation, or, in a game in
    // play (whose moves are not known yet), by the events of its frame.
    const turned =
      live !== null
        ? v?.recent.some((e) => e.t === 'turn' || e.t === 'rescue')
        : /^(turn|rescue)\b/.test(text)
    if (!v || !turned) return null
    return klockanNewsText(t, lang, v) || null
  }

  /**
   * A line's move in words (the list and the step line): from the record's move, or in a game in
   * play from its frames where they tell (a duel's); '' when not known.
   */
  wordsOf(l: MoveLine): string {
    const { record, live, states, first, r, lang } = this.src
    if (record === null) return ''
    if (l.move !== null)
      return moveWords(r, lang, record.game, l.seat, l.move, states?.[l.k - 1] ?? null)
    if (live === null || record.game !== 'duel') return ''
    const view = (step: number) => live.views[step - first] as DuelView | undefined
    return duelFrameWords(r, lang, view(l.k - 1), view(l.k), l.seat)
  }

  /**
   * Move `step`'s events as the table said them (Idiot's, which name the player: "Ann played five
   * of diamonds · Ann drew a card"), from the table after it; '' for another game.
   */
  newsAt(step: number): string {
    const { record, live, states, first } = this.src
    if (record?.game !== 'idiot') return ''
    if (live !== null) return this.#newsOf(live.views[step - first] ?? null)
    const s = states?.[step]
    return s ? this.#newsOf(idiotView(s as IdiotState, 'spectator')) : ''
  }

  /** A table's last move in words: the public events of the move (Idiot's), else none. */
  #newsOf(view: unknown): string {
    const recent = (view as { game?: string; recent?: unknown[] } | null)?.recent
    if ((view as { game?: string } | null)?.game !== 'idiot' || !Array.isArray(recent)) return ''
    const { names, r, lang } = this.src
    return recent
      .map((e) =>
        describeEntry(
          { t: 'game', e: e as IdiotView['recent'][number], seq: 0, at: 0 },
          names,
          r,
          lang,
        ),
      )
      .filter((x): x is string => x !== null)
      .join(' · ')
  }

  /** The step line: move `k` of `last`, and what `current` (its line, if listed) did. */
  stepText(current: MoveLine | null, k: number, last: number): string {
    const { names, r } = this.src
    if (current === null) return r.stepOf(k, last)
    // Said in words: the text form's "{bot}" reads as a placeholder left unfilled.
    const by = current.by ? `, ${current.by === 'timer' ? r.byTimer : r.byBot}` : ''
    // Idiot's: the move's public events in words (they name the player), else who moved.
    const news = this.newsAt(k)
    const step = this.stepViews !== null ? this.whatOf(k, current.text) : null
    const words = this.wordsOf(current)
    const what =
      news || `${names[current.seat]}${words ? ` ${words}` : ''}${step ? ` — ${step}` : ''}`
    return `${r.stepOf(k, last)}: ${what}${by}`
  }
}
