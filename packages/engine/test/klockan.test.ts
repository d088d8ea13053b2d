import { describe, expect, it } from 'vitest'
import { type Card, formatCard, fullDeck, parseCards } from '../src/cards.ts'
import type { Seat, Viewer } from '../src/game.ts'
import {
  KLOCKAN_RESCUE_RULES,
  KLOCKAN_VARIANTS,
  type KlockanMove,
  type KlockanRescueRule,
  type KlockanState,
  type KlockanVariant,
  type KlockanView,
  klockan,
  klockanCards,
  klockanDeck,
  klockanFast,
  klockanHour,
  klockanLegalMovesFromView,
  klockanPileCount,
  klockanRescueMove,
  klockanRunToEnd,
  klockanStartPile,
} from '../src/klockan.ts'
import { Rng } from '../src/rng.ts'
import { deepFreeze } from './aces-up-helpers.ts'
import { type PlayoutSpec, type PlayoutStats, permuteWithin, playout } from './playout.ts'

// ---------------------------------------------------------------------------------------------
// Helpers

/** A deck in K-1's canonical order from each pile's face-down cards, listed top first. */
function deckFromPiles(piles: readonly (readonly Card[])[]): Card[] {
  const deck: Card[] = []
  for (let round = 0; round < 4; round++) {
    for (const p of piles) deck.push(p[3 - round]!)
  }
  return deck
}

/**
 * The deal on which the game turns the cards of `chain` in that order (each card's successor is
 * the next face-down card of the pile it goes under, K-3, K-8), the other cards filling the
 * remaining places in pile order. Built backwards from the rules, independently of the engine.
 */
function deckFromChain(variant: KlockanVariant, chain: readonly Card[]): Card[] {
  const n = klockanPileCount(variant)
  const slots: Card[][] = Array.from({ length: n }, () => [])
  let cur = klockanStartPile(variant)
  for (const c of chain) {
    if (slots[cur]!.length === 4) throw new Error(`chain broken before ${formatCard(c)}`)
    slots[cur]!.push(c)
    const h = klockanHour(c)
    if (variant === 'twoDecks') {
      const left = 2 * (h - 1)
      // K-8: the pile of the rank with more face-down cards, the left one on a tie.
      cur = 4 - slots[left + 1]!.length > 4 - slots[left]!.length ? left + 1 : left
    } else cur = h - 1
  }
  const used = new Set(chain)
  const rest = klockanCards(variant).filter((c) => !used.has(c))
  for (const p of slots) while (p.length < 4) p.push(rest.shift()!)
  return deckFromPiles(slots)
}

const setupDeck = (deck: readonly Card[], variant: KlockanVariant = 'standard', seats = 1) =>
  klockan.setup({ variant }, seats, { deck })

/** Applies a move to a deep-frozen state (a mutation would throw) and expects it to succeed. */
function play(s: KlockanState, m: KlockanMove, seat: Seat = s.turn ?? 0): KlockanState {
  const before = JSON.stringify(s)
  const r = klockan.apply(deepFreeze(s), seat, m)
  if (!r.ok) throw new Error(`${JSON.stringify(m)} refused: ${r.error.code} ${r.error.message}`)
  expect(JSON.stringify(s)).toBe(before)
  return r.value
}

const turn = (s: KlockanState, times = 1): KlockanState => {
  let g = s
  for (let i = 0; i < times; i++) g = play(g, { type: 'turn' })
  return g
}

/** Expects `m` to be refused with `code` and the state left exactly as it was. */
function refuse(s: KlockanState, m: unknown, code: string, seat: Seat = s.turn ?? 0): void {
  const before = JSON.stringify(s)
  let r: ReturnType<typeof klockan.apply> | undefined
  expect(() => {
    r = klockan.apply(deepFreeze(s), seat, m as KlockanMove)
  }).not.toThrow()
  expect(r!.ok, `${JSON.stringify(m)} should be refused`).toBe(false)
  if (!r!.ok) {
    expect(r!.error.code).toBe(code)
    expect(r!.error.message.length).toBeGreaterThan(0)
  }
  expect(JSON.stringify(s)).toBe(before)
}

/** Every card a view shows, wherever it is (the ids under card-valued keys). */
function viewCards(x: unknown, key = '', out: Card[] = []): Card[] {
  if (Array.isArray(x)) for (const v of x) viewCards(v, key, out)
  else if (typeof x === 'number') {
    if (CARD_KEYS.has(key)) out.push(x)
  } else if (typeof x === 'object' && x !== null) {
    for (const [k, v] of Object.entries(x)) viewCards(v, k, out)
  }
  return out
}
const CARD_KEYS = new Set(['faceUp', 'card', 'king'])

