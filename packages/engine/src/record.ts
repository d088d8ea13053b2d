/**
 * Game records (issue 14): every game of every kind leaves one. A record holds the settings, the
 * seats, the shuffle's commitment and the players' contributions from the start; every move in
 * order with its seat, the table version it made and when, marked when the timer or a bot made it
 * on a player's behalf; and once the game is over the revealed deal and how it ended. A record
 * replays through the engine to the same end ({@link replayRecord}), and anyone can check it
 * ({@link verifyRecord}). The format is versioned and documented in docs/fairness.md.
 */

import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { type Card, formatCard, parseCard } from './cards.ts'
import { type DuelMove, type DuelState, duel, duelOutcome } from './duel.ts'
import { commitment, FAIR_VERSION, isEntropy, isFairSeed } from './fair.ts'
import type { Deal, Seat } from './game.ts'
import { type HerrarnaMove, type HerrarnaState, herrarna, herrarnaOutcome } from './herrarna.ts'
import { type IdiotMove, type IdiotState, idiot, idiotOutcome } from './idiot.ts'
import { type KlockanMove, type KlockanState, klockan, klockanOutcome } from './klockan.ts'

export const RECORD_FORMAT = 'kortbord-record'
/**
 * 2 since the chain became keyed by the seed (below); records of version 1 still verify, with
 * the chain they were made with.
 */
export const RECORD_VERSION = 2
/** The versions {@link verifyRecord} reads. */
export type RecordVersion = 1 | 2

export type RecordGame = 'idiot' | 'duel' | 'klockan' | 'herrarna'
export type RecordMoveOf = IdiotMove | DuelMove | KlockanMove | HerrarnaMove
type AnyState = IdiotState | DuelState | KlockanState | HerrarnaState

export interface RecordSeat {
  readonly name: string
  /** A computer player sat here from the start of the game (a seat handed over later shows in its moves). */
  readonly bot: 'easy' | 'normal' | 'hard' | null
}

export interface RecordMove {
  readonly seat: Seat
  readonly move: RecordMoveOf
  /** The table's version this move made. */
  readonly v: number
  /** When the server applied it, epoch ms. */
  readonly at: number
  /** Made on the seat's behalf: by the turn timer, or by a bot playing the seat. */
  readonly by?: 'timer' | 'bot'
}

/** How a game ended: played out, ended by a forfeit (I-16), or never finished. */
export type RecordEnd =
  | { readonly reason: 'over'; readonly outcome: unknown }
  | { readonly reason: 'forfeit'; readonly seat: Seat }
  | { readonly reason: 'abandoned' }

export interface GameRecord {
  readonly format: typeof RECORD_FORMAT
  readonly version: RecordVersion
  /** The record's own id (not the table's code). */
  readonly id: string
  readonly game: RecordGame
  /** The game's number at its table (1 for the first). */
  readonly gameNo: number
  /** The options the engine's setup took (e.g. Idiot's dealer, the duel's settings). */
  readonly options: Readonly<Record<string, unknown>>
  readonly seats: readonly RecordSeat[]
  /** How the cards were ordered: the verifiable shuffle, or a fixed deal (tests only). */
  readonly shuffle: typeof FAIR_VERSION | 'fixed'
  /** SHA-256 of the server's seed, published before the game (null for a fixed deal). */
  readonly commitment: string | null
  /** Each seat's contribution to the shuffle, published when the game started. */
  readonly entropy: readonly string[]
  /** The deal, revealed once the game is over (null while it is played). */
  readonly deal: Deal | null
  readonly moves: readonly RecordMove[]
  readonly end: RecordEnd | null
  readonly startedAt: number
  readonly endedAt: number | null
  /**
   * The head of the record's hash chain after its last move ({@link chainNext}): the players saw
   * every head as the game went on, so a move list changed afterwards no longer leads to a head
   * they saw.
   */
  readonly head: string
  /** More moves were made than a record keeps: the rest is missing, and it cannot be replayed. */
  readonly truncated?: boolean
}

/**
 * The chain's start: SHA-256 of `kortbord-record|<id>|<commitment or "">|<seed or "">`. The seed
 * is secret until the game is over, so nobody can compute a head during the game: the table
 * shows only the first 16 hex digits of each, which a witness needs, but from which nobody can
 * test guesses of moves they may not see (the leader's moves in a same-deal duel, A-15). Version
 * 1 records started without the seed (`seed` undefined here).
 */
