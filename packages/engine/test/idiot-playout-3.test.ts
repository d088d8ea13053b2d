import { expect, it } from 'vitest'
import { runIdiotPlayouts } from './idiot-playout.ts'

it('[I-15] 2,000 seeded random 3-player games keep every invariant after every move', () => {
  const stats = runIdiotPlayouts(3, Number(process.env.N ?? 2000), 'idiot3')
  console.log(
    `idiot 3p playouts: ${stats.games} games, ${stats.moves} moves, ${stats.capped} capped, ${stats.junkTried} junk moves tried`,
  )
  expect(stats.games).toBe(2000)
  expect(stats.capped).toBeLessThan(20) // I-16: stalls are possible but rare under this policy
})