/** The face-down cards nobody has seen (the rescued king was seen face up before it went down). */
const hiddenCards = (s: KlockanState): Card[] =>
  s.piles.flatMap((p) => p.down).filter((c) => c !== s.rescue?.king)

const kings = (cs: readonly Card[]): Card[] => cs.filter((c) => klockanHour(c) === 13)

/** All cards of the state, face down and face up. */
const allCards = (s: KlockanState): Card[] => s.piles.flatMap((p) => [...p.down, ...p.up])

// ---------------------------------------------------------------------------------------------

describe('Klockan: layout and the chain', () => {
  it('[K-1] 52 cards in 13 piles of four face down, dealt one at a time to piles 1–12 and the centre, four rounds', () => {
    const deck = fullDeck()
    const s = setupDeck(deck)
    expect(s.piles).toHaveLength(13)
    expect(s.piles.map((p) => p.hour)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13])
    for (let i = 0; i < 13; i++) {
      // Bottom first: the last card a pile receives is its top card.
      expect(s.piles[i]!.down).toEqual([deck[i], deck[i + 13], deck[i + 26], deck[i + 39]])
      expect(s.piles[i]!.up).toEqual([])
    }
    const v = klockan.view(s, 0)
    expect(v.piles.map((p) => p.faceDown)).toEqual(new Array(13).fill(4))
    expect(viewCards(v)).toEqual([])
    expect(v.faceDown).toBe(52)
  })

  it('[K-1] the hour of a card: ace 1, two to ten by value, jack 11, queen 12, king the centre', () => {
    expect(parseCards('AS 2H 9C TD JS QH KC').map(klockanHour)).toEqual([1, 2, 9, 10, 11, 12, 13])
  })

  it('[K-2] the first card turned is the top face-down card of the centre pile', () => {
    const deck = fullDeck()
    const s = turn(setupDeck(deck))
    // deck[51] is the last card the centre received, its top.
    expect(s.last).toEqual({ seat: 0, card: deck[51], from: 12, to: klockanHour(deck[51]!) - 1 })
    expect(s.piles[12]!.down).toHaveLength(3)
    expect(s.recent).toEqual([{ t: 'turn', seat: 0, card: deck[51], from: 12, to: 0 }])
  })

  it('[K-3] a turned card goes face up under the pile of its rank, and the next card is that pile’s top face-down card', () => {
    // Centre top 7S; pile 7's top QD; pile 12's top 4H; pile 4's top JC; pile 11's top 2S.
    const chain = parseCards('7S QD 4H JC 2S')
    const s0 = setupDeck(deckFromChain('standard', chain))
    let s = s0
    const seen: string[] = []
    for (const c of chain) {
      const from = s.current!
      const top = s.piles[from]!.down[s.piles[from]!.down.length - 1]!
      expect(top).toBe(c)
      s = turn(s)
      seen.push(`${formatCard(c)}:${from + 1}>${s.current! + 1}`)
      // Under the pile of its rank, face up, after the cards placed there before.
      expect(s.piles[klockanHour(c) - 1]!.up.at(-1)).toBe(c)
    }
    expect(seen).toEqual(['7S:13>7', 'QD:7>12', '4H:12>4', 'JC:4>11', '2S:11>2'])
    // Suits do not matter; face-down counts went down by one on each pile turned from.
    expect(klockan.view(s, 0).piles.map((p) => p.faceDown)).toEqual([
      4, 4, 4, 3, 4, 4, 3, 4, 4, 4, 3, 3, 3,
    ])
  })

  it('[K-3] a pile takes four face-up cards; a card whose pile already shows three is placed as its fourth', () => {
    // Four sevens in a row: the seventh pile ends with all four face up and is turned on from.
    const chain = parseCards('7S 7H 7D 7C 5S')
    const s = turn(setupDeck(deckFromChain('standard', chain)), 5)
    expect(s.piles[6]!.up).toEqual(parseCards('7S 7H 7D 7C'))
    expect(s.piles[6]!.down).toEqual([])
    expect(s.current).toBe(4)
  })

  it('[K-4] the fourth king as the 52nd card wins: every pile ends with four face-up cards', () => {
    // Any order of the 52 cards that ends with a king is the chain of exactly one deal.
    const rng = Rng.seeded('k4-win')
    const others = rng.shuffle(fullDeck().filter((c) => c !== parseCards('KH')[0]))
    const chain = [...others, ...parseCards('KH')]
    let s = setupDeck(deckFromChain('standard', chain))
    const order: Card[] = []
    while (s.phase !== 'over') {
      expect(klockan.legalMoves(s, 0)).toEqual([{ type: 'turn' }])
      s = turn(s)
      order.push(s.last!.card)
    }
    expect(order).toEqual(chain)
    expect(klockan.outcome(s)).toEqual({
      won: true,
      faceDown: 0,
      turned: 52,
      rescued: false,
      loser: null,
      winner: null,
    })
    expect(s.piles.every((p) => p.up.length === 4 && p.down.length === 0)).toBe(true)
    expect(s.recent.at(-1)).toEqual({ t: 'end', won: true, faceDown: 0, loser: null })
  })

  it('[K-4] the fourth king ends the game at once; the result is the face-down cards left', () => {
    const chain = parseCards('KS 3D KH 3C KD 3S 3H KC')
    let s = setupDeck(deckFromChain('standard', chain))
    s = turn(s, 7)
    expect(s.phase).toBe('turn')
    s = turn(s)
    expect(s.phase).toBe('over')
    expect(s.turn).toBeNull()
    expect(s.current).toBeNull()
    expect(klockan.outcome(s)).toMatchObject({ won: false, faceDown: 44, turned: 8 })
    expect(s.piles[12]!.up).toEqual(parseCards('KS KH KD KC'))
    expect(klockan.legalMoves(s, 0)).toEqual([])
    expect(klockan.activeSeats(s)).toEqual([])
    refuse(s, { type: 'turn' }, 'GAME_OVER')
    refuse(s, { type: 'rescue', pile: 0 }, 'GAME_OVER')
  })

  it('[K-4] there are no decisions: the only legal move is to turn, at every step of every game', () => {
    for (let g = 0; g < 20; g++) {
      let s = klockan.setup({}, 1, { seed: `k4-${g}` })
      let n = 0
      while (s.phase !== 'over') {
        expect(klockan.legalMoves(s, 0)).toEqual([{ type: 'turn' }])
        expect(klockanLegalMovesFromView(klockan.view(s, 0))).toEqual([{ type: 'turn' }])
        expect(klockanLegalMovesFromView(klockan.view(s, 'spectator'))).toEqual([])
        s = turn(s)
        n++
      }
      const o = klockan.outcome(s)!
      expect(o.turned).toBe(n)
      // The chain stops only in the centre, with the fourth king (every other pile still has a
      // face-down card for each card of its rank not yet placed).
      expect(s.piles[12]!.up).toHaveLength(4)
      expect(s.last!.to).toBe(12)
      expect(o.faceDown).toBe(52 - n)
      expect(o.won).toBe(n === 52)
    }
  })
})

