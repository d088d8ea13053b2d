/**
 * Idioten — the solitaire Aces Up, one game ("giv") (docs/rules.md A-1 … ).
 *
 * Generalised so that short decks work (tests, the solver's brute-force check): the layout is
 * the first min(k, n) cards, and every deal gives one card to each pile from the left until the
 * stock runs out — which is exactly A-6 for 52 cards on 4 or 5 piles and 104 cards on 8.
 */

import {
  ACES_UP_PILES,
  type AcesUpOptions,
  type AcesUpPiles,
  decksFor,
  UNDO_SETTINGS,
  type UndoSetting,
} from './aces-up-options.ts'
import { type Card, fullDeck, isCard, RANK_ACE, rankOf, suitOf } from './cards.ts'
import { fairShuffle } from './fair.ts'
import type { Deal, GameDef, Seat, Viewer } from './game.ts'
import { err, ok, type Result, type RuleError } from './result.ts'
import { Rng } from './rng.ts'

export * from './aces-up-options.ts'

/** The action an undo would take back. Cleared by a deal. */
export type AcesUpLast =
  | { readonly type: 'discard'; readonly pile: number; readonly card: Card }
  | { readonly type: 'move'; readonly from: number; readonly to: number; readonly card: Card }

export type AcesUpEvent =
  | { readonly t: 'discard'; readonly pile: number; readonly card: Card }
  | { readonly t: 'move'; readonly from: number; readonly to: number; readonly card: Card }
  | { readonly t: 'deal'; readonly cards: readonly Card[] }
  | { readonly t: 'undo'; readonly of: AcesUpLast }
  | {
      readonly t: 'end'
      readonly left: number
      readonly won: boolean
      readonly by: 'rule' | 'player'
    }

export interface AcesUpState {
  readonly game: 'aces-up'
  readonly pileCount: AcesUpPiles
  readonly undo: UndoSetting
  /** Each pile bottom first; the last card is the top. Everything here is public. */
  readonly piles: readonly (readonly Card[])[]
  /** The stock; `stock[0]` is dealt next. Secret from everyone. */
  readonly stock: readonly Card[]
  /** The discard heap, in order. */
  readonly discard: readonly Card[]
  /** The deck order this game was dealt from; public only once the game is over. */
  readonly deck: readonly Card[]
  /** How many aces the deck holds: the cards left in a won game. */
  readonly aces: number
  readonly undoUsed: boolean
  readonly last: AcesUpLast | null
  readonly ended: boolean
  readonly deals: number
  readonly moves: number
  /** The events of the last move. */
  readonly recent: readonly AcesUpEvent[]
}

export type AcesUpMove =
  | { readonly type: 'discard'; readonly pile: number }
  | { readonly type: 'move'; readonly from: number; readonly to: number }
  | { readonly type: 'deal' }
  | { readonly type: 'undo' }
  | { readonly type: 'finish' }

export type AcesUpErrorCode =
  | 'BAD_MOVE'
  | 'NOT_A_SEAT'
  | 'GAME_OVER'
  | 'BAD_PILE'
  | 'PILE_EMPTY'
  | 'NO_HIGHER_CARD'
  | 'NOT_EMPTY'
  | 'SAME_PILE'
  | 'STOCK_EMPTY'
  | 'STOCK_NOT_EMPTY'
  | 'UNDO_NOT_ALLOWED'
  | 'UNDO_USED'
  | 'NOTHING_TO_UNDO'

export type AcesUpError = RuleError<AcesUpErrorCode>

export interface AcesUpOutcome {
  /** cards left on the table. */
  readonly left: number
  /** only the aces remain. */
  readonly won: boolean
  /** aces on top of a pile. */
  readonly freeAces: number
  /** Aces in the deck (4, or 8 with two decks). */
  readonly aces: number
  readonly decks: 1 | 2
}

export interface AcesUpView {
  readonly game: 'aces-up'
  readonly viewer: Viewer
  readonly pileCount: AcesUpPiles
  readonly undo: UndoSetting
  readonly piles: readonly (readonly Card[])[]
  readonly stockCount: number
  /** How many cards the next deal lays (the last deal with 5 piles lays 2, A-6). */
  readonly nextDeal: number
  readonly discard: readonly Card[]
  readonly undoUsed: boolean
  /** Whether the undo move is available now. */
  readonly canUndo: boolean
  readonly ended: boolean
  readonly deals: number
  readonly moves: number
  readonly recent: readonly AcesUpEvent[]
  readonly outcome: AcesUpOutcome | null
  /** The whole deal order, once the game is over (every card has then been dealt openly). */
  readonly deck: readonly Card[] | null
}

