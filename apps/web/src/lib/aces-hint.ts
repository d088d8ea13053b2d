// Hints at Idioten alone (docs/rules.md, A-17 hints): the player of a patience played alone may
// ask which move leaves the fewest cards, as far as they can know (engine: acesUpHint). A match
// for two has none: the hint would be a second player at one seat. The page works it out from
// the player's own view, in a Web Worker loaded on first use.
import {
  type AcesUpMove,
  type AcesUpThought,
  type AcesUpView,
  type AcesUpWeighed,
  acesUpChosen,
} from '@kortbord/engine'
import type { AcesHintDone, AcesHintRequest } from './aces-hint-worker.ts'
import { cardName } from './card-names.ts'
import type { Lang } from './i18n.ts'
import type { TableDict } from './i18n-table.ts'
import { type WorkerAsker, type WorkerLanes, workerLanes, workOff } from './worker-call.ts'

/** Whether the Hint button is offered: to the one seated player of a patience played alone. */
export function acesHintOffered(alone: boolean, me: number | null, botPlaying: boolean): boolean {
  return alone && me !== null && !botPlaying
}

/** What the hint says, naming the card (a screen reader hears the same). */
export function acesHintWords(v: AcesUpView, m: AcesUpMove, lang: Lang, tt: TableDict): string {
  const top = (pile: number) => cardName(lang, v.piles[pile]!.at(-1)!)
  switch (m.type) {
    case 'discard':
      return tt.hintDiscard(top(m.pile))
    case 'move':
      return tt.hintMoveTo(top(m.from), m.to + 1)
    case 'deal':
      return tt.hintDeal
    default:
      return tt.hintFinish
  }
}

/**
 * What completes a hint's move, for the keyboard's focus: the card to discard, the gap to move
 * the picked card into, Deal or End round.
 */
export function acesCompleting(m: AcesUpMove | null): string {
  if (m?.type === 'discard') return `[data-testid="my-board"] [data-testid="top-${m.pile}"]`
  if (m?.type === 'move') return `[data-testid="my-board"] [data-testid="empty-${m.to}"]`
  return `[data-testid="${m?.type === 'finish' ? 'finish' : 'deal'}"]`
}

/**
 * How much the choice matters: the cards the chosen move left on average in the playouts, and
 * the others' (null when nothing was played out: a single legal move).
 */
export function acesHintLeft(thought: AcesUpThought, lang: Lang, tt: TableDict): string | null {
  const chosen = acesUpChosen(thought)
  const others = thought.weighed.filter((w) => w !== chosen)
  if (chosen === undefined || others.length === 0) return null
  const f = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 })
  const means = others.map((w: AcesUpWeighed) => w.mean)
  const lo = f.format(Math.min(...means))
  const hi = f.format(Math.max(...means))
  const text = tt.hintLeft(
    chosen.tries,
    f.format(chosen.mean),
    others.length,
    lo === hi ? lo : `${lo}–${hi}`,
  )
  // The plain move stands unless another is clearly better (engine: acesUpHint): say so when a
  // move it did not choose left fewer cards.
  return Math.min(...means) < chosen.mean ? `${text} ${tt.hintNotClearly}` : text
}

/** How long the page waits for a hint's worker before it gives up (the worker stops at 300 ms). */
const HINT_LIMIT_MS = 10_000

const hintWorker = () =>
  new Worker(new URL('./aces-hint-worker.ts', import.meta.url), { type: 'module' })

/** Hint workers kept for many hints (a replay's review of every move), side by side. */
export const hintLanes = (): WorkerLanes => workerLanes(hintWorker)

/**
 * Works out the hint for the player's view in a Web Worker (lib/aces-hint-worker.ts), so the
 * page never waits on the playouts: in `kept`, else in a worker of its own; rejects if the worker
 * fails or does not answer.
 */
export async function askAcesHint(
  view: AcesUpView,
  moves: readonly AcesUpMove[],
  kept?: WorkerAsker,
): Promise<AcesUpThought | null> {
  const req: AcesHintRequest = { view, moves }
  const r = await workOff<AcesHintDone>(hintWorker, req, HINT_LIMIT_MS, kept)
  return r.thought
}