describe('Klockan: the rescue (K-5)', () => {
  // Four kings in a row from the centre; the other 48 cards fill the piles in deck order.
  const chain = parseCards('KS KH KD KC')
  const deck = deckFromChain('rescue', chain)
  const atFourthKing = (): KlockanState => turn(setupDeck(deck, 'rescue'), 4)

  it('[K-5] when the fourth king is turned with face-down cards left, the player may choose any face-down card or decline', () => {
    const s = atFourthKing()
    expect(s.phase).toBe('rescue')
    expect(s.current).toBeNull()
    expect(s.turn).toBe(0)
    expect(s.recent.at(-1)).toEqual({ t: 'rescue-offered', seat: 0, faceDown: 48 })
    const moves = klockan.legalMoves(s, 0)
    expect(moves).toHaveLength(49)
    expect(moves).toContainEqual({ type: 'rescue', pile: 0, depth: 3 })
    expect(moves).toContainEqual({ type: 'decline' })
    expect(moves).not.toContainEqual({ type: 'rescue', pile: 12, depth: 0 })
    expect(klockanLegalMovesFromView(klockan.view(s, 0))).toEqual(moves)
    const v = klockan.view(s, 0)
    expect(v.rescueAvailable).toBe(true)
    expect(klockan.outcome(s)).toBeUndefined()
    refuse(s, { type: 'turn' }, 'RESCUE_PENDING')
  })

  it('[K-5] the king takes the chosen card’s place face down; the chosen card is played by K-3 and the chain goes on', () => {
    const s0 = atFourthKing()
    const pile0 = s0.piles[0]!.down
    const chosen = pile0[0]! // depth 3: the deepest of four
    const s = play(s0, { type: 'rescue', pile: 0, depth: 3 })
    expect(s.phase).toBe('turn')
    expect(s.piles[0]!.down).toEqual([parseCards('KC')[0], ...pile0.slice(1)])
    expect(s.piles[12]!.up).toEqual(parseCards('KS KH KD'))
    const to = klockanHour(chosen) - 1
    expect(s.piles[to]!.up.at(-1)).toBe(chosen)
    expect(s.current).toBe(to)
    expect(s.turned).toBe(5)
    expect(s.rescue).toEqual({
      seat: 0,
      king: parseCards('KC')[0],
      card: chosen,
      pile: 0,
      depth: 3,
      below: 0,
    })
    const v = klockan.view(s, 'spectator')
    expect(v.rescueAvailable).toBe(false)
    expect(v.rescue?.kingDepth).toBe(3)
    expect(s.recent).toEqual([
      { t: 'rescue', seat: 0, king: parseCards('KC')[0], pile: 0, depth: 3, card: chosen, to },
    ])
  })

  it('[K-5] the depth defaults to the top face-down card, and the rescue is used once: the king turned again ends the game', () => {
    const s0 = atFourthKing()
    const top = s0.piles[5]!.down.at(-1)!
    let s = play(s0, { type: 'rescue', pile: 5 })
    expect(s.rescue?.card).toBe(top)
    expect(s.rescue?.depth).toBe(0)
    expect(s.piles[5]!.down.at(-1)).toBe(parseCards('KC')[0])
    while (s.phase === 'turn') s = turn(s)
    expect(s.phase).toBe('over')
    expect(s.last?.card).toBe(parseCards('KC')[0])
    expect(s.last?.from).toBe(5)
    const o = klockan.outcome(s)!
    expect(o.rescued).toBe(true)
    expect(o.faceDown).toBe(klockan.view(s, 0).faceDown)
    expect(o.won).toBe(o.faceDown === 0)
    expect(klockan.view(s, 0).rescue?.kingDepth).toBeNull()
  })

  it('[K-5] the simple rescue rules choose from the view: the fullest pile (lowest first), its deepest or top card', () => {
    let s = atFourthKing()
    const v = klockan.view(s, 0)
    expect(klockanRescueMove(v, 'deepest-of-fullest')).toEqual({
      type: 'rescue',
      pile: 0,
      depth: 3,
    })
    expect(klockanRescueMove(v, 'top-of-fullest')).toEqual({ type: 'rescue', pile: 0, depth: 0 })
    expect(klockanRescueMove(v, 'decline')).toEqual({ type: 'decline' })
    s = klockanRunToEnd(s, 'deepest-of-fullest')
    expect(s.rescue).toMatchObject({ pile: 0, depth: 3, below: 0 })
  })

  it('[K-5] a king put above the deepest face-down card of its pile is turned while that pile still has cards: such a rescue never wins', () => {
    // Hence the deepest card: then the rescue wins exactly when the pile's last visit is the
    // chain's last, with probability faceDown(pile) / faceDown(all) — best for the fullest pile.
    let tried = 0
    for (let g = 0; g < 200; g++) {
      let s = klockan.setup({ variant: 'rescue' }, 1, { seed: `k5-above-${g}` })
      while (s.phase === 'turn') s = turn(s)
      const pile = s.piles.findIndex((p) => p.down.length >= 2)
      if (s.phase !== 'rescue' || pile < 0) continue
      tried++
      const depth = g % (s.piles[pile]!.down.length - 1)
      const end = klockanRunToEnd(play(s, { type: 'rescue', pile, depth }))
      expect(klockan.outcome(end)).toMatchObject({ won: false, rescued: true })
      expect(end.last?.card).toBe(end.rescue?.king)
    }
    expect(tried).toBeGreaterThan(100)
  })

  it('[K-5] declining ends the game as lost', () => {
    const s = play(atFourthKing(), { type: 'decline' })
    expect(klockan.outcome(s)).toMatchObject({ won: false, faceDown: 48, rescued: false })
    expect(s.recent).toEqual([
      { t: 'decline', seat: 0 },
      { t: 'end', won: false, faceDown: 48, loser: null },
    ])
  })

  it('[K-5] a rescue can win: the king put back is the last card turned', () => {
    let found = 0
    for (let g = 0; g < 200 && found < 3; g++) {
      const end = klockanRunToEnd(
        klockan.setup({ variant: 'rescue' }, 1, { seed: `k5-${g}` }),
        'deepest-of-fullest',
      )
      const o = klockan.outcome(end)!
      if (!o.rescued || !o.won) continue
      found++
      expect(o.turned).toBe(53)
      expect(end.last?.card).toBe(end.rescue?.king)
      expect(end.piles.every((p) => p.down.length === 0 && p.up.length === 4)).toBe(true)
    }
    expect(found).toBe(3)
  })

  it('[K-5] no rescue is offered when the fourth king is the 52nd card, nor in the standard game', () => {
    const others = fullDeck().filter((c) => c !== parseCards('KD')[0])
    const win = klockanRunToEnd(
      setupDeck(deckFromChain('rescue', [...others, ...parseCards('KD')]), 'rescue'),
    )
    expect(klockan.outcome(win)).toMatchObject({ won: true, rescued: false, turned: 52 })
    const std = turn(setupDeck(deck), 4)
    expect(std.phase).toBe('over')
  })

  it('[K-5] a rescue is refused with a code when not offered, or naming no face-down card', () => {
    const fresh = setupDeck(deck, 'rescue')
    refuse(fresh, { type: 'rescue', pile: 0, depth: 0 }, 'NO_RESCUE')
    refuse(fresh, { type: 'decline' }, 'NO_RESCUE')
    refuse(turn(setupDeck(deck), 1), { type: 'rescue', pile: 0 }, 'NO_RESCUE')
    const s = atFourthKing()
    for (const pile of [-1, 13, 1.5, '3', null, undefined]) {
      refuse(s, { type: 'rescue', pile }, 'BAD_PILE')
    }
    refuse(s, { type: 'rescue', pile: 12 }, 'NO_FACE_DOWN')
    for (const depth of [4, -1, 0.5, '0', null]) {
      refuse(s, { type: 'rescue', pile: 3, depth }, 'BAD_DEPTH')
    }
  })
})

