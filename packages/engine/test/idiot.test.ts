import { describe, expect, it } from 'vitest'
import {
  addToTally,
  canLay,
  formatCards,
  type IdiotState,
  idiot,
  idiotLegalMovesFromView,
  nextDealer,
  parseCard,
  parseCards,
} from '../src/index.ts'
import {
  allCards,
  cards,
  idiotDeck,
  must,
  play,
  position,
  refused,
  type SeatSpec,
  sorted,
  started,
} from './idiot-helpers.ts'

const c = (t: string) => parseCard(t)!

/** A neutral table of `n` seats; only the cards that matter are named. */
const table = (n: number, over: Partial<SeatSpec>[] = []): SeatSpec[] => {
  const base: SeatSpec[] = [
    { down: '2C 3C 4C', up: '5C 6C 7C', hand: '8C 9C JC' },
    { down: '2D 3D 4D', up: '5D 6D 7D', hand: '8D 9D JD' },
    { down: '2H 3H 4H', up: '5H 6H 7H', hand: '8H 9H JH' },
    { down: '2S 3S 4S', up: '5S 6S 7S', hand: '8S 9S JS' },
  ]
  return base.slice(0, n).map((s, i) => ({ ...s, ...over[i] }))
}

describe('Idiot setup', () => {
  it('[I-1] is for 2–4 players with one 52-card deck', () => {
    expect(() => idiot.setup({}, 1, { seed: 'x' })).toThrow(RangeError)
    expect(() => idiot.setup({}, 5, { seed: 'x' })).toThrow(RangeError)
    for (const n of [2, 3, 4]) {
      const s = idiot.setup({}, n, { seed: `s${n}` })
      expect(sorted(allCards(s))).toEqual([...Array(52).keys()])
    }
    expect(() => idiot.setup({}, 2, { deck: [1, 2, 3] })).toThrow(RangeError)
  })

  it('[I-1] ranks go 2 < 3 < … < 10 < J < Q < K < A and suits never matter', () => {
    const order = parseCards('2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC')
    for (let i = 1; i < order.length; i++) {
      const lower = order[i - 1]!
      const higher = order[i]!
      // an ordinary rank (not 2 or 10) may go on anything equal or lower, in any suit
      if (![2, 10].includes((lower % 13) + 2)) {
        expect(canLay((lower % 13) + 2, (higher % 13) + 2)).toBe(false)
      }
      expect(canLay((higher % 13) + 2, (lower % 13) + 2)).toBe(true)
    }
    // suits: a queen of hearts on a queen of clubs, a king of spades on a queen of diamonds
    let s = position({ players: [{ hand: 'QH KS' }, { hand: 'QD 3C' }], turn: 0, pile: 'QC' })
    s = play(s, 0, 'QH')
    s = play(s, 1, 'QD')
    s = play(s, 0, 'KS')
    expect(formatCards(s.pile)).toBe('QC QH QD KS')
  })

  it('[I-3] deals three face-down, three face-up and three hand cards each; the rest is the draw pile', () => {
    for (const [n, drawn] of [
      [2, 34],
      [3, 25],
      [4, 16],
    ] as const) {
      const s = idiot.setup({}, n, { seed: `deal${n}` })
      expect(s.draw).toHaveLength(drawn)
      for (const p of s.players) {
        expect(p.hand).toHaveLength(3)
        expect(p.row).toHaveLength(3)
        for (const pos of p.row) {
          expect(pos.faceUp).not.toBeNull()
          expect(pos.faceDown).not.toBeNull()
        }
      }
    }
  })

  it('[I-3] the canonical order: from the dealer’s left, down, up, then hand, one card at a time', () => {
    const deck = [...Array(52).keys()]
    const s = idiot.setup({ dealer: 1 }, 3, { deck })
    // dealer 1: seat 2 gets card 0, seat 0 card 1, seat 1 card 2, …
    expect(s.players[2]!.row.map((p) => p.faceDown)).toEqual([0, 3, 6])
    expect(s.players[0]!.row.map((p) => p.faceDown)).toEqual([1, 4, 7])
    expect(s.players[1]!.row.map((p) => p.faceDown)).toEqual([2, 5, 8])
    expect(s.players[2]!.row.map((p) => p.faceUp)).toEqual([9, 12, 15])
    expect(s.players[2]!.hand).toEqual([18, 21, 24])
    expect(s.players[1]!.hand).toEqual([20, 23, 26])
    expect(s.draw[0]).toBe(27)
    expect(s.draw).toEqual(deck.slice(27))
  })

  it('[I-3] the same seed deals the same table; the deck builder inverts the deal', () => {
    expect(idiot.setup({}, 4, { seed: 'same' })).toEqual(idiot.setup({}, 4, { seed: 'same' }))
    expect(idiot.setup({}, 4, { seed: 'same' })).not.toEqual(idiot.setup({}, 4, { seed: 'other' }))
    const spec = table(3)
    const s = idiot.setup({ dealer: 2 }, 3, { deck: idiotDeck(2, spec, 'AS AH') })
    expect(formatCards(s.players[1]!.hand)).toBe('8D 9D JD')
    expect(formatCards(s.players[0]!.row.map((p) => p.faceUp!))).toBe('5C 6C 7C')
    expect(formatCards(s.draw.slice(0, 2))).toBe('AS AH')
  })
})

