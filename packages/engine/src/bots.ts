/**
 * Computer players for Idiot at three levels (issue 7). A bot gets exactly what a person in its
 * seat gets — its own view — and returns a legal move. Pure and seeded: randomness comes from the
 * caller's Rng, and the hard bot's effort is a number of rollouts (a caller with a clock may also
 * give it a deadline).
 */
import { type Card, fullDeck, RANK_TEN, RANK_TWO, rankOf } from './cards.ts'
import type { Seat } from './game.ts'
import {
  applyIdiot,
  type IdiotMove,
  type IdiotPlayer,
  type IdiotState,
  type IdiotView,
  idiotLegalMoves,
  idiotLegalMovesFromView,
  idiotView,
} from './idiot.ts'
import { clearlyFewerLosses, lossRate, type Weighed } from './playouts.ts'
import type { Rng } from './rng.ts'
import { idiotGreedy } from './strategies.ts'

export type BotLevel = 'easy' | 'normal' | 'hard'
export const BOT_LEVELS: readonly BotLevel[] = ['easy', 'normal', 'hard']

export interface BotOptions {
  /** Hard: how many sampled deals and playouts per move in all (default 120). */
  readonly rollouts?: number
  /** Hard: stop early once `now()` passes this (a caller's clock; the engine has none). */
  readonly deadline?: number
  readonly now?: () => number
}

/** A bot's move for its seat, from its own view; null when it has nothing to do. */
export function botMove(
  level: BotLevel,
  view: IdiotView,
  rng: Rng,
  opts: BotOptions = {},
): IdiotMove | null {
  if (level === 'hard') return hardThought(view, rng, opts)?.move ?? null
  const legal = idiotLegalMovesFromView(view)
  if (legal.length === 0) return null
  if (level === 'easy') return rng.pick(legal)
  return idiotGreedy(view, legal, rng)
}

/** The hard bot's move and what it weighed to choose it (nothing when it had no choice to weigh). */
export interface HardThought {
  readonly move: IdiotMove
  /** One entry per candidate (one per rank and count, and picking up), in play; else empty. */
  readonly weighed: readonly Weighed[]
}

/**
 * The hard bot's move (the same as `botMove('hard', …)`) with the playouts behind it, for a hint
 * that says how much the choice matters; null when the seat has nothing to do.
 */
export function hardThought(view: IdiotView, rng: Rng, opts: BotOptions = {}): HardThought | null {
  const legal = idiotLegalMovesFromView(view)
  if (legal.length === 0) return null
  if (view.phase !== 'play') return { move: idiotGreedy(view, legal, rng), weighed: [] }
  return hardMove(view, legal, rng, opts)
}

// ---------------------------------------------------------------------------------------------
// Hard: determinized Monte-Carlo

/** One move per (source rank, number of cards): which suits are laid changes nothing that matters. */
function candidates(legal: readonly IdiotMove[]): IdiotMove[] {
  const seen = new Map<string, IdiotMove>()
  for (const m of legal) {
    const key = keyOf(m)
    if (!seen.has(key)) seen.set(key, m)
  }
  return [...seen.values()]
}

/**
 * A full state consistent with the view: the cards the viewer cannot see (other hands, face-down
 * cards, the draw pile) dealt at random among the places hidden from it.
 */