// ---------------------------------------------------------------------------------------------
// Setup

export function setupAcesUp(opts: AcesUpOptions, seats: number, deal: Deal): AcesUpState {
  if (seats !== 1) throw new RangeError('Aces Up is a game for one player (A-10 pairs two games)')
  const pileCount = opts.piles ?? 4
  if (!ACES_UP_PILES.includes(pileCount)) throw new RangeError(`piles must be 4, 5 or 8 (A-2)`)
  const undo = opts.undo ?? 'none'
  if (!UNDO_SETTINGS.includes(undo)) throw new RangeError(`unknown undo setting ${String(undo)}`)
  const decks = decksFor(pileCount)
  let deck: readonly Card[]
  if ('seed' in deal) {
    deck = Rng.seeded(deal.seed).shuffle(fullDeck(decks))
  } else if ('fair' in deal) {
    deck = fairShuffle(fullDeck(decks), deal.fair, 'aces-up')
  } else {
    deck = deal.deck.slice()
    const seen = new Set<Card>()
    for (const c of deck) {
      if (!isCard(c, decks) || seen.has(c)) throw new RangeError(`bad or repeated card: ${c}`)
      seen.add(c)
    }
  }
  return startAcesUp(deck, pileCount, undo)
}

/** lays out the first cards of `deck`, one per pile from the left. */
export function startAcesUp(
  deck: readonly Card[],
  pileCount: AcesUpPiles,
  undo: UndoSetting,
): AcesUpState {
  const first = deck.slice(0, pileCount)
  const piles = Array.from({ length: pileCount }, (_, i) => (i < first.length ? [first[i]!] : []))
  return autoEnd({
    game: 'aces-up',
    pileCount,
    undo,
    piles,
    stock: deck.slice(first.length),
    discard: [],
    deck,
    aces: deck.filter((c) => rankOf(c) === RANK_ACE).length,
    undoUsed: false,
    last: null,
    ended: false,
    deals: 0,
    moves: 0,
    recent: [{ t: 'deal', cards: first }],
  })
}

// ---------------------------------------------------------------------------------------------
// Queries

const top = (pile: readonly Card[]): Card | undefined => pile[pile.length - 1]

/** the top of pile `i` may be discarded: another top has its suit and a higher rank. */
export function canDiscard(piles: readonly (readonly Card[])[], i: number): boolean {
  const c = top(piles[i] ?? [])
  if (c === undefined) return false
  const s = suitOf(c)
  const r = rankOf(c)
  for (let j = 0; j < piles.length; j++) {
    if (j === i) continue
    const o = top(piles[j]!)
    // Strictly higher: with two decks an equal card allows no discard.
    if (o !== undefined && suitOf(o) === s && rankOf(o) > r) return true
  }
  return false
}

/** is the undo move available now? */
export function canUndo(s: AcesUpState): boolean {
  if (s.ended || s.undoUsed || s.last === null) return false
  if (s.undo === 'both') return true
  if (s.undo === 'discards') return s.last.type === 'discard'
  if (s.undo === 'moves') return s.last.type === 'move'
  return false
}

/** whether any discard, or any move from a pile of two or more cards to an empty pile, is possible. */
export function hasProgress(piles: readonly (readonly Card[])[]): boolean {
  let empty = false
  let tall = false
  for (let i = 0; i < piles.length; i++) {
    const n = piles[i]!.length
    if (n === 0) empty = true
    if (n >= 2) tall = true
    if (canDiscard(piles, i)) return true
  }
  return empty && tall
}

export const cardsLeft = (piles: readonly (readonly Card[])[]): number =>
  piles.reduce((n, p) => n + p.length, 0)

/** aces that are the top card of a pile (a lone ace included). */
export const freeAces = (piles: readonly (readonly Card[])[]): number =>
  piles.filter((p) => p.length > 0 && rankOf(p[p.length - 1]!) === RANK_ACE).length

/** Cards the next deal lays: one per pile from the left, as far as the stock goes. */
export const nextDealSize = (s: Pick<AcesUpState, 'stock' | 'pileCount'>): number =>
  Math.min(s.pileCount, s.stock.length)