describe('Klockan för två (K-6)', () => {
  it('[K-6] two players turn one card each in turn, seat 0 first; the other seat is refused', () => {
    const s0 = klockan.setup({}, 2, { seed: 'k6' })
    expect(klockan.activeSeats(s0)).toEqual([0])
    expect(klockan.legalMoves(s0, 1)).toEqual([])
    refuse(s0, { type: 'turn' }, 'NOT_YOUR_TURN', 1)
    refuse(s0, { type: 'turn' }, 'NOT_A_SEAT', 2)
    const s1 = play(s0, { type: 'turn' }, 0)
    expect(s1.last?.seat).toBe(0)
    expect(klockan.activeSeats(s1)).toEqual([1])
    refuse(s1, { type: 'turn' }, 'NOT_YOUR_TURN', 0)
    const v = klockan.view(s1, 1)
    expect(klockanLegalMovesFromView(v)).toEqual([{ type: 'turn' }])
    expect(klockanLegalMovesFromView(klockan.view(s1, 0))).toEqual([])
  })

  it('[K-6] whoever turns the fourth king loses, also when it is the last card', () => {
    // Fourth king as card 8: seat 1 turned it.
    let s = turn(
      setupDeck(deckFromChain('standard', parseCards('KS 3D KH 3C KD 3S 3H KC')), 'standard', 2),
      8,
    )
    expect(klockan.outcome(s)).toMatchObject({ won: false, loser: 1, winner: 0, turned: 8 })
    expect(s.recent.at(-1)).toEqual({ t: 'end', won: false, faceDown: 44, loser: 1 })
    // Fourth king as card 5: seat 0.
    s = turn(setupDeck(deckFromChain('standard', parseCards('KS KH 2D KD KC')), 'standard', 2), 5)
    expect(klockan.outcome(s)).toMatchObject({ loser: 0, winner: 1 })
    // Fourth king as card 52: the patience goes out, and seat 1 still loses.
    const others = fullDeck().filter((c) => c !== parseCards('KS')[0])
    s = klockanRunToEnd(
      setupDeck(deckFromChain('standard', [...others, ...parseCards('KS')]), 'standard', 2),
    )
    expect(klockan.outcome(s)).toMatchObject({ won: true, loser: 1, winner: 0, turned: 52 })
  })

  it('[K-6] a table alternates who starts: `first` turns the first card, the turns alternate from it', () => {
    const s0 = klockan.setup({ first: 1 }, 2, { seed: 'k6-first' })
    expect(klockan.activeSeats(s0)).toEqual([1])
    refuse(s0, { type: 'turn' }, 'NOT_YOUR_TURN', 0)
    const s1 = play(s0, { type: 'turn' }, 1)
    expect(klockan.activeSeats(s1)).toEqual([0])
    const end = klockanRunToEnd(klockan.setup({ first: 1 }, 2, { seed: 'k6-first' }))
    const o = klockan.outcome(end)!
    expect(o.loser).toBe(o.turned % 2)
    expect(() => klockan.setup({ first: 1 }, 1, { seed: 'x' })).toThrow(RangeError)
  })

  it('[K-6] decided: för två goes with twelve piles and two decks, not with the rescue', () => {
    expect(() => klockan.setup({ variant: 'rescue' }, 2, { seed: 'x' })).toThrow(RangeError)
    for (const variant of ['twelve', 'twoDecks'] as const) {
      const end = klockanRunToEnd(klockan.setup({ variant }, 2, { seed: `k6-${variant}` }))
      const o = klockan.outcome(end)!
      expect(o.loser).toBe((o.turned - 1) % 2)
      expect(end.last?.seat).toBe(o.loser)
    }
  })
})

