import { readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { svelte } from '@sveltejs/vite-plugin-svelte'
import type { Plugin } from 'vite'
import { defineConfig } from 'vitest/config'

/**
 * The most initial JavaScript, gzipped, a build may have (issue 15: under 60 KB). Above it the
 * build fails, so a new static import that drags a table's or the replay's code into the first
 * page load is seen at once rather than in a benchmark later.
 */
const INITIAL_JS_LIMIT_KB = 60

/**
 * Where the build names each language's chunk for the server: `{ en: [files], sv, nb }`, the
 * chunk and what it imports beyond the entry's own chunks (which index.html preloads already).
 * The server preloads the fetcher's language from the page itself, so the words come with the
 * first wave of requests instead of after the entry has run.
 */
const PRELOADS = 'preload.json'

/** A language's words as a module: its chunk is the one whose facade this is. */
const WORDS_MODULE = /\/i18n-(en|sv|nb)\.ts$/

function preloads(
  bundle: Record<
    string,
    { type: string; imports?: readonly string[]; facadeModuleId?: string | null }
  >,
  words: readonly string[],
  initial: ReadonlySet<string>,
): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const name of words) {
    const files: string[] = []
    const visit = (n: string) => {
      if (initial.has(n) || files.includes(n) || bundle[n]?.type !== 'chunk') return
      files.push(n)
      for (const i of bundle[n]?.imports ?? []) visit(i)
    }
    visit(name)
    const lang = WORDS_MODULE.exec(bundle[name]?.facadeModuleId ?? '')?.[1]
    if (lang === undefined) throw new Error(`kortbord: ${name} is no language's chunk`)
    out[lang] = files.map((f) => `/${f}`)
  }
  return out
}

/**
 * Writes .gz and .br beside every built asset (the server sends them as they are), and prints
 * what the first page load costs: the initial JavaScript, gzipped, failing the build above
 * INITIAL_JS_LIMIT_KB. That is the entry chunk and every chunk it imports statically,
 * transitively, and the largest of the three language chunks (the page loads one before it
 * shows); a chunk shared only by lazily loaded ones (the game tables' common code) is not part
 * of it.
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
      const gzipped = new Map<string, number>()
      for (const name of Object.keys(bundle)) {
        if (!/\.(js|css|html|svg)$/.test(name)) continue
        const file = join(outDir, name)
        const raw = readFileSync(file)
        const gz = gzipSync(raw, { level: 9 })
        writeFileSync(`${file}.gz`, gz)
        writeFileSync(`${file}.br`, brotliCompressSync(raw))
        gzipped.set(name, gz.length)
      }
      const initial = new Set<string>()
      const visit = (name: string) => {
        const chunk = bundle[name]
        if (initial.has(name) || chunk?.type !== 'chunk') return
        initial.add(name)
        for (const i of chunk.imports) visit(i)
      }
      for (const [name, chunk] of Object.entries(bundle)) {
        if (chunk.type === 'chunk' && chunk.isEntry) visit(name)
      }
      // The page's words are a chunk per language, loaded before the page shows: the first load
      // carries one of them, counted here at the largest.
      const words = Object.entries(bundle).flatMap(([name, c]) =>
        c.type === 'chunk' && WORDS_MODULE.test(c.facadeModuleId ?? '') ? [name] : [],
      )
      if (words.length !== 3) throw new Error(`kortbord: expected 3 language chunks, got ${words}`)
      writeFileSync(join(outDir, PRELOADS), JSON.stringify(preloads(bundle, words, initial)))
      const heaviest = words.reduce((a, b) =>
        (gzipped.get(a) ?? 0) >= (gzipped.get(b) ?? 0) ? a : b,
      )
      initial.add(heaviest)
      const initialJs = [...initial].reduce((sum, name) => sum + (gzipped.get(name) ?? 0), 0)
      const kb = initialJs / 1024
      const line = `initial JavaScript ${kb.toFixed(1)} KB gzipped (limit ${INITIAL_JS_LIMIT_KB} KB)`
      if (kb > INITIAL_JS_LIMIT_KB) {
        const chunks = [...initial].map(
          (n) => `${n} ${((gzipped.get(n) ?? 0) / 1024).toFixed(1)} KB`,
        )
        throw new Error(`kortbord: ${line}: over the limit. Initial chunks: ${chunks.join(', ')}`)
      }
      console.log(`kortbord: ${line}`)
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
    // A browser test file keeps about half a core busy (its Chromium, its server and the test:
    // records.test.ts used 56% of one over its 100 s), so two run side by side even on the
    // 2-core CI machine: the suite took 674 s there instead of 1,011 s one file at a time.
    maxWorkers: Math.min(2, Math.max(1, availableParallelism())),
  },
})
