// Hints at Idioten alone (docs/rules.md, A-17 hints): the player of a patience played alone may
// ask which move leaves the fewest cards, as far as they can know (engine: acesUpHint). A match
// for two has none: the hint would be a second player at one seat. The page works it out from
// the player's own view, in a module loaded on first use.
import type { AcesUpMove, AcesUpThought, AcesUpView, AcesUpWeighed } from '@kortbord/engine'
import { cardName } from './card-names.ts'
import type { Lang } from './i18n.ts'
import type { TableDict } from './i18n-table.ts'

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

const sameMove = (a: AcesUpMove, b: AcesUpMove): boolean => JSON.stringify(a) === JSON.stringify(b)

/**
 * How much the choice matters: the cards the chosen move left on average in the playouts, and
 * the others' (null when nothing was played out: a single legal move).
 */
export function acesHintLeft(thought: AcesUpThought, lang: Lang, tt: TableDict): string | null {
  const chosen = thought.weighed.find((w) => sameMove(w.move, thought.move))
  const others = thought.weighed.filter((w) => w !== chosen)
  if (chosen === undefined || others.length === 0) return null
  const f = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 })
  const means = others.map((w: AcesUpWeighed) => w.mean)
  const lo = f.format(Math.min(...means))
  const hi = f.format(Math.max(...means))
  return tt.hintLeft(
    chosen.tries,
    f.format(chosen.mean),
    others.length,
    lo === hi ? lo : `${lo}–${hi}`,
  )
}

/** Works out the hint for the player's view, in a module loaded on first use. */
export async function askAcesHint(
  view: AcesUpView,
  moves: readonly AcesUpMove[],
): Promise<AcesUpThought | null> {
  const { acesHint } = await import('./aces-hint-bot.ts')
  return acesHint(view, moves)
}