describe('Klockan variants', () => {
  it('[K-7] twelve piles: no kings, 48 cards in twelve piles of four, the first card from pile 12', () => {
    const s = klockan.setup({ variant: 'twelve' }, 1, { seed: 'k7' })
    expect(s.piles).toHaveLength(12)
    expect(s.piles.every((p) => p.down.length === 4)).toBe(true)
    expect(kings(allCards(s))).toEqual([])
    expect(s.current).toBe(11)
    expect(turn(s).last?.from).toBe(11)
    const withKing = klockanCards('twelve').slice(1).concat(parseCards('KS'))
    expect(() => setupDeck(withKing, 'twelve')).toThrow(RangeError)
    expect(() => setupDeck(fullDeck(), 'twelve')).toThrow(RangeError)
  })

  it('[K-7] the game ends when a card must be turned from a pile with no face-down card: the fourth queen', () => {
    for (let g = 0; g < 100; g++) {
      const end = klockanRunToEnd(klockan.setup({ variant: 'twelve' }, 1, { seed: `k7-${g}` }))
      const o = klockan.outcome(end)!
      expect(end.last?.to).toBe(11)
      expect(end.piles[11]!.up).toHaveLength(4)
      expect(end.piles[11]!.down).toHaveLength(0)
      expect(o.faceDown).toBe(48 - o.turned)
    }
  })

  it('[K-7] it is won when all 48 are face up: the fourth queen as the last card', () => {
    const rng = Rng.seeded('k7-win')
    const q = parseCards('QC')[0]!
    const chain = [...rng.shuffle(klockanCards('twelve').filter((c) => c !== q)), q]
    const end = klockanRunToEnd(setupDeck(deckFromChain('twelve', chain), 'twelve'))
    expect(klockan.outcome(end)).toMatchObject({ won: true, faceDown: 0, turned: 48 })
  })

  it('[K-8] two decks: 26 piles, two per hour side by side, dealt left to right, the first card from the left centre pile', () => {
    const deck = fullDeck(2)
    const s = setupDeck(deck, 'twoDecks')
    expect(s.piles).toHaveLength(26)
    expect(s.piles.map((p) => `${p.hour}${p.side ? "'" : ''}`).slice(0, 4)).toEqual([
      '1',
      "1'",
      '2',
      "2'",
    ])
    expect(s.piles.slice(24).map((p) => [p.hour, p.side])).toEqual([
      [13, 0],
      [13, 1],
    ])
    expect(s.piles[5]!.down).toEqual([deck[5], deck[31], deck[57], deck[83]])
    const t = turn(s)
    expect(t.last?.from).toBe(24)
    expect(t.last?.card).toBe(deck[102])
  })

  it('[K-8] a card goes under the pile of its rank with more face-down cards, the left one on a tie', () => {
    // Centre-left top 5S: both fives have four, a tie → left (pile 8). Its top 5H: the left five
    // now has three → right (pile 9). Its top 5D': the left has three, the right three → left.
    const chain = parseCards("5S 5H 5D' KC")
    const s = turn(setupDeck(deckFromChain('twoDecks', chain), 'twoDecks'), 4)
    expect(s.piles[8]!.up).toEqual(parseCards("5S 5D'"))
    expect(s.piles[9]!.up).toEqual(parseCards('5H'))
    // A king with the left centre at three and the right at four goes right.
    expect(s.piles[25]!.up).toEqual(parseCards('KC'))
    expect(s.current).toBe(25)
  })

  it('[K-8] the game ends when the eighth king is placed', () => {
    for (let g = 0; g < 60; g++) {
      const end = klockanRunToEnd(klockan.setup({ variant: 'twoDecks' }, 1, { seed: `k8-${g}` }))
      const o = klockan.outcome(end)!
      expect(klockanHour(end.last!.card)).toBe(13)
      expect(kings([...end.piles[24]!.up, ...end.piles[25]!.up])).toHaveLength(8)
      expect(end.piles[24]!.down.length + end.piles[25]!.down.length).toBe(0)
      expect(o.faceDown).toBe(104 - o.turned)
    }
    const rng = Rng.seeded('k8-win')
    const k = parseCards("KH'")[0]!
    const chain = [...rng.shuffle(fullDeck(2).filter((c) => c !== k)), k]
    const win = klockanRunToEnd(setupDeck(deckFromChain('twoDecks', chain), 'twoDecks'))
    expect(klockan.outcome(win)).toMatchObject({ won: true, turned: 104, faceDown: 0 })
  })
})

