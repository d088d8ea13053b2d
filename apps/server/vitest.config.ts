import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every test fails on a delta update a client could not apply (issue 17).
    setupFiles: ['test/delta-watch.ts'],
    testTimeout: 120_000,
    hookTimeout: 30_000,
  },
})
