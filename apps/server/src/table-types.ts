// What the parts of a table share (table.ts and its table-*.ts parts): the answer to a command,
// the table's dependencies and settings, token and code helpers, the new record, and the narrow
// view of the table (TableHost) that its parts work through.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { BotLevel, DuelBest, IdiotMove, IdiotView, Seat } from '@kortbord/engine'
import type {
  CreateTableMsg,
  PeekAck,
  TableDelta,
  TableUpdate,
  WireError,
} from '@kortbord/protocol'
import type { Logger } from 'pino'
import type { ChatDeps } from './chat.ts'
import { newFair } from './game-records.ts'
import { ADAPTERS, type GameAdapter } from './games.ts'
import type { NodeAddress } from './ownership.ts'
import type { Presence } from './presence.ts'
import { openSeat } from './seats.ts'
import type { RecordEffects, SeatRecord, TableRecord, TableStore } from './store.ts'
import type { LogBody } from './table-log.ts'

/** The answer to a command: the acknowledgement the client receives. */
export type Outcome<T extends object = object> =
  | ({ ok: true; version: number } & T)
  | { ok: false; error: WireError }

/** A refusal: changes nothing (but OUTCOME_UNKNOWN). */
export type Refusal = { ok: false; error: WireError }

export const fail = (code: string, message: string): Refusal => ({
  ok: false,
  error: { code, message },
})

/** A member of a table is one connection: a seated player or a spectator. */
export type MemberId = string

export interface TableConfig {
  /** How long a disconnected player keeps their seat, ms. */
  readonly graceMs: number
  /** Consecutive timer expiries after which a player is shown as away. */
  readonly timeoutsForAway: number
  /** Whether commands may fix the deal (tests only). */
  readonly testDeals: boolean
  /** How many log entries a table keeps. */
  readonly logKeep: number
  /** Tests only: scales turn timers. */
  readonly timerScale: number
  /** Tests only: the deck of every game started without a deal. */
  readonly testDeck?: readonly number[] | null
  /** How long a bot waits before its move, ms (a person's pace; a quarter of it when swapping). */
  readonly botDelayMs?: number
  /** How long the hard bot may think, ms. */
  readonly botThinkMs?: number
  /** Spectators a table may have, over all nodes. */
  readonly spectatorsPerTable?: number
  /** Hard bots this node runs at most; beyond it a bot plays normal. */
  readonly hardBotsPerNode?: number
  /** Moves a game record keeps at most (RECORD_MAX_MOVES). */
  readonly recordMaxMoves?: number
  /** a deal's background proof starts when its game is dealt (SOLVER_EARLY_PROOF). */
  readonly earlyProof?: boolean
}

/** What publishing an update needs of a table. */
export interface Publishable {
  readonly code: string
  readonly seatCount: number
  updateFor(seat: Seat | null, whole?: boolean): TableUpdate
  deltaFor(seat: Seat | null): TableDelta | null
}

export interface TableDeps {
  readonly store: TableStore
  readonly config: TableConfig
  readonly log: Logger
  /** Who watches which table (presence: no versions). */
  readonly presence: Presence
  /** Sends chat messages and reactions to a table's members (issue 15). */
  readonly chat: Omit<ChatDeps, 'now'>
  /**
   * Sends every member its update (on every node); called after every change. `welcome` is a
   * connection that just became a member: it gets the whole update (`updateFor(seat, true)`)
   * instead of the delta the others get.
   */
  publish(table: Publishable, welcome?: { member: MemberId; seat: Seat | null }): void
  /** Sends one connection (of this node) an update. */
  send(member: MemberId, update: TableUpdate): void
  /** Puts a connection (on any node) among the table's members in a seat, or as a spectator. */
  attach(member: MemberId, code: string, seat: Seat | null): void
  /** Takes a connection (on any node) out of the table's members. */
  detach(member: MemberId, code: string): void
  /** Tells a connection it is no longer at the table (and where to go if moved), and detaches it. */
  evict(
    member: MemberId,
    code: string,
    reason: 'replaced' | 'closed' | 'moved',
    to?: NodeAddress,
  ): void
  /** The table has nobody left: the hub forgets it (its record is deleted). */
  retired?(table: Publishable): void
  /** Hard bots seated at the tables of this node. */
  hardBots?(): number
  /** This node's id, recorded with the connections it serves. */
  readonly node?: string
  /** A hard bot's move, thought in the worker pool (null: no answer; the table plays normal). */
  botMove?(
    level: BotLevel,
    view: IdiotView,
    seed: string,
    thinkMs: number,
  ): Promise<IdiotMove | null>
  /** the table's solve of a finished Aces Up game (an upper bound unless proven), or null. */
  solve?(deck: readonly number[], piles: 4 | 5 | 8): Promise<DuelBest | null>
  /** the background proof of a figure the table's solve left unproven, or null. */
  prove?(deck: readonly number[], piles: 4 | 5 | 8): Promise<DuelBest | null>
  /**
   * A-16 with SOLVER_EARLY_PROOF: the proof of a deal whose game is in play, on a thread of its
   * own, cancelled by `signal`; null without an answer.
   */
  proveEarly?(
    deck: readonly number[],
    piles: 4 | 5 | 8,
    signal: AbortSignal,
  ): Promise<DuelBest | null>
  /** Early proofs waiting for their thread now (a new one needs room). */
  earlyWaiting?(): number
  now(): number
}