describe('Klockan: setup, refusals, views', () => {
  it('[K-1] setup refuses bad decks, seat counts and variants', () => {
    expect(() => setupDeck(fullDeck().slice(1))).toThrow(RangeError)
    expect(() => setupDeck([...fullDeck().slice(1), 1])).toThrow(RangeError)
    expect(() => setupDeck([...fullDeck().slice(1), 52])).toThrow(RangeError)
    expect(() => setupDeck(fullDeck(2).slice(0, 103), 'twoDecks')).toThrow(RangeError)
    expect(() => klockan.setup({}, 3, { seed: 'x' })).toThrow(RangeError)
    expect(() => klockan.setup({}, 0, { seed: 'x' })).toThrow(RangeError)
    expect(() =>
      klockan.setup({ variant: 'thirteen' as KlockanVariant }, 1, { seed: 'x' }),
    ).toThrow(RangeError)
    // A seed reproduces the deal.
    expect(klockan.setup({}, 1, { seed: 'same' })).toEqual(klockan.setup({}, 1, { seed: 'same' }))
    expect(klockan.setup({}, 1, { seed: 'same' }).deck).toEqual(klockanDeck('standard', 'same'))
  })

  it('[K-4] apply never throws and refuses nonsense with a code, changing nothing', () => {
    const s = klockan.setup({}, 1, { seed: 'junk' })
    for (const m of [null, undefined, 7, 'turn', [], {}, { type: 'run' }, { type: 'step' }]) {
      refuse(s, m, 'BAD_MOVE')
    }
    refuse(s, { type: 'turn' }, 'NOT_A_SEAT', 1)
    refuse(s, { type: 'turn' }, 'NOT_A_SEAT', -1)
    refuse(s, { type: 'turn' }, 'NOT_A_SEAT', 0.5)
    const over = klockanRunToEnd(s)
    refuse(over, { type: 'turn' }, 'GAME_OVER')
    refuse(over, { type: 'decline' }, 'GAME_OVER')
  })

  it('[K-4] views hide every face-down card from players and spectators alike and show the card just turned', () => {
    let s = setupDeck(deckFromChain('rescue', parseCards('KS KH KD KC')), 'rescue')
    s = turn(s, 4)
    s = play(s, { type: 'rescue', pile: 2, depth: 1 })
    for (let i = 0; i < 10 && s.phase === 'turn'; i++) s = turn(s)
    const views = (['spectator', 0] as Viewer[]).map((v) => klockan.view(s, v))
    expect({ ...views[0], viewer: 0 }).toEqual(views[1])
    const shown = new Set(viewCards(views[0]))
    for (const c of hiddenCards(s)) expect(shown.has(c)).toBe(false)
    expect(views[0]!.last?.card).toBe(s.last?.card)
    expect(JSON.stringify(views[0])).not.toContain('"down"')
    expect(JSON.stringify(views[0])).not.toContain('"deck"')
  })
})

