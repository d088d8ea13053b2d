/**
 * The part of the protocol a client needs at run time without zod: constants, error codes and
 * the types of both directions. `@kortbord/protocol` re-exports all of it with the schemas.
 */
import type {
  DuelView,
  HerrarnaView,
  IdiotEvent,
  IdiotView,
  KlockanView,
  Seat,
} from '@kortbord/engine'
import type { z } from 'zod'
import type { Patch } from './delta.ts'
import type {
  AskRematch,
  ChatReact,
  ChatSend,
  ChatSettings,
  CreateTableInput,
  DuelTableSettings,
  ForfeitSeat,
  HerrarnaTableSettings,
  IdiotTableSettings,
  JoinTable,
  KlockanTableSettings,
  LeaveTable,
  MakeMove,
  PeekTable,
  ReclaimSeat,
  RemovePlayer,
  SeatBot,
  SetEntropy,
  StartGame,
  SyncTable,
  TableSettings,
  TableTimerSettings,
  WatchTable,
} from './index.ts'
import { CHAT_ERROR_CODES, NAME_ERROR_CODES } from './names.ts'

export * from './delta.ts'
export * from './names.ts'
export * from './table-delta.ts'

export type {
  CreateTableInput,
  DuelTableSettings,
  HerrarnaTableSettings,
  IdiotTableSettings,
  KlockanTableSettings,
  TableSettings,
}

/** Bumped on any incompatible change; the client sends it in the handshake (`auth.protocol`). */
export const PROTOCOL_VERSION = 1

// ---------------------------------------------------------------------------------------------
// Error codes

/**
 * Codes of the server itself; the engine's rule codes (NOT_YOUR_TURN, RANK_TOO_LOW, …) pass
 * through. Every refusal changes nothing, except OUTCOME_UNKNOWN (see {@link NOTHING_CHANGED}).
 */
export const SERVER_ERROR_CODES = [
  ...NAME_ERROR_CODES,
  ...CHAT_ERROR_CODES,
  'CHAT_RATE_LIMITED',
  'CHAT_OFF',
  // Several nodes (issue 17): another node serves this table; go there (`node`, `url`).
  'MOVED',
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
  'CANNOT_REMOVE_SELF',
  'NOT_FOR_BOTS',
  'SEAT_EMPTY',
  'TEST_DEALS_OFF',
  'BAD_DEAL',
  'UNAVAILABLE',
  'OUTCOME_UNKNOWN',
  'SHUTTING_DOWN',
  'INTERNAL',
  // Limits (issue 13): per address, per node, per table.
  'TOO_MANY_CONNECTIONS',
  'ORIGIN_NOT_ALLOWED',
  'TOO_MANY_NEW_TABLES',
  'TOO_MANY_LOOKUPS',
  'SERVER_FULL',
  'SPECTATORS_FULL',
  // Stallers (I-16): handing a seat to a bot, ending a game by forfeit, the timer setting.
  'NOT_AWAY',
  'BOT_PLAYING',
  'NOT_FOR_SOLO',
] as const
export type ServerErrorCode = (typeof SERVER_ERROR_CODES)[number]

/**
 * Whether a refusal guarantees that the command changed nothing. Every code does but
 * OUTCOME_UNKNOWN: the store took too long to answer or the connection to it broke after the
 * change was sent, so it may or may not have been saved. A client then asks for the table
 * (`table:sync`) and shows what it is; it never simply sends the command again.
 */
export const NOTHING_CHANGED = (code: string): boolean => code !== 'OUTCOME_UNKNOWN'

