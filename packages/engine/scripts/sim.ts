/**
 * `pnpm sim`: plays many games with simple strategies and prints figures with 95% confidence
 * intervals (Wilson for rates, normal for means) and the time each part took.
 *
 *   pnpm sim [--aces4 10000] [--aces5 2000] [--aces8 0] [--idiot 2000] [--budget 20000]
 */

import { fork } from 'node:child_process'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { solveAcesUp } from '../src/aces-up/solver.ts'
import {
  type AcesUpPiles,
  type AcesUpState,
  acesUp,
  acesUpGreedy,
  type IdiotState,
  idiot,
  idiotGreedy,
  Rng,
  randomMove,
} from '../src/index.ts'
import { arg, mean, num, pct, proportion, quantile } from './stats.ts'

const TURN_CAP = 5000

interface Solved {
  best: number
  closedBest: number
  proven: boolean
  ms: number
}

/** Solves deals i ≡ part (mod parts) of a sample; run in worker threads, one per core. */
function solvePart(
  piles: AcesUpPiles,
  deals: number,
  budget: number,
  part: number,
  parts: number,
): Solved[] {
  const out: Solved[] = []
  for (let i = part; i < deals; i += parts) {
    const deck = acesUp.setup({ piles }, 1, { seed: `sim-${piles}-${i}` }).deck
    const a = performance.now()
    const r = solveAcesUp(deck, piles as 4 | 5 | 8, { maxNodes: budget })
    out.push({
      best: r.best,
      closedBest: r.closedBest,
      proven: r.proven === 'all',
      ms: performance.now() - a,
    })
  }
  return out
}

const PART = process.env.KORTBORD_SIM_PART
const isMain = PART === undefined
if (!isMain) {
  const d = JSON.parse(PART) as {
    piles: AcesUpPiles
    deals: number
    budget: number
    part: number
    parts: number
  }
  process.send!(solvePart(d.piles, d.deals, d.budget, d.part, d.parts), () => process.exit(0))
}

/** Solves a sample in child processes, one per core (each runs this file with tsx's loader). */
async function solveAll(piles: AcesUpPiles, deals: number, budget: number): Promise<Solved[]> {
  const parts = Math.max(1, availableParallelism())
  const results = await Promise.all(
    Array.from(
      { length: parts },
      (_, part) =>
        new Promise<Solved[]>((resolve, reject) => {
          const child = fork(fileURLToPath(import.meta.url), [], {
            execArgv: process.execArgv,
            env: {
              ...process.env,
              KORTBORD_SIM_PART: JSON.stringify({ piles, deals, budget, part, parts }),
            },
          })
          child.once('message', (m) => resolve(m as Solved[]))
          child.once('error', reject)
          child.once(
            'exit',
            (code) => code !== 0 && reject(new Error(`solver part exited ${code}`)),
          )
        }),
    ),
  )
  return results.flat()
}

function playGreedy(piles: AcesUpPiles, seed: string): AcesUpState {
  const rng = Rng.seeded(`greedy:${seed}`)
  let s = acesUp.setup({ piles }, 1, { seed })
  while (!s.ended) {
    const r = acesUp.apply(s, 0, acesUpGreedy(acesUp.view(s, 0), acesUp.legalMoves(s, 0), rng))
    if (!r.ok) throw new Error(r.error.code)
    s = r.value
  }
  return s
}