describe('Idiot swap phase and start', () => {
  it('[I-4] a hand card and a face-up card swap places; the face-down card never moves', () => {
    let s = idiot.setup({ dealer: 0 }, 2, { deck: idiotDeck(0, table(2)) })
    const downBefore = s.players[0]!.row.map((p) => p.faceDown)
    s = must(s, 0, { type: 'swap', hand: c('JC'), faceUp: c('6C') })
    expect(formatCards(s.players[0]!.row.map((p) => p.faceUp!))).toBe('5C JC 7C')
    expect(sorted(s.players[0]!.hand)).toEqual(sorted(cards('8C 9C 6C')))
    expect(s.players[0]!.row.map((p) => p.faceDown)).toEqual(downBefore)
    // as often as they like, back and forth
    s = must(s, 0, { type: 'swap', hand: c('6C'), faceUp: c('JC') })
    s = must(s, 0, { type: 'swap', hand: c('9C'), faceUp: c('5C') })
    expect(formatCards(s.players[0]!.row.map((p) => p.faceUp!))).toBe('9C 6C 7C')
    // only own cards, and only hand ↔ face-up
    refused(s, 0, { type: 'swap', hand: c('8D'), faceUp: c('7C') }, 'NOT_IN_HAND')
    refused(s, 0, { type: 'swap', hand: c('8C'), faceUp: c('5D') }, 'NOT_FACE_UP')
    refused(s, 0, { type: 'swap', hand: c('8C'), faceUp: c('2C') }, 'NOT_FACE_UP')
  })

  it('[I-4] ready ends the swap phase for that player; play starts when everyone is ready', () => {
    let s = idiot.setup({ dealer: 0 }, 3, { deck: idiotDeck(0, table(3)) })
    expect(idiot.activeSeats(s)).toEqual([0, 1, 2])
    refused(s, 1, { type: 'play', cards: cards('8D') }, 'WRONG_PHASE')
    refused(s, 1, { type: 'pickup' }, 'WRONG_PHASE')
    s = must(s, 1, { type: 'ready' })
    refused(s, 1, { type: 'swap', hand: c('8D'), faceUp: c('5D') }, 'ALREADY_READY')
    refused(s, 1, { type: 'ready' }, 'ALREADY_READY')
    expect(idiot.legalMoves(s, 1)).toEqual([])
    expect(idiot.activeSeats(s)).toEqual([0, 2])
    s = must(s, 0, { type: 'ready' })
    expect(s.phase).toBe('swap')
    s = must(s, 2, { type: 'ready' })
    expect(s.phase).toBe('play')
    refused(s, 0, { type: 'swap', hand: c('8C'), faceUp: c('5C') }, 'WRONG_PHASE')
  })

  it('[I-5] the player to the left of the dealer plays first', () => {
    for (const dealer of [0, 1, 2, 3]) {
      const s = started(dealer, table(4))
      expect(s.turn).toBe((dealer + 1) % 4)
      expect(idiot.activeSeats(s)).toEqual([(dealer + 1) % 4])
    }
  })

  it('[I-5] the first dealer is drawn at random from the seed; the loser deals the next game', () => {
    const dealers = new Set<number>()
    for (let i = 0; i < 60; i++) dealers.add(idiot.setup({}, 4, { seed: `d${i}` }).dealer)
    expect(dealers).toEqual(new Set([0, 1, 2, 3]))
    const o = { places: [2, 0, 1], loser: 1, turns: 10 }
    expect(nextDealer(o)).toBe(1)
    expect(idiot.setup({ dealer: nextDealer(o) }, 3, { seed: 'next' }).dealer).toBe(1)
  })
})