export function chainStart(
  id: string,
  commitmentHex: string | null,
  seedHex?: string | null,
): string {
  const key = seedHex === undefined ? '' : `|${seedHex ?? ''}`
  return bytesToHex(sha256(utf8ToBytes(`${RECORD_FORMAT}|${id}|${commitmentHex ?? ''}${key}`)))
}

/** The seed a record's chain is keyed with: its revealed fair seed, none for a fixed deal. */
export function chainKey(r: Pick<GameRecord, 'version' | 'deal'>): string | null | undefined {
  if (r.version === 1) return undefined
  return r.deal && 'fair' in r.deal ? r.deal.fair.seed : null
}

/**
 * The next head: SHA-256 of `<head>|<version>|<seat>|<move in notation>|<time>|<by>` (docs/fairness.md).
 */
export function chainNext(head: string, game: RecordGame, m: RecordMove): string {
  return bytesToHex(sha256(utf8ToBytes(chainLine(head, game, m))))
}

/** The text {@link chainNext} hashes (a server may hash it with a native SHA-256). */
export function chainLine(head: string, game: RecordGame, m: RecordMove): string {
  return `${head}|${m.v}|${m.seat}|${formatMove(game, m.move)}|${m.at}|${m.by ?? ''}`
}

/** Every head of a record's chain: heads[0] is the start, heads[i] follows moves[i − 1]. */
export function chainHeads(
  r: Pick<GameRecord, 'id' | 'commitment' | 'game' | 'moves' | 'version' | 'deal'>,
): string[] {
  const heads = [chainStart(r.id, r.commitment, chainKey(r))]
  for (const m of r.moves) heads.push(chainNext(heads[heads.length - 1]!, r.game, m))
  return heads
}

interface Def {
  setup(opts: never, seats: number, deal: Deal): AnyState
  apply(
    s: AnyState,
    seat: Seat,
    m: RecordMoveOf,
  ): { ok: boolean; value?: AnyState; error?: { code: string; message: string } }
  outcome(s: AnyState): unknown
}

const def = <S extends AnyState, M extends RecordMoveOf>(
  g: {
    setup(opts: never, seats: number, deal: Deal): S
    apply(s: S, seat: Seat, m: M): { ok: boolean }
  },
  outcome: (s: S) => unknown,
): Def => ({ setup: g.setup, apply: g.apply, outcome }) as unknown as Def

const DEFS: Record<RecordGame, Def> = {
  idiot: def(idiot, idiotOutcome),
  duel: def(duel, duelOutcome),
  klockan: def(klockan, klockanOutcome),
  herrarna: def(herrarna, herrarnaOutcome),
}

/** The engine's outcome of a state of `game`, or undefined while the game goes on. */
/**
 * Whether a record's game hides some moves from spectators while it is played: a same-deal duel
 * (A-15), where a player's game of a deal the other has yet to play is not shown. Its public
 * frames, one a move, would count those moves, so the server serves none until it is over, and
 * afterwards what the table showed everyone hides most of each game (the replay shows every card).
 */
export const recordHidesMoves = (r: Pick<GameRecord, 'game' | 'options'>): boolean =>
  r.game === 'duel' && r.options.sameDeal === true

export const outcomeOf = (game: RecordGame, s: unknown): unknown =>
  DEFS[game].outcome(s as AnyState)

export interface Replay {
  /** The state after each move: states[0] is the deal, states[i] follows moves[i − 1]. */
  readonly states: readonly unknown[]
  readonly outcome: unknown
}

/**
 * Deals the record's game and plays its moves through the engine. Throws on a record that cannot
 * be replayed (no deal yet, a move the engine refuses); {@link verifyRecord} says why instead.
 */
export function replayRecord(r: GameRecord): Replay {
  if (r.deal === null) throw new Error('the deal is revealed when the game is over')
  const def = DEFS[r.game]
  let s = def.setup(r.options as never, r.seats.length, r.deal)
  const states: unknown[] = [s]
  r.moves.forEach((m, i) => {
    const res = def.apply(s, m.seat, m.move)
    if (!res.ok || !res.value) {
      throw new Error(`move ${i + 1} (${formatMove(r.game, m.move)}) refused: ${res.error?.code}`)
    }
    s = res.value
    states.push(s)
  })
  return { states, outcome: def.outcome(s) }
}

export type VerifyProblem =
  | 'FORMAT'
  | 'NOT_OVER'
  | 'TRUNCATED'
  | 'BAD_SEED'
  | 'COMMITMENT_MISMATCH'
  | 'ENTROPY_MISMATCH'
  | 'GAME_MISMATCH'
  | 'ILLEGAL_MOVE'
  | 'OUTCOME_MISMATCH'
  | 'NOT_ENDED_BY_MOVES'
  | 'CHAIN_MISMATCH'
  | 'NOT_WHAT_WAS_SEEN'

