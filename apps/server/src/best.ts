/**
 * A-16 "best possible" for a duel table (issue 16): which finished games need a figure, the
 * table's solve within its budget, and — when that figure is only an upper bound (`proven` is
 * `'closed'` or `'none'`) or did not come — the background proof that replaces it with the
 * proven one. With SOLVER_EARLY_PROOF a deal's proof also starts as soon as its game is dealt
 * ({@link EarlyProofs}), on a thread of its own; its answer stays in this node's memory, never
 * sent, logged or stored, until the game is owed its figure ({@link dueBests}). If it has proven
 * the figure by then, that figure is committed at once instead of the table's solve; if not, it
 * is cancelled and the end of the game goes on as without it. The solves run in the worker
 * pools, outside the table's command queue; only the commits go through it (`commit`). Nothing
 * here decides what a figure shows: the client says "≤ n" for a bound. TableBest connects this
 * to one table.
 */
import {
  type DuelBest,
  type DuelGameRecord,
  type DuelState,
  type Seat,
  withBest,
} from '@kortbord/engine'
import type { Logger } from 'pino'
import type { LogBody } from './table-log.ts'
import type { TableHost } from './table-types.ts'

export interface BestDeps {
  /** The table's solve (SOLVER_NODES, SOLVER_TIMEOUT_MS); null: no answer. */
  readonly solve?: (deck: readonly number[], piles: 4 | 5 | 8) => Promise<DuelBest | null>
  /** The background proof (SOLVER_PROOF_NODES, SOLVER_PROOF_TIMEOUT_MS); null: no answer. */
  readonly prove?: (deck: readonly number[], piles: 4 | 5 | 8) => Promise<DuelBest | null>
  /** Records a figure for game `index` of `seat` in match `gameNo`, in the table's queue. */
  readonly commit: (seat: Seat, index: number, gameNo: number, best: DuelBest) => Promise<void>
  readonly log: Logger
  /** Waits before asking again for a proof that got no answer (default {@link PROOF_RETRY_MS}). */
  readonly retryMs?: readonly number[]
  /** SOLVER_EARLY_PROOF: the proofs of deals in play, on a thread of their own (EarlyProofs). */
  readonly early?: EarlyDeps
}

export interface EarlyDeps {
  /** A deal's proof (the background proof's budget), cancelled by `signal`; null: no answer. */
  readonly prove: (
    deck: readonly number[],
    piles: 4 | 5 | 8,
    signal: AbortSignal,
  ) => Promise<DuelBest | null>
  /** Early proofs waiting for their thread now. */
  readonly waiting: () => number
}

/**
 * An early proof starts only while fewer than this many wait for the early proofs' thread: with 8
 * hard proofs waiting (1–60 s of the one thread each) a new one would hardly be done before a
 * game of a few minutes ends. A deal that finds no room is tried again at the next change of its
 * table while its game is in play.
 */
export const EARLY_PROOF_MAX_WAITING = 8

/**
 * A proof that got no answer (the background queue was full, its time limit passed, its worker
 * failed) is asked for again after each of these waits in turn, while the table stays in memory;
 * after the last it is owed until the table is next loaded. Three retries bound what one game
 * can cost the background pool.
 */
export const PROOF_RETRY_MS: readonly number[] = [30_000, 120_000, 480_000]

/** A finished game that still needs a figure, or a proof of the one it has. */
export interface DueBest {
  readonly seat: Seat
  readonly rec: DuelGameRecord
}

/**
 * The games whose figure is missing or unproven. With the same deal, none before both players
 * have played that deal, so that neither the figure nor the time it takes to arrive says
 * anything about a deal someone has yet to play (I-15, A-15).
 */
