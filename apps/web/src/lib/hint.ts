// Hints at an Idiot table (docs/rules.md, "At the table (Idiot)"): a seated player may ask what
// the hard computer player would do in their seat, while every other seat of the table is played
// by a computer player (a practice table, or one whose people have all handed their seats over),
// or at a table its host created with hints for every player (a table of learners). Elsewhere
// among people a hint would be a second player at one seat, so it is not offered there.
import {
  type HardThought,
  type IdiotMove,
  type IdiotView,
  lossRate,
  type Weighed,
} from '@kortbord/engine'
import type { SeatInfo, TableStatus } from '@kortbord/protocol/wire'
import { cardName } from './card-names.ts'
import type { HintDone, HintRequest } from './hint-worker.ts'
import type { Lang } from './i18n.ts'
import { andList, type TableDict } from './i18n-table.ts'
import { type WorkerAsker, type WorkerLanes, workerLanes, workOff } from './worker-call.ts'

/**
 * Whether the Hint button is offered to the player in seat `me` (null: watching): at a table
 * created with hints for every player, else while every other seat is a computer player.
 */
export function hintOffered(
  info: {
    readonly seats: readonly Pick<SeatInfo, 'bot'>[]
    readonly status: TableStatus
    readonly settings: object
  },
  me: number | null,
  botPlaying: boolean,
): boolean {
  if (me === null || botPlaying || info.status !== 'playing') return false
  if ('hints' in info.settings && info.settings.hints === true) return true
  return info.seats.every((s, i) => i === me || s.bot !== null)
}

/** What a hint says, in words that name the cards (the screen reader hears the same). */
export function hintWords(m: IdiotMove, lang: Lang, tt: TableDict): string {
  switch (m.type) {
    case 'play':
      return tt.hintPlay(
        andList(
          lang,
          m.cards.map((c) => cardName(lang, c)),
        ),
      )
    case 'pickup':
      return tt.hintPickUp
    case 'swap':
      return tt.hintSwap(cardName(lang, m.hand), cardName(lang, m.faceUp))
    case 'ready':
      return tt.hintReady
  }
}

/** A candidate's share of lost playouts, in whole percent, as the page says it. */
export const lostShare = (w: Weighed): number => Math.round(100 * lossRate(w))

/** The playouts of the move the hint chose (undefined when nothing was weighed). */
export function chosenOf(thought: HardThought): Weighed | undefined {
  const key = (m: IdiotMove) => JSON.stringify(m)
  return thought.weighed.find((w) => key(w.move) === key(thought.move))
}

/**
 * How much the hint's choice matters, from the bot's playouts: the share of games its move lost
 * and the others' (null when nothing was played out: the swap, or a single choice).
 */
export function hintOdds(thought: HardThought, tt: TableDict): string | null {
  const chosen = chosenOf(thought)
  const others = thought.weighed.filter((w) => w !== chosen)
  if (chosen === undefined || others.length === 0) return null
  const shares = others.map(lostShare)
  const lo = Math.min(...shares)
  const hi = Math.max(...shares)
  const n = thought.weighed.reduce((sum, w) => sum + w.tries, 0)
  const mine = lostShare(chosen)
  const text = tt.hintOdds(n, mine, others.length, lo === hi ? `${lo}` : `${lo}–${hi}`)
  // The bot keeps its plain choice unless another is clearly better (bots.ts): say so when a
  // move it did not choose lost fewer games.
  return lo < mine ? `${text} ${tt.hintNotClearly}` : text
}

/** How long the page waits for a hint's worker before it gives up (the bot stops at 300 ms). */
const HINT_LIMIT_MS = 10_000

const hintWorker = () =>
  new Worker(new URL('./hint-worker.ts', import.meta.url), { type: 'module' })

/** Hint workers kept for many hints (a replay's review of every move), side by side. */
export const idiotHintLanes = (): WorkerLanes => workerLanes(hintWorker)

/**
 * The hard bot's move for the player's view, worked out in a Web Worker (lib/hint-worker.ts) so
 * that the page never waits on the playouts: in `kept`, else in a worker of its own; rejects if
 * the worker fails or does not answer. The bot's code is not part of the page until then.
 */
export async function askHint(view: IdiotView, kept?: WorkerAsker): Promise<HardThought | null> {
  const req: HintRequest = { view }
  const r = await workOff<HintDone>(hintWorker, req, HINT_LIMIT_MS, kept)
  return r.thought
}
