import { describe, expect, it } from 'vitest'
import {
  ACES_UP_HINT_MIN_TRIES,
  ACES_UP_HINT_TRIES,
  type AcesUpMove,
  type AcesUpState,
  acesUpChosen,
  acesUpGreedy,
  acesUpHint,
  acesUpLegalMoves,
  acesUpView,
  applyAcesUp,
  cardsLeft,
  clearGain,
  parseCards,
  Rng,
  sameAcesUpMove,
  setupAcesUp,
  unseenCards,
} from '../src/index.ts'

const apply = (s: AcesUpState, m: AcesUpMove): AcesUpState => {
  const r = applyAcesUp(s, 0, m)
  if (!r.ok) throw new Error(`${JSON.stringify(m)}: ${r.error.code}`)
  return r.value
}

const greedyMove = (s: AcesUpState): AcesUpMove =>
  acesUpGreedy(acesUpView(s, 0), acesUpLegalMoves(s), Rng.seeded('greedy'))

const hintMove = (s: AcesUpState, seed: string, tries?: number): AcesUpMove =>
  acesUpHint(acesUpView(s, 0), acesUpLegalMoves(s), Rng.seeded(seed), { tries })!.move

/** Plays a game to its end with `pick`; the cards left and the moves made. */
function play(
  s0: AcesUpState,
  pick: (s: AcesUpState) => AcesUpMove,
): { left: number; moves: number } {
  let s = s0
  let moves = 0
  while (!s.ended) {
    if (++moves > 300) throw new Error('the game goes round in circles')
    s = apply(s, pick(s))
  }
  return { left: cardsLeft(s.piles), moves }
}