export function dueBests(st: DuelState): DueBest[] {
  return st.players.flatMap((p, seat) =>
    p.results
      .filter((rec) => rec.best?.proven !== 'all' && rec.best?.gaveUp !== true)
      .filter(
        (rec) => !st.settings.sameDeal || (st.players[1 - seat]?.results.length ?? 0) > rec.index,
      )
      .map((rec) => ({ seat: seat as Seat, rec })),
  )
}

/**
 * Whether `next` tells more than `cur`: a first figure, a proof, a lower bound than before, or
 * that no proof will follow (`gaveUp`).
 */
export function improves(cur: DuelBest | null, next: DuelBest): boolean {
  if (cur === null) return true
  if (cur.proven === 'all') return false
  if (next.proven === 'all' || next.best < cur.best) return true
  return next.gaveUp === true && cur.gaveUp !== true
}

/** The figure to keep when `next` improves on `cur`: the lower bound, given up if either is. */
export function merged(cur: DuelBest | null, next: DuelBest): DuelBest {
  if (cur === null || next.proven === 'all') return next
  const low = next.best <= cur.best ? next : cur
  return next.gaveUp === true || cur.gaveUp === true ? { ...low, gaveUp: true } : low
}

/** One deal of one pile setting: the games of a match that share it share its solve and proof. */
const dealKey = (piles: number, deck: readonly number[]): string => `${piles}:${deck.join(',')}`

/** The promise under `key`, started by `start` the first time it is asked for. */
function once<T>(map: Map<string, Promise<T>>, key: string, start: () => Promise<T>): Promise<T> {
  let p = map.get(key)
  if (p === undefined) {
    p = start()
    map.set(key, p)
  }
  return p
}

/** An early proof: what cancels it, and its answer once it has come. */
interface EarlyJob {
  readonly stop: AbortController
  answer?: DuelBest
}

/**
 * The proofs a match's deals get as soon as their games are dealt (SOLVER_EARLY_PROOF): at most
 * one per deal per match on this node (both seats' games on one deal share it), on the early
 * proofs' own thread, started only while it has room. An answer is only kept here, in memory:
 * nothing here commits, logs or sends anything (I-15, A-15). When the game is owed its figure
 * (`settle`), a proven answer stands in for the table's solve; one not there yet is cancelled, so
 * that the end of the game never waits for a proof that started early: how long a figure takes to
 * come never depends on the early proofs of other deals ahead of it on that thread, some of them
 * still secret (the opponent's game in play).
 */
class EarlyProofs {
  /** Deals of the current match whose proof started early. */
  private readonly started = new Map<string, EarlyJob>()
  /** Counts matches (and the close): an answer for an older one is dropped. */
  private generation = 0

  constructor(
    private readonly deps: EarlyDeps,
    private readonly track: (job: Promise<void>) => void,
  ) {}

  /**
   * Starts the proof of each game in play whose deal has none yet. A deal skipped for want of room
   * may start at a later change of the table while its game is still in play.
   */
  start(st: DuelState): void {
    for (const { current: g } of st.players) {
      // The game in play: its deck is decks[seat][results.length], as its record will hold it.
      if (g === null) continue
      const deal = dealKey(g.pileCount, g.deck)
      if (this.started.has(deal)) continue
      if (this.deps.waiting() >= EARLY_PROOF_MAX_WAITING) return
      const job: EarlyJob = { stop: new AbortController() }
      this.started.set(deal, job)
      const generation = this.generation
      this.track(
        this.deps.prove(g.deck, g.pileCount, job.stop.signal).then((answer) => {
          if (answer && generation === this.generation) job.answer = answer
        }),
      )
    }
  }

  /**
   * The game on `deal` is owed its figure: what its early proof answered, if it has (a proven
   * figure, or a bound whose proof spent its budget); otherwise the proof is cancelled (it is not
   * waited for) and nothing is returned.
   */
  settle(deal: string): DuelBest | undefined {
    const job = this.started.get(deal)
    if (job?.answer) return job.answer
    job?.stop.abort()
    return undefined
  }

