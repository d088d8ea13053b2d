// A-16 on a table (issue 16): which games are owed a figure or its proof, when a new figure
// replaces the shown one, and the order of the table's solve and the background proof, with
// stand-in solvers (the real ones run in duel.test.ts).

import { readdirSync, readFileSync } from 'node:fs'
import { getPriority } from 'node:os'
import { type Card, type DuelBest, type DuelState, duel, fullDeck, Rng } from '@kortbord/engine'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { BestFigures, dueBests, EARLY_PROOF_MAX_WAITING, improves, merged } from '../src/best.ts'
import { loadConfig } from '../src/config.ts'
import { WorkerPool } from '../src/workers/pool.ts'

const deck: Card[] = Rng.seeded('best-figures').shuffle(fullDeck(1))

/** A match of `games` after `seat` has played its first game (deal out, then end it). */
function played(state: DuelState, seat: 0 | 1): DuelState {
  let s = state
  const start = s.players[seat]!.results.length
  while (s.players[seat]!.results.length === start) {
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
/** Stand-in solvers that note each call: the table's solve gives a bound, the proof proves it. */
const standIns = (calls: string[]) => ({
  solve: async () => {
    calls.push('solve')
    return closed(9)
  },
  prove: async () => {
    calls.push('prove')
    return proven(7)
  },
})

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
          ...s.players.slice(1),
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
      ...standIns(calls),
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
      ...standIns(calls),
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
        ...s.players.slice(1),
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

describe('A-16 proofs started when a game is dealt (SOLVER_EARLY_PROOF)', () => {
  /** A seeded match: each game of each seat has a deal of its own (the same deal: shared). */
  const seeded = (sameDeal = false, games = 2) =>
    duel.setup({ games, sameDeal }, 2, { seed: `early-${sameDeal}-${games}` })
  /** `seat` deals once: its game goes on. */
  const dealOnce = (s: DuelState, seat: 0 | 1): DuelState => {
    const r = duel.apply(s, seat, { type: 'deal' })
    if (!r.ok) throw new Error(r.error.code)
    return r.value
  }
  const dealOf = (s: DuelState, seat: 0 | 1) => s.players[seat]!.current!.deck.join(',')
  const settle = async () => {
    for (let i = 0; i < 10; i++) await tick()
  }

  interface Asked {
    readonly deal: string
    readonly answer: (b: DuelBest | null) => void
    readonly signal?: AbortSignal
  }

  /**
   * Figures with early proofs on, as a table runs them: on each change `request`, then `dealt`.
   * Each proof asked for (early, on its own thread, or in the background at the end) waits until
   * the test answers it; a cancelled early proof answers null, as the pool does. Every log line is
   * kept.
   */
  function early(waiting: () => number = () => 0) {
    const calls: string[] = []
    const asked: Asked[] = []
    const earlyAsked: Asked[] = []
    const commits: { seat: number; index: number; gameNo: number; best: DuelBest }[] = []
    const lines: string[] = []
    const figures = new BestFigures({
      solve: async () => {
        calls.push('solve')
        return closed(9)
      },
      prove: (d) => {
        calls.push('prove')
        return new Promise((answer) => asked.push({ deal: d.join(','), answer }))
      },
      commit: async (seat, index, gameNo, best) => void commits.push({ seat, index, gameNo, best }),
      log: pino({ level: 'trace' }, { write: (l: string) => void lines.push(l) }),
      retryMs: [60_000],
      early: {
        prove: (d, _piles, signal) => {
          calls.push('early')
          return new Promise((answer) => {
            earlyAsked.push({ deal: d.join(','), answer, signal })
            signal.addEventListener('abort', () => answer(null))
          })
        },
        waiting,
      },
    })
    const change = (gameNo: number, st: DuelState) => {
      figures.request(gameNo, st)
      figures.dealt(gameNo, st)
    }
    /** Answers the proof of `deal` that is still waiting in `list`. */
    const answerIn = (list: Asked[], deal: string, best: DuelBest | null) => {
      const i = list.findIndex((a) => a.deal === deal)
      expect(i, `a proof of ${deal} is waiting`).toBeGreaterThanOrEqual(0)
      list.splice(i, 1)[0]!.answer(best)
    }
    const cancelled = () => earlyAsked.filter((a) => a.signal?.aborted).map((a) => a.deal)
    return {
      figures,
      calls,
      asked,
      earlyAsked,
      commits,
      lines,
      change,
      cancelled,
      answerEarly: (deal: string, best: DuelBest | null) => answerIn(earlyAsked, deal, best),
      answer: (deal: string, best: DuelBest | null) => answerIn(asked, deal, best),
    }
  }

  it('[A-16][I-15] the proof is asked for when the game is dealt; nothing is committed or logged before the game ends, even once it has answered', async () => {
    const e = early()
    const start = seeded()
    e.change(1, start)
    expect(e.earlyAsked.map((a) => a.deal)).toEqual([dealOf(start, 0), dealOf(start, 1)])
    expect(e.figures.busy).toBe(true)
    e.answerEarly(dealOf(start, 0), proven(6))
    e.answerEarly(dealOf(start, 1), proven(7))
    await settle()
    // Answered, and still nothing: the games go on, the table changes, no proof is asked again.
    let s = start
    for (let i = 0; i < 3; i++) {
      s = dealOnce(dealOnce(s, 0), 1)
      e.change(1, s)
      await settle()
    }
    expect(e.commits).toEqual([])
    expect(e.calls).toEqual(['early', 'early'])
    expect(e.lines).toEqual([])
    expect(e.figures.busy).toBe(false)
    expect(s.players.every((p) => p.results.length === 0)).toBe(true)
  })

  it('[A-16] at the end, a proof that has answered with the proven figure is committed at once; the table never solves', async () => {
    const e = early()
    const start = seeded()
    e.change(1, start)
    e.answerEarly(dealOf(start, 0), proven(6))
    await settle()
    e.change(1, played(start, 0))
    await settle()
    expect(e.commits).toEqual([{ seat: 0, index: 0, gameNo: 1, best: proven(6) }])
    expect(e.calls).toEqual(['early', 'early', 'early'])
    expect(e.cancelled()).toEqual([])
  })

  it('[A-16][A-15] an early proof not done at the end is cancelled, not waited for: the bound, then a background proof', async () => {
    const e = early()
    const start = seeded(false, 1)
    const deal = dealOf(start, 0)
    e.change(1, start)
    e.change(1, played(start, 0))
    await settle()
    // Its figure never waits for the thread of early proofs (which may be running another deal
    // still in play, the opponent's): the early proof is cancelled, the end goes on as without it.
    expect(e.cancelled()).toEqual([deal])
    expect(e.commits.map((c) => c.best)).toEqual([closed(9)])
    expect(e.calls).toEqual(['early', 'early', 'solve', 'prove'])
    e.answer(deal, proven(7))
    await settle()
    expect(e.commits.map((c) => c.best)).toEqual([closed(9), proven(7)])
    // Seat 1's deal is still in play: its early proof goes on.
    const going = e.earlyAsked.filter((a) => !a.signal!.aborted)
    expect(going.map((a) => a.deal)).toEqual([dealOf(start, 1)])
  })

  it('[A-16] an early proof that spent its budget stands in for the background proof: the bound, given up, and nothing asked again', async () => {
    const e = early()
    const start = seeded(false, 1)
    e.change(1, start)
    e.answerEarly(dealOf(start, 0), closed(8))
    await settle()
    e.change(1, played(start, 0))
    await settle()
    expect(e.commits.map((c) => c.best)).toEqual([closed(9), gaveUp(8)])
    expect(e.calls).toEqual(['early', 'early', 'solve'])
    expect(e.figures.retrying).toBe(0)
  })

  it('[A-16] an early proof that got no answer is not asked again during the game; the end asks at once', async () => {
    const e = early()
    const start = seeded()
    const deal = dealOf(start, 0)
    e.change(1, start)
    e.answerEarly(deal, null)
    await settle()
    // At most one early proof of a deal per match: the changes during the game ask nothing.
    e.change(1, dealOnce(start, 0))
    expect(e.calls).toEqual(['early', 'early'])
    const one = played(start, 0)
    e.change(1, one)
    await settle()
    // The end asks at once (its first try), with no retry waiting; seat 0's next deal gets its
    // early proof.
    expect(e.calls).toEqual(['early', 'early', 'solve', 'early', 'prove'])
    expect(e.asked.map((a) => a.deal)).toEqual([deal])
    expect(e.earlyAsked.map((a) => a.deal)).toEqual([dealOf(start, 1), dealOf(one, 0)])
    expect(e.figures.retrying).toBe(0)
    e.answer(deal, proven(7))
    await settle()
    expect(e.commits.map((c) => c.best)).toEqual([closed(9), proven(7)])
  })

  it('[A-16][I-15][A-15] same deal: one proof for both seats, and no figure for either before both have played the deal', async () => {
    const e = early()
    const start = seeded(true)
    const deal0 = dealOf(start, 0)
    expect(dealOf(start, 1)).toBe(deal0)
    e.change(1, start)
    expect(e.earlyAsked.map((a) => a.deal)).toEqual([deal0])
    e.answerEarly(deal0, proven(7))
    await settle()
    // Seat 0 has played deal 0, seat 1 not yet: no figure; seat 0's next deal gets its proof.
    const one = played(start, 0)
    e.change(1, one)
    await settle()
    expect(e.commits).toEqual([])
    expect(e.earlyAsked.map((a) => a.deal)).toEqual([dealOf(one, 0)])
    const both = played(one, 1)
    e.change(1, both)
    await settle()
    expect(e.commits.map((c) => [c.seat, c.index, c.best])).toEqual([
      [0, 0, proven(7)],
      [1, 0, proven(7)],
    ])
    expect(e.calls).toEqual(['early', 'early'])
  })

  it('[A-16] a new match, or the table leaving the node, cancels the early proofs: a late answer commits nothing', async () => {
    const e = early()
    // A fixed deck: every game of both matches is one deal.
    e.change(1, match(false))
    expect(e.calls).toEqual(['early'])
    const next = match(false)
    e.change(2, next)
    expect(e.calls).toEqual(['early', 'early'])
    const [old, fresh] = e.earlyAsked
    expect(old!.signal!.aborted).toBe(true)
    expect(fresh!.signal!.aborted).toBe(false)
    old!.answer(proven(7))
    await settle()
    // The old match's answer is not the new match's: the end of its game cancels the new match's
    // early proof (not answered yet) and solves.
    e.change(2, played(next, 0))
    await settle()
    expect(fresh!.signal!.aborted).toBe(true)
    expect(e.calls).toEqual(['early', 'early', 'solve', 'prove'])
    expect(e.commits).toEqual([{ seat: 0, index: 0, gameNo: 2, best: closed(9) }])
    // Closing cancels the proofs under way; the table is busy until they have answered.
    const c = early()
    const start = seeded()
    c.change(1, start)
    expect(c.figures.busy).toBe(true)
    c.figures.close()
    await settle()
    expect(c.earlyAsked.every((a) => a.signal!.aborted)).toBe(true)
    expect(c.figures.busy).toBe(false)
    c.change(1, played(start, 0))
    await settle()
    expect(c.commits).toEqual([])
    expect(c.calls).toEqual(['early', 'early'])
  })

  it('[A-16] no early proof while its thread has 8 waiting; the end of the game asks as before', async () => {
    let waiting = EARLY_PROOF_MAX_WAITING
    expect(EARLY_PROOF_MAX_WAITING).toBe(8)
    const e = early(() => waiting)
    const start = seeded()
    e.change(1, start)
    expect(e.calls).toEqual([])
    const one = played(start, 0)
    e.change(1, one)
    await settle()
    expect(e.calls).toEqual(['solve', 'prove'])
    expect(e.commits.map((c) => c.best)).toEqual([closed(9)])
    // With room again, the games in play get theirs at the next change.
    waiting = EARLY_PROOF_MAX_WAITING - 1
    e.change(1, one)
    expect(e.earlyAsked.map((a) => a.deal)).toEqual([dealOf(one, 0), dealOf(one, 1)])
  })

  it('[A-16] SOLVER_EARLY_PROOF (on by default) off: nothing is asked for before the game ends', async () => {
    expect(loadConfig({}).solver.earlyProof).toBe(true)
    expect(loadConfig({ SOLVER_EARLY_PROOF: '0' }).solver.earlyProof).toBe(false)
    const calls: string[] = []
    const figures = new BestFigures({
      ...standIns(calls),
      commit: async () => undefined,
      log: pino({ level: 'silent' }),
    })
    const start = seeded()
    figures.request(1, start)
    figures.dealt(1, start)
    await new Promise((r) => setTimeout(r, 20))
    expect(calls).toEqual([])
    figures.request(1, played(start, 0))
    await new Promise((r) => setTimeout(r, 20))
    expect(calls).toEqual(['solve', 'prove'])
  })
})
