import type { AcesUpEvent, AcesUpView, DuelHiddenGame } from '@kortbord/engine'
import { describe, expect, it } from 'vitest'
import { gameNews, newsText } from '../src/lib/duel-said.ts'

/** A card by its short name ("5S"), as the engine numbers it. */
const c = (s: string) => 'CDHS'.indexOf(s[1]!) * 13 + '23456789TJQKA'.indexOf(s[0]!)

/** A game in play as a view shows it, after `moves` moves whose last brought `recent`. */
function game(moves: number, recent: AcesUpEvent[], piles = [['3D'], ['5S'], ['TS'], ['7H']]) {
  return {
    game: 'aces-up',
    viewer: 0,
    pileCount: 4,
    undo: 'both',
    piles: piles.map((p) => p.map(c)),
    stockCount: 48,
    nextDeal: 4,
    discard: [],
    undoUsed: false,
    canUndo: false,
    ended: false,
    deals: 1,
    moves,
    recent,
    outcome: null,
    deck: null,
  } as unknown as AcesUpView
}
const hidden: DuelHiddenGame = { hidden: true, index: 0, deals: 1 }
const layout: AcesUpEvent = { t: 'deal', cards: ['3D', '5S', 'TS', '7H'].map(c) }

describe('what a screen reader hears of a duel game (QA pass 2)', () => {
  it('the match’s first deal, for the player whose table has just shown it', () => {
    const r = gameNews(undefined, game(0, [layout]), 0, true)
    expect(r.seen).toEqual({ index: 0, moves: 0 })
    expect(newsText(r.news!, 'en', null)).toBe(
      'Round 1 begins: three of diamonds, five of spades, ten of spades, seven of hearts.',
    )
    // Without the match just begun (a reload, a spectator arriving), nothing of what lay there.
    expect(gameNews(undefined, game(0, [layout]), 0).news).toBeNull()
    expect(gameNews(undefined, game(5, [layout]), 0, true).news).toBeNull()
  })

  it('[A-4, A-5, A-6, A-9] each move of the game once, in each language', () => {
    const seen = { index: 0, moves: 3 }
    const said = (e: AcesUpEvent, lang: 'en' | 'sv' | 'nb' = 'en', name: string | null = null) =>
      newsText(gameNews(seen, game(4, [e]), 0).news!, lang, name)
    const discard: AcesUpEvent = { t: 'discard', pile: 1, card: c('5S') }
    expect(said(discard)).toBe('Discarded five of spades.')
    expect(said(discard, 'sv')).toBe('Kastade fem i spader.')
    expect(said(discard, 'nb')).toBe('Kastet spar fem.')
    expect(said({ t: 'move', from: 0, to: 2, card: c('KS') })).toBe(
      'Moved king of spades to pile 3.',
    )
    expect(said({ t: 'deal', cards: ['8S', '4C'].map(c) })).toBe(
      'New cards: eight of spades, four of clubs.',
    )
    // the card goes back where it came from.
    expect(said({ t: 'undo', of: { type: 'move', from: 0, to: 2, card: c('KS') } })).toBe(
      'Taken back: king of spades is on pile 1 again.',
    )
    expect(said({ t: 'undo', of: { type: 'discard', pile: 3, card: c('JD') } }, 'sv')).toBe(
      'Ångrat: knekt i ruter ligger på hög 4 igen.',
    )
    // A spectator hears whose move it is.
    expect(said(discard, 'nb', 'Astrid')).toBe('Astrid: Kastet spar fem.')
    // The same view again (the opponent moved, a figure came): no news.
    expect(gameNews({ index: 0, moves: 4 }, game(4, [discard]), 0).news).toBeNull()
    // A move that ended the game: its end is told elsewhere, the move here.
    const ended = gameNews(
      seen,
      game(4, [discard, { t: 'end', left: 20, won: false, by: 'rule' }]),
      0,
    )
    expect(newsText(ended.news!, 'en', null)).toBe('Discarded five of spades.')
  })

  it('a new round is told by what was dealt', () => {
    const r = gameNews({ index: 0, moves: 40 }, game(0, [layout]), 1)
    expect(newsText(r.news!, 'sv', null)).toBe(
      'Giv 2 börjar: tre i ruter, fem i spader, tio i spader, sju i hjärter.',
    )
    // Alternating turns: the player's first round comes after the other's.
    expect(gameNews(null, game(0, [layout]), 0).news).not.toBeNull()
  })

  it('[A-15] a hidden game is never told, nor its last move once it is shown', () => {
    const r = gameNews({ index: 0, moves: 2 }, hidden, 0)
    expect(r).toEqual({ seen: null, news: null })
    // Shown later on (the other player has played that deal): its last move is old news.
    const shown = gameNews(r.seen, game(9, [{ t: 'discard', pile: 1, card: c('5S') }]), 0)
    expect(shown.news).toBeNull()
    expect(shown.seen).toEqual({ index: 0, moves: 9 })
    // From then on its moves are told.
    const next = gameNews(shown.seen, game(10, [{ t: 'discard', pile: 0, card: c('3D') }]), 0)
    expect(newsText(next.news!, 'en', 'Bo')).toBe('Bo: Discarded three of diamonds.')
  })
})