describe('Idiot turns', () => {
  it('[I-6] on their turn a player plays or picks up; nobody else may act', () => {
    let s = started(0, table(3))
    const moves = idiot.legalMoves(s, 1)
    expect(moves.every((m) => m.type === 'play')).toBe(true) // empty pile: no pick-up
    refused(s, 0, { type: 'play', cards: cards('8C') }, 'NOT_YOUR_TURN')
    refused(s, 2, { type: 'pickup' }, 'NOT_YOUR_TURN')
    s = play(s, 1, '8D')
    const kinds = new Set(idiot.legalMoves(s, 2).map((m) => m.type))
    expect(kinds).toEqual(new Set(['play', 'pickup']))
    expect(idiot.legalMoves(s, 0)).toEqual([])
  })

  it('[I-2] play moves to the left and skips players who are out', () => {
    let s = started(3, table(4))
    const order: number[] = []
    for (let i = 0; i < 4; i++) {
      order.push(s.turn!)
      s = must(
        s,
        s.turn!,
        idiot.legalMoves(s, s.turn!).find((m) => m.type === 'pickup') ??
          idiot.legalMoves(s, s.turn!)[0]!,
      )
    }
    expect(order).toEqual([0, 1, 2, 3])
    // seat 1 is out: from seat 0 the turn goes to seat 2
    const p = position({
      players: [{ hand: '5C' }, { place: 1 }, { hand: '6H' }, { hand: '7S' }],
      turn: 0,
    })
    expect(must(p, 0, { type: 'play', cards: cards('5C') }).turn).toBe(2)
  })

  it('[I-7] a play is legal on an empty pile, with a 2 or a 10, or with an equal or higher rank', () => {
    let s = position({
      players: [{ hand: '5C 5D 4H 2S TC 9C' }, { hand: '3C 3D 8H 8S KH' }],
      turn: 1,
      pile: '',
    })
    s = play(s, 1, '3C') // empty pile: anything
    refused(s, 0, { type: 'play', cards: cards('5C 4H') }, 'NOT_EQUAL_RANKS')
    s = play(s, 0, '5C 5D') // several of one rank at once
    refused(s, 1, { type: 'play', cards: cards('3D') }, 'RANK_TOO_LOW')
    s = play(s, 1, '8H')
    refused(s, 0, { type: 'play', cards: cards('4H') }, 'RANK_TOO_LOW')
    s = play(s, 0, '2S') // a 2 always goes, and the pile stays
    expect(formatCards(s.pile)).toBe('3C 5C 5D 8H 2S')
    s = play(s, 1, '3D') // "lowers the game to two": anything goes on a 2
    s = play(s, 0, '9C')
    s = play(s, 1, 'KH')
    s = play(s, 0, 'TC') // a 10 always goes
    expect(s.pile).toEqual([])
    refused(s, 0, { type: 'play', cards: [] }, 'NO_CARDS')
    refused(s, 0, { type: 'play', cards: cards('4H 4H') }, 'DUPLICATE_CARD')
  })

  it('[I-7] legal moves list exactly the playable subsets of equal cards, and the view gives the same', () => {
    const s = position({
      players: [{ hand: '7C 7D 7H 4S TC' }, { hand: '3C' }],
      turn: 0,
      pile: '6D',
    })
    const moves = idiot.legalMoves(s, 0)
    const plays = moves.filter((m) => m.type === 'play').map((m) => formatCards(m.cards))
    // 7s: 7 subsets; the 10: 1; the 4 is too low
    expect(plays).toHaveLength(8)
    expect(plays).toContain('7C 7D 7H')
    expect(plays).toContain('TC')
    expect(plays.some((p) => p.includes('4S'))).toBe(false)
    expect(moves.some((m) => m.type === 'pickup')).toBe(true)
    expect(idiotLegalMovesFromView(idiot.view(s, 0))).toEqual(moves)
    expect(idiotLegalMovesFromView(idiot.view(s, 'spectator'))).toEqual([])
    expect(idiotLegalMovesFromView(idiot.view(s, 1))).toEqual([])
  })

  it('[I-8] a ten burns the whole pile and the same player plays again after drawing', () => {
    let s = position({
      players: [{ hand: 'TC 3H 4H' }, { hand: '9C 9D 9H' }],
      turn: 0,
      pile: '6C 8S KD',
      draw: 'QS 2D',
    })
    s = play(s, 0, 'TC')
    expect(s.pile).toEqual([])
    expect(s.burned.slice(-4)).toEqual(cards('6C 8S KD TC'))
    expect(s.turn).toBe(0)
    // I-10: drawn before the extra play
    expect(sorted(s.players[0]!.hand)).toEqual(sorted(cards('3H 4H QS')))
    expect(s.recent.map((e) => e.t)).toEqual(['play', 'burn', 'draw'])
    s = play(s, 0, 'QS')
    expect(s.turn).toBe(1)
  })

  it('[I-8][I-14] a ten as a player’s last card: they are out and the next player starts the new pile', () => {
    let s = position({
      players: [{ hand: 'TC' }, { hand: '9C 9D' }, { hand: '3S' }],
      turn: 0,
      pile: '6C 8S KD',
    })
    s = play(s, 0, 'TC')
    expect(s.players[0]!.place).toBe(1)
    expect(s.pile).toEqual([])
    expect(s.turn).toBe(1)
    expect(s.phase).toBe('play')
    expect(s.recent.map((e) => e.t)).toEqual(['play', 'burn', 'out'])
  })

  it('[I-9] four of a kind laid over plays of two players burns, and the fourth card’s owner plays again', () => {
    let s = started(
      1,
      [
        { down: '2C 3C 4C', up: '5C 6C 8C', hand: '7C 7D KC' },
        { down: '2D 3D 4D', up: '5D 6D 8D', hand: '7H 9D JD' },
        { down: '2H 3H 9H', up: '5H 6H 8H', hand: '7S KS AS' },
      ],
      'QC QD QH QS',
    )
    expect(s.turn).toBe(2)
    s = play(s, 2, '7S')
    s = play(s, 0, '7C 7D')
    expect(s.pile).toHaveLength(3)
    expect(s.turn).toBe(1)
    s = play(s, 1, '7H')
    expect(s.pile).toEqual([])
    expect(sorted(s.burned)).toEqual(sorted(cards('7S 7C 7D 7H')))
    expect(s.recent.find((e) => e.t === 'burn')).toMatchObject({ reason: 'four', count: 4 })
    expect(s.recent.find((e) => e.t === 'draw')).toEqual({ t: 'draw', seat: 1, count: 1 })
    expect(s.turn).toBe(1) // the owner of the fourth card plays again
    expect(idiot.legalMoves(s, 1).some((m) => m.type === 'pickup')).toBe(false)
  })

  it('[I-9] four equal cards in one play burn, e.g. collected by picking up', () => {
    let s = position({
      players: [{ hand: '8C 8D 5C 4C' }, { hand: '8H 8S 3S' }],
      turn: 0,
      pile: '',
    })
    s = play(s, 0, '8C 8D')
    s = must(s, 1, { type: 'pickup' })
    expect(sorted(s.players[1]!.hand)).toEqual(sorted(cards('8C 8D 8H 8S 3S')))
    s = play(s, 0, '5C')
    s = play(s, 1, '8C 8D 8H 8S')
    expect(s.pile).toEqual([])
    expect(s.turn).toBe(1)
    expect(s.recent.find((e) => e.t === 'burn')).toMatchObject({ reason: 'four', count: 5 })
  })

  it('[I-9] only the top four count: a 2 between equal cards breaks the four', () => {
    let s = position({ players: [{ hand: '5H 4C' }, { hand: '9D' }], turn: 0, pile: '5C 5D 2C' })
    s = play(s, 0, '5H')
    expect(formatCards(s.pile)).toBe('5C 5D 2C 5H')
    expect(s.turn).toBe(1)
    // three equal on top and a fourth laid: burns even with other cards below
    let t = position({ players: [{ hand: '5S 4C' }, { hand: '9D' }], turn: 0, pile: '2C 5C 5D 5H' })
    t = play(t, 0, '5S')
    expect(t.pile).toEqual([])
    expect(t.turn).toBe(0)
  })

  it('[I-10] after a play from the hand a player draws up to three; after a pick-up nothing', () => {
    let s = position({
      players: [{ hand: '5C 5D 9H' }, { hand: '6C 7C QC' }],
      turn: 0,
      draw: 'AS AH AD KS QS',
    })
    s = play(s, 0, '5C 5D')
    expect(sorted(s.players[0]!.hand)).toEqual(sorted(cards('9H AS AH')))
    expect(s.draw).toEqual(cards('AD KS QS'))
    s = must(s, 1, { type: 'pickup' })
    expect(s.players[1]!.hand).toHaveLength(5) // a pick-up is not a play: nothing drawn
    expect(s.draw).toHaveLength(3)
    s = play(s, 0, '9H')
    expect(s.players[0]!.hand).toHaveLength(3)
    // holding more than three: no draw until a play leaves fewer than three
    s = play(s, 1, 'QC')
    expect(s.players[1]!.hand).toHaveLength(4)
    expect(s.draw).toEqual(cards('KS QS'))
    s = must(s, 0, { type: 'pickup' })
    s = play(s, 1, '5C 5D')
    expect(sorted(s.players[1]!.hand)).toEqual(sorted(cards('6C 7C KS')))
    expect(s.draw).toEqual(cards('QS'))
  })

  it('[I-10] the draw comes before the extra play granted by a burn', () => {
    let s = position({
      players: [{ hand: 'TC TD 4H' }, { hand: '9C' }],
      turn: 0,
      pile: '6C',
      draw: 'KC KD',
    })
    s = play(s, 0, 'TC TD')
    expect(s.turn).toBe(0)
    expect(sorted(s.players[0]!.hand)).toEqual(sorted(cards('4H KC KD')))
    const plays = idiot
      .legalMoves(s, 0)
      .map((m) => (m.type === 'play' ? formatCards(m.cards) : m.type))
    expect(plays).toContain('KC KD')
  })

  it('[I-11] picking up takes the whole pile, by choice or by need; an empty pile cannot be picked up', () => {
    let s = position({
      players: [{ hand: 'KC 4D' }, { hand: '3S 9H' }, { hand: '6C' }],
      turn: 0,
      pile: '5H 6D',
    })
    // could play the king, picks up anyway
    s = must(s, 0, { type: 'pickup' })
    expect(sorted(s.players[0]!.hand)).toEqual(sorted(cards('KC 4D 5H 6D')))
    expect(s.pile).toEqual([])
    expect(s.turn).toBe(1)
    refused(s, 1, { type: 'pickup' }, 'PILE_EMPTY')
    s = play(s, 1, '9H') // the next player starts a new pile with any card
    // seat 2 holds only a 6: it cannot play, so picking up is its only move
    expect(idiot.legalMoves(s, 2)).toEqual([{ type: 'pickup' }])
  })

  it('[I-12] a player plays from the hand while it has cards, then from the face-up cards', () => {
    let s = position({
      players: [{ hand: '4C', row: ['9C/2D', '9H/3D', 'KS/4S'] }, { hand: '3H 3S QH' }],
      turn: 0,
      pile: '',
    })
    refused(s, 0, { type: 'play', cards: cards('9C') }, 'HAND_FIRST')
    refused(s, 0, { type: 'play', cards: cards('4C 4S') }, 'NOT_YOUR_CARD')
    s = play(s, 0, '4C')
    s = play(s, 1, 'QH')
    refused(s, 0, { type: 'play', cards: cards('9C') }, 'RANK_TOO_LOW')
    s = must(s, 0, { type: 'pickup' })
    refused(s, 0, { type: 'play', cards: cards('9C') }, 'NOT_YOUR_TURN')
  })

  it('[I-12] several face-up cards of one rank go together; the card turned up does not join that play', () => {
    let s = position({
      players: [{ row: ['9C/9S', '9H/2D', 'KS/4S'] }, { hand: '3H 3S QH' }],
      turn: 0,
      pile: '5D',
    })
    const plays = idiot.legalMoves(s, 0).filter((m) => m.type === 'play')
    expect(plays.map((m) => (m.type === 'play' ? formatCards(m.cards) : ''))).toEqual([
      '9C',
      '9H',
      '9C 9H',
      'KS',
    ])
    s = play(s, 0, '9C 9H')
    // the face-down cards are turned up at once and stay in their positions
    expect(s.players[0]!.row.map((p) => p.faceUp)).toEqual(cards('9S 2D KS'))
    expect(s.players[0]!.row.map((p) => p.faceDown)).toEqual([null, null, c('4S')])
    expect(formatCards(s.pile)).toBe('5D 9C 9H') // 9S did not join
    expect(s.recent.filter((e) => e.t === 'uncover')).toEqual([
      { t: 'uncover', seat: 0, position: 0, card: c('9S') },
      { t: 'uncover', seat: 0, position: 1, card: c('2D') },
    ])
    expect(s.turn).toBe(1)
  })

  it('[I-12] an uncovered card is playable in the extra play after a burn; no play mixes hand and row', () => {
    let s = position({
      players: [{ row: ['TC/7S', 'QH/', ''] }, { hand: '3H' }],
      turn: 0,
      pile: 'KD',
    })
    s = play(s, 0, 'TC')
    expect(s.turn).toBe(0)
    expect(s.players[0]!.row[0]).toEqual({ faceUp: c('7S'), faceDown: null })
    s = play(s, 0, '7S')
    expect(s.turn).toBe(1)
    // mixing: a player with a hand and a row
    const m = position({ players: [{ hand: '8C', row: ['8D/2S'] }, { hand: '3H' }], turn: 0 })
    refused(m, 0, { type: 'play', cards: cards('8C 8D') }, 'MIXED_SOURCES')
  })

  it('[I-13] a player on the row who picks up plays those cards from the hand before the row again', () => {
    let s = position({
      players: [{ row: ['4C/AS', '5C/'] }, { hand: '9H 9D 3C 2S' }],
      turn: 1,
      pile: '',
    })
    s = play(s, 1, '9H')
    expect(idiot.legalMoves(s, 0)).toEqual([{ type: 'pickup' }]) // 4 and 5 are too low
    s = must(s, 0, { type: 'pickup' })
    expect(s.players[0]!.hand).toEqual(cards('9H'))
    s = play(s, 1, '3C')
    // the hand comes first: the 4C on the row may not be played though it would go on the 3
    refused(s, 0, { type: 'play', cards: cards('4C') }, 'HAND_FIRST')
    s = play(s, 0, '9H')
    expect(s.players[0]!.hand).toEqual([])
    s = play(s, 1, '9D')
    s = must(s, 0, { type: 'pickup' })
    expect(s.players[0]!.row[0]!.faceUp).toBe(c('4C'))
  })

  it('[I-14] players who run out take places; the last player holding cards is the Idiot', () => {
    let s = position({
      players: [{ hand: 'AC' }, { hand: '3D 4D' }, { row: ['KH/'] }],
      turn: 0,
      pile: '',
    })
    s = play(s, 0, 'AC')
    expect(s.players[0]!.place).toBe(1)
    expect(s.recent).toContainEqual({ t: 'out', seat: 0, place: 1 })
    expect(s.turn).toBe(1)
    s = must(s, 1, { type: 'pickup' })
    expect(s.turn).toBe(2)
    s = play(s, 2, 'KH')
    expect(s.phase).toBe('over')
    expect(s.turn).toBeNull()
    const o = idiot.outcome(s)!
    expect(o.places).toEqual([0, 2, 1])
    expect(o.loser).toBe(1)
    expect(s.players[1]!.place).toBe(3)
    refused(s, 1, { type: 'pickup' }, 'GAME_OVER')
    expect(idiot.legalMoves(s, 1)).toEqual([])
    expect(idiot.activeSeats(s)).toEqual([])
  })

  it('[I-14] a player is not out while a face-down card remains under a played face-up card', () => {
    let s = position({ players: [{ row: ['8C/3D'] }, { hand: '4S 4H' }], turn: 0, pile: '' })
    s = play(s, 0, '8C')
    expect(s.players[0]!.place).toBeNull()
    expect(s.players[0]!.row[0]!.faceUp).toBe(c('3D'))
  })
})