export function acesUpLegalMoves(s: AcesUpState, seat: Seat = 0): AcesUpMove[] {
  if (seat !== 0 || s.ended) return []
  return movesOf(s.piles, s.stock.length, canUndo(s))
}

/** The same legal moves from a view (a client highlighting moves; everything needed is public). */
export function acesUpLegalMovesFromView(v: AcesUpView): AcesUpMove[] {
  if (v.ended) return []
  return movesOf(v.piles, v.stockCount, v.canUndo)
}

function movesOf(piles: readonly (readonly Card[])[], stock: number, undo: boolean): AcesUpMove[] {
  const out: AcesUpMove[] = []
  const n = piles.length
  for (let i = 0; i < n; i++) if (canDiscard(piles, i)) out.push({ type: 'discard', pile: i })
  for (let to = 0; to < n; to++) {
    if (piles[to]!.length !== 0) continue
    for (let from = 0; from < n; from++) {
      if (from !== to && piles[from]!.length > 0) out.push({ type: 'move', from, to })
    }
  }
  if (stock > 0) out.push({ type: 'deal' })
  else out.push({ type: 'finish' })
  if (undo) out.push({ type: 'undo' })
  return out
}

// ---------------------------------------------------------------------------------------------
// Apply

type R = Result<AcesUpState, AcesUpError>

const isPile = (s: AcesUpState, i: unknown): i is number =>
  typeof i === 'number' && Number.isInteger(i) && i >= 0 && i < s.piles.length

function setPiles(
  piles: readonly (readonly Card[])[],
  changes: Record<number, readonly Card[]>,
): (readonly Card[])[] {
  const out = piles.slice()
  for (const [k, v] of Object.entries(changes)) out[Number(k)] = v
  return out
}

/**
 * the game ends by itself once the stock is empty and nothing can progress — unless the
 * player could still take back their last action, who then ends it (finish) or undoes.
 */
function autoEnd(s: AcesUpState): AcesUpState {
  if (s.ended || s.stock.length > 0 || hasProgress(s.piles) || canUndo(s)) return s
  return endGame(s, 'rule')
}

function endGame(s: AcesUpState, by: 'rule' | 'player'): AcesUpState {
  const left = cardsLeft(s.piles)
  return {
    ...s,
    ended: true,
    last: null,
    recent: s.recent.concat([{ t: 'end', left, won: left === s.aces, by }]),
  }
}