/** A refusal: a stable code for programs and a sentence for people. */
export interface WireError {
  readonly code: string
  readonly message: string
  /** MOVED: the node that serves the table, and its address when it has one of its own. */
  readonly node?: string
  readonly url?: string | null
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
export const MIN_TURN_SECONDS = 15
export const MAX_TURN_SECONDS = 120
/**
 * The turn timer a new table gets unless its host chooses otherwise (I-16: a live table deals
 * with stalling). Solo patiences have none: nobody waits for anyone.
 */
export const DEFAULT_TURN_SECONDS = { idiot: 30, duel: 60, klockan: 20 } as const

// ---------------------------------------------------------------------------------------------
// Acknowledgements and events

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

/**
 * What `table:peek` tells anyone with a table's code, before they join or watch: what the join
 * form says ("Idiot · Host: Astrid · 2 of 4 seats taken"). Nothing a seat may not show: no cards,
 * and the host's name only where the asker could see it by joining or watching now.
 */
export interface PeekAck {
  readonly table: string
  readonly game: GameId
  readonly settings: TableSettings
  readonly status: TableStatus
  /** Seats at the table, and those open to a newcomer now (a bot's seat is not open). */
  readonly seats: number
  readonly open: number
  readonly allowSpectators: boolean
  /** The host's name; null when the table is full and takes no spectators. */
  readonly host: string | null
}

export interface ClientToServerEvents {
  'table:create': (msg: CreateTableInput, ack: AckFn<CreateAck>) => void
  'table:join': (msg: z.input<typeof JoinTable>, ack: AckFn<SeatAck>) => void
  'table:watch': (msg: z.input<typeof WatchTable>, ack: AckFn) => void
  'table:reclaim': (msg: z.input<typeof ReclaimSeat>, ack: AckFn<{ seat: Seat }>) => void
  'table:leave': (msg: z.input<typeof LeaveTable>, ack: AckFn) => void
  'table:start': (msg: z.input<typeof StartGame>, ack: AckFn) => void
  'table:remove': (msg: z.input<typeof RemovePlayer>, ack: AckFn) => void
  'table:bot': (
    msg: z.input<typeof SeatBot>,
    ack: AckFn<{ level: 'easy' | 'normal' | 'hard' }>,
  ) => void
  'table:timer': (msg: z.input<typeof TableTimerSettings>, ack: AckFn) => void
  'table:forfeit': (msg: z.input<typeof ForfeitSeat>, ack: AckFn) => void
  'table:entropy': (msg: z.input<typeof SetEntropy>, ack: AckFn) => void
  'table:rematch': (msg: z.input<typeof AskRematch>, ack: AckFn<{ started: boolean }>) => void
  'table:chat': (msg: z.input<typeof ChatSettings>, ack: AckFn) => void
  'chat:send': (msg: z.input<typeof ChatSend>, ack: AckFn) => void
  'chat:react': (msg: z.input<typeof ChatReact>, ack: AckFn) => void
  'table:sync': (msg: z.input<typeof SyncTable>, ack: AckFn) => void
  'table:peek': (msg: z.input<typeof PeekTable>, ack: AckFn<PeekAck>) => void
  'game:move': (msg: z.input<typeof MakeMove>, ack: AckFn) => void
}

// ---------------------------------------------------------------------------------------------
// Server → client messages

export type GameId = 'idiot' | 'duel' | 'klockan' | 'herrarna'
export type TableStatus = 'waiting' | 'playing' | 'over'

/** The games' names: Swedish in every language, of the page and of a link's preview alike. */
export const GAME_NAMES: Readonly<Record<GameId, string>> = {
  idiot: 'Idiot',
  duel: 'Idioten för två',
  klockan: 'Klockan',
  herrarna: 'Dom Åtta Herrarna',
}
export const KLOCKAN_FOR_TWO = 'Klockan för två'
/** The patience of Idioten för två, played alone. */
export const IDIOTEN = 'Idioten'

/** The languages kortbord speaks, on the page and in a link's preview. */
export type Lang = 'sv' | 'nb' | 'en'
export const LANGS: readonly Lang[] = ['sv', 'nb', 'en']

/** The first of a reader's languages (BCP 47 tags, best first) kortbord speaks; Danish and nynorsk read bokmål. */
export function pickLang(prefs: readonly string[]): Lang {
  for (const p of prefs) {
    const l = p.toLowerCase().slice(0, 2)
    if (l === 'sv') return 'sv'
    if (l === 'nb' || l === 'no' || l === 'nn' || l === 'da') return 'nb'
    if (l === 'en') return 'en'
  }
  return 'en'
}

/**
 * A table's game by its name as its players play it: Klockan for two seats is Klockan för två
 * (K-6), and Idioten för två for one seat is the patience Idioten.
 */
export function playedGameName(game: GameId, seats: number): string {
  if (game === 'klockan' && seats === 2) return KLOCKAN_FOR_TWO
  if (game === 'duel' && seats === 1) return IDIOTEN
  return GAME_NAMES[game]
}

export interface SeatInfo {
  /** The nickname, or null for an open seat. */
  readonly name: string | null
  /** A socket holds the seat now. */
  readonly connected: boolean
  /** Disconnected, or timed out repeatedly (I-16): the others should not wait for them. */
  readonly away: boolean
  /** When a disconnected player's grace period ends (epoch ms), else null. */
  readonly graceUntil: number | null
  /** Left, or their grace period ran out: the host may remove them; the seat frees after the game. */
  readonly gone: boolean
  /** A computer player plays this seat (issue 7); for a player who has gone it steps aside when they reclaim. */
  readonly bot: 'easy' | 'normal' | 'hard' | null
}

export interface TableInfo {
  readonly code: string
  readonly game: GameId
  readonly settings: TableSettings
  readonly host: Seat
  readonly seats: readonly SeatInfo[]
  readonly spectators: number
  readonly allowSpectators: boolean
  readonly status: TableStatus
  /** Games started at this table (1 during the first game). */
  readonly gameNo: number
  /**
   * I-16: how often each seat's player has been the Idiot; for the duel, matches won per seat.
   * A seat's count is its player's: 0 while it is open, so a newcomer starts from 0.
   */
  readonly tally: readonly number[]
  /**
   * Per seat, the name the game shown (`view`: the one being played, or the last) was played
   * under at that seat, where that is not whoever sits there now (the seat is open since, or its
   * player sat down after that game); null where the seat's player is the one who played it.
   */
  readonly players: readonly (string | null)[]
  /** When the earliest running turn timer runs out (epoch ms), else null. */
  readonly deadline: number | null
  /** deadlines[seat]: when that seat's turn timer runs out (epoch ms), else null (I-16). */
  readonly deadlines: readonly (number | null)[]
  /** The verifiable shuffle and the game's record (issue 14, docs/fairness.md). */
  readonly fair: FairInfo
  /** rematch[seat]: that player asked for the next game (issue 15); it starts when all have. */
  readonly rematch: readonly boolean[]
  /** Whether spectators may chat (the host decides; players always may). */
  readonly spectatorChat: boolean
  readonly version: number
}

/**
 * What everyone at the table may know of the shuffle: during a game, its commitment and the
 * contributions it was dealt with; between games, the next game's commitment and the
 * contributions sent so far. The seed itself is revealed in the record once the game is over.
 */
export interface FairInfo {
  /** SHA-256 of the server's secret seed (hex); null for a fixed test deal. */
  readonly commitment: string | null
  /** entropy[seat]: the seat's contribution ('' for none). */
  readonly entropy: readonly string[]
  /** The record of the game being played, or of the last one (its link is /r/<record>). */
  readonly record: string | null
  /**
   * The first 16 hex digits of the record's hash-chain head after the latest move (keep the
   * last one: it proves what you saw; docs/fairness.md).
   */
  readonly head: string | null
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
  | { readonly t: 'timeout'; readonly seat: Seat; readonly action: TimeoutAction }
  | { readonly t: 'best'; readonly seat: Seat; readonly index: number; readonly best: number }
  /** A bot took over the seat of a player who was away (`by`: the seat that asked). */
  | {
      readonly t: 'bot'
      readonly seat: Seat
      readonly name: string
      readonly level: 'easy' | 'normal' | 'hard'
      readonly by: Seat
    }
  /** The game ended with `seat`, away, forfeiting it (`by`: the seat that asked). */
  | { readonly t: 'forfeit'; readonly seat: Seat; readonly name: string; readonly by: Seat }
  /** The host changed the turn timer (seconds, or null: off). */
  | { readonly t: 'timer'; readonly turnSeconds: number | null }
  /** A player asked for the next game (issue 15). */
  | { readonly t: 'rematch'; readonly seat: Seat; readonly name: string }
  /**
   * A game of the patiences and the duel ended (Idiot says who lost in its own event): who won
   * it, or null (a draw; alone, a game that did not come out). Logged only when the game is over,
   * when nothing of it is hidden any longer.
   */
  | { readonly t: 'ended'; readonly gameNo: number; readonly winner: Seat | null }
)

/** The quick reactions a player can send (shown as translated words, issue 15). */
export const REACTIONS = ['gg', 'nice', 'oops', 'thanks', 'hurry', 'wow'] as const
export type Reaction = (typeof REACTIONS)[number]

/** A chat message as everyone at the table receives it: text only, never markup. */
export interface ChatMessage {
  readonly table: string
  /** Unique at the table (this node's count), for lists and muting. */
  readonly id: number
  /** The sender's seat, or null for a spectator. */
  readonly seat: Seat | null
  readonly name: string
  readonly text: string
  readonly at: number
}

export interface ChatReaction {
  readonly table: string
  readonly seat: Seat | null
  readonly name: string
  readonly reaction: Reaction
  readonly at: number
}

/** What the server did for a seat whose turn timer ran out (I-16). */
export type TimeoutAction = 'pickup' | 'play' | 'ready' | 'deal' | 'finish' | 'turn'

/** The table was told who watches (presence, not a version: at most once a second). */
export interface TablePresence {
  readonly table: string
  readonly spectators: number
}

export type GameView = IdiotView | DuelView | KlockanView | HerrarnaView

export interface TableUpdate {
  readonly table: TableInfo
  /** Your seat, or null as a spectator. */
  readonly seat: Seat | null
  /** Your view of the game (the engine's view), or null before the first game. */
  readonly view: GameView | null
  /**
   * Log entries. With `logAfter` null: the latest entries (at most {@link LOG_TAIL}), which
   * replace whatever the client holds; a connection's first update (and `table:sync`) is such.
   * With a number: exactly the entries with a greater `seq` (usually those of this version),
   * to append. Merge with {@link mergeLog}.
   */
  readonly log: readonly LogEntry[]
  readonly logAfter: number | null
}

export const LOG_TAIL = 40

/**
 * Merges an update's log into the entries a client holds, keeping the newest `keep`. `gap` is
 * true when entries are missing between them (an update was skipped): a client that wants the
 * whole tail then asks `table:sync`.
 */
export function mergeLog(
  held: readonly LogEntry[],
  u: Pick<TableUpdate, 'log' | 'logAfter'>,
  keep: number = LOG_TAIL,
): { readonly log: readonly LogEntry[]; readonly gap: boolean } {
  if (u.logAfter === null) return { log: u.log.slice(-keep), gap: false }
  const last = held.length === 0 ? 0 : held[held.length - 1]!.seq
  const gap = last < u.logAfter
  const fresh = u.log.filter((e) => e.seq > last)
  if (fresh.length === 0) return { log: held, gap }
  const log = held.concat(fresh)
  return { log: log.length > keep ? log.slice(-keep) : log, gap }
}

/**
 * What changed at a table from the version before (the one the client holds) to `version`
 * (issue 17): sent instead of a whole {@link TableUpdate} to clients that asked for deltas in the
 * handshake (`auth.deltas: 1`). `t` patches the table info (its `version` and `deadline` aside:
 * the client sets them; its `deadlines` and `fair.head` aside: they come as `dl` and `h`), `p`
 * patches the client's view (null before a game: then `view` is the whole view, as it is when
 * the patch would be long); `sum` is {@link checksum} of the view at `version`: a client whose
 * patched view has another sum, or that holds another version than `version - 1`, asks for the
 * table (`table:sync`). The log carries the entries after `logAfter`, without what the client
 * works out ({@link DeltaLogEntry}). {@link applyDelta} does all of it.
 */
export interface TableDelta {
  readonly code: string
  readonly version: number
  /** Absent: the table info did not change (but for what `dl` and `h` say). */
  readonly t?: Patch
  /**
   * The turn clocks, when they changed: pairs `seat, deadline − at` (`at` being 0 when the delta
   * has none), one for each running clock; every other seat's deadline is null.
   */
  readonly dl?: readonly number[]
  /** `fair.head`, when sent (every 8th version, and when `fair` or the status changes). */
  readonly h?: string | null
  readonly p: Patch | null
  readonly view?: GameView | null
  readonly sum: number
  /** Absent: one `{ t: 'game' }` entry for each event of the new view's `recent`. */
  readonly log?: readonly DeltaLogEntry[]
  readonly logAfter: number
  /**
   * When the version was made: the `at` of every log entry without one, and the base of `dl`
   * (absent: the version added no entries).
   */
  readonly at?: number
}

type LogBodyOf<E> = E extends unknown ? Omit<E, 'seq' | 'at'> : never
type EventOptional<E> = E extends { readonly t: 'game'; readonly e: infer V }
  ? Omit<E, 'e'> & { readonly e?: V }
  : E

/**
 * A log entry in a {@link TableDelta}: without `seq` it is the entry before's plus one (the
 * first: `logAfter` + 1); without `at` it is the delta's; a `game` entry without `e` has the
 * event `view.recent[k]`, k counting the delta's game entries from 0.
 */
export type DeltaLogEntry = EventOptional<LogBodyOf<LogEntry>> & {
  readonly seq?: number
  readonly at?: number
}

export interface TableGone {
  readonly table: string
  /**
   * 'replaced': the seat was reclaimed by a newer connection (another tab or device).
   * 'closed': every player left, so the table is no more.
   * 'moved': another node serves the table now (a node joined or left): connect to `node` (or
   * `url`) and take the seat back, or watch again.
   */
  readonly reason: 'replaced' | 'closed' | 'moved'
  readonly node?: string
  readonly url?: string | null
}

export interface ServerToClientEvents {
  'table:update': (u: TableUpdate) => void
  /** What changed since the version the client holds (clients that asked for deltas). */
  'table:delta': (d: TableDelta) => void
  'table:gone': (g: TableGone) => void
  /** How many watch, over every node; sent at most once a second per table, and on arrival. */
  'table:presence': (p: TablePresence) => void
  'chat:message': (m: ChatMessage) => void
  'chat:reaction': (r: ChatReaction) => void
  /** The latest messages of the table, to a member who just came (or asked for the table). */
  'chat:history': (h: { readonly table: string; readonly messages: readonly ChatMessage[] }) => void
  /** A refusal of a message that came without an acknowledgement callback. */
  'protocol:error': (e: WireError) => void
}