describe('Idiot information', () => {
  const s0 = (): IdiotState => started(0, table(3, [{}, { hand: 'AS AH AD' }, {}]), 'KS KH KD')

  it('[I-15] a player sees their own hand; others see counts; face-down cards are flags for everyone', () => {
    const s = s0()
    const v1 = idiot.view(s, 1)
    expect(v1.players[1]!.hand).toEqual(cards('AD AH AS'))
    expect(v1.players[0]!.hand).toBeNull()
    expect(v1.players[0]!.handCount).toBe(3)
    const spec = idiot.view(s, 'spectator')
    expect(spec.players.every((p) => p.hand === null)).toBe(true)
    for (const v of [v1, spec]) {
      const json = JSON.stringify(v)
      expect(json).not.toContain('"faceDown":2') // flags only, never ids
      for (const p of v.players)
        for (const pos of p.row) expect(typeof pos.faceDown).toBe('boolean')
      expect(v).not.toHaveProperty('draw')
      expect(v.drawCount).toBe(s.draw.length)
    }
  })

  it('[I-15] shuffling the cards a viewer never saw among the places hidden from them leaves the view unchanged', () => {
    const s = s0()
    const view = JSON.stringify(idiot.view(s, 1))
    // swap the whole draw pile with seat 0's hand cards and seat 2's face-down cards
    const hidden = [...s.draw, ...s.players[0]!.hand, ...s.players[2]!.row.map((p) => p.faceDown!)]
    const rev = hidden.slice().reverse()
    const t: IdiotState = {
      ...s,
      draw: rev.slice(0, s.draw.length),
      players: s.players.map((p, i) =>
        i === 0
          ? { ...p, hand: rev.slice(s.draw.length, s.draw.length + 3) }
          : i === 2
            ? {
                ...p,
                row: p.row.map((pos, k) => ({ ...pos, faceDown: rev[s.draw.length + 3 + k]! })),
              }
            : p,
      ),
    }
    expect(sorted(allCards(t))).toEqual([...Array(52).keys()])
    expect(JSON.stringify(idiot.view(t, 1))).toBe(view)
    // …but the owner sees the change in their own hand
    expect(JSON.stringify(idiot.view(t, 0))).not.toBe(JSON.stringify(idiot.view(s, 0)))
  })

  it('[I-15] the events of a move say what was drawn by count only, and what was turned up by card', () => {
    let s = position({
      players: [{ hand: '5C', row: [] }, { hand: '9C' }],
      turn: 0,
      draw: 'AS AH',
    })
    s = play(s, 0, '5C')
    const draw = s.recent.find((e) => e.t === 'draw')
    expect(draw).toEqual({ t: 'draw', seat: 0, count: 2 })
    const spectator = JSON.stringify(idiot.view(s, 'spectator'))
    for (const hidden of cards('AS AH')) {
      expect(spectator).not.toMatch(new RegExp(`[\\[,:]${hidden}[\\],}]`))
    }
  })
})

