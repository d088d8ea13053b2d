/**
 * @kortbord/protocol — the wire between kortbord's clients and its server (docs/protocol.md).
 *
 * Every client→server message has a zod schema here and is parsed by it before anything else
 * happens; every message carries an acknowledgement callback answered with {@link Ack}. The
 * server→client payloads are typed from the engine's view types: the engine's `view` is the only
 * way game state leaves the server (RULES.md I-15, A-15).
 */
import type { DuelView, IdiotEvent, IdiotView, Seat } from '@kortbord/engine'
import { z } from 'zod'

/** Bumped on any incompatible change; the client sends it in the handshake (`auth.protocol`). */
export const PROTOCOL_VERSION = 1

// ---------------------------------------------------------------------------------------------
// Error codes

/** Codes of the server itself; the engine's rule codes (NOT_YOUR_TURN, RANK_TOO_LOW, …) pass through. */
export const SERVER_ERROR_CODES = [
  'BAD_REQUEST',
  'UNKNOWN_EVENT',
  'NO_ACK',
  'RATE_LIMITED',
  'PROTOCOL_MISMATCH',
  'NO_SUCH_TABLE',
  'TABLE_FULL',
  'ALREADY_AT_TABLE',
  'TOO_MANY_TABLES',
  'NOT_AT_TABLE',
  'SPECTATOR',
  'SPECTATORS_OFF',
  'NOT_HOST',
  'BAD_TOKEN',
  'STALE_VERSION',
  'FUTURE_VERSION',
  'NOT_PLAYING',
  'GAME_IN_PROGRESS',
  'SEATS_NOT_FILLED',
  'PLAYER_PRESENT',
  'SEAT_EMPTY',
  'TEST_DEALS_OFF',
  'BAD_DEAL',
  'UNAVAILABLE',
  'SHUTTING_DOWN',
  'INTERNAL',
] as const
export type ServerErrorCode = (typeof SERVER_ERROR_CODES)[number]

/** A refusal: a stable code for programs and a sentence for people. */
export interface WireError {
  readonly code: string
  readonly message: string
}

export type Ack<T extends object = object> =
  | ({ readonly ok: true; readonly version: number } & T)
  | { readonly ok: false; readonly error: WireError }

export type AckFn<T extends object = object> = (res: Ack<T>) => void

// ---------------------------------------------------------------------------------------------
// Vocabulary

/** Join codes avoid look-alikes (0/O, 1/I/L): 31 symbols, 6 long, ≈ 8.9·10⁸ codes. */
export const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'
export const CODE_LENGTH = 6
export const TableCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-HJKMNP-Z2-9]{6}$/, 'a table code is 6 letters and digits')

export const NAME_MAX = 24
export const Nickname = z
  .string()
  .trim()
  .min(1, 'a name is needed')
  .max(NAME_MAX, `a name is at most ${NAME_MAX} characters`)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  .regex(/^[^\u0000-\u001f\u007f-\u009f\u2028\u2029]*$/, 'no control characters in a name')

/** A seat token: 32 bytes base64url (256 random bits). */
export const SeatToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'not a seat token')

export const Version = z.int().min(0).max(Number.MAX_SAFE_INTEGER)
export const CardId = z.int().min(0).max(103)
const SeatNo = z.int().min(0).max(3)

export const MIN_TURN_SECONDS = 15
export const MAX_TURN_SECONDS = 120
const TurnSeconds = z.int().min(MIN_TURN_SECONDS).max(MAX_TURN_SECONDS).nullable()

// ---------------------------------------------------------------------------------------------
// Moves (the engine's move types, checked)

export const IdiotMoveSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('swap'), hand: CardId, faceUp: CardId }),
  z.strictObject({ type: z.literal('ready') }),
  z.strictObject({ type: z.literal('play'), cards: z.array(CardId).min(1).max(8).readonly() }),
  z.strictObject({ type: z.literal('pickup') }),
])

const PileNo = z.int().min(0).max(7)
export const AcesUpMoveSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('discard'), pile: PileNo }),
  z.strictObject({ type: z.literal('move'), from: PileNo, to: PileNo }),
  z.strictObject({ type: z.literal('deal') }),
  z.strictObject({ type: z.literal('undo') }),
  z.strictObject({ type: z.literal('finish') }),
])