async function acesUpSim(piles: AcesUpPiles, deals: number, budget: number): Promise<void> {
  if (deals === 0) return
  const t0 = performance.now()
  const greedyLeft: number[] = []
  let greedyWins = 0
  for (let i = 0; i < deals; i++) {
    const end = playGreedy(piles, `sim-${piles}-${i}`)
    const o = acesUp.outcome(end)!
    greedyLeft.push(o.left)
    if (o.won) greedyWins++
  }
  const t1 = performance.now()
  const solved = await solveAll(piles, deals, budget)
  const aces = piles === 8 ? 8 : 4
  const bestLeft = solved.map((r) => r.best)
  const closedLeft = solved.map((r) => r.closedBest)
  const times = solved.map((r) => r.ms)
  const bestWins = solved.filter((r) => r.best === aces).length
  const closedWins = solved.filter((r) => r.closedBest === aces).length
  const provenAll = solved.filter((r) => r.proven).length
  const keepsHelp = solved.filter((r) => r.best < r.closedBest).length
  const t2 = performance.now()
  console.log(`\nAces Up, ${piles} piles, ${deals} seeded deals`)
  console.log(
    `  greedy player        win ${pct(proportion(greedyWins, deals))}   cards left ${num(mean(greedyLeft))}   (${((t1 - t0) / 1000).toFixed(1)} s)`,
  )
  console.log(
    `  perfect play (A-16)  win ${pct(proportion(bestWins, deals))}   cards left ${num(mean(bestLeft))}   (${((t2 - t1) / 1000).toFixed(1)} s on ${availableParallelism()} threads, median ${quantile(times, 0.5).toFixed(1)} ms, p95 ${quantile(times, 0.95).toFixed(1)} ms per deal)`,
  )
  console.log(
    `    every discard made before each deal: win ${pct(proportion(closedWins, deals))}   cards left ${num(mean(closedLeft))}`,
  )
  console.log(
    `    keeping a discardable card under a deal helped on ${pct(proportion(keepsHelp, deals))} of deals`,
  )
  console.log(
    `    proven optimal over every line (keeps included) on ${pct(proportion(provenAll, deals))} of deals (budget ${budget} nodes); the rest are proven over lines that discard before each deal`,
  )
}

type IdiotPolicy = 'random' | 'greedy'

function idiotGame(
  seats: number,
  policy: IdiotPolicy,
  seed: string,
): { s: IdiotState; capped: boolean } {
  const rng = Rng.seeded(`idiot-policy:${seed}`)
  let s = idiot.setup({}, seats, { seed })
  while (s.phase !== 'over') {
    if (s.turns >= TURN_CAP) return { s, capped: true }
    const seat = idiot.activeSeats(s)[0]!
    const legal = idiot.legalMoves(s, seat)
    const m =
      policy === 'greedy'
        ? idiotGreedy(idiot.view(s, seat), legal, rng)
        : randomMove(null, legal, rng)
    const r = idiot.apply(s, seat, m)
    if (!r.ok) throw new Error(r.error.code)
    s = r.value
  }
  return { s, capped: false }
}

function idiotSim(seats: number, policy: IdiotPolicy, games: number): void {
  if (games === 0) return
  const t0 = performance.now()
  const turns: number[] = []
  const losses = new Array<number>(seats).fill(0)
  let capped = 0
  for (let g = 0; g < games; g++) {
    const { s, capped: c } = idiotGame(seats, policy, `sim-idiot-${seats}-${policy}-${g}`)
    if (c) {
      capped++
      continue
    }
    turns.push(s.turns)
    const o = idiot.outcome(s)!
    losses[(o.loser - s.dealer + seats) % seats]!++
  }
  const done = games - capped
  const t = (performance.now() - t0) / 1000
  console.log(`\nIdiot, ${seats} players, all ${policy}, ${games} games (${t.toFixed(1)} s)`)
  console.log(
    `  turns per game ${num(mean(turns), 1)}   median ${quantile(turns, 0.5)}   p95 ${quantile(turns, 0.95)}   capped at ${TURN_CAP} turns: ${capped}`,
  )
  const fair = 1 / seats
  const row = losses.map((l, off) => {
    const who = off === 0 ? 'dealer' : off === 1 ? 'first to play' : `dealer+${off}`
    return `    ${who.padEnd(14)} ${pct(proportion(l, done))}`
  })
  console.log(
    `  loss rate by seat relative to the dealer (a fair share is ${(fair * 100).toFixed(1)}%):`,
  )
  console.log(row.join('\n'))
}

if (isMain) {
  const aces4 = arg('aces4', 10000)
  const aces5 = arg('aces5', 2000)
  const aces8 = arg('aces8', 0)
  const idiotGames = arg('idiot', 2000)
  const budget = arg('budget', 20000)
  const start = performance.now()
  console.log('kortbord engine simulation (seeded: the same command prints the same figures)')
  await acesUpSim(4, aces4, budget)
  await acesUpSim(5, aces5, budget)
  await acesUpSim(8, aces8, budget)
  for (const seats of [2, 3, 4]) {
    for (const policy of ['random', 'greedy'] as const) idiotSim(seats, policy, idiotGames)
  }
  console.log(`\ntotal ${((performance.now() - start) / 1000).toFixed(1)} s`)
}