/** The table no longer exists (every player left, or it expired): the command cannot run. */
export class TableGone extends Error {
  constructor() {
    super('the table is no more')
    this.name = 'TableGone'
  }
}

/** What a change to the record does besides the fields it sets. */
export interface CommitOptions {
  /** Runs once the store has the change, before anyone is told. */
  readonly onSaved?: () => void
  /** The seat whose action this is: its turn clock restarts (I-16). */
  readonly mover?: Seat | null
  /** The turn timer setting changed: every running clock restarts with it. */
  readonly timerChanged?: boolean
  /** What the save does to the game records, atomically with it (issue 14). */
  readonly records?: RecordEffects
}

/** The fields a command changes; the table sets the version, the log and the clocks itself. */
export type RecordChange = Omit<Partial<TableRecord>, 'version' | 'log' | 'logSeq' | 'deadlines'>

/**
 * The table as its parts (members, game, controls, clock, A-16) see it: the record as it stands,
 * the one queue every change goes through, and the one way to change the record.
 */
export interface TableHost {
  readonly code: string
  /** The record as it stands: replaced by every commit and reload, never changed in place. */
  readonly record: TableRecord
  readonly deps: TableDeps
  readonly adapter: GameAdapter
  readonly log: Logger
  /** The table has left this node (closed, retired or handed over): no timer may start. */
  readonly closed: boolean
  /** Runs `fn` after every command before it (see Table). */
  run<T>(fn: () => Promise<T>): Promise<T>
  /** Saves `change` as the following version, then publishes; the store decides. */
  commit(change: RecordChange, logs?: readonly LogBody[], opts?: CommitOptions): Promise<Outcome>
  /** Takes the stored record if it is newer; throws TableGone if there is none. */
  reload(): Promise<void>
}

export const newToken = (): string => randomBytes(32).toString('base64url')
export const hashToken = (token: string): string =>
  createHash('sha256').update(token, 'utf8').digest('hex')
/** A table code as logs show it: a code is the key to join and watch (issue 13, finding 12). */
export const logCode = (code: string): string =>
  createHash('sha256').update(code, 'utf8').digest('hex').slice(0, 12)

/** Whether two token hashes (hex) are equal, in constant time. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex')
  const y = Buffer.from(b, 'hex')
  return x.length === y.length && timingSafeEqual(x, y)
}

/** A person (not a bot) is connected to the table. */
export const someoneHere = (seats: readonly SeatRecord[]): boolean =>
  seats.some((s) => s.connected && !s.bot)

/** Everyone's commands made before the next version are stale (the seats changed). */
export const allStale = (r: TableRecord): number[] => r.staleBefore.map(() => r.version + 1)

/**
 * What `table:peek` tells anyone with the code (the join form): the game and its settings, the
 * seats and how many are open, and whether watching is on. The host's name only where the asker
 * could see it now by joining or watching; never a card, a token or another name.
 */
export function peekOf(r: TableRecord): PeekAck {
  const open = r.seats.filter((s) => s.name === null).length
  const visible = open > 0 || r.allowSpectators
  return {
    table: r.code,
    game: r.game,
    settings: r.settings,
    status: r.status,
    seats: r.seats.length,
    open,
    allowSpectators: r.allowSpectators,
    host: visible ? (r.seats[r.host]?.name ?? null) : null,
  }
}

/** A new table's record, with its creator in seat 0 as host. */
export function newTableRecord(
  code: string,
  msg: CreateTableMsg,
  token: string,
  now: number,
  creator: MemberId,
  node: string | null = null,
): TableRecord {
  const n = ADAPTERS[msg.game].seats(msg.options)
  const entropy = Array.from({ length: n }, () => '')
  entropy[0] = msg.entropy ?? ''
  const seats: SeatRecord[] = Array.from({ length: n }, () => openSeat)
  seats[0] = {
    ...openSeat,
    name: msg.name,
    tokenHash: hashToken(token),
    connected: true,
    holder: creator,
    node,
  }
  return {
    code,
    game: msg.game,
    settings: msg.options,
    allowSpectators: msg.spectators,
    host: 0,
    seats,
    status: 'waiting',
    gameNo: 0,
    tally: Array.from({ length: n }, () => 0),
    state: null,
    version: 1,
    staleBefore: Array.from({ length: n }, () => 0),
    deadlines: Array.from({ length: n }, () => null),
    log: [{ seq: 1, at: now, t: 'joined', seat: 0, name: msg.name }],
    logSeq: 1,
    createdAt: now,
    updatedAt: now,
    fair: { next: newFair(), current: null },
    entropy,
    gameRecord: null,
  }
}
