// A-16 on a table (issue 16): which games are owed a figure or its proof, when a new figure
// replaces the shown one, and the order of the table's solve and the background proof, with
// stand-in solvers (the real ones run in duel.test.ts).

import { readdirSync, readFileSync } from 'node:fs'
import { getPriority } from 'node:os'
import { type Card, type DuelBest, type DuelState, duel, fullDeck, Rng } from '@kortbord/engine'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { BestFigures, dueBests, improves, merged } from '../src/best.ts'
import { WorkerPool } from '../src/workers/pool.ts'

const deck: Card[] = Rng.seeded('best-figures').shuffle(fullDeck(1))

/** A match of `games` after `seat` has played its first game (deal out, then end it). */
function played(state: DuelState, seat: 0 | 1): DuelState {
  let s = state
  const start = s.players[seat].results.length
  while (s.players[seat].results.length === start) {
    const moves = duel.legalMoves(s, seat)
    const m = moves.find((x) => x.type === 'deal') ?? moves.find((x) => x.type === 'finish')!
    const r = duel.apply(s, seat, m)
    if (!r.ok) throw new Error(r.error.code)
    s = r.value
  }
  return s
}

const match = (sameDeal: boolean) => duel.setup({ games: 2, sameDeal }, 2, { deck })
const closed = (best: number): DuelBest => ({ best, proven: 'closed' })
const proven = (best: number): DuelBest => ({ best, proven: 'all' })
const gaveUp = (best: number): DuelBest => ({ best, proven: 'closed', gaveUp: true })
const tick = () => new Promise((r) => setTimeout(r, 0))

