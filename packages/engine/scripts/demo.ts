/**
 * `pnpm start` until the server exists (issue 3): plays one Idiot game between four greedy
 * players and one Aces Up game, printing what happens, then the A-16 best for that deal.
 */

import { solveAcesUp } from '../src/aces-up/solver.ts'
import {
  acesUp,
  acesUpGreedy,
  formatCard,
  formatCards,
  type IdiotEvent,
  idiot,
  idiotGreedy,
  Rng,
} from '../src/index.ts'

const seed = process.argv[2] ?? `demo-${new Date().toISOString().slice(0, 10)}`
const rng = Rng.seeded(`players:${seed}`)
const say = (e: IdiotEvent): string | null => {
  switch (e.t) {
    case 'play':
      return `seat ${e.seat} plays ${formatCards(e.cards)}${e.from === 'row' ? ' from the row' : ''}`
    case 'burn':
      return `  the pile burns (${e.reason === 'ten' ? 'a ten' : 'four of a kind'}, ${e.count} cards)`
    case 'pickup':
      return `seat ${e.seat} picks up ${e.cards.length} cards`
    case 'uncover':
      return `  seat ${e.seat} turns up ${formatCard(e.card)}`
    case 'out':
      return `  seat ${e.seat} is out, place ${e.place}`
    case 'over':
      return `seat ${e.loser} is the Idiot`
    case 'start':
      return `everyone is ready; seat ${e.seat} starts`
    default:
      return null
  }
}

console.log(`Idiot, 4 greedy players, seed ${JSON.stringify(seed)}`)
let s = idiot.setup({}, 4, { seed })
console.log(`dealer: seat ${s.dealer}`)
while (s.phase !== 'over' && s.turns < 2000) {
  const seat = idiot.activeSeats(s)[0]!
  const r = idiot.apply(s, seat, idiotGreedy(idiot.view(s, seat), idiot.legalMoves(s, seat), rng))
  if (!r.ok) throw new Error(r.error.message)
  s = r.value
  for (const e of s.recent) {
    const line = say(e)
    if (line) console.log(line)
  }
}
console.log(`places: ${idiot.outcome(s)?.places.join(', ')} after ${s.turns} turns\n`)

let a = acesUp.setup({ piles: 4 }, 1, { seed })
while (!a.ended) {
  const r = acesUp.apply(a, 0, acesUpGreedy(acesUp.view(a, 0), acesUp.legalMoves(a, 0), rng))
  if (!r.ok) throw new Error(r.error.message)
  a = r.value
}
const o = acesUp.outcome(a)!
console.log(`Aces Up, 4 piles, greedy player: ${o.left} cards left${o.won ? ' — won!' : ''}`)
console.log(`  final table: ${a.piles.map((p) => formatCards(p) || '-').join(' | ')}`)
const best = solveAcesUp(a.deck, 4)
console.log(
  `  best possible on this deal (A-16): ${best.best} cards (${{ all: 'proven over every line of play', closed: 'proven over lines that make every discard before each deal', none: 'an upper bound: not proven' }[best.proven]})`,
)