export interface Verification {
  /** Every check passed. */
  readonly ok: boolean
  /** The shuffle: derived from the committed seed and the contributions, or a fixed test deal. */
  readonly shuffle: 'verified' | 'fixed' | 'failed'
  readonly problems: readonly { readonly code: VerifyProblem; readonly message: string }[]
}

/** What a player saw at the table, to hold a record against. */
export interface Witness {
  /** Their seat and the contribution their client sent. */
  readonly seat?: Seat
  readonly entropy?: string
  /** A chain head the table showed them during the game (the last one they saw; the whole hash or its first 16 hex digits, as updates carry it). */
  readonly head?: string
}

/**
 * Checks a finished record from outside: the revealed seed matches the commitment published
 * before the game; the deal is the one the seed and the published contributions give; every
 * move is legal in turn; the game ends as the record says; the hash chain leads to the record's
 * head; and, given what a player saw, their contribution was used and the chain passes through
 * the head the table showed them.
 */
export function verifyRecord(r: GameRecord, mine?: Witness): Verification {
  const problems: { code: VerifyProblem; message: string }[] = []
  const no = (code: VerifyProblem, message: string) => problems.push({ code, message })
  let shuffle: Verification['shuffle'] = 'failed'
  if (r.format !== RECORD_FORMAT || (r.version !== 1 && r.version !== 2) || !(r.game in DEFS)) {
    no('FORMAT', `not a kortbord record of version ${RECORD_VERSION}`)
    return { ok: false, shuffle, problems }
  }
  if (r.deal === null || r.end === null) {
    no('NOT_OVER', 'the game is not over: its deal is not revealed yet')
    return { ok: false, shuffle, problems }
  }
  if (r.truncated) no('TRUNCATED', 'the record stops before the end of the game')
  if ('fair' in r.deal) {
    const f = r.deal.fair
    if (r.shuffle !== FAIR_VERSION || f.v !== 1)
      no('FORMAT', `unknown shuffle ${String(r.shuffle)}`)
    else if (!isFairSeed(f.seed)) no('BAD_SEED', 'the revealed seed is not 32 bytes of hex')
    else if (commitment(f.seed) !== r.commitment)
      no('COMMITMENT_MISMATCH', 'the revealed seed is not the one committed to before the game')
    if (f.game !== r.gameNo) no('GAME_MISMATCH', `the deal is for game ${f.game}, not ${r.gameNo}`)
    const same =
      f.entropy.length === r.entropy.length && f.entropy.every((e, i) => e === r.entropy[i])
    if (!same || !f.entropy.every(isEntropy))
      no('ENTROPY_MISMATCH', 'the deal does not use the contributions published at the start')
    if (mine?.seat !== undefined && mine.entropy !== undefined)
      if ((r.entropy[mine.seat] ?? '') !== mine.entropy)
        no('ENTROPY_MISMATCH', 'your own contribution is not the one the shuffle used')
    if (problems.length === 0) shuffle = 'verified'
  } else if (r.shuffle === 'fixed') {
    shuffle = 'fixed'
  } else no('FORMAT', 'a verifiable record must reveal a fair deal')
  const heads = chainHeads(r)
  if (heads[heads.length - 1] !== r.head)
    no('CHAIN_MISMATCH', 'the moves do not lead to the head of the record: they were changed')
  // A head as the table showed it: the whole hash or its first 16 hex digits (64 bits).
  const seen = mine?.head
  if (seen !== undefined && (seen.length < 16 || !heads.some((h) => h.startsWith(seen))))
    no('NOT_WHAT_WAS_SEEN', 'the moves are not the ones the table showed during the game')
  if (problems.length === 0 && !r.truncated) {
    try {
      const { outcome } = replayRecord(r)
      if (r.end.reason === 'over') {
        if (JSON.stringify(outcome) !== JSON.stringify(r.end.outcome))
          no('OUTCOME_MISMATCH', 'replayed, the game ends differently from what the record says')
      } else if (outcome !== undefined) {
        no('NOT_ENDED_BY_MOVES', 'the moves end the game, but the record says it ended otherwise')
      }
    } catch (e) {
      no('ILLEGAL_MOVE', e instanceof Error ? e.message : String(e))
    }
  }
  return {
    ok: problems.length === 0,
    shuffle: problems.length === 0 ? shuffle : 'failed',
    problems,
  }
}