describe('Idiot tables', () => {
  it('[I-16] a table plays game after game: the loser deals and the tally counts each Idiot', () => {
    let tally = [0, 0, 0]
    let dealer: number | undefined
    for (let g = 0; g < 5; g++) {
      let s = idiot.setup(dealer === undefined ? {} : { dealer }, 3, { seed: `table-${g}` })
      if (dealer !== undefined) expect(s.dealer).toBe(dealer)
      let guard = 0
      while (!idiot.outcome(s) && guard++ < 5000) {
        const seat = idiot.activeSeats(s)[0]!
        const moves = idiot.legalMoves(s, seat)
        const m =
          moves.find((x) => x.type === 'ready') ?? moves.find((x) => x.type === 'play') ?? moves[0]!
        s = must(s, seat, m)
      }
      const o = idiot.outcome(s)!
      tally = addToTally(tally, o)
      dealer = nextDealer(o)
    }
    expect(tally.reduce((a, b) => a + b, 0)).toBe(5)
  })

  it('[I-16] a game can go round in circles: the engine does not end it, the turn counter shows it', () => {
    // p0 plays a 3, p1 beats it with a 4, p0 picks both up, p1 leads its 3, p0 beats it, p1
    // picks up: after six turns the table is the same up to suits, for ever.
    // Both keep an ace they never lead.
    let s = position({ players: [{ hand: '3C 4C AC' }, { hand: '3D 4D AD' }], turn: 0 })
    const policy = (st: IdiotState) => {
      const seat = st.turn!
      const hand = st.players[seat]!.hand.filter((x) => x % 13 !== 12)
      hand.sort((a, b) => (a % 13) - (b % 13))
      if (st.pile.length === 0) return must(st, seat, { type: 'play', cards: [hand[0]!] })
      if (st.pile.length === 1) {
        const top = st.pile[0]! % 13
        return must(st, seat, { type: 'play', cards: [hand.find((x) => x % 13 > top)!] })
      }
      return must(st, seat, { type: 'pickup' })
    }
    for (let i = 0; i < 300; i++) s = policy(s)
    expect(s.phase).toBe('play')
    expect(s.turns).toBe(300)
    expect(s.players.every((p) => p.place === null)).toBe(true)
  })
})

describe('Idiot bad input', () => {
  it('refuses malformed moves with BAD_MOVE or NOT_A_SEAT and changes nothing', () => {
    const s = started(0, table(2))
    refused(s, 7, { type: 'pickup' }, 'NOT_A_SEAT')
    refused(s, -1, { type: 'pickup' }, 'NOT_A_SEAT')
    refused(s, 1, { type: 'nonsense' } as never, 'BAD_MOVE')
    refused(s, 1, null as never, 'BAD_MOVE')
    refused(s, 1, { type: 'play', cards: 'AS' } as never, 'NO_CARDS')
    refused(s, 1, { type: 'play', cards: [99] }, 'BAD_MOVE')
    refused(s, 1, { type: 'play', cards: [1.5] }, 'BAD_MOVE')
    refused(s, 1, { type: 'play', cards: cards('8C') }, 'NOT_YOUR_CARD')
  })
})