describe('A-17 hints: Idioten alone', () => {
  it('[A-17][A-15][I-15] the hint reads the view only: another order of the same stock gives the same hint', () => {
    const s = setupAcesUp({ piles: 4 }, 1, { seed: 'hint-view' })
    let a = apply(s, { type: 'deal' })
    a = apply(a, { type: 'deal' })
    // The same table, discards and stock size, with the stock's cards in reverse order.
    const b: AcesUpState = { ...a, stock: a.stock.slice().reverse() }
    expect(acesUpView(b, 0)).toEqual(acesUpView(a, 0))
    const ha = acesUpHint(acesUpView(a, 0), acesUpLegalMoves(a), Rng.seeded('x'), { tries: 40 })
    const hb = acesUpHint(acesUpView(b, 0), acesUpLegalMoves(b), Rng.seeded('x'), { tries: 40 })
    expect(hb).toEqual(ha)
    // The chosen move's own figures are among those weighed.
    expect(acesUpChosen(ha!)).toMatchObject({ move: ha!.move, tries: 40 })
    expect(unseenCards(acesUpView(a, 0)).sort()).toEqual(a.stock.slice().sort())
  })

  it('[A-17] hinted play leaves no more cards than the greedy player it starts from, and never goes round in circles', () => {
    // A seeded sample (the engine README has the figures over more deals).
    let hinted = 0
    let greedy = 0
    let differed = 0
    for (let g = 0; g < 24; g++) {
      const s = setupAcesUp({ piles: 4 }, 1, { seed: `hint-play-${g}` })
      const h = play(s, (x) => hintMove(x, `hint-${g}-${x.moves}`, 40))
      const p = play(s, greedyMove)
      hinted += h.left
      greedy += p.left
      if (h.left !== p.left) differed++
    }
    expect(hinted).toBeLessThanOrEqual(greedy)
    // The hints changed something: else this test would show nothing.
    expect(differed).toBeGreaterThan(0)
  })

  it('[A-17] once the stock is out the hint is exact: never worse than the greedy player from there, and better somewhere', () => {
    let better = 0
    for (let g = 0; g < 60; g++) {
      let s = setupAcesUp({ piles: g % 3 === 0 ? 5 : 4 }, 1, { seed: `hint-end-${g}` })
      while (!s.ended && s.stock.length > 0) s = apply(s, greedyMove(s))
      if (s.ended) continue
      const h = play(s, (x) => hintMove(x, 'end'))
      const p = play(s, greedyMove)
      expect(h.left, `seed hint-end-${g}`).toBeLessThanOrEqual(p.left)
      if (h.left < p.left) better++
    }
    expect(better).toBeGreaterThan(0)
  })

  it('[A-17] a single legal move needs no playouts; undo is never a candidate; a finished game has no hint', () => {
    const s = setupAcesUp({ piles: 4, undo: 'both' }, 1, { seed: 'hint-one' })
    const v = acesUpView(s, 0)
    const only: AcesUpMove[] = [{ type: 'deal' }, { type: 'undo' }]
    const one = acesUpHint(v, only, Rng.seeded('o'))
    expect(one).toEqual({ move: { type: 'deal' }, weighed: [] })
    expect(acesUpChosen(one!)).toBeUndefined()
    const over = play(s, greedyMove)
    expect(over.left).toBeGreaterThanOrEqual(4)
    let end = s
    while (!end.ended) end = apply(end, greedyMove(end))
    expect(acesUpHint(acesUpView(end, 0), acesUpLegalMoves(end), Rng.seeded('o'))).toBeNull()
  })

  it('[A-17] on a slow machine the clock cuts the playouts short, never below the minimum', () => {
    const s = setupAcesUp({ piles: 4 }, 1, { seed: 'hint-clock' })
    const clock = (deadline: number) =>
      acesUpHint(acesUpView(s, 0), acesUpLegalMoves(s), Rng.seeded('c'), {
        deadline,
        now: () => 10,
      })
    expect(clock(5)?.weighed[0]?.tries).toBe(ACES_UP_HINT_MIN_TRIES)
    expect(clock(15)?.weighed[0]?.tries).toBe(ACES_UP_HINT_TRIES)
    const free = acesUpHint(acesUpView(s, 0), acesUpLegalMoves(s), Rng.seeded('c'))
    expect(free?.weighed[0]?.tries).toBe(ACES_UP_HINT_TRIES)
  })

  it('[A-17] each move weighed says how many cards it left clearly more than the chosen one (for a replay’s review)', () => {
    let behindSeen = 0
    let closeSeen = 0
    for (let g = 0; g < 8; g++) {
      let s = setupAcesUp({ piles: 4 }, 1, { seed: `hint-behind-${g}` })
      for (let i = 0; i < 30 && !s.ended; i++) {
        const t = acesUpHint(acesUpView(s, 0), acesUpLegalMoves(s), Rng.seeded(`b${i}`), {
          tries: 40,
        })!
        const chosen = acesUpChosen(t)
        if (chosen !== undefined) {
          expect(chosen.behind).toBe(0)
          for (const w of t.weighed) {
            expect(w.behind).toBeGreaterThanOrEqual(0)
            // Clearly more is more on average; a move that left fewer is never behind.
            if (w.behind > 0) {
              expect(w.behind).toBeCloseTo(w.mean - chosen.mean, 9)
              behindSeen++
            } else if (w.mean > chosen.mean) closeSeen++
          }
        }
        s = apply(s, t.move)
      }
    }
    // Both kinds occur: moves clearly worse, and moves worse only by chance.
    expect(behindSeen).toBeGreaterThan(0)
    expect(closeSeen).toBeGreaterThan(0)
  })

  it('[A-17] a card into any gap is one move: weighed once, into the first gap', () => {
    expect(sameAcesUpMove({ type: 'move', from: 1, to: 0 }, { type: 'move', from: 1, to: 3 })).toBe(
      true,
    )
    expect(sameAcesUpMove({ type: 'move', from: 1, to: 0 }, { type: 'move', from: 2, to: 0 })).toBe(
      false,
    )
    expect(sameAcesUpMove({ type: 'discard', pile: 1 }, { type: 'discard', pile: 2 })).toBe(false)
    expect(sameAcesUpMove({ type: 'deal' }, { type: 'deal' })).toBe(true)
    expect(sameAcesUpMove({ type: 'deal' }, { type: 'finish' })).toBe(false)
    // Two gaps, two piles of two cards: four moves into gaps, two cards to move.
    const s0 = setupAcesUp({ piles: 4 }, 1, { seed: 'hint-gaps' })
    const piles = [parseCards('3C 9D'), [], [], parseCards('5H KS')]
    const onTable = new Set(piles.flat())
    const s: AcesUpState = {
      ...s0,
      piles,
      stock: s0.deck.filter((c) => !onTable.has(c)),
      deals: 1,
      moves: 1,
    }
    expect(acesUpLegalMoves(s).filter((m) => m.type === 'move')).toHaveLength(4)
    const t = acesUpHint(acesUpView(s, 0), acesUpLegalMoves(s), Rng.seeded('g'), { tries: 30 })!
    const into = t.weighed.map((w) => w.move).filter((m) => m.type === 'move')
    expect(into).toEqual([
      { type: 'move', from: 0, to: 1 },
      { type: 'move', from: 3, to: 1 },
    ])
  })

  it('[A-17] a move is clearly better only beyond twice the standard error of the differences', () => {
    expect(clearGain([3, 3, 3, 3], [4, 4, 4, 4])).toBe(1)
    expect(clearGain([4, 4, 4, 4], [3, 3, 3, 3])).toBe(0)
    // One card fewer on average, but as much chance as difference.
    expect(clearGain([1, 7, 1, 7], [4, 6, 2, 8])).toBe(0)
    expect(clearGain([5], [6])).toBe(1)
  })
})