export function applyAcesUp(s: AcesUpState, seat: Seat, m: AcesUpMove): R {
  if (seat !== 0) return err('NOT_A_SEAT', 'Aces Up has one seat')
  if (typeof m !== 'object' || m === null) return err('BAD_MOVE', 'a move must be an object')
  if (s.ended) return err('GAME_OVER', 'this game is over')
  const base = { ...s, moves: s.moves + 1 }
  switch (m.type) {
    case 'discard': {
      if (!isPile(s, m.pile)) return err('BAD_PILE', 'no such pile')
      const pile = s.piles[m.pile]!
      const card = top(pile)
      if (card === undefined) return err('PILE_EMPTY', 'that pile is empty')
      if (!canDiscard(s.piles, m.pile)) {
        return err(
          'NO_HIGHER_CARD',
          'a card is discarded only when another pile shows a higher card of its suit (A-4)',
        )
      }
      return ok(
        autoEnd({
          ...base,
          piles: setPiles(s.piles, { [m.pile]: pile.slice(0, -1) }),
          discard: s.discard.concat([card]),
          last: { type: 'discard', pile: m.pile, card },
          recent: [{ t: 'discard', pile: m.pile, card }],
        }),
      )
    }
    case 'move': {
      if (!isPile(s, m.from) || !isPile(s, m.to)) return err('BAD_PILE', 'no such pile')
      if (m.from === m.to) return err('SAME_PILE', 'a card moves to another pile')
      const src = s.piles[m.from]!
      const card = top(src)
      if (card === undefined) return err('PILE_EMPTY', 'that pile is empty')
      if (s.piles[m.to]!.length !== 0)
        return err('NOT_EMPTY', 'a card can only be moved to an empty pile (A-5)')
      return ok(
        autoEnd({
          ...base,
          piles: setPiles(s.piles, { [m.from]: src.slice(0, -1), [m.to]: [card] }),
          last: { type: 'move', from: m.from, to: m.to, card },
          recent: [{ t: 'move', from: m.from, to: m.to, card }],
        }),
      )
    }
    case 'deal': {
      if (s.stock.length === 0) return err('STOCK_EMPTY', 'the stock is empty')
      const k = nextDealSize(s)
      const cards = s.stock.slice(0, k)
      const piles = s.piles.map((p, i) => (i < k ? p.concat([cards[i]!]) : p))
      return ok(
        autoEnd({
          ...base,
          piles,
          stock: s.stock.slice(k),
          last: null, // no undo across a deal
          deals: s.deals + 1,
          recent: [{ t: 'deal', cards }],
        }),
      )
    }
    case 'undo': {
      if (s.undo === 'none') return err('UNDO_NOT_ALLOWED', 'this table plays without undo (A-9)')
      if (s.undoUsed) return err('UNDO_USED', 'the one undo of this game is used (A-9)')
      const last = s.last
      if (last === null)
        return err('NOTHING_TO_UNDO', 'nothing to take back since the last deal (A-9)')
      if (!canUndo(s)) {
        return err('UNDO_NOT_ALLOWED', `this table allows undoing ${s.undo} only (A-9)`)
      }
      const piles =
        last.type === 'discard'
          ? setPiles(s.piles, { [last.pile]: s.piles[last.pile]!.concat([last.card]) })
          : setPiles(s.piles, {
              [last.to]: s.piles[last.to]!.slice(0, -1),
              [last.from]: s.piles[last.from]!.concat([last.card]),
            })
      return ok(
        autoEnd({
          ...base,
          piles,
          discard: last.type === 'discard' ? s.discard.slice(0, -1) : s.discard,
          undoUsed: true,
          last: null,
          recent: [{ t: 'undo', of: last }],
        }),
      )
    }
    case 'finish': {
      if (s.stock.length > 0)
        return err('STOCK_NOT_EMPTY', 'the game can be ended once the stock is empty (A-7)')
      return ok(endGame({ ...base, recent: [] }, 'player'))
    }
    default:
      return err('BAD_MOVE', `unknown move type ${JSON.stringify((m as { type?: unknown }).type)}`)
  }
}

// ---------------------------------------------------------------------------------------------
// View and outcome

export function acesUpOutcome(s: AcesUpState): AcesUpOutcome | undefined {
  if (!s.ended) return undefined
  const left = cardsLeft(s.piles)
  return {
    left,
    won: left === s.aces,
    freeAces: freeAces(s.piles),
    aces: s.aces,
    decks: decksFor(s.pileCount),
  }
}

/** everything but the stock's order is public; the view is the same for every viewer. */
export function acesUpView(s: AcesUpState, viewer: Viewer): AcesUpView {
  return {
    game: 'aces-up',
    viewer,
    pileCount: s.pileCount,
    undo: s.undo,
    piles: s.piles,
    stockCount: s.stock.length,
    nextDeal: nextDealSize(s),
    discard: s.discard,
    undoUsed: s.undoUsed,
    canUndo: canUndo(s),
    ended: s.ended,
    deals: s.deals,
    moves: s.moves,
    recent: s.recent,
    outcome: acesUpOutcome(s) ?? null,
    deck: s.ended ? s.deck : null,
  }
}

export const acesUpActiveSeats = (s: AcesUpState): Seat[] => (s.ended ? [] : [0])

/**
 * would a deal now lose a discard that is possible now — by covering the card, or by
 * covering the only higher card of its suit (with 5 piles the last deal covers piles 0 and 1
 * only)? A client warns before such a deal.
 */
export function dealBuriesDiscard(s: AcesUpState): boolean {
  if (s.stock.length === 0) return false
  const k = nextDealSize(s)
  const after = s.piles.map((p, i) => (i < k ? p.concat([s.stock[i]!]) : p))
  return s.piles.some(
    (p, i) =>
      canDiscard(s.piles, i) && (i < k || !canDiscard(after, i) || top(after[i]!) !== top(p)),
  )
}

export const acesUp: GameDef<
  AcesUpState,
  AcesUpMove,
  AcesUpView,
  AcesUpOptions,
  AcesUpOutcome,
  AcesUpErrorCode
> = {
  id: 'aces-up',
  setup: setupAcesUp,
  legalMoves: acesUpLegalMoves,
  apply: applyAcesUp,
  view: acesUpView,
  activeSeats: acesUpActiveSeats,
  outcome: acesUpOutcome,
}
