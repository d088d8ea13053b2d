// Seeded random games of every kind, recorded as the server records them (issue 14): for the
// record tests and `pnpm records` (thousands of games).
import {
  chainHeads,
  commitment,
  type Deal,
  type DuelMove,
  type DuelOptions,
  duel,
  FAIR_VERSION,
  type FairDeal,
  type GameRecord,
  herrarna,
  type IdiotMove,
  type IdiotState,
  idiot,
  idiotGreedy,
  type KlockanOptions,
  klockan,
  outcomeOf,
  RECORD_FORMAT,
  RECORD_VERSION,
  type RecordGame,
  type RecordMove,
  type RecordMoveOf,
  Rng,
  type Seat,
} from '../src/index.ts'

const hex = (rng: Rng, bytes: number): string =>
  Array.from({ length: bytes }, () => rng.int(256).toString(16).padStart(2, '0')).join('')

interface Game {
  setup(opts: never, seats: number, deal: Deal): unknown
  apply(s: unknown, seat: Seat, m: RecordMoveOf): { ok: boolean; value?: unknown }
  legalMoves(s: unknown, seat: Seat): readonly RecordMoveOf[]
  activeSeats(s: unknown): readonly Seat[]
}
const GAMES = { idiot, duel, klockan, herrarna } as unknown as Record<RecordGame, Game>

/** Options and seats of a random table of `game`. */
function table(game: RecordGame, rng: Rng): { options: Record<string, unknown>; seats: number } {
  switch (game) {
    case 'idiot':
      return { options: rng.float() < 0.5 ? {} : { dealer: 0 }, seats: 2 + rng.int(3) }
    case 'duel': {
      const piles = rng.pick([4, 5, 8] as const)
      const other = rng.pick(piles === 8 ? ([8] as const) : ([4, 5] as const))
      const sameDeal = rng.float() < 0.3
      const o: DuelOptions = {
        games: 1 + rng.int(3),
        piles: [piles, sameDeal ? piles : other],
        sameDeal,
        mode: rng.pick(['simultaneous', 'alternating'] as const),
        undo: rng.pick(['none', 'discards', 'moves', 'both'] as const),
        scoring: rng.pick(['kort-kvar', 'ess', 'kombinerad'] as const),
      }
      return { options: o as unknown as Record<string, unknown>, seats: 2 }
    }
    case 'klockan': {
      const variant = rng.pick(['standard', 'rescue', 'twelve', 'twoDecks'] as const)
      const seats = variant === 'rescue' ? 1 : 1 + rng.int(2)
      const o: KlockanOptions = { variant, first: rng.int(seats) }
      return { options: o as unknown as Record<string, unknown>, seats }
    }
    case 'herrarna':
      return { options: {}, seats: 1 }
  }
}

/** A move of `game` for one of the seats that may act: mostly sensible, sometimes random. */
function choose(game: RecordGame, s: unknown, rng: Rng): { seat: Seat; move: RecordMoveOf } | null {
  const g = GAMES[game]
  const active = g.activeSeats(s)
  if (active.length === 0) return null
  const seat = rng.pick(active)
  const moves = g.legalMoves(s, seat)
  if (moves.length === 0) return null
  if (game === 'idiot') {
    const st = s as IdiotState
    if (st.phase === 'swap')
      return { seat, move: rng.float() < 0.35 ? { type: 'ready' } : rng.pick(moves) }
    const ms = moves as IdiotMove[]
    if (rng.float() < 0.6) return { seat, move: idiotGreedy(idiot.view(st, seat), ms, rng) }
    const plays = ms.filter((m) => m.type === 'play')
    return { seat, move: plays.length > 0 ? rng.pick(plays) : rng.pick(ms) }
  }
  if (game === 'duel') {
    // Undo now and then only: random undos make games wander.
    const ms = (moves as DuelMove[]).filter((m) => m.type !== 'undo' || rng.float() < 0.05)
    return { seat, move: rng.pick(ms.length > 0 ? ms : moves) }
  }
  return { seat, move: rng.pick(moves) }
}

/**
 * One seeded game of `game`, played by random players and recorded: a fair deal from a seeded
 * seed and contributions, every move with its seat and version; now and then the game ends by a
 * forfeit partway, as at a table where someone stalled.
 */
export function recordedGame(game: RecordGame, seed: string, maxMoves = 4000): GameRecord {
  const rng = Rng.seeded(`record/${game}/${seed}`)
  const { options, seats } = table(game, rng)
  const gameNo = 1 + rng.int(5)
  const fair: FairDeal = {
    v: 1,
    seed: hex(rng, 32),
    entropy: Array.from({ length: seats }, () =>
      rng.float() < 0.2 ? '' : hex(rng, 1 + rng.int(32)),
    ),
    game: gameNo,
  }
  const g = GAMES[game]
  let s = g.setup(options as never, seats, { fair })
  const moves: RecordMove[] = []
  const forfeitAt = seats > 1 && rng.float() < 0.1 ? 1 + rng.int(40) : -1
  let end: GameRecord['end'] = null
  for (let v = 10; moves.length < maxMoves; v++) {
    const out = outcomeOf(game, s)
    if (out !== undefined) {
      end = { reason: 'over', outcome: out }
      break
    }
    if (moves.length === forfeitAt) {
      end = { reason: 'forfeit', seat: rng.int(seats) }
      break
    }
    const c = choose(game, s, rng)
    if (!c) break
    const r = g.apply(s, c.seat, c.move)
    if (!r.ok) throw new Error(`a legal move was refused: ${JSON.stringify(c)}`)
    s = r.value
    moves.push({
      seat: c.seat,
      move: c.move,
      v,
      at: 1_700_000_000_000 + v * 1000,
      ...(rng.float() < 0.1 ? { by: 'timer' as const } : {}),
    })
  }
  const id = hex(rng, 6)
  return {
    format: RECORD_FORMAT,
    version: RECORD_VERSION,
    id,
    game,
    gameNo,
    options,
    seats: Array.from({ length: seats }, (_, i) => ({ name: `P${i}`, bot: null })),
    shuffle: FAIR_VERSION,
    commitment: commitment(fair.seed),
    entropy: fair.entropy,
    deal: { fair },
    moves,
    end: end ?? { reason: 'abandoned' },
    startedAt: 1_700_000_000_000,
    endedAt: 1_700_000_000_000 + moves.length * 1000,
    head: chainHeads({
      id,
      commitment: commitment(fair.seed),
      game,
      moves,
      version: RECORD_VERSION,
      deal: { fair },
    }).at(-1)!,
  }
}
