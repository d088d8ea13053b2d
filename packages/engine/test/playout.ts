/**
 * Seeded random playouts that check invariants after every move.
 * A failure names the game's seed and move number, so it can be replayed and kept as a named test.
 */
import type { Card, GameDef, Result, RuleError, Seat, Viewer } from '../src/index.ts'
import { Rng } from '../src/index.ts'

/** Strict deep equality of JSON-like values (an undefined property is a difference). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false
    return true
  }
  if (Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  if (ka.length !== kb.length) return false
  for (const k of ka) {
    if (!Object.hasOwn(b, k)) return false
    if (!deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
      return false
  }
  return true
}

export interface PlayoutSpec<S, M, V> {
  game: GameDef<S, M, V, unknown, unknown>
  seats: number
  viewers: readonly Viewer[]
  setup(seed: string): S
  /** Chooses the next (seat, move) among the legal moves; null when nobody may act. */
  choose(s: S, rng: Rng): { seat: Seat; move: M } | null
  /** Every card in the state, wherever it is (checked for conservation). */
  cards(s: S): Card[]
  /** The number of distinct cards in `cards(s)`. */
  deckSize: number | ((s: S) => number)
  /** Cards `viewer` may know of in `s` (seen face up, or their own private cards). */
  known(s: S, viewer: Viewer): Iterable<Card>
  /**
   * Rearranges the cards in the places hidden from `viewer` — only those in `movable` — with
   * the given shuffle; returns a new state. I-15's check: the view must not change.
   */
  rearrange(s: S, viewer: Viewer, movable: (c: Card) => boolean, shuffle: (cs: Card[]) => Card[]): S
  /** A few moves to try that are likely illegal (any seat). */
  junk(s: S, rng: Rng): { seat: Seat; move: unknown }[]
  /** A canonical key of a move, to tell whether a junk move happens to be legal. */
  key(m: M): string
  maxMoves: number
}

export interface PlayoutStats {
  games: number
  moves: number
  capped: number
  junkTried: number
}

function fail(seed: string, move: number, what: string): never {
  throw new Error(`playout seed ${JSON.stringify(seed)} move ${move}: ${what}`)
}

/** Plays one seeded game, checking every invariant after every move. */
export function playout<S, M, V>(spec: PlayoutSpec<S, M, V>, seed: string, stats: PlayoutStats): S {
  // Two generators: the game's moves depend on the seed alone, not on what the checks draw.
  const rng = Rng.seeded(`policy:${seed}`)
  const checkRng = Rng.seeded(`check:${seed}`)
  let s = spec.setup(seed)
  const known = new Map<Viewer, Set<Card>>(spec.viewers.map((v) => [v, new Set<Card>()]))
  let n = 0
  for (;;) {
    check(spec, s, seed, n, known, checkRng, stats)
    const choice = spec.choose(s, rng)
    if (choice === null) break
    if (n >= spec.maxMoves) {
      stats.capped++
      break
    }
    // check() has applied every legal move to this very state and proved it unchanged.
    const r = spec.game.apply(s, choice.seat, choice.move) as Result<S, RuleError>
    if (!r.ok) fail(seed, n, `legal move refused: ${JSON.stringify(choice)} → ${r.error.code}`)
    s = r.value
    n++
  }
  stats.games++
  stats.moves += n
  return s
}

function check<S, M, V>(
  spec: PlayoutSpec<S, M, V>,
  s: S,
  seed: string,
  n: number,
  known: Map<Viewer, Set<Card>>,
  rng: Rng,
  stats: PlayoutStats,
): void {
  // Every card in exactly one place.
  const all = spec.cards(s)
  const size = typeof spec.deckSize === 'number' ? spec.deckSize : spec.deckSize(s)
  if (all.length !== size || new Set(all).size !== size) {
    fail(seed, n, `cards not conserved: ${all.length} cards, ${new Set(all).size} distinct`)
  }
  // The state survives a JSON round trip unchanged (no undefined, no Map, no class instance).
  const json = JSON.stringify(s)
  if (!deepEqual(JSON.parse(json), s)) fail(seed, n, 'state changed in a JSON round trip')

  // Every legal move applies (and never mutates the state).
  const legalKeys = new Map<Seat, Set<string>>()
  for (let seat = 0; seat < spec.seats; seat++) {
    const moves = spec.game.legalMoves(s, seat)
    const keys = new Set<string>()
    for (const m of moves) {
      keys.add(spec.key(m))
      const r = spec.game.apply(s, seat, m) as Result<S, RuleError>
      if (!r.ok)
        fail(seed, n, `legal move ${JSON.stringify(m)} of seat ${seat} refused: ${r.error.code}`)
    }
    legalKeys.set(seat, keys)
    if (moves.length > 0 !== spec.game.activeSeats(s).includes(seat)) {
      fail(seed, n, `seat ${seat} has ${moves.length} legal moves but activeSeats says otherwise`)
    }
  }

  // Sampled illegal moves are refused with a code and change nothing.
  for (const j of spec.junk(s, rng)) {
    stats.junkTried++
    const r = spec.game.apply(s, j.seat, j.move as M) as Result<S, RuleError>
    const legal =
      typeof j.move === 'object' &&
      j.move !== null &&
      legalKeys.get(j.seat)?.has(spec.key(j.move as M)) === true
    if (legal) {
      if (!r.ok) fail(seed, n, `legal junk move refused ${JSON.stringify(j)}`)
    } else {
      if (r.ok) fail(seed, n, `illegal move accepted: ${JSON.stringify(j)}`)
      if (typeof r.error.code !== 'string' || !/^[A-Z_]+$/.test(r.error.code) || !r.error.message) {
        fail(seed, n, `refusal without a proper code: ${JSON.stringify(r.error)}`)
      }
    }
  }

  // Neither the legal moves nor the junk changed the state they were applied to.
  if (JSON.stringify(s) !== json) fail(seed, n, 'apply mutated its input')

  // I-15 / A-15: views leak nothing. Learn what each viewer legitimately knows from the rules
  // (never from the view), then shuffle everything else among the hidden places.
  for (const v of spec.viewers) {
    const k = known.get(v)!
    for (const c of spec.known(s, v)) k.add(c)
    const view = spec.game.view(s, v)
    const shuffled = spec.rearrange(
      s,
      v,
      (c) => !k.has(c),
      (cs) => rng.shuffle(cs),
    )
    const after = spec.cards(shuffled)
    if (new Set(after).size !== size) fail(seed, n, 'rearrange lost cards (test bug)')
    const view2 = spec.game.view(shuffled, v)
    if (!deepEqual(view, view2)) {
      const [a, b] = [JSON.stringify(view), JSON.stringify(view2)]
      fail(seed, n, `the view of ${String(v)} depends on hidden cards:\n${a}\n${b}`)
    }
  }
}

/** Moves `cs`'s cards matching `movable` into a shuffled order, keeping the others in place. */
export function permuteWithin(
  slots: Card[],
  movable: (c: Card) => boolean,
  shuffle: (cs: Card[]) => Card[],
): Card[] {
  const idx: number[] = []
  const vals: Card[] = []
  slots.forEach((c, i) => {
    if (movable(c)) {
      idx.push(i)
      vals.push(c)
    }
  })
  const sh = shuffle(vals)
  const out = slots.slice()
  idx.forEach((i, k) => {
    out[i] = sh[k]!
  })
  return out
}
