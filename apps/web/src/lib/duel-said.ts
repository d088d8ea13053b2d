// What a screen reader hears of the Aces Up games of a duel (QA pass 2, items 5 and 6): the
// player's own moves (a discard, a move to an empty pile, what a deal brought, an undo, a round
// beginning) in a polite live region, and what a top card can do. A spectator hears both
// players' moves, each named. A game the viewer may not see (A-15: the same deal, not yet played
// by them) is never told: its moves are not in the view, and it is never described from an older
// view either. The words live here, apart from i18n.ts: only the duel's table (a lazy chunk)
// needs them, so the first page load carries none of it.
import type { AcesUpEvent, AcesUpView, Card, DuelHiddenGame } from '@kortbord/engine'
import { cardName, cardNames } from './card-names.ts'
import type { Lang } from './i18n.ts'

const en = {
  discarded: (card: string) => `Discarded ${card}.`,
  moved: (card: string, pile: number) => `Moved ${card} to pile ${pile}.`,
  dealt: (cards: string) => `New cards: ${cards}.`,
  undone: (card: string, pile: number) => `Taken back: ${card} is on pile ${pile} again.`,
  roundBegins: (n: number, cards: string) => `Round ${n} begins: ${cards}.`,
  /** A spectator's news names whose it is. */
  by: (name: string, text: string) => `${name}: ${text}`,
  /** Said after a top card's name: what tapping it does. */
  canDiscard: 'can be discarded',
  canMove: 'can be moved to an empty pile',
}
export type DuelSaid = typeof en

const sv: DuelSaid = {
  discarded: (card) => `Kastade ${card}.`,
  moved: (card, pile) => `Flyttade ${card} till hög ${pile}.`,
  dealt: (cards) => `Nya kort: ${cards}.`,
  undone: (card, pile) => `Ångrat: ${card} ligger på hög ${pile} igen.`,
  roundBegins: (n, cards) => `Giv ${n} börjar: ${cards}.`,
  by: (name, text) => `${name}: ${text}`,
  canDiscard: 'kan kastas',
  canMove: 'kan flyttas till en tom hög',
}

const nb: DuelSaid = {
  discarded: (card) => `Kastet ${card}.`,
  moved: (card, pile) => `Flyttet ${card} til bunke ${pile}.`,
  dealt: (cards) => `Nye kort: ${cards}.`,
  undone: (card, pile) => `Angret: ${card} ligger på bunke ${pile} igjen.`,
  roundBegins: (n, cards) => `Runde ${n} begynner: ${cards}.`,
  by: (name, text) => `${name}: ${text}`,
  canDiscard: 'kan kastes',
  canMove: 'kan flyttes til en tom bunke',
}

export const DUEL_SAID: Readonly<Record<Lang, DuelSaid>> = { en, sv, nb }

/**
 * Where a reader's news of one player's game stands: `undefined` before the table first showed
 * (nothing of what was already there is news), null while no game of theirs is visible (none in
 * play, or one hidden by A-15), else the visible game and its move count.
 */
export type Seen = { readonly index: number; readonly moves: number } | null | undefined

/** One piece of news: a move of the game (its latest event), or a round beginning. */
export type GameNews =
  | { readonly key: string; readonly event: AcesUpEvent }
  | { readonly key: string; readonly round: number; readonly cards: readonly Card[] }

/**
 * What is new in a player's game: `game` is their game in play as the view shows it (`index` its
 * number from 0, their results so far), `seen` what was seen of it before. `start`: the table
 * has just shown and the match just began, so its first round beginning is news (the player's
 * own game only). Returns what is seen now and the news, if any.
 */
export function gameNews(
  seen: Seen,
  game: AcesUpView | DuelHiddenGame | null,
  index: number,
  start = false,
): { seen: Seen; news: GameNews | null } {
  if (game === null || 'hidden' in game) return { seen: null, news: null }
  const now = { index, moves: game.moves }
  const key = `${index}:${game.moves}`
  if (seen && seen.index === index) {
    if (game.moves <= seen.moves) return { seen: now, news: null }
    const event = game.recent.filter((e) => e.t !== 'end').at(-1)
    return { seen: now, news: event ? { key, event } : null }
  }
  // A game that appears at its beginning: the round has just been dealt. A game that appears
  // later on (a hidden one shown, a reconnection) has no news: its last move is old.
  if (game.moves === 0 && (seen !== undefined || (start && index === 0))) {
    const deal = game.recent.find((e) => e.t === 'deal')
    const cards = deal?.t === 'deal' ? deal.cards : game.piles.flatMap((p) => p.slice(-1))
    return { seen: now, news: { key, round: index + 1, cards } }
  }
  return { seen: now, news: null }
}

/** News in words; `name` is whose game it is, for a spectator (null: the reader's own). */
export function newsText(news: GameNews, lang: Lang, name: string | null): string {
  const w = DUEL_SAID[lang]
  const text =
    'round' in news
      ? w.roundBegins(news.round, cardNames(lang, news.cards))
      : eventText(w, lang, news.event)
  return name === null || text === '' ? text : w.by(name, text)
}

function eventText(w: DuelSaid, lang: Lang, e: AcesUpEvent): string {
  switch (e.t) {
    case 'discard':
      return w.discarded(cardName(lang, e.card))
    case 'move':
      return w.moved(cardName(lang, e.card), e.to + 1)
    case 'deal':
      return w.dealt(cardNames(lang, e.cards))
    case 'undo':
      // The card goes back where it came from.
      return w.undone(
        cardName(lang, e.of.card),
        (e.of.type === 'discard' ? e.of.pile : e.of.from) + 1,
      )
    default:
      return ''
  }
}