describe('A-16 figures on a table (issue 16)', () => {
  it('[A-16] a figure replaces the shown one only if it tells more', () => {
    expect(improves(null, closed(9))).toBe(true)
    expect(improves(closed(9), proven(9))).toBe(true)
    expect(improves(closed(9), proven(7))).toBe(true)
    expect(improves(closed(9), closed(8))).toBe(true)
    expect(improves(closed(9), closed(9))).toBe(false)
    expect(improves(proven(7), proven(7))).toBe(false)
    expect(improves(proven(7), closed(5))).toBe(false)
    // A proof that gave up (no proof follows) tells more once, never after a proof.
    expect(improves(closed(9), gaveUp(9))).toBe(true)
    expect(improves(closed(8), gaveUp(9))).toBe(true)
    expect(improves(gaveUp(9), gaveUp(9))).toBe(false)
    expect(improves(gaveUp(9), closed(8))).toBe(true)
    expect(improves(proven(7), gaveUp(7))).toBe(false)
    // What is kept: the lower figure, marked as given up.
    expect(merged(closed(8), gaveUp(9))).toEqual(gaveUp(8))
    expect(merged(closed(9), gaveUp(8))).toEqual(gaveUp(8))
    expect(merged(closed(9), proven(7))).toEqual(proven(7))
    expect(merged(gaveUp(9), closed(8))).toEqual(gaveUp(8))
  })

  it('[A-16] a proof that spends its budget leaves the bound, given up, and is not owed again', async () => {
    for (const answer of [closed(9), closed(8)]) {
      const commits: DuelBest[] = []
      const figures = new BestFigures({
        solve: async () => closed(9),
        prove: async () => answer,
        commit: async (_s, _i, _g, best) => void commits.push(best),
        log: pino({ level: 'silent' }),
      })
      const s = played(match(false), 0)
      figures.request(1, s)
      for (let i = 0; i < 10; i++) await tick()
      expect(commits).toEqual([closed(9), gaveUp(answer.best)])
      const done: DuelState = {
        ...s,
        players: [
          { ...s.players[0], results: [{ ...s.players[0].results[0]!, best: commits[1]! }] },
          s.players[1],
        ],
      }
      expect(dueBests(done)).toEqual([])
    }
  })

  it('[I-15][A-15] with the same deal, no game is owed a figure before both have played it', () => {
    const one = played(match(true), 0)
    expect(dueBests(one)).toEqual([])
    const both = played(one, 1)
    expect(dueBests(both).map((d) => [d.seat, d.rec.index])).toEqual([
      [0, 0],
      [1, 0],
    ])
    // Without the same deal, a finished game is owed its figure at once.
    expect(dueBests(played(match(false), 0)).map((d) => d.seat)).toEqual([0])
  })

  it('[A-16] an unproven figure is committed at once, then the proof; each game is asked once', async () => {
    const calls: string[] = []
    const commits: [number, DuelBest][] = []
    const figures = new BestFigures({
      solve: async () => {
        calls.push('solve')
        return closed(9)
      },
      prove: async () => {
        calls.push('prove')
        return proven(7)
      },
      commit: async (seat, _index, _gameNo, best) => void commits.push([seat, best]),
      log: pino({ level: 'silent' }),
    })
    const s = played(match(false), 0)
    figures.request(1, s)
    figures.request(1, s) // a second change of the table asks for nothing new
    expect(figures.busy).toBe(true)
    for (let i = 0; i < 10; i++) await tick()
    expect(figures.busy).toBe(false)
    expect(calls).toEqual(['solve', 'prove'])
    expect(commits).toEqual([
      [0, closed(9)],
      [0, proven(7)],
    ])
    // A proven figure needs no proof; a new match asks again.
    const solvedOnly = new BestFigures({
      solve: async () => proven(8),
      prove: async () => {
        throw new Error('no proof owed')
      },
      commit: async (seat, _i, gameNo, best) => void commits.push([seat + 10 * gameNo, best]),
      log: pino({ level: 'silent' }),
    })
    commits.length = 0
    solvedOnly.request(1, s)
    solvedOnly.request(2, s)
    for (let i = 0; i < 10; i++) await tick()
    expect(commits).toEqual([
      [10, proven(8)],
      [20, proven(8)],
    ])
  })

  it("[A-16] both players' game on one deal share one solve and one proof", async () => {
    const calls: string[] = []
    const commits: [number, DuelBest][] = []
    const figures = new BestFigures({
      solve: async () => {
        calls.push('solve')
        return closed(9)
      },
      prove: async () => {
        calls.push('prove')
        return proven(7)
      },
      commit: async (seat, _index, _gameNo, best) => void commits.push([seat, best]),
      log: pino({ level: 'silent' }),
    })
    figures.request(1, played(played(match(true), 0), 1))
    for (let i = 0; i < 10; i++) await tick()
    expect(calls).toEqual(['solve', 'prove'])
    expect(commits.filter(([, b]) => b.proven === 'all').map(([seat]) => seat)).toEqual([0, 1])
    expect(commits).toHaveLength(4)
    // Different deals (seeded, not the same deal) are solved each on its own.
    calls.length = 0
    const seeded = duel.setup({ games: 2, sameDeal: false }, 2, { seed: 'best-figures' })
    figures.request(2, played(played(seeded, 0), 1))
    for (let i = 0; i < 10; i++) await tick()
    expect(calls).toEqual(['solve', 'solve', 'prove', 'prove'])
  })

  it('[A-16] a bound recorded earlier is proven without solving again; no answer commits nothing', async () => {
    const calls: string[] = []
    const commits: DuelBest[] = []
    const figures = new BestFigures({
      solve: async () => {
        calls.push('solve')
        return null
      },
      prove: async () => {
        calls.push('prove')
        return null
      },
      commit: async (_s, _i, _g, best) => void commits.push(best),
      log: pino({ level: 'silent' }),
    })
    const s = played(match(false), 0)
    const withBound: DuelState = {
      ...s,
      players: [
        { ...s.players[0], results: [{ ...s.players[0].results[0]!, best: closed(9) }] },
        s.players[1],
      ],
    }
    figures.request(1, withBound)
    for (let i = 0; i < 10; i++) await tick()
    expect(calls).toEqual(['prove'])
    // No answer (a full queue, a time limit, a node shutting down) tells nothing about the deal:
    // the bound stays as it was, still owed its proof.
    expect(commits).toEqual([])
    expect(dueBests(withBound).map((d) => d.rec.index)).toEqual([0])
    // It is asked for again later; a table leaving the node cancels that.
    expect(figures.retrying).toBe(1)
    figures.close()
    expect(figures.retrying).toBe(0)
  })

  /** Figures whose proof answers `answers` in turn (null: no answer), retried after 1 ms. */
  function retried(answers: (DuelBest | null)[], retryMs = [1, 1, 1]) {
    const proofs: number[] = []
    const commits: DuelBest[] = []
    const figures = new BestFigures({
      solve: async () => closed(9),
      prove: async () => {
        proofs.push(Date.now())
        return answers.shift() ?? null
      },
      commit: async (_s, _i, _g, best) => void commits.push(best),
      log: pino({ level: 'silent' }),
      retryMs,
    })
    return { figures, proofs, commits }
  }
  const settle = () => new Promise((r) => setTimeout(r, 60))

  it('[A-16] a proof that got no answer (a full queue) is asked for again, without a reload', async () => {
    const { figures, proofs, commits } = retried([null, null, proven(7)])
    figures.request(1, played(match(false), 0))
    await settle()
    expect(proofs).toHaveLength(3)
    expect(commits).toEqual([closed(9), proven(7)])
    expect(figures.retrying).toBe(0)
    expect(figures.busy).toBe(false)
  })

  it('[A-16] retries are bounded: after the last one the proof is owed until the next load', async () => {
    const { figures, proofs, commits } = retried([], [1, 1])
    figures.request(1, played(match(false), 0))
    await settle()
    // The first ask and two retries, then nothing more (a table in memory costs the pool at most
    // 1 + PROOF_RETRY_MS.length proofs per game).
    expect(proofs).toHaveLength(3)
    expect(commits).toEqual([closed(9)])
    expect(figures.retrying).toBe(0)
    expect(figures.busy).toBe(false)
  })

  it('[A-16] a retry waits its time and stops with the table or with a new match', async () => {
    const a = retried([], [30])
    a.figures.request(1, played(match(false), 0))
    for (let i = 0; i < 10; i++) await tick()
    expect(a.proofs).toHaveLength(1)
    expect(a.figures.retrying).toBe(1)
    a.figures.close()
    await settle()
    expect(a.proofs).toHaveLength(1)
    // A new match drops the old match's retries (its figures are no longer shown).
    const b = retried([], [30])
    b.figures.request(1, played(match(false), 0))
    for (let i = 0; i < 10; i++) await tick()
    expect(b.figures.retrying).toBe(1)
    b.figures.request(2, match(false))
    expect(b.figures.retrying).toBe(0)
    await settle()
    expect(b.proofs).toHaveLength(1)
  })

  it('[A-16] both games on one deal retry one shared proof', async () => {
    const { figures, proofs, commits } = retried([null, proven(7)])
    figures.request(1, played(played(match(true), 0), 1))
    await settle()
    expect(proofs).toHaveLength(2)
    expect(commits.filter((b) => b.proven === 'all')).toEqual([proven(7), proven(7)])
  })

  // Linux only: elsewhere pool.ts ignores `nice` (lowering it would lower the whole process).
  it.runIf(process.platform === 'linux')(
    "the background proofs' thread yields: it runs at nice 19, the server at its own priority",
    async () => {
      const nices = () =>
        readdirSync('/proc/self/task').map((t) =>
          Number(readFileSync(`/proc/self/task/${t}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]),
        )
      const before = nices().filter((n) => n === 19).length
      const pool = new WorkerPool({ threads: 1, nice: 19, testTasks: true })
      try {
        // A job has run: the worker has set its priority before loading the tasks.
        expect(await pool.runTestTask({ kind: 'spin', ms: 10 }, 30_000)).toBeNull()
        expect(pool.stats().completed).toBe(1)
        // The worker's thread (and the module-loader thread tsx's register() starts from it).
        expect(nices().filter((n) => n === 19).length).toBeGreaterThan(before)
        // The process's main thread, the event loop, keeps its priority.
        expect(getPriority(0)).toBe(0)
        const main = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8')
        expect(Number(main.split(') ')[1]!.split(' ')[16])).toBe(0)
      } finally {
        await pool.close()
      }
    },
  )
})
