import {
  type AcesUpView,
  acesUp,
  acesUpLegalMovesFromView,
  type IdiotView,
  idiot,
  idiotLegalMovesFromView,
  parseCard,
  parseCards,
} from '@kortbord/engine'
import { describe, expect, it } from 'vitest'
import {
  canSelect,
  dealLosesDiscard,
  playable,
  playOf,
  swapOf,
  tapPile,
  toggle,
} from '../src/lib/moves.ts'

const c = (s: string) => parseCard(s)!

/** A two-player Idiot game in the play phase, from a stacked deck, as seat `seat` sees it. */
function idiotView(): IdiotView {
  // I-3: per seat 3 face-down, 3 face-up, 3 in hand, dealt one at a time; the rest is the draw pile.
  const deck = parseCards(
    '2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS',
  )
  let s = idiot.setup({}, 2, { deck })
  for (const seat of [0, 1]) {
    const r = idiot.apply(s, seat, { type: 'ready' })
    if (!r.ok) throw new Error(r.error.code)
    s = r.value
  }
  return idiot.view(s, s.turn!)
}

describe('choosing cards in Idiot (from the engine’s legal moves)', () => {
  it('[I-7] only cards of a legal play can be selected, and several of one rank together', () => {
    const v = idiotView()
    const moves = idiotLegalMovesFromView(v)
    const hand = v.players[v.viewer as number]!.hand!
    const ok = playable(moves)
    for (const card of hand) expect(canSelect(moves, [], card)).toBe(ok.has(card))
    const first = hand.find((x) => ok.has(x))!
    const sel = toggle(moves, [], first)
    expect(sel).toEqual([first])
    expect(playOf(moves, sel)).toEqual({ type: 'play', cards: [first] })
    // Tapping it again deselects; nothing selected plays nothing.
    expect(toggle(moves, sel, first)).toEqual([])
    expect(playOf(moves, [])).toBeNull()
  })

  it('[I-7] a card of another rank starts a new selection instead of mixing ranks', () => {
    const moves = [
      { type: 'play' as const, cards: [c('5C')] },
      { type: 'play' as const, cards: [c('5D')] },
      { type: 'play' as const, cards: [c('5C'), c('5D')] },
      { type: 'play' as const, cards: [c('9S')] },
    ]
    let sel = toggle(moves, [], c('5C'))
    sel = toggle(moves, sel, c('5D'))
    expect(playOf(moves, sel)?.cards).toEqual([c('5C'), c('5D')])
    expect(canSelect(moves, sel, c('9S'))).toBe(false)
    expect(toggle(moves, sel, c('9S'))).toEqual([c('9S')])
    expect(toggle(moves, sel, c('KH'))).toEqual(sel)
  })

  it('[I-4] a swap pairs a hand card with a face-up card only if the engine allows it', () => {
    const deck = parseCards(
      '2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS',
    )
    const v = idiot.view(idiot.setup({}, 2, { deck }), 0)
    const moves = idiotLegalMovesFromView(v)
    const me = v.players[0]!
    const h = me.hand![0]!
    const up = me.row[0]!.faceUp!
    expect(swapOf(moves, h, up)).toEqual({ type: 'swap', hand: h, faceUp: up })
    expect(swapOf(moves, up, h)).toBeNull()
  })
})

describe('tapping piles in Aces Up', () => {
  const view = (piles: string[], stock = 10): AcesUpView => {
    const v = acesUp.view(acesUp.setup({ piles: 4 }, 1, { seed: 'x' }), 0)
    return {
      ...v,
      piles: piles.map((p) => (p ? parseCards(p) : [])),
      stockCount: stock,
      nextDeal: Math.min(4, stock),
    }
  }

  it('[A-4] tapping a discardable top card discards it', () => {
    const v = view(['5H', 'KH', '3C', '4D'])
    const moves = acesUpLegalMovesFromView(v)
    expect(tapPile(v, moves, null, 0)).toEqual({ move: { type: 'discard', pile: 0 }, picked: null })
    // Not discardable, no empty pile: nothing happens.
    expect(tapPile(v, moves, null, 2)).toEqual({ move: null, picked: null })
  })

  it('[A-5] a top card picked up moves to the empty pile tapped next', () => {
    const v = view(['5H 9S', 'KH', '', '4D'])
    const moves = acesUpLegalMovesFromView(v)
    const first = tapPile(v, moves, null, 0)
    expect(first).toEqual({ move: null, picked: 0 })
    expect(tapPile(v, moves, 0, 2)).toEqual({
      move: { type: 'move', from: 0, to: 2 },
      picked: null,
    })
    expect(tapPile(v, moves, 0, 0)).toEqual({ move: null, picked: null })
  })

  it('[A-6] dealing warns while a discard would be lost', () => {
    expect(dealLosesDiscard(view(['5H', 'KH', '3C', '4D']))).toBe(true)
    expect(dealLosesDiscard(view(['5H', 'KS', '3C', '4D']))).toBe(false)
    expect(dealLosesDiscard(view(['5H', 'KH', '3C', '4D'], 0))).toBe(false)
    // The last deal with 5 piles covers only piles 0 and 1 (nextDeal 2).
    const five = { ...view(['3C', '4D', '9S', '5H', 'KH'], 2), pileCount: 5 as const, nextDeal: 2 }
    expect(dealLosesDiscard(five)).toBe(false)
    const covered = {
      ...view(['5H', '4D', '9S', '3C', 'KH'], 2),
      pileCount: 5 as const,
      nextDeal: 2,
    }
    expect(dealLosesDiscard(covered)).toBe(true)
  })
})
