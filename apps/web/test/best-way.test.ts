// "Show the best way" (issue 16, A-16): the solver's line replayed on the engine, and the game as
// played at the same deal, from a duel recorded as the server records it.
import {
  type AcesUpState,
  cardsLeft,
  type DuelState,
  fullDeck,
  Rng,
  replayRecord,
  solveAcesUp,
} from '@kortbord/engine'
import { describe, expect, it } from 'vitest'
import { recordedGame } from '../../../packages/engine/test/record-games.ts'
import { atDeal, finishedGames, lineStates, ownStates, stepWords } from '../src/lib/best-way.ts'

describe('the best way (issue 16)', () => {
  it('[A-16] the solver’s line, replayed on the engine, leaves the cards it promised', () => {
    for (const piles of [4, 5, 8] as const) {
      for (let i = 0; i < 5; i++) {
        const deck = Rng.seeded(`best-way-${piles}-${i}`).shuffle(fullDeck(piles === 8 ? 2 : 1))
        const r = solveAcesUp(deck, piles)
        const states = lineStates(deck, piles, r.line)
        expect(states[0]!.piles.flat()).toEqual(deck.slice(0, piles))
        expect(cardsLeft(states.at(-1)!.piles)).toBe(r.best)
        expect(states.at(-1)!.stock).toEqual([])
      }
    }
  })

  it('a line the engine refuses is an error, not a wrong picture', () => {
    const deck = Rng.seeded('best-way-bad').shuffle(fullDeck(1))
    expect(() => lineStates(deck, 4, [{ type: 'move', from: 0, to: 1 }])).toThrow(/not legal/)
  })

  it('says what each move does with the card it takes', () => {
    const deck = Rng.seeded('best-way-words').shuffle(fullDeck(1))
    const r = solveAcesUp(deck, 4)
    const states = lineStates(deck, 4, r.line)
    r.line.forEach((m, k) => {
      const w = stepWords(states[k]!, m)
      expect(w.kind).toBe(m.type)
      if (m.type === 'discard')
        expect(states[k + 1]!.discard.at(-1)).toBe((w as { card: number }).card)
      if (m.type === 'move')
        expect(states[k + 1]!.piles[m.to]).toEqual([(w as { card: number }).card])
    })
  })

  it('[A-10] the game as played: every finished game of a recorded match, at any deal', () => {
    const rec = recordedGame('duel', 'best-way')
    const states = replayRecord(rec).states as DuelState[]
    const games = finishedGames(states.at(-1)!)
    expect(games.length).toBeGreaterThan(0)
    for (const { seat, rec: g } of games) {
      const own = ownStates(states, seat, g.index)
      // It starts at the deal of that game and only moves on.
      expect(own[0]!.deck).toEqual(g.deck)
      expect(own[0]!.moves).toBe(0)
      for (let i = 1; i < own.length; i++) expect(own[i]!.moves).toBeGreaterThan(own[i - 1]!.moves)
      // At a deal, the last position before the next one.
      const at = atDeal(own, 1) as AcesUpState
      expect(at.deals).toBeLessThanOrEqual(1)
      expect(own.filter((s) => s.deals <= 1).at(-1)).toBe(at)
    }
  })
})