export const MoveSchema = z.union([IdiotMoveSchema, AcesUpMoveSchema])

// ---------------------------------------------------------------------------------------------
// Table options

export const IdiotTableOptions = z.strictObject({
  seats: z.int().min(2).max(4),
  /** Turn timer in seconds (I-16: a live table handles stalling with timers); null = off. */
  turnSeconds: TurnSeconds.default(null),
})

export const DuelTableOptions = z.strictObject({
  games: z.int().min(1).max(20).default(5),
  scoring: z.enum(['kort-kvar', 'ess', 'kombinerad']).default('kort-kvar'),
  piles: z
    .tuple([
      z.union([z.literal(4), z.literal(5), z.literal(8)]),
      z.union([z.literal(4), z.literal(5), z.literal(8)]),
    ])
    .default([4, 4]),
  sameDeal: z.boolean().default(false),
  mode: z.enum(['simultaneous', 'alternating']).default('simultaneous'),
  undo: z.enum(['none', 'discards', 'moves', 'both']).default('none'),
})

/** A test-only fixed deal; the server refuses it unless started with test deals on. */
export const TestDeal = z.union([
  z.strictObject({ seed: z.string().min(1).max(64) }),
  z.strictObject({ deck: z.array(CardId).min(1).max(104) }),
])

const common = {
  name: Nickname,
  /** Whether anyone with the link may watch (default yes). */
  spectators: z.boolean().default(true),
}

export const CreateTable = z.discriminatedUnion('game', [
  z.strictObject({ game: z.literal('idiot'), ...common, options: IdiotTableOptions }),
  z.strictObject({
    game: z.literal('duel'),
    ...common,
    options: DuelTableOptions.default(DuelTableOptions.parse({})),
  }),
])

// ---------------------------------------------------------------------------------------------
// Client → server messages

export const JoinTable = z.strictObject({ table: TableCode, name: Nickname })
export const WatchTable = z.strictObject({ table: TableCode })
export const ReclaimSeat = z.strictObject({ table: TableCode, token: SeatToken })
export const LeaveTable = z.strictObject({ table: TableCode })
export const StartGame = z.strictObject({
  table: TableCode,
  version: Version,
  deal: TestDeal.optional(),
})
export const RemovePlayer = z.strictObject({ table: TableCode, version: Version, seat: SeatNo })
export const MakeMove = z.strictObject({ table: TableCode, version: Version, move: MoveSchema })
export const SyncTable = z.strictObject({ table: TableCode })

/** Every client→server event and its schema. */
export const CLIENT_MESSAGES = {
  'table:create': CreateTable,
  'table:join': JoinTable,
  'table:watch': WatchTable,
  'table:reclaim': ReclaimSeat,
  'table:leave': LeaveTable,
  'table:start': StartGame,
  'table:remove': RemovePlayer,
  'table:sync': SyncTable,
  'game:move': MakeMove,
} as const
export type ClientEvent = keyof typeof CLIENT_MESSAGES
export const CLIENT_EVENTS = Object.keys(CLIENT_MESSAGES) as ClientEvent[]

export type CreateTableInput = z.input<typeof CreateTable>
export type CreateTableMsg = z.output<typeof CreateTable>
export type IdiotTableSettings = z.output<typeof IdiotTableOptions>
export type DuelTableSettings = z.output<typeof DuelTableOptions>
export type MoveMsg = z.output<typeof MoveSchema>
export type TestDealMsg = z.output<typeof TestDeal>
export type StartGameMsg = z.output<typeof StartGame>

/** What a successful join, create or reclaim acknowledges. */
export interface SeatAck {
  readonly table: string
  readonly seat: Seat
  /** The secret seat token: keep it to reclaim the seat; never shown to anyone else. */
  readonly token: string
}

/** What creating a table acknowledges: the creator's seat (0, host) and the table's links. */
export interface CreateAck extends SeatAck {
  /** The link that seats a friend (PUBLIC_URL + /t/CODE, or relative to the page). */
  readonly link: string
  /** The link for spectators. */
  readonly watchLink: string
}

