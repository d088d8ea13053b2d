// Drives whole games over the protocol with scripted clients choosing random legal moves from
// their own views (never from the state: a client cannot see it).
import {
  type DuelView,
  duelLegalMovesFromView,
  type IdiotMove,
  type IdiotView,
  idiotLegalMovesFromView,
  Rng,
  rankOf,
} from '@kortbord/engine'
import type { MoveMsg, TableUpdate } from '@kortbord/protocol'
import { type Client, must } from './client.ts'

export interface DriveOptions {
  /** Random choices are seeded so that a failing run can be replayed. */
  readonly seed: string
  /** Stop after this many moves (a stalled game, I-16). */
  readonly maxMoves?: number
  /** Called after every move with the acknowledged version. */
  readonly onMove?: (seat: number, move: MoveMsg, version: number) => void
  /** Prefer 'ready' in the swap phase with this probability per move. */
  readonly readyChance?: number
  /**
   * 'random': any legal move. 'random-play' (default): pick up only when forced, and mostly play
   * the lowest rank one may (random among those), sometimes any play — games end in ~100 turns.
   */
  readonly policy?: 'random' | 'random-play'
  /** Pause before each move, ms (a server's rate limit is made for people). */
  readonly pauseMs?: number
}

const pause = (ms: number | undefined): Promise<void> | undefined =>
  ms ? new Promise((r) => setTimeout(r, ms)) : undefined

function pickPlay(plays: readonly IdiotMove[], rng: Rng): IdiotMove {
  if (rng.float() < 0.25) return plays[rng.int(plays.length)]!
  const rank = (m: IdiotMove) => (m.type === 'play' ? rankOf(m.cards[0]!) : 99)
  const low = Math.min(...plays.map(rank))
  const lowest = plays.filter((m) => rank(m) === low)
  return lowest[rng.int(lowest.length)]!
}

/** Waits until every client has received `version`, then returns the first client's update. */
export async function settle(
  clients: readonly Client[],
  code: string,
  version: number,
): Promise<TableUpdate> {
  const us = await Promise.all(clients.map((c) => c.atVersion(code, version)))
  return us[0]!
}

/**
 * Plays one Idiot game to its end: seat i is clients[i]. Returns the final update.
 * Every move is made against the version the mover last saw.
 */
export async function driveIdiot(
  clients: readonly Client[],
  code: string,
  fromVersion: number,
  opts: DriveOptions,
): Promise<TableUpdate> {
  const rng = Rng.seeded(opts.seed)
  let version = fromVersion
  for (let n = 0; n < (opts.maxMoves ?? 5000); n++) {
    const u = await settle(clients, code, version)
    const v = u.view as IdiotView
    if (v.outcome !== null || u.table.status !== 'playing') return u
    const seat = v.phase === 'swap' ? v.players.findIndex((p) => !p.ready) : (v.turn ?? -1)
    const c = clients[seat]
    if (!c) throw new Error(`no client acts at version ${version}`)
    const mine = c.state(code)!
    const moves = idiotLegalMovesFromView(mine.view as IdiotView)
    if (moves.length === 0) throw new Error(`seat ${seat} has no legal move at version ${version}`)
    const ready = moves.find((m) => m.type === 'ready')
    const plays = moves.filter((m) => m.type === 'play')
    // Random legal moves; with 'random-play' a player picks up only when they cannot play
    // (pure random play takes ~2,000 turns a game, docs/rules.md I-16).
    const move =
      ready && rng.float() < (opts.readyChance ?? 0.4)
        ? ready
        : opts.policy !== 'random' && v.phase === 'play' && plays.length > 0
          ? pickPlay(plays, rng)
          : moves[rng.int(moves.length)]!
    await pause(opts.pauseMs)
    const ack = must(await c.send('game:move', { table: code, version: mine.table.version, move }))
    version = ack.version
    opts.onMove?.(seat, move as MoveMsg, version)
  }
  throw new Error(`the game did not end within ${opts.maxMoves ?? 5000} moves`)
}

/** Plays a whole Idioten för två match: both players move, in random interleaving. */
export async function driveDuel(
  /** One client per seat: two for a match, one for Idioten alone. */
  clients: readonly Client[],
  code: string,
  fromVersion: number,
  opts: DriveOptions & { readonly undoChance?: number },
): Promise<TableUpdate> {
  const rng = Rng.seeded(opts.seed)
  // With the same deal each seat has versions of its own (the server's shown.ts): a seat is sent
  // nothing of a move it cannot see, so the driver waits only for the mover to see its move.
  const start = await clients[0]!.atVersion(code, fromVersion)
  const own = (start.table.settings as { sameDeal?: boolean }).sameDeal === true
  // Every client has the game that started (the others' versions are their own).
  const playing = (u: TableUpdate) => u.view !== null && u.table.gameNo === start.table.gameNo
  if (own) await Promise.all(clients.map((c) => c.waitFor(code, playing)))
  let version = fromVersion
  const movers = () =>
    clients.flatMap((c, s) =>
      duelLegalMovesFromView(c.state(code)!.view as DuelView).length > 0 ? [s] : [],
    )
  for (let n = 0; n < (opts.maxMoves ?? 20_000); n++) {
    const u = own ? await overOrLatest(clients, code) : await settle(clients, code, version)
    if ((u.view as DuelView).over) return u
    let seats = movers()
    // The turn passed (alternating), and the seat on turn has yet to hear of it.
    for (let i = 0; own && seats.length === 0 && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 20))
      seats = movers()
    }
    if (seats.length === 0) throw new Error(`nobody can move at version ${version}`)
    const seat = seats[rng.int(seats.length)]!
    const mine = clients[seat]!.state(code)!
    const moves = duelLegalMovesFromView(mine.view as DuelView)
    const undo = moves.find((m) => m.type === 'undo')
    const progress = moves.filter((m) => m.type === 'discard' || m.type === 'move')
    // Mostly sensible play: discard when possible, sometimes undo, else deal or finish.
    const move =
      undo && rng.float() < (opts.undoChance ?? 0)
        ? undo
        : progress.length > 0 && rng.float() < 0.8
          ? progress[rng.int(progress.length)]!
          : (moves.find((m) => m.type === 'deal' || m.type === 'finish') ?? moves[0]!)
    await pause(opts.pauseMs)
    const ack = must(
      await clients[seat]!.send('game:move', { table: code, version: mine.table.version, move }),
    )
    version = ack.version
    if (own) await clients[seat]!.atVersion(code, version)
    opts.onMove?.(seat, move as MoveMsg, version)
  }
  throw new Error('the match did not end')
}

/**
 * The first client's latest update, or once either client has seen the match end, the first
 * client's update of the end (both are sent it).
 */
async function overOrLatest(clients: readonly Client[], code: string): Promise<TableUpdate> {
  const over = (u: TableUpdate) => (u.view as DuelView | null)?.over === true
  if (!clients.some((c) => over(c.state(code)!))) return clients[0]!.state(code)!
  const ends = await Promise.all(clients.map((c) => c.waitFor(code, over)))
  return ends[0]!
}
