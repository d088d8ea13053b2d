/**
 * `pnpm tournament`: how strong the Idiot bots are (issue 7). For each pairing of levels, four-
 * player games with the two levels in alternate seats, the seats rotated from game to game; each
 * level's loss rate (how often one of its seats is the Idiot, per seat) with a 95% Wilson
 * interval — a level as strong as the other loses 25% of the time. Also the hard bot's time per
 * move. Games run in child processes, one per core.
 *
 *   pnpm tournament [--games 10000] [--rollouts 24] [--pairs easy-normal,normal-hard,easy-hard]
 */
import { fork } from 'node:child_process'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { type BotLevel, botMove, idiot, Rng } from '../src/index.ts'
import { arg, pct, proportion, quantile } from './stats.ts'

const TURN_CAP = 3000

interface PartResult {
  /** Games in which the Idiot sat in a seat of the first level, the second, or nobody (cap). */
  lostA: number
  lostB: number
  capped: number
  games: number
  hardMs: number[]
}

function playPart(
  a: BotLevel,
  b: BotLevel,
  games: number,
  rollouts: number,
  part: number,
  parts: number,
): PartResult {
  const out: PartResult = { lostA: 0, lostB: 0, capped: 0, games: 0, hardMs: [] }
  for (let g = part; g < games; g += parts) {
    // Seats alternate a, b, a, b; the rotation moves who deals and who starts.
    const levels: BotLevel[] = [0, 1, 2, 3].map((i) => ((i + g) % 2 === 0 ? a : b))
    const seed = `tournament/${a}-${b}/${g}`
    const rng = Rng.seeded(`${seed}/bots`)
    let s = idiot.setup({ dealer: g % 4 }, 4, { seed })
    let moves = 0
    while (s.phase !== 'over' && s.turns < TURN_CAP && moves < TURN_CAP * 3) {
      const seat = idiot.activeSeats(s)[0]!
      const level = levels[seat]!
      const t0 = performance.now()
      const m = botMove(level, idiot.view(s, seat), rng, { rollouts })
      if (level === 'hard' && s.phase === 'play') out.hardMs.push(performance.now() - t0)
      if (!m) throw new Error(`no move (seed ${seed})`)
      const r = idiot.apply(s, seat, m)
      if (!r.ok) throw new Error(`${r.error.code} (seed ${seed})`)
      s = r.value
      moves++
    }
    out.games++
    const o = idiot.outcome(s)
    if (!o) out.capped++
    else if (levels[o.loser] === a) out.lostA++
    else out.lostB++
  }
  // Keep the message small: a sample of the timings is enough for the median and p95.
  if (out.hardMs.length > 20_000) out.hardMs = out.hardMs.filter((_, i) => i % 10 === 0)
  return out
}

const PART = process.env.KORTBORD_TOURNAMENT_PART
if (PART !== undefined) {
  const d = JSON.parse(PART) as {
    a: BotLevel
    b: BotLevel
    games: number
    rollouts: number
    part: number
    parts: number
  }
  process.send!(playPart(d.a, d.b, d.games, d.rollouts, d.part, d.parts), () => process.exit(0))
} else {
  await main()
}

async function pairing(
  a: BotLevel,
  b: BotLevel,
  games: number,
  rollouts: number,
): Promise<PartResult> {
  const parts = Math.max(1, availableParallelism())
  const results = await Promise.all(
    Array.from(
      { length: parts },
      (_, part) =>
        new Promise<PartResult>((resolve, reject) => {
          const child = fork(fileURLToPath(import.meta.url), [], {
            execArgv: process.execArgv,
            env: {
              ...process.env,
              KORTBORD_TOURNAMENT_PART: JSON.stringify({ a, b, games, rollouts, part, parts }),
            },
          })
          child.once('message', (m) => resolve(m as PartResult))
          child.once('error', reject)
          child.once('exit', (code) => code !== 0 && reject(new Error(`part exited ${code}`)))
        }),
    ),
  )
  return results.reduce((x, y) => ({
    lostA: x.lostA + y.lostA,
    lostB: x.lostB + y.lostB,
    capped: x.capped + y.capped,
    games: x.games + y.games,
    hardMs: x.hardMs.concat(y.hardMs),
  }))
}

async function main(): Promise<void> {
  const games = arg('games', 10_000)
  const rollouts = arg('rollouts', 24)
  const i = process.argv.indexOf('--pairs')
  const pairs = (i >= 0 ? process.argv[i + 1]! : 'easy-normal,normal-hard,easy-hard')
    .split(',')
    .map((p) => p.split('-') as [BotLevel, BotLevel])
  console.log(
    `Idiot bots, 4 players, levels in alternate seats, seats rotated; ${games} games per pairing; hard: ${rollouts} playouts a move`,
  )
  console.log(
    '| pairing | games | capped | loss rate per seat: first | second | hard ms/move median / p95 |',
  )
  console.log('|---|---|---|---|---|---|')
  for (const [a, b] of pairs) {
    const t0 = performance.now()
    const r = await pairing(a, b, games, rollouts)
    const decided = r.games - r.capped
    // Two seats each: a seat's loss rate is half its level's share of the losses.
    const rateA = proportion(r.lostA, decided)
    const rateB = proportion(r.lostB, decided)
    const half = (x: typeof rateA) => ({ value: x.value / 2, lo: x.lo / 2, hi: x.hi / 2 })
    const ms =
      r.hardMs.length > 0
        ? `${quantile(r.hardMs, 0.5).toFixed(1)} / ${quantile(r.hardMs, 0.95).toFixed(1)}`
        : '—'
    console.log(
      `| ${a} vs ${b} | ${r.games} | ${r.capped} | ${a} ${pct(half(rateA))} | ${b} ${pct(half(rateB))} | ${ms} |`,
    )
    console.error(`  (${((performance.now() - t0) / 1000).toFixed(0)} s)`)
  }
}
