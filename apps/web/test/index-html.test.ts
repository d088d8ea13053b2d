// The page as search engines, link previews and home screens see it before any script runs:
// apps/web/index.html and what it links to in public/ (copied as they are into the build).
import { existsSync, readFileSync } from 'node:fs'
import { GAME_NAMES } from '@kortbord/protocol/wire'
import { describe, expect, it } from 'vitest'
import { DICTS } from '../src/lib/i18n-all.ts'

const html = readFileSync(new URL('../index.html', import.meta.url), 'utf8')
const publicFile = (path: string) => new URL(`../public${path}`, import.meta.url)
const attr = (re: RegExp) => re.exec(html)?.[1] ?? ''

/** A PNG's width and height, from its header (IHDR). */
function pngSize(path: string): [number, number] {
  const b = readFileSync(publicFile(path))
  expect(b.subarray(1, 4).toString('latin1')).toBe('PNG')
  return [b.readUInt32BE(16), b.readUInt32BE(20)]
}

describe('index.html', () => {
  it('shows the name on the felt until the script has the page, and says why without JavaScript', () => {
    // main.ts replaces what #app holds with the page once its words have come.
    const app = /<div id="app">(.*?)<\/div>\s*<noscript>/s.exec(html)?.[1] ?? ''
    expect(app).toMatch(
      /^<div class="boot"><img src="\/logo\.svg" alt="" [^>]*\/><span>kortbord<\/span><\/div>$/,
    )
    const noscript = /<noscript>(.*?)<\/noscript>/s.exec(html)?.[1] ?? ''
    for (const words of ['needs JavaScript', 'behöver JavaScript', 'trenger JavaScript']) {
      expect(noscript).toContain(words)
    }
  })

  it('the meta description names every game the home page offers (QA: it named two of four)', () => {
    const description = attr(/<meta name="description" content="([^"]*)"/)
    expect(description).toMatch(/^kortbord — /)
    // The games' names are Swedish in every language: the English ones are those of all three.
    const { idiot, duel, klockan, herrarna } = DICTS.en
    for (const name of [idiot, duel, klockan, herrarna]) expect(description).toContain(name)
  })

  it('a shared link shows a preview: title, description and a 1200×630 picture', () => {
    expect(attr(/<meta property="og:title" content="([^"]*)"/)).toMatch(/^kortbord/)
    expect(attr(/<meta property="og:description" content="([^"]*)"/)).toContain(DICTS.en.duel)
    const image = attr(/<meta property="og:image" content="([^"]*)"/)
    // Relative in the build; the server makes it absolute on PUBLIC_URL (web-routes.ts).
    expect(image).toMatch(/^\/[\w-]+\.png$/)
    const [w, h] = pngSize(image)
    expect([w, h]).toEqual([1200, 630])
    expect(attr(/<meta property="og:image:width" content="(\d+)"/)).toBe(String(w))
    expect(attr(/<meta property="og:image:height" content="(\d+)"/)).toBe(String(h))
    expect(attr(/<meta property="og:image:alt" content="([^"]*)"/).length).toBeGreaterThan(20)
    // A table's or a replay's preview shows its game's own picture (the server's page-preview.ts
    // names it share-<game>.png): one for every game, as large.
    expect(image).toBe('/share.png')
    for (const game of Object.keys(GAME_NAMES))
      expect(pngSize(`/share-${game}.png`)).toEqual([w, h])
  })

  it('the page can be added to a home screen: a manifest whose icons are there, at their sizes', () => {
    expect(existsSync(publicFile(attr(/<link rel="icon" href="([^"]*)"/)))).toBe(true)
    expect(pngSize(attr(/<link rel="apple-touch-icon" href="([^"]*)"/))).toEqual([180, 180])
    const manifest = JSON.parse(
      readFileSync(publicFile(attr(/<link rel="manifest" href="([^"]*)"/)), 'utf8'),
    ) as {
      name: string
      start_url: string
      display: string
      theme_color: string
      icons: { src: string; sizes: string; type: string; purpose: string }[]
    }
    expect(manifest.name).toBe('kortbord')
    expect(manifest.start_url).toBe('/')
    expect(manifest.display).toBe('standalone')
    expect(manifest.theme_color).toBe(attr(/<meta name="theme-color" content="([^"]*)"/))
    for (const icon of manifest.icons) {
      expect(existsSync(publicFile(icon.src)), icon.src).toBe(true)
      if (icon.type === 'image/png') expect(pngSize(icon.src).join('x'), icon.src).toBe(icon.sizes)
    }
    // Android launchers want 192 and 512, and one they may crop to their own shape.
    const sizes = manifest.icons.filter((i) => i.purpose === 'any').map((i) => i.sizes)
    expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']))
    expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true)
  })
})