// ---------------------------------------------------------------------------------------------
// Text notation: one move per line, cards in the engine's notation.

const cards = (cs: readonly Card[]): string => cs.map(formatCard).join(' ')

/**
 * A move in words a person can read: Idiot `play 5C 5D`, `pickup`, `swap 7H KS` (hand card, then
 * face-up card), `ready`; Aces Up `discard 2`, `move 1 3`, `deal`, `undo`, `finish`; Klockan
 * `turn`, `rescue 3 2` (pile, depth), `decline`; Herrarna `step`.
 */
export function formatMove(_game: RecordGame, m: RecordMoveOf): string {
  switch (m.type) {
    case 'play':
      return `play ${cards(m.cards)}`
    case 'swap':
      return `swap ${formatCard(m.hand)} ${formatCard(m.faceUp)}`
    case 'discard':
      return `discard ${m.pile}`
    case 'move':
      return `move ${m.from} ${m.to}`
    case 'rescue':
      return m.depth === undefined ? `rescue ${m.pile}` : `rescue ${m.pile} ${m.depth}`
    default:
      return m.type
  }
}

/** Parses {@link formatMove}'s notation back into a move, or undefined. */
export function parseMove(game: RecordGame, text: string): RecordMoveOf | undefined {
  const [word = '', ...rest] = text.trim().split(/\s+/)
  const ints = rest.map(Number)
  const allInts = ints.every((n) => Number.isInteger(n) && n >= 0)
  const parsedCards = rest.map((c) => parseCard(c))
  const allCards = parsedCards.every((c) => c !== undefined) ? (parsedCards as Card[]) : null
  const simple = new Set<string>(
    game === 'idiot'
      ? ['pickup', 'ready']
      : game === 'duel'
        ? ['deal', 'undo', 'finish']
        : game === 'klockan'
          ? ['turn', 'decline']
          : ['step'],
  )
  if (simple.has(word) && rest.length === 0) return { type: word } as RecordMoveOf
  if (game === 'idiot' && word === 'play' && allCards && allCards.length > 0)
    return { type: 'play', cards: allCards }
  if (game === 'idiot' && word === 'swap' && allCards?.length === 2)
    return { type: 'swap', hand: allCards[0]!, faceUp: allCards[1]! }
  if (game === 'duel' && word === 'discard' && allInts && ints.length === 1)
    return { type: 'discard', pile: ints[0]! }
  if (game === 'duel' && word === 'move' && allInts && ints.length === 2)
    return { type: 'move', from: ints[0]!, to: ints[1]! }
  if (
    game === 'klockan' &&
    word === 'rescue' &&
    allInts &&
    (ints.length === 1 || ints.length === 2)
  )
    return ints.length === 1
      ? { type: 'rescue', pile: ints[0]! }
      : { type: 'rescue', pile: ints[0]!, depth: ints[1]! }
  return undefined
}

/**
 * The whole record as text: a header of `[Key "value"]` lines, then one line per move:
 * `<version> <seat> <move>` with ` {timer}` or ` {bot}` when made on the seat's behalf.
 */
export function recordText(r: GameRecord): string {
  const h = (k: string, v: string | number | null) => `[${k} "${v ?? ''}"]`
  const fair = r.deal && 'fair' in r.deal ? r.deal.fair : null
  const end =
    r.end === null ? 'playing' : r.end.reason === 'forfeit' ? `forfeit ${r.end.seat}` : r.end.reason
  const lines = [
    h('Format', `${RECORD_FORMAT} ${r.version}`),
    h('Id', r.id),
    h('Game', r.game),
    h('GameNo', r.gameNo),
    h('Options', JSON.stringify(r.options)),
    ...r.seats.map((s, i) => h(`Seat${i}`, s.bot ? `${s.name} (${s.bot} bot)` : s.name)),
    h('Shuffle', r.shuffle),
    h('Commitment', r.commitment),
    h('Entropy', r.entropy.join('|')),
    h('Seed', fair?.seed ?? null),
    h('Started', new Date(r.startedAt).toISOString()),
    h('Ended', r.endedAt === null ? null : new Date(r.endedAt).toISOString()),
    h('End', end),
    h('Head', r.head),
    '',
    ...r.moves.map(
      (m) => `${m.v} ${m.seat} ${formatMove(r.game, m.move)}${m.by ? ` {${m.by}}` : ''}`,
    ),
  ]
  if (r.truncated) lines.push('… (truncated)')
  return `${lines.join('\n')}\n`
}
