/**
 * @kortbord/protocol — the wire between kortbord's clients and its server (docs/protocol.md).
 *
 * Every client→server message has a zod schema here and is parsed by it before anything else
 * happens; every message carries an acknowledgement callback answered with {@link Ack}. The
 * server→client payloads are typed from the engine's view types: the engine's `view` is the only
 * way game state leaves the server (docs/rules.md I-15, A-15).
 */
import { z } from 'zod'
import { checkChat, checkName } from './names.ts'
import {
  DEFAULT_TURN_SECONDS,
  MAX_TURN_SECONDS,
  MIN_TURN_SECONDS,
  REACTIONS,
  type WireError,
} from './wire.ts'

export * from './wire.ts'

// ---------------------------------------------------------------------------------------------
// Vocabulary

export const TableCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-HJKMNP-Z2-9]{6}$/, 'a table code is 6 letters and digits')

/**
 * A player's name, checked and normalised by {@link checkName}: each kind of refusal carries its
 * own code (NAME_TOO_LONG, NAME_INVISIBLE_CHARS, …) in the issue's params, which
 * {@link parseClientMessage} answers with.
 */
export const Nickname = z.string().transform((raw, ctx) => {
  const r = checkName(raw)
  if (r.ok) return r.name
  ctx.addIssue({ code: 'custom', message: r.message, params: { code: r.code } })
  return z.NEVER
})

/** A player's contribution to the shuffle (issue 14): up to 32 bytes, lowercase hex. */
export const Entropy = z
  .string()
  .regex(/^[0-9a-f]{0,64}$/, 'a contribution is up to 64 lowercase hex digits')

/** A seat token: 32 bytes base64url (256 random bits). */
export const SeatToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'not a seat token')

export const Version = z.int().min(0).max(Number.MAX_SAFE_INTEGER)
export const CardId = z.int().min(0).max(103)
const SeatNo = z.int().min(0).max(3)

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

/** Klockan (K-3 turn one card; K-5 the rescue: a face-down card by pile and depth, or decline). */
export const KlockanMoveSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('turn') }),
  z.strictObject({
    type: z.literal('rescue'),
    pile: z.int().min(0).max(25),
    depth: z.int().min(0).max(7).optional(),
  }),
  z.strictObject({ type: z.literal('decline') }),
])

/** Dom Åtta Herrarna: one step, one card (H-2). */
export const HerrarnaMoveSchema = z.strictObject({ type: z.literal('step') })

export const MoveSchema = z.union([
  IdiotMoveSchema,
  AcesUpMoveSchema,
  KlockanMoveSchema,
  HerrarnaMoveSchema,
])

// ---------------------------------------------------------------------------------------------
// Table options

export const IdiotTableOptions = z.strictObject({
  seats: z.int().min(2).max(4),
  /** Turn timer in seconds (I-16: a live table handles stalling with timers); null = off. */
  turnSeconds: TurnSeconds.default(DEFAULT_TURN_SECONDS.idiot),
  /**
   * Hints for every player (a table for learning): each seated player may ask what the hard
   * computer player would do in their seat. Without it, hints are offered only while every other
   * seat is a computer player (docs/rules.md, At the table (Idiot)).
   */
  hints: z.boolean().default(false),
})

const DuelTableOptionsBase = z.strictObject({
  /** Two for Idioten för två; one for Idioten alone. */
  seats: z.union([z.literal(1), z.literal(2)]).default(2),
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
  /** Each player's clock per move (I-16); null = off. */
  turnSeconds: TurnSeconds.default(DEFAULT_TURN_SECONDS.duel),
})

/** the same deal needs the same decks on both sides (A-2: 8 piles, two); A-17: alone, no turns or shared deal. */
export const DuelTableOptions = DuelTableOptionsBase.refine(
  (o) => !o.sameDeal || (o.piles[0] === 8) === (o.piles[1] === 8),
  { message: 'the same deal needs the same number of decks for both players', path: ['piles'] },
)
  .refine((o) => o.seats === 2 || !o.sameDeal, {
    message: 'alone there is nobody to share a deal with (A-17)',
    path: ['sameDeal'],
  })
  .refine((o) => o.seats === 2 || o.mode === 'simultaneous', {
    message: 'alone there is nobody to take turns with (A-17)',
    path: ['mode'],
  })

/** Klockan: one player, or two for "Klockan för två" (K-6), which is not played with the rescue. */
export const KlockanTableOptions = z
  .strictObject({
    variant: z.enum(['standard', 'rescue', 'twelve', 'twoDecks']).default('standard'),
    seats: z.union([z.literal(1), z.literal(2)]).default(1),
    /** För två: each turn's clock (I-16); alone nobody waits, so no timer runs. null = off. */
    turnSeconds: TurnSeconds.default(DEFAULT_TURN_SECONDS.klockan),
  })
  .refine((o) => o.seats === 1 || o.variant !== 'rescue', {
    message: 'Klockan för två is played without the rescue (K-6)',
    path: ['variant'],
  })

/** Dom Åtta Herrarna has nothing to choose: one player, two decks (H-1). */
export const HerrarnaTableOptions = z.strictObject({})

/** A test-only fixed deal; the server refuses it unless started with test deals on. */
export const TestDeal = z.union([
  z.strictObject({ seed: z.string().min(1).max(64) }),
  z.strictObject({ deck: z.array(CardId).min(1).max(104) }),
])

