/**
 * A-16 "best possible" for a duel table (issue 16): which finished games need a figure, the
 * table's solve within its budget, and — when that figure is only an upper bound (`proven:
 * 'closed'`) or did not come — the background proof that replaces it with the proven one. The
 * solves run in the worker pools, outside the table's command queue; only the commits go through
 * it (`commit`). Nothing here decides what a figure shows: the client says "≤ n" for a bound.
 */
import type { DuelBest, DuelGameRecord, DuelState, Seat } from '@kortbord/engine'
import type { Logger } from 'pino'

export interface BestDeps {
  /** The table's solve (SOLVER_NODES, SOLVER_TIMEOUT_MS); null: no answer. */
  readonly solve?: (deck: readonly number[], piles: 4 | 5 | 8) => Promise<DuelBest | null>
  /** The background proof (SOLVER_PROOF_NODES, SOLVER_PROOF_TIMEOUT_MS); null: no answer. */
  readonly prove?: (deck: readonly number[], piles: 4 | 5 | 8) => Promise<DuelBest | null>
  /** Records a figure for game `index` of `seat` in match `gameNo`, in the table's queue. */
  readonly commit: (seat: Seat, index: number, gameNo: number, best: DuelBest) => Promise<void>
  readonly log: Logger
}

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
      .filter((rec) => rec.best?.proven !== 'all')
      .filter(
        (rec) => !st.settings.sameDeal || (st.players[1 - seat]?.results.length ?? 0) > rec.index,
      )
      .map((rec) => ({ seat: seat as Seat, rec })),
  )
}

/** Whether `next` tells more than `cur`: a first figure, a proof, or a lower bound than before. */
export function improves(cur: DuelBest | null, next: DuelBest): boolean {
  if (cur === null) return true
  if (cur.proven === 'all') return false
  return next.proven === 'all' || next.best < cur.best
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
  private match = -1
  private pending = 0

  constructor(private readonly deps: BestDeps) {}

  /** A solve or proof of this table is under way (the table stays in memory for it). */
  get busy(): boolean {
    return this.pending > 0
  }

  /** Starts the solves a match's state calls for; each game is asked for once per node. */
  request(gameNo: number, st: DuelState): void {
    if (!this.deps.solve) return
    if (gameNo !== this.match) {
      this.asked.clear()
      this.solves.clear()
      this.proofs.clear()
      this.match = gameNo
    }
    for (const { seat, rec } of dueBests(st)) {
      const key = `${seat}/${rec.index}`
      if (this.asked.has(key)) continue
      this.asked.add(key)
      this.pending++
      this.find(seat, rec, gameNo)
        .catch((e: unknown) => this.deps.log.warn({ err: e }, 'best-possible computation failed'))
        .finally(() => this.pending--)
    }
  }

  /** The table's solve first (a bound is shown at once), then the proof if it is still owed. */
  private async find(seat: Seat, rec: DuelGameRecord, gameNo: number): Promise<void> {
    const { solve, prove, commit } = this.deps
    const deal = dealKey(rec)
    let best = rec.best
    if (best === null && solve) {
      best = await once(this.solves, deal, () => solve(rec.deck, rec.piles))
      if (best) await commit(seat, rec.index, gameNo, best)
    }
    if (best?.proven === 'all' || !prove) return
    const proof = await once(this.proofs, deal, () => prove(rec.deck, rec.piles))
    if (proof) await commit(seat, rec.index, gameNo, proof)
  }
}
