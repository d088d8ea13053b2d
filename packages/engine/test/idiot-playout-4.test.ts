import { expect, it } from 'vitest'
import { runIdiotPlayouts } from './idiot-playout.ts'

it('[I-15] 2,000 seeded random 4-player games keep every invariant after every move', () => {
  const stats = runIdiotPlayouts(4, Number(process.env.N ?? 2000), 'idiot4')
  console.log(
    `idiot 4p playouts: ${stats.games} games, ${stats.moves} moves, ${stats.capped} capped, ${stats.junkTried} junk moves tried`,
  )
  expect(stats.games).toBe(2000)
  expect(stats.capped).toBeLessThan(20) // I-16: stalls are possible but rare under this policy
})