  /** Forgets every early proof (a new match, the table leaving) and cancels those under way. */
  clear(): void {
    this.generation++
    for (const job of this.started.values()) job.stop.abort()
    this.started.clear()
  }
}

export class BestFigures {
  /** Games of the current match already asked for on this node (`seat/index`). */
  private readonly asked = new Set<string>()
  /**
   * The current match's solves and proofs by deal: with the same deal (or a fixed test deck) both
   * players' game n is one deal, solved and proven once. Sharing says nothing early: with the
   * same deal no game is asked for before both have played it (dueBests).
   */
  private readonly solves = new Map<string, Promise<DuelBest | null>>()
  private readonly proofs = new Map<string, Promise<DuelBest | null>>()
  /** SOLVER_EARLY_PROOF: the proofs of the deals in play. */
  private readonly early: EarlyProofs | null
  /** Proofs to ask for again (`seat/index`): at most one timer per finished game. */
  private readonly retries = new Map<string, ReturnType<typeof setTimeout>>()
  private match = -1
  private pending = 0
  private closed = false

  constructor(private readonly deps: BestDeps) {
    this.early = deps.early ? new EarlyProofs(deps.early, (job) => this.track(job)) : null
  }

  /** A solve or proof of this table is under way (the table stays in memory for it). */
  get busy(): boolean {
    return this.pending > 0
  }

  /** Starts the solves a match's state calls for; each game is asked for once per node. */
  request(gameNo: number, st: DuelState): void {
    if (!this.deps.solve || this.closed) return
    this.enter(gameNo)
    for (const { seat, rec } of dueBests(st)) {
      const key = `${seat}/${rec.index}`
      if (this.asked.has(key)) continue
      this.asked.add(key)
      this.track(this.find(seat, rec, gameNo))
    }
  }

  /** The games in play have been dealt: with SOLVER_EARLY_PROOF their deals' proofs start now. */
  dealt(gameNo: number, st: DuelState): void {
    if (!this.deps.solve || this.closed || !this.early) return
    this.enter(gameNo)
    this.early.start(st)
  }

  /** Stops asking again: the table is leaving this node (its record keeps what is owed). */
  close(): void {
    this.closed = true
    this.cancelRetries()
    this.early?.clear()
  }

  /** Proofs waiting to be asked for again (tests, metrics). */
  get retrying(): number {
    return this.retries.size
  }

  /** A new match drops what was asked for the last one. */
  private enter(gameNo: number): void {
    if (gameNo === this.match) return
    this.asked.clear()
    this.solves.clear()
    this.proofs.clear()
    this.early?.clear()
    this.cancelRetries()
    this.match = gameNo
  }

  private cancelRetries(): void {
    for (const t of this.retries.values()) clearTimeout(t)
    this.retries.clear()
  }

  private track(job: Promise<void>): void {
    this.pending++
    job
      .catch((e: unknown) => this.deps.log.warn({ err: e }, 'best-possible computation failed'))
      .finally(() => this.pending--)
  }

  /**
   * The table's solve first (a bound is shown at once), then the proof if it is still owed. An
   * early proof that has answered by now stands in: a proven figure for the table's solve (the
   * sheet gets it at once), one that spent its budget for the background proof, which would too.
   */
  private async find(seat: Seat, rec: DuelGameRecord, gameNo: number): Promise<void> {
    const { solve, commit } = this.deps
    const deal = dealKey(rec.piles, rec.deck)
    const early = this.early?.settle(deal)
    if (early?.proven === 'all') return commit(seat, rec.index, gameNo, early)
    let best = rec.best
    if (best === null && solve) {
      best = await once(this.solves, deal, () => solve(rec.deck, rec.piles))
      if (best) await commit(seat, rec.index, gameNo, best)
    }
    if (best?.proven === 'all') return
    if (early) await commit(seat, rec.index, gameNo, { ...early, gaveUp: true })
    else await this.proof(seat, rec, gameNo, 0)
  }

