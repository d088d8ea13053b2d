/**
 * Simple players for simulations, benchmarks and tests. They see what a person in their seat
 * sees (a view and the legal moves), never the state. Pure: randomness comes from the caller's Rng.
 */
import type { AcesUpMove, AcesUpView } from './aces-up.ts'
import { canDiscard } from './aces-up.ts'
import { type Card, RANK_ACE, RANK_TEN, RANK_TWO, rankOf } from './cards.ts'
import type { IdiotMove, IdiotView } from './idiot.ts'
import type { Rng } from './rng.ts'

export type Strategy<View, Move> = (view: View, legal: readonly Move[], rng: Rng) => Move

/** Uniform over the legal moves (picking up voluntarily included). */
export const randomMove = <V, M>(_view: V, legal: readonly M[], rng: Rng): M => rng.pick(legal)

/** How much a card is worth keeping for later: specials most, then by rank. */
const keepValue = (c: Card): number => {
  const r = rankOf(c)
  if (r === RANK_TEN) return 20
  if (r === RANK_TWO) return 19
  return r
}

/**
 * A simple greedy Idiot player: before the start it puts its most valuable cards (10, 2, then
 * high ranks) face up; in play it lays the lowest ordinary rank it can, all its cards of that
 * rank at once, keeps 2s and 10s until nothing else goes, and picks up only when it must.
 */
export const idiotGreedy: Strategy<IdiotView, IdiotMove> = (view, legal) => {
  if (view.phase === 'swap') {
    let best: IdiotMove | null = null
    let gain = 0
    for (const m of legal) {
      if (m.type !== 'swap') continue
      const g = keepValue(m.hand) - keepValue(m.faceUp)
      if (g > gain) {
        gain = g
        best = m
      }
    }
    return best ?? { type: 'ready' }
  }
  let bestPlay: IdiotMove | null = null
  let bestKey = Number.POSITIVE_INFINITY
  for (const m of legal) {
    if (m.type !== 'play') continue
    // Lower key is better: ordinary ranks first, lowest first, more cards first; then 2s, then 10s.
    const key = keepValue(m.cards[0]!) * 10 - m.cards.length
    if (key < bestKey) {
      bestKey = key
      bestPlay = m
    }
  }
  return bestPlay ?? legal.find((m) => m.type === 'pickup') ?? legal[0]!
}

/** How many cards a run of every available discard removes from `piles` (A-4; the order does not matter). */
function discardsAfter(piles: (readonly Card[])[]): number {
  const p = piles.map((x) => x.slice())
  let n = 0
  for (let again = true; again; ) {
    again = false
    for (let i = 0; i < p.length; i++) {
      if (canDiscard(p, i)) {
        p[i]!.pop()
        n++
        again = true
      }
    }
  }
  return n
}

/**
 * A greedy Aces Up player: discards whatever it can; fills an empty pile with the top card of a
 * pile of two or more, choosing the move after which most cards can be discarded (then an ace
 * on top, then the tallest pile); deals when nothing else is left, and ends the game when the
 * stock is out. It never keeps a card back and looks one move ahead at most.
 */
export const acesUpGreedy: Strategy<AcesUpView, AcesUpMove> = (view, legal) => {
  const discard = legal.find((m) => m.type === 'discard')
  if (discard) return discard
  const piles = view.piles
  const empty = piles.findIndex((p) => p.length === 0)
  if (empty >= 0) {
    let from = -1
    let score = -1
    piles.forEach((p, i) => {
      if (p.length < 2) return
      const after = piles.map((x) => x.slice())
      after[empty] = [after[i]!.pop()!]
      const aceOnTop = rankOf(p[p.length - 1]!) === RANK_ACE ? 1 : 0
      const s = discardsAfter(after) * 10_000 + aceOnTop * 1000 + p.length
      if (s > score) {
        score = s
        from = i
      }
    })
    if (from >= 0) return { type: 'move', from, to: empty }
  }
  return legal.find((m) => m.type === 'deal') ?? legal.find((m) => m.type === 'finish') ?? legal[0]!
}
