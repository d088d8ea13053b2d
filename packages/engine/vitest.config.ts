import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The seeded playouts run for minutes on a 2-core machine; they are bounded by game count.
    testTimeout: 900_000,
    hookTimeout: 60_000,
    // Every core: the playout files are independent and CPU-bound.
    maxWorkers: Math.max(1, availableParallelism()),
  },
})