  /**
   * The background proof. One that spent its node budget is the last word: the figure stays an
   * upper bound, and the sheet says that no proof follows. No answer (a full queue, the time
   * limit, a failed worker) says nothing about the deal: it is asked for again later
   * ({@link PROOF_RETRY_MS}), and after the last retry it is owed until the table is next loaded.
   */
  private async proof(seat: Seat, rec: DuelGameRecord, gameNo: number, tries: number) {
    const { prove, commit } = this.deps
    if (!prove) return
    const deal = dealKey(rec.piles, rec.deck)
    const asked = once(this.proofs, deal, () => prove(rec.deck, rec.piles))
    const proof = await asked
    if (proof) {
      const fig = proof.proven === 'all' ? proof : { ...proof, gaveUp: true as const }
      await commit(seat, rec.index, gameNo, fig)
      return
    }
    // Both games on one deal share the answer; the first to come back lets the next ask anew.
    if (this.proofs.get(deal) === asked) this.proofs.delete(deal)
    const wait = (this.deps.retryMs ?? PROOF_RETRY_MS)[tries]
    if (wait === undefined || this.closed || gameNo !== this.match) return
    const key = `${seat}/${rec.index}`
    const timer = setTimeout(() => {
      this.retries.delete(key)
      if (!this.closed && gameNo === this.match)
        this.track(this.proof(seat, rec, gameNo, tries + 1))
    }, wait)
    timer.unref()
    this.retries.set(key, timer)
  }
}

/**
 * A-16 for one duel table: asks for the figures its finished games need (on a change of the
 * game and when the table is loaded), with SOLVER_EARLY_PROOF starts the proofs of the games in
 * play, and records each figure that tells more than the one shown, through the table's queue.
 * Only a proven figure goes into the public log, whose words say "perfect play would have left
 * n"; with the same deal none does, since it would tell the opponent about a deal they have yet
 * to play: it travels only inside the records, which the views mask.
 */
export class TableBest {
  private readonly figures: BestFigures

  constructor(private readonly h: TableHost) {
    this.figures = new BestFigures({
      solve: h.deps.solve,
      prove: h.deps.prove,
      commit: (seat, index, gameNo, best) => this.commit(seat, index, gameNo, best),
      log: h.log,
      early:
        h.deps.config.earlyProof && h.deps.proveEarly
          ? { prove: h.deps.proveEarly, waiting: () => h.deps.earlyWaiting?.() ?? 0 }
          : undefined,
    })
  }

  /** A solve or proof of this table is under way (the table stays in memory for it). */
  get busy(): boolean {
    return this.figures.busy
  }

  /** The table leaves this node: no proof is asked for again here. */
  close(): void {
    this.figures.close()
  }

  /**
   * Starts the solves the duel's state calls for, then the early proofs of the games in play
   * while the match is played (not after a forfeit); nothing for other games.
   */
  request(): void {
    const r = this.h.record
    if (r.game !== 'duel') return
    const st = r.state as DuelState | null
    if (!st) return
    this.figures.request(r.gameNo, st)
    if (r.status === 'playing') this.figures.dealt(r.gameNo, st)
  }

  private commit(seat: Seat, index: number, gameNo: number, best: DuelBest): Promise<void> {
    const h = this.h
    if (h.closed) return Promise.resolve()
    return h.run(async () => {
      const cur = h.record.state as DuelState | null
      if (!cur || h.record.gameNo !== gameNo) return
      const had = cur.players[seat as 0 | 1]?.results[index]?.best
      if (had === undefined || !improves(had, best)) return
      const fig = merged(had, best)
      const logs: LogBody[] =
        cur.settings.sameDeal || fig.proven !== 'all'
          ? []
          : [{ t: 'best', seat, index, best: fig.best }]
      await h.commit({ state: withBest(cur, seat, index, fig) }, logs)
    })
  }
}