const common = {
  name: Nickname,
  /** Whether anyone with the link may watch (default yes). */
  spectators: z.boolean().default(true),
  /** The creator's contribution to the first game's shuffle. */
  entropy: Entropy.optional(),
}

export const CreateTable = z.discriminatedUnion('game', [
  z.strictObject({ game: z.literal('idiot'), ...common, options: IdiotTableOptions }),
  z.strictObject({
    game: z.literal('duel'),
    ...common,
    options: DuelTableOptions.default(DuelTableOptions.parse({})),
  }),
  z.strictObject({
    game: z.literal('klockan'),
    ...common,
    options: KlockanTableOptions.default(KlockanTableOptions.parse({})),
  }),
  z.strictObject({
    game: z.literal('herrarna'),
    ...common,
    options: HerrarnaTableOptions.default({}),
  }),
])

// ---------------------------------------------------------------------------------------------
// Client → server messages

export const JoinTable = z.strictObject({
  table: TableCode,
  name: Nickname,
  entropy: Entropy.optional(),
})
export const WatchTable = z.strictObject({ table: TableCode })
export const ReclaimSeat = z.strictObject({ table: TableCode, token: SeatToken })
export const LeaveTable = z.strictObject({ table: TableCode })
export const StartGame = z.strictObject({
  table: TableCode,
  version: Version,
  deal: TestDeal.optional(),
  /** The host's contribution to this game's shuffle. */
  entropy: Entropy.optional(),
})
/** A seated player asks for the next game (issue 15): it starts once every player has. */
export const AskRematch = z.strictObject({
  table: TableCode,
  version: Version,
  entropy: Entropy.optional(),
})
/** Host only: whether spectators may chat. */
export const ChatSettings = z.strictObject({
  table: TableCode,
  version: Version,
  spectatorChat: z.boolean(),
})
/** A chat message: checked as a person sees it (checkChat), at most CHAT_MAX graphemes. */
export const ChatSend = z.strictObject({
  table: TableCode,
  text: z.string().transform((raw, ctx) => {
    const r = checkChat(raw)
    if (r.ok) return r.text
    ctx.addIssue({ code: 'custom', message: r.message, params: { code: r.code } })
    return z.NEVER
  }),
})
export const ChatReact = z.strictObject({ table: TableCode, reaction: z.enum(REACTIONS) })
/** A seated player's contribution to the next game's shuffle (between games). */
export const SetEntropy = z.strictObject({ table: TableCode, entropy: Entropy })
export const RemovePlayer = z.strictObject({ table: TableCode, version: Version, seat: SeatNo })
/** Host only: a computer player takes an open seat, or the seat of a player who has gone. */
export const SeatBot = z.strictObject({
  table: TableCode,
  version: Version,
  seat: SeatNo,
  level: z.enum(['easy', 'normal', 'hard']),
})
/** Host only: the turn timer from now on (seconds, or null: off). */
export const TableTimerSettings = z.strictObject({
  table: TableCode,
  version: Version,
  turnSeconds: TurnSeconds,
})
/** A seated player ends the game because `seat` is away; that seat forfeits it (I-16). */
export const ForfeitSeat = z.strictObject({ table: TableCode, version: Version, seat: SeatNo })
export const MakeMove = z.strictObject({ table: TableCode, version: Version, move: MoveSchema })
export const SyncTable = z.strictObject({ table: TableCode })
/** What the join form may show before joining: the game, the seats, whether watching is on. */
export const PeekTable = z.strictObject({ table: TableCode })

/** Every client→server event and its schema. */
export const CLIENT_MESSAGES = {
  'table:create': CreateTable,
  'table:join': JoinTable,
  'table:watch': WatchTable,
  'table:reclaim': ReclaimSeat,
  'table:leave': LeaveTable,
  'table:start': StartGame,
  'table:remove': RemovePlayer,
  'table:bot': SeatBot,
  'table:timer': TableTimerSettings,
  'table:forfeit': ForfeitSeat,
  'table:entropy': SetEntropy,
  'table:rematch': AskRematch,
  'table:chat': ChatSettings,
  'chat:send': ChatSend,
  'chat:react': ChatReact,
  'table:sync': SyncTable,
  'table:peek': PeekTable,
  'game:move': MakeMove,
} as const
export type ClientEvent = keyof typeof CLIENT_MESSAGES
export const CLIENT_EVENTS = Object.keys(CLIENT_MESSAGES) as ClientEvent[]

export type CreateTableInput = z.input<typeof CreateTable>
export type CreateTableMsg = z.output<typeof CreateTable>
export type IdiotTableSettings = z.output<typeof IdiotTableOptions>
export type DuelTableSettings = z.output<typeof DuelTableOptions>
export type KlockanTableSettings = z.output<typeof KlockanTableOptions>
export type HerrarnaTableSettings = z.output<typeof HerrarnaTableOptions>
export type TableSettings =
  | IdiotTableSettings
  | DuelTableSettings
  | KlockanTableSettings
  | HerrarnaTableSettings
export type MoveMsg = z.output<typeof MoveSchema>
export type TestDealMsg = z.output<typeof TestDeal>
export type StartGameMsg = z.output<typeof StartGame>

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
  // A refusal with a code of its own (a name's): that code, and its sentence alone.
  for (const i of r.error.issues) {
    const code: unknown = i.code === 'custom' ? i.params?.code : undefined
    if (typeof code === 'string') return { ok: false, error: { code, message: i.message } }
  }
  return { ok: false, error: { code: 'BAD_REQUEST', message: describeIssues(r.error) } }
}