// ---------------------------------------------------------------------------------------------
// Seeded playouts: every invariant after every move

const keyOf = (m: KlockanMove): string =>
  m.type === 'rescue' ? `r:${String(m.pile)}:${String(m.depth ?? 0)}` : String(m.type)

function klockanSpec(
  variant: KlockanVariant,
  seats: 1 | 2,
): PlayoutSpec<KlockanState, KlockanMove, KlockanView> {
  return {
    game: klockan as never,
    seats,
    viewers: seats === 2 ? [0, 1, 'spectator'] : [0, 'spectator'],
    setup: (seed) => klockan.setup({ variant }, seats, { seed }),
    choose: (s, rng) => {
      const seat = klockan.activeSeats(s)[0]
      if (seat === undefined) return null
      // The direct check besides the harness's: no hidden card's id in any view.
      const hidden = hiddenCards(s)
      for (const v of [0, 1, 'spectator'] as const) {
        const shown = new Set(viewCards(klockan.view(s, v)))
        for (const c of hidden) if (shown.has(c)) throw new Error(`${formatCard(c)} leaked`)
      }
      const moves = klockan.legalMoves(s, seat)
      const fromView = klockanLegalMovesFromView(klockan.view(s, seat))
      if (JSON.stringify(fromView) !== JSON.stringify(moves)) {
        throw new Error('the view gives other legal moves')
      }
      // Rescue moves at random (declining now and then): every choice gets exercised.
      return { seat, move: rng.float() < 0.1 ? moves.at(-1)! : rng.pick(moves) }
    },
    cards: allCards,
    deckSize: klockanCards(variant).length,
    // Face-up cards, and the rescued king, were seen by everyone.
    known: (s) => [...s.piles.flatMap((p) => p.up), ...(s.rescue ? [s.rescue.king] : [])],
    rearrange: (s, _v, movable, shuffle) => {
      const flat = permuteWithin(
        s.piles.flatMap((p) => p.down),
        movable,
        shuffle,
      )
      let i = 0
      const piles = s.piles.map((p) => ({ ...p, down: p.down.map(() => flat[i++]!) }))
      return { ...s, piles }
    },
    junk: (s, rng) => [
      { seat: rng.int(seats + 1), move: { type: 'turn' } },
      { seat: s.turn ?? 0, move: { type: 'rescue', pile: rng.int(30) - 2, depth: rng.int(6) - 1 } },
      { seat: s.turn ?? 0, move: { type: 'decline' } },
      { seat: 0, move: rng.pick([null, 3, { type: 'run' }, { type: 'rescue' }, { pile: 1 }]) },
    ],
    key: (m) => (m && typeof m === 'object' ? keyOf(m) : 'bad'),
    maxMoves: 200,
  }
}