export interface ClientToServerEvents {
  'table:create': (msg: CreateTableInput, ack: AckFn<CreateAck>) => void
  'table:join': (msg: z.input<typeof JoinTable>, ack: AckFn<SeatAck>) => void
  'table:watch': (msg: z.input<typeof WatchTable>, ack: AckFn) => void
  'table:reclaim': (msg: z.input<typeof ReclaimSeat>, ack: AckFn<{ seat: Seat }>) => void
  'table:leave': (msg: z.input<typeof LeaveTable>, ack: AckFn) => void
  'table:start': (msg: z.input<typeof StartGame>, ack: AckFn) => void
  'table:remove': (msg: z.input<typeof RemovePlayer>, ack: AckFn) => void
  'table:sync': (msg: z.input<typeof SyncTable>, ack: AckFn) => void
  'game:move': (msg: z.input<typeof MakeMove>, ack: AckFn) => void
}

// ---------------------------------------------------------------------------------------------
// Server → client messages

export type GameId = 'idiot' | 'duel'
export type TableStatus = 'waiting' | 'playing' | 'over'

export interface SeatInfo {
  /** The nickname, or null for an open seat. */
  readonly name: string | null
  /** A socket holds the seat now. */
  readonly connected: boolean
  /** Disconnected, or timed out repeatedly (I-16): the others should not wait for them. */
  readonly away: boolean
  /** When a disconnected player's grace period ends (epoch ms), else null. */
  readonly graceUntil: number | null
}

export interface TableInfo {
  readonly code: string
  readonly game: GameId
  readonly settings: IdiotTableSettings | DuelTableSettings
  readonly host: Seat
  readonly seats: readonly SeatInfo[]
  readonly spectators: number
  readonly allowSpectators: boolean
  readonly status: TableStatus
  /** Games started at this table (1 during the first game). */
  readonly gameNo: number
  /** I-16: how often each seat has been the Idiot; for the duel, matches won per seat. */
  readonly tally: readonly number[]
  /** When the current turn timer runs out (epoch ms), else null. */
  readonly deadline: number | null
  readonly version: number
}

/** The table's public event log: what the engine reports as public, and what the table did. */
export type LogEntry = { readonly seq: number; readonly at: number } & (
  | { readonly t: 'game'; readonly e: IdiotEvent }
  | {
      readonly t: 'joined' | 'left' | 'away' | 'back' | 'removed'
      readonly seat: Seat
      readonly name: string
    }
  | { readonly t: 'started'; readonly gameNo: number }
  | { readonly t: 'timeout'; readonly seat: Seat; readonly action: 'pickup' | 'play' | 'ready' }
  | { readonly t: 'best'; readonly seat: Seat; readonly index: number; readonly best: number }
)

export type GameView = IdiotView | DuelView

export interface TableUpdate {
  readonly table: TableInfo
  /** Your seat, or null as a spectator. */
  readonly seat: Seat | null
  /** Your view of the game (the engine's view), or null before the first game. */
  readonly view: GameView | null
  /** The latest log entries (at most {@link LOG_TAIL}). */
  readonly log: readonly LogEntry[]
}

export const LOG_TAIL = 40

export interface TableGone {
  readonly table: string
  readonly reason: 'removed' | 'replaced' | 'closed'
}

export interface ServerToClientEvents {
  'table:update': (u: TableUpdate) => void
  'table:gone': (g: TableGone) => void
  /** A refusal of a message that came without an acknowledgement callback. */
  'protocol:error': (e: WireError) => void
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** Turns a zod failure into one readable sentence. */
export function describeIssues(error: z.ZodError): string {
  const parts = error.issues.slice(0, 3).map((i) => {
    const at = i.path.length > 0 ? `${i.path.join('.')}: ` : ''
    return `${at}${i.message}`
  })
  return parts.join('; ')
}

/** Parses a client message by its event's schema. */
export function parseClientMessage<E extends ClientEvent>(
  event: E,
  payload: unknown,
): { ok: true; value: z.output<(typeof CLIENT_MESSAGES)[E]> } | { ok: false; error: WireError } {
  const r = CLIENT_MESSAGES[event].safeParse(payload)
  if (r.success) return { ok: true, value: r.data as z.output<(typeof CLIENT_MESSAGES)[E]> }
  return { ok: false, error: { code: 'BAD_REQUEST', message: describeIssues(r.error) } }
}