export function sampleState(view: IdiotView, rng: Rng): IdiotState {
  const me = view.viewer
  const seen = new Set<Card>()
  for (const p of view.players) {
    for (const c of p.hand ?? []) seen.add(c)
    for (const pos of p.row) if (pos.faceUp !== null) seen.add(pos.faceUp)
  }
  for (const c of view.pile) seen.add(c)
  for (const c of view.burned) seen.add(c)
  const unknown = rng.shuffle(fullDeck(1).filter((c) => !seen.has(c)))
  let k = 0
  const take = (n: number): Card[] => {
    const out = unknown.slice(k, k + n)
    k += n
    return out
  }
  const players: IdiotPlayer[] = view.players.map((p, seat) => ({
    hand: seat === me && p.hand ? p.hand.slice() : take(p.handCount),
    row: p.row.map((pos) => ({ faceUp: pos.faceUp, faceDown: pos.faceDown ? take(1)[0]! : null })),
    ready: p.ready,
    place: p.place,
  }))
  const draw = take(view.drawCount)
  if (k !== unknown.length) throw new Error('a view whose hidden cards do not add up')
  return {
    game: 'idiot',
    seats: view.seats,
    dealer: view.dealer,
    phase: view.phase,
    turn: view.turn,
    players,
    pile: view.pile.slice(),
    draw,
    burned: view.burned.slice(),
    moves: view.moves,
    turns: view.turns,
    recent: [],
  }
}

const MAX_ROLLOUT_TURNS = 400

/** Plays on with the greedy player in every seat; 1 if `me` ends as the Idiot (or at the cap). */
function rollout(s: IdiotState, me: Seat, rng: Rng): number {
  let st = s
  for (let i = 0; i < MAX_ROLLOUT_TURNS && st.phase === 'play'; i++) {
    const seat = st.turn!
    const legal = idiotLegalMoves(st, seat)
    const m = idiotGreedy(idiotView(st, seat), legal, rng)
    const r = applyIdiot(st, seat, m)
    if (!r.ok) return 0.5
    st = r.value
  }
  if (st.phase !== 'over') return 0.5
  // The Idiot is the one place-less player left, or the last place.
  const last = st.players.reduce(
    (a, p, i) => ((p.place ?? 99) > (st.players[a]!.place ?? 99) ? i : a),
    0,
  )
  return last === me ? 1 : 0
}

/** A small preference for what a careful player would do, to break ties between candidates. */
function prior(m: IdiotMove): number {
  if (m.type === 'pickup') return 0.02
  if (m.type !== 'play') return 0
  const r = rankOf(m.cards[0]!)
  return r === RANK_TEN || r === RANK_TWO ? 0.01 : 0
}

function hardMove(
  view: IdiotView,
  legal: readonly IdiotMove[],
  rng: Rng,
  opts: BotOptions,
): HardThought {
  const moves = candidates(legal)
  if (moves.length === 1) return { move: moves[0]!, weighed: [] }
  const me = view.viewer as Seat
  const budget = Math.max(moves.length, opts.rollouts ?? 120)
  const losses = moves.map(() => 0)
  const tries = moves.map(() => 0)
  for (let n = 0; n < budget; n++) {
    if (opts.now && opts.deadline !== undefined && n >= moves.length && opts.now() > opts.deadline)
      break
    // Every candidate is tried on the same sampled deal in turn: fairer comparisons.
    const i = n % moves.length
    const world = sampleState(view, rng)
    const r = applyIdiot(world, me, moves[i]!)
    if (!r.ok) continue
    losses[i]! += rollout(r.value, me, rng)
    tries[i]!++
  }
  const weighed = moves.map((move, i) => ({ move, tries: tries[i]!, lost: losses[i]! }))
  let best = 0
  let bestScore = Number.POSITIVE_INFINITY
  weighed.forEach((w, i) => {
    const score = lossRate(w) + prior(w.move)
    if (score < bestScore) {
      bestScore = score
      best = i
    }
  })
  // The greedy choice stands unless the samples show another move clearly better: with few
  // playouts the noise would otherwise make the bot worse than the heuristic it refines.
  const greedy = idiotGreedy(view, legal, rng)
  const gKey = keyOf(greedy)
  const g = moves.findIndex((m) => keyOf(m) === gKey)
  if (g < 0 || g === best) return { move: moves[best]!, weighed }
  return {
    move: clearlyFewerLosses(weighed[best]!, weighed[g]!) ? moves[best]! : moves[g]!,
    weighed,
  }
}

const keyOf = (m: IdiotMove): string =>
  m.type === 'play' ? `${rankOf(m.cards[0]!)}x${m.cards.length}` : m.type
