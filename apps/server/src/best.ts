/**
 * A-16 "best possible" for a duel table (issue 16): which finished games need a figure, the
 * table's solve within its budget, and — when that figure is only an upper bound (`proven` is
 * `'closed'` or `'none'`) or did not come — the background proof that replaces it with the
 * proven one. The solves run in the worker pools, outside the table's command queue; only the
 * commits go through it (`commit`). Nothing here decides what a figure shows: the client says
 * "≤ n" for a bound. TableBest connects this to one table.
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
}

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
const dealKey = (rec: DuelGameRecord): string => `${rec.piles}:${rec.deck.join(',')}`

/** The promise under `key`, started by `start` the first time it is asked for. */
function once<T>(map: Map<string, Promise<T>>, key: string, start: () => Promise<T>): Promise<T> {
  let p = map.get(key)
  if (p === undefined) {
    p = start()
    map.set(key, p)
  }
  return p
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
  /** Proofs to ask for again (`seat/index`): at most one timer per finished game. */
  private readonly retries = new Map<string, ReturnType<typeof setTimeout>>()
  private match = -1
  private pending = 0
  private closed = false

  constructor(private readonly deps: BestDeps) {}

  /** A solve or proof of this table is under way (the table stays in memory for it). */
  get busy(): boolean {
    return this.pending > 0
  }

  /** Starts the solves a match's state calls for; each game is asked for once per node. */
  request(gameNo: number, st: DuelState): void {
    if (!this.deps.solve) return
    if (this.closed) return
    if (gameNo !== this.match) {
      this.asked.clear()
      this.solves.clear()
      this.proofs.clear()
      this.cancelRetries()
      this.match = gameNo
    }
    for (const { seat, rec } of dueBests(st)) {
      const key = `${seat}/${rec.index}`
      if (this.asked.has(key)) continue
      this.asked.add(key)
      this.track(this.find(seat, rec, gameNo))
    }
  }

  /** Stops asking again: the table is leaving this node (its record keeps what is owed). */
  close(): void {
    this.closed = true
    this.cancelRetries()
  }

  /** Proofs waiting to be asked for again (tests, metrics). */
  get retrying(): number {
    return this.retries.size
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

  /** The table's solve first (a bound is shown at once), then the proof if it is still owed. */
  private async find(seat: Seat, rec: DuelGameRecord, gameNo: number): Promise<void> {
    const { solve, commit } = this.deps
    let best = rec.best
    if (best === null && solve) {
      best = await once(this.solves, dealKey(rec), () => solve(rec.deck, rec.piles))
      if (best) await commit(seat, rec.index, gameNo, best)
    }
    if (best?.proven !== 'all') await this.proof(seat, rec, gameNo, 0)
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
    const deal = dealKey(rec)
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
 * game and when the table is loaded), and records each figure that tells more than the one shown,
 * through the table's queue. Only a proven figure goes into the public log, whose words say
 * "perfect play would have left n"; with the same deal none does, since it would tell the
 * opponent about a deal they have yet to play: it travels only inside the records, which
 * the views mask.
 */
export class TableBest {
  private readonly figures: BestFigures

  constructor(private readonly h: TableHost) {
    this.figures = new BestFigures({
      solve: h.deps.solve,
      prove: h.deps.prove,
      commit: (seat, index, gameNo, best) => this.commit(seat, index, gameNo, best),
      log: h.log,
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

  /** Starts the solves the duel's state calls for (nothing for other games). */
  request(): void {
    const r = this.h.record
    if (r.game !== 'duel') return
    const st = r.state as DuelState | null
    if (st) this.figures.request(r.gameNo, st)
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
