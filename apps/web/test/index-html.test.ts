// The page as search engines and link previews see it before any script runs: apps/web/index.html.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { DICTS } from '../src/lib/i18n.ts'

const html = readFileSync(new URL('../index.html', import.meta.url), 'utf8')

describe('index.html', () => {
  it('the meta description names every game the home page offers (QA: it named two of four)', () => {
    const description = /<meta name="description" content="([^"]*)"/.exec(html)?.[1] ?? ''
    expect(description).toMatch(/^kortbord — /)
    // The games' names are Swedish in every language: the English ones are those of all three.
    const { idiot, duel, klockan, herrarna } = DICTS.en
    for (const name of [idiot, duel, klockan, herrarna]) expect(description).toContain(name)
  })
})
