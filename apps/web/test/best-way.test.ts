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
import {
  atDeal,
  finishedGames,
  lineStates,
  ownAt,
  ownStates,
  stepWords,
} from '../src/lib/best-way.ts'
import { LANGS } from '../src/lib/i18n.ts'
import { RECORD_DICTS } from '../src/lib/i18n-records.ts'

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

  it('beside the best way at the deal, the game as played is at the deal too (QA: its pile 4 already emptied)', () => {
    let checked = 0
    let deals = 0
    for (const seed of ['best-way', 'best-way-2', 'best-way-3']) {
      const rec = recordedGame('duel', seed)
      const states = replayRecord(rec).states as DuelState[]
      for (const { seat, rec: g } of finishedGames(states.at(-1)!)) {
        const own = ownStates(states, seat, g.index)
        const line = lineStates(g.deck, g.piles, solveAcesUp(g.deck, g.piles).line)
        // At "The deal (0 of n)": both boards are the cards just dealt, before any move.
        const dealt = ownAt(own, line[0]!.deals, true)!
        expect(dealt.moves).toBe(0)
        expect(dealt.piles).toEqual(line[0]!.piles)
        // Just after each later deal: the same cards on top of every pile the deal laid on.
        line.forEach((b, j) => {
          if (j === 0 || line[j - 1]!.deals === b.deals) return
          const o = ownAt(own, b.deals, true)!
          if (o.deals !== b.deals) return
          b.piles.forEach((pile, p) => {
            if (pile.length > line[j - 1]!.piles[p]!.length)
              expect(o.piles[p]!.at(-1)).toBe(pile.at(-1))
          })
          deals++
        })
        // Between deals, the own game's last position of that deal, as before.
        expect(ownAt(own, 0, false)).toBe(atDeal(own, 0))
        if (own.some((s) => s.deals === 0 && s.moves > 0)) checked++
      }
    }
    // Games whose player moved before the first deal: there the two differ.
    expect(checked).toBeGreaterThan(0)
    expect(deals).toBeGreaterThan(10)
  })

  it('says a deal of the best way as a phrase, and the game as played in natural words (QA pass: "ge", "som spelat")', () => {
    expect(RECORD_DICTS.sv.bwDeal).toBe('ge nästa kort')
    expect(RECORD_DICTS.nb.bwDeal).toBe('del ut neste kort')
    expect(RECORD_DICTS.en.bwDeal).toBe('deal the next cards')
    // The heading over the game as played: "Astrid, som spelat vid samma giv" read "Astrid, who
    // played at the same deal".
    const sv = RECORD_DICTS.sv
    expect(`${sv.asPlayed('Astrid')} ${sv.atSameDeal}`).toBe(
      'Så spelade Astrid lika långt in i talongen',
    )
    const nb = RECORD_DICTS.nb
    expect(`${nb.asPlayed('Astrid')} ${nb.atSameDeal}`).toBe(
      'Slik Astrid spilte ved samme utdeling',
    )
    for (const l of LANGS) {
      // Each step a phrase with its verb, as the other steps are ("kasta sju i ruter").
      expect(RECORD_DICTS[l].bwDeal.split(' ').length, l).toBeGreaterThan(1)
      expect(RECORD_DICTS[l].asPlayed('Astrid'), l).toContain('Astrid')
    }
  })
})
