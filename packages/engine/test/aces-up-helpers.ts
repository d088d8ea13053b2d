import { type AcesUpMove, type AcesUpPiles, acesUp, type Card } from '../src/index.ts'

/**
 * Replays a solver's line through the engine's own rules, `acesUp.apply`: throws at the
 * first move the engine refuses or if the line leaves stock undealt; returns the cards left.
 */
export function replaySolverLine(
  deck: readonly Card[],
  piles: AcesUpPiles,
  line: readonly object[],
): number {
  let s = acesUp.setup({ piles }, 1, { deck })
  for (const [i, m] of line.entries()) {
    const r = acesUp.apply(s, 0, m as never)
    if (!r.ok) throw new Error(`step ${i} ${JSON.stringify(m)} refused: ${r.error.code}`)
    s = r.value
  }
  if (s.stock.length !== 0) throw new Error('the line does not deal the whole stock')
  return s.piles.reduce((n, p) => n + p.length, 0)
}

/** Freezes a value and everything in it, so that any later mutation throws. */
export function deepFreeze<T>(x: T): T {
  if (typeof x === 'object' && x !== null && !Object.isFrozen(x)) {
    Object.freeze(x)
    for (const v of Object.values(x)) deepFreeze(v)
  }
  return x
}

/** `d2` discards pile 2, `m3>0` moves pile 3's top to pile 0, `deal`, `undo`, `finish`. */
export function parseMove(t: string): AcesUpMove {
  if (t === 'deal' || t === 'undo' || t === 'finish') return { type: t }
  const d = /^d(\d)$/.exec(t)
  if (d) return { type: 'discard', pile: Number(d[1]) }
  const m = /^m(\d)>(\d)$/.exec(t)
  if (m) return { type: 'move', from: Number(m[1]), to: Number(m[2]) }
  throw new Error(`bad move in test: ${t}`)
}

/** Every card id a view mentions in a card-valued field. */
export function cardsIn(x: unknown, key = ''): Card[] {
  if (Array.isArray(x)) return x.flatMap((v) => cardsIn(v, key))
  if (typeof x === 'number') {
    return ['piles', 'discard', 'cards', 'card', 'deck', 'final'].includes(key) ? [x] : []
  }
  if (typeof x === 'object' && x !== null) {
    return Object.entries(x).flatMap(([k, v]) => cardsIn(v, k))
  }
  return []
}
