import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { svelte } from '@sveltejs/vite-plugin-svelte'
import type { Plugin } from 'vite'
import { defineConfig } from 'vitest/config'

/**
 * Writes .gz and .br beside every built asset (the server sends them as they are), and prints
 * what the first page load costs: the initial JavaScript, gzipped (issue 4: under 150 KB).
 */
function precompress(): Plugin {
  let outDir = 'dist'
  return {
    name: 'kortbord-precompress',
    apply: 'build',
    configResolved(c) {
      outDir = c.build.outDir
    },
    writeBundle(_opts, bundle) {
      let initialJs = 0
      for (const [name, chunk] of Object.entries(bundle)) {
        if (!/\.(js|css|html|svg)$/.test(name)) continue
        const file = join(outDir, name)
        const raw = readFileSync(file)
        const gz = gzipSync(raw, { level: 9 })
        writeFileSync(`${file}.gz`, gz)
        writeFileSync(`${file}.br`, brotliCompressSync(raw))
        if (chunk.type === 'chunk' && chunk.isEntry) initialJs += gz.length
        if (chunk.type === 'chunk' && !chunk.isEntry && !chunk.isDynamicEntry)
          initialJs += gz.length
      }
      console.log(
        `kortbord: initial JavaScript ${(initialJs / 1024).toFixed(1)} KB gzipped (limit 150 KB)`,
      )
    },
  }
}

// The server (pnpm start, port 3000) serves the built client; `pnpm dev` runs Vite with hot
// reload and forwards the socket to the server.
export default defineConfig({
  plugins: [svelte(), precompress()],
  server: {
    port: 5173,
    proxy: {
      '/socket.io': { target: `http://localhost:${process.env.KORTBORD_PORT ?? 3000}`, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    target: 'es2022',
    reportCompressedSize: true,
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
})