describe('Klockan playouts', () => {
  const cases: [KlockanVariant, 1 | 2, number][] = [
    ['standard', 1, 100],
    ['rescue', 1, 150],
    ['twelve', 1, 50],
    ['twoDecks', 1, 25],
    ['standard', 2, 50],
    ['twoDecks', 2, 15],
  ]
  for (const [variant, seats, games] of cases) {
    it(`[K-4][K-5][K-6] ${games} seeded ${variant} games for ${seats}: cards conserved, no face-down card in any view, bad moves refused`, () => {
      const stats: PlayoutStats = { games: 0, moves: 0, capped: 0, junkTried: 0 }
      const spec = klockanSpec(variant, seats)
      for (let g = 0; g < games; g++) {
        const end = playout(spec, `klockan-${variant}-${seats}-${g}`, stats)
        expect(klockan.outcome(end)).toBeDefined()
      }
      expect(stats.games).toBe(games)
      expect(stats.capped).toBe(0)
    })
  }
})

// ---------------------------------------------------------------------------------------------
// Fast path and figures

describe('Klockan: the simulation fast path and the win rate', () => {
  it('[K-4][K-5][K-7][K-8] the fast path gives the same result as the step-by-step engine', () => {
    for (const variant of KLOCKAN_VARIANTS) {
      const rules: readonly KlockanRescueRule[] =
        variant === 'rescue' ? KLOCKAN_RESCUE_RULES : ['decline']
      for (const rule of rules) {
        for (let g = 0; g < 300; g++) {
          const seed = `fast-${variant}-${g}`
          const o = klockan.outcome(klockanRunToEnd(klockan.setup({ variant }, 1, { seed }), rule))!
          const f = klockanFast(klockanDeck(variant, seed), variant, rule)
          expect(f, `${variant} ${rule} ${seed}`).toEqual({
            won: o.won,
            faceDown: o.faceDown,
            turned: o.turned,
            rescued: o.rescued,
          })
        }
      }
    }
  })

  it('[K-4] the standard game goes out one time in thirteen: 20,000 deals through the engine and 200,000 on the fast path', () => {
    // Exact: a won deal is the same thing as an order of the 52 cards ending with a king (the
    // chain determines the deal, K-3), so P(win) = 4/52 = 1/13. 20,000 deals: standard error
    // 0.19 points, tolerance 5 SE = ±0.94 points — far from the wrong readings one could make
    // (a loss counted as a win with one face-down card left: ≈ 2/13 = 15.4%; a rescue applied by
    // mistake: over 20%), but not from 1/12 (8.33%, the twelve-pile rate): the 200,000 fast-path
    // deals (SE 0.06 points, ±0.30 at 5 SE) tell 1/13 from 1/12 by more than 10 SE.
    const p0 = 1 / 13
    const rate = (wins: number, n: number) => ({
      p: wins / n,
      se: Math.sqrt((p0 * (1 - p0)) / n),
    })
    let wins = 0
    const n1 = 20_000
    const rng = Rng.seeded('klockan-rate')
    for (let g = 0; g < n1; g++) {
      const s = setupDeck(rng.shuffle(fullDeck()))
      if (klockan.outcome(klockanRunToEnd(s))!.won) wins++
    }
    const a = rate(wins, n1)
    expect(Math.abs(a.p - p0)).toBeLessThan(5 * a.se)
    expect(Math.abs(2 / 13 - p0)).toBeGreaterThan(20 * a.se)

    const n2 = 200_000
    let fastWins = 0
    let twelveWins = 0
    const deck = fullDeck()
    const twelve = klockanCards('twelve')
    for (let g = 0; g < n2; g++) {
      if (klockanFast(rng.shuffle(deck), 'standard').won) fastWins++
      if (g < n2 / 2 && klockanFast(rng.shuffle(twelve), 'twelve').won) twelveWins++
    }
    const b = rate(fastWins, n2)
    expect(Math.abs(b.p - p0)).toBeLessThan(5 * b.se)
    expect(Math.abs(1 / 12 - p0)).toBeGreaterThan(10 * b.se)
    // K-7 by the same argument: 4/48 = 1/12 (100,000 deals: ±0.44 points at 5 SE, so 1/13 is
    // more than 7 SE away).
    const t = twelveWins / (n2 / 2)
    expect(Math.abs(t - 1 / 12)).toBeLessThan(5 * Math.sqrt(((1 / 12) * (11 / 12)) / (n2 / 2)))
  })
})
