// The web client's pages and files over HTTP (web-routes.ts): every page the client routes is
// index.html, revalidated; hashed assets are cached for good; with PUBLIC_URL the link preview's
// picture is an absolute address (chat apps ignore a relative one).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { PeekAck } from '@kortbord/protocol/wire'
import type { FastifyRequest } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { must } from '../scripts/client.ts'
import { loadConfig } from '../src/config.ts'
import { Limits } from '../src/limits.ts'
import {
  PREVIEW_WAIT_MS,
  pagePreviews,
  previewLang,
  recordPreview,
  tablePreview,
  withPreview,
} from '../src/page-preview.ts'
import type { TableStore } from '../src/store.ts'
import { languagePreloads, pageHtml } from '../src/web-routes.ts'
import { createIdiot, LOOSE_LIMITS, startServer, type TestServer } from './harness.ts'

const HTML = `<!doctype html><html><head>
<meta name="description" content="Card games" />
<meta property="og:image" content="/share.png" />
<meta property="og:image:alt" content="Two cards" />
<meta property="og:title" content="kortbord" />
<meta property="og:description" content="Card games" />
<title>kortbord</title>
</head><body><div id="app"></div></body></html>`

let dist = ''
let plain: TestServer
let public_: TestServer
let tight: TestServer
beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'kortbord-web-'))
  writeFileSync(join(dist, 'index.html'), HTML)
  writeFileSync(join(dist, 'manifest.webmanifest'), '{"name":"kortbord"}')
  mkdirSync(join(dist, 'assets'))
  writeFileSync(join(dist, 'assets', 'app-abc123.js'), 'console.log(1)')
  plain = await startServer({ WEB_DIST: dist })
  public_ = await startServer({ WEB_DIST: dist, PUBLIC_URL: 'https://kortbord.example/' })
  tight = await startServer({
    WEB_DIST: dist,
    LOOKUPS_PER_ADDRESS_PER_MINUTE: '2',
    TRUST_PROXY: 'loopback',
  })
})
afterAll(async () => {
  await plain?.stop()
  await public_?.stop()
  await tight?.stop()
  rmSync(dist, { recursive: true, force: true })
})

describe('web routes', () => {
  it('every page the client routes is index.html, revalidated at each load', async () => {
    // A table nobody made, and an address that is no code: the page with its general words.
    for (const path of [
      '/',
      '/index.html',
      '/t/ABC234',
      '/t/ABC234?watch',
      '/t/x',
      '/r/abcdefghjkmn',
    ]) {
      const res = await fetch(`${plain.url}${path}`)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/)
      expect(res.headers.get('cache-control'), path).toBe('no-cache')
      // The page's own routes keep the security headers every answer has.
      expect(res.headers.get('content-security-policy'), path).toContain("default-src 'self'")
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff')
      expect(await res.text(), path).toBe(HTML)
    }
  })

  it('an address that is no page: the app for a browser (404), a plain 404 for anything else', async () => {
    const browser = await fetch(`${plain.url}/no/such/page`, { headers: { accept: 'text/html' } })
    expect(browser.status).toBe(404)
    expect(await browser.text()).toBe(HTML)
    const api = await fetch(`${plain.url}/api/nothing`, { headers: { accept: 'text/html' } })
    expect(api.status).toBe(404)
    expect(await api.json()).toEqual({ ok: false, error: 'not found' })
  })

  it('the manifest and hashed assets are files, the assets cached for good', async () => {
    const manifest = await fetch(`${plain.url}/manifest.webmanifest`)
    expect(manifest.status).toBe(200)
    expect(manifest.headers.get('content-type')).toMatch(/^application\/manifest\+json/)
    const asset = await fetch(`${plain.url}/assets/app-abc123.js`)
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
  })

  it('with PUBLIC_URL the preview picture is absolute on it; without, it stays as built', async () => {
    const shown = await (await fetch(`${public_.url}/t/ABC234`)).text()
    expect(shown).toContain(
      '<meta property="og:image" content="https://kortbord.example/share.png" />',
    )
    expect(shown).toContain('<meta property="og:title" content="kortbord" />')
    expect(await (await fetch(`${public_.url}/`)).text()).toBe(shown)
    expect(await (await fetch(`${plain.url}/`)).text()).toContain('content="/share.png"')
  })

  it('the address written into the page is a URL: nothing in PUBLIC_URL can close the attribute', () => {
    const html = pageHtml(HTML, 'https://kortbord.example/a"b<c')
    expect(html).toContain('content="https://kortbord.example/a%22b%3Cc/share.png"')
    expect(pageHtml(HTML, null)).toBe(HTML)
  })
})

const peek = (p: Partial<PeekAck>): PeekAck => ({
  table: 'ABC234',
  game: 'idiot',
  settings: { seats: 4, turnSeconds: null, hints: false },
  status: 'waiting',
  seats: 4,
  open: 2,
  allowSpectators: true,
  host: 'Astrid',
  ...p,
})

describe("the page's words, preloaded", () => {
  const FILES = {
    en: ['/assets/i18n-en-A1.js', '/assets/i18n-words-W1.js'],
    sv: ['/assets/i18n-sv-S1.js', '/assets/i18n-words-W1.js'],
    // Anything but an asset's address is left out: the file is the build's, but the page is ours.
    nb: [
      '/assets/i18n-nb-N1.js',
      '/x"><script>alert(1)</script>',
      'https://elsewhere.example/a.js',
    ],
  }
  const link = (f: string) => `<link rel="modulepreload" crossorigin href="${f}">`
  let dir = ''
  let server: TestServer
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kortbord-web-'))
    writeFileSync(join(dir, 'index.html'), HTML)
    writeFileSync(join(dir, 'preload.json'), JSON.stringify(FILES))
    server = await startServer({ WEB_DIST: dir })
  })
  afterAll(async () => {
    await server?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  it("every page preloads the chunk of its fetcher's language, chosen as the page chooses", async () => {
    const cases: [string | null, string[]][] = [
      ['sv-SE,sv;q=0.9,en;q=0.5', FILES.sv],
      ['nn-NO', ['/assets/i18n-nb-N1.js']],
      ['de-DE, da;q=0.8', ['/assets/i18n-nb-N1.js']],
      ['fr', FILES.en],
      [null, FILES.en],
    ]
    for (const path of ['/', '/t/ABC234', '/r/abcdefghjkmn', '/no/such/page']) {
      for (const [accept, files] of cases) {
        const headers: Record<string, string> = { accept: 'text/html' }
        if (accept !== null) headers['accept-language'] = accept
        const res = await fetch(`${server.url}${path}`, { headers })
        const body = await res.text()
        expect(res.headers.get('vary'), path).toContain('accept-language')
        expect(body, `${path} ${accept}`).toBe(
          HTML.replace('</head>', `${files.map(link).join('')}</head>`),
        )
      }
    }
  })

  it("a player's chosen language (the page's lang cookie) goes before the browser's", async () => {
    const cases: [string, string[]][] = [
      ['lang=sv', FILES.sv],
      ['theme=dark; lang=nb; other=1', ['/assets/i18n-nb-N1.js']],
      ['lang=de', FILES.en],
      ['xlang=sv', FILES.en],
    ]
    for (const [cookie, files] of cases) {
      const res = await fetch(`${server.url}/t/ABC234`, {
        headers: { cookie, 'accept-language': 'en-GB' },
      })
      expect(res.headers.get('vary')).toContain('cookie')
      expect(await res.text(), cookie).toBe(
        HTML.replace('</head>', `${files.map(link).join('')}</head>`),
      )
    }
  })

  it('without preload.json (a build from before it) the page is as built', async () => {
    expect(languagePreloads(dist)).toEqual({})
    const res = await fetch(`${plain.url}/`, { headers: { 'accept-language': 'sv' } })
    expect(await res.text()).toBe(HTML)
  })

  it('a preload.json that is no JSON costs the preloads, not the server', async () => {
    const broken = mkdtempSync(join(tmpdir(), 'kortbord-web-'))
    writeFileSync(join(broken, 'index.html'), HTML)
    writeFileSync(join(broken, 'preload.json'), '{"sv": [')
    expect(() => languagePreloads(broken)).toThrow(SyntaxError)
    const s = await startServer({ WEB_DIST: broken })
    try {
      const res = await fetch(`${s.url}/`, { headers: { 'accept-language': 'sv' } })
      expect(res.status).toBe(200)
      expect(await res.text()).toBe(HTML)
    } finally {
      await s.stop()
      rmSync(broken, { recursive: true, force: true })
    }
  })
})

describe("a table's link preview", () => {
  it('says the game, who invites, the free seats, or that one may watch, in the asked language', () => {
    expect(tablePreview(peek({}), 'en')).toEqual({
      title: 'Idiot at kortbord – table ABC234',
      description:
        'Astrid invites you to Idiot: 2 of 4 seats free. Open the link to take a seat, nothing to install.',
      image: '/share-idiot.png',
      imageAlt: 'A hand fanned over two face-down cards: a two, a ten and an ace',
    })
    // A spectator's link invites to watch; to a table that takes none, to take a seat.
    expect(tablePreview(peek({}), 'en', true).description).toBe(
      'Astrid invites you to Idiot: 2 of 4 seats free. Open the link to watch.',
    )
    expect(tablePreview(peek({ allowSpectators: false }), 'en', true).description).toMatch(
      /take a seat/,
    )
    expect(tablePreview(peek({ host: null }), 'sv').description).toBe(
      'Idiot: 2 av 4 platser lediga. Öppna länken och sätt dig, inget att installera.',
    )
    expect(tablePreview(peek({ open: 0 }), 'nb').description).toBe(
      'Alle plassene er tatt. Åpne lenken og se på.',
    )
    expect(
      tablePreview(peek({ status: 'playing', allowSpectators: false }), 'en').description,
    ).toBe('A game is being played.')
    expect(tablePreview(peek({ status: 'over' }), 'en').description).toBe(
      'The game is over. Open the link to watch.',
    )
    const forTwo = peek({
      game: 'klockan',
      seats: 2,
      open: 1,
      settings: { variant: 'standard', seats: 2 },
    } as never)
    expect(tablePreview(forTwo, 'sv')).toMatchObject({
      title: 'Klockan för två på kortbord – bord ABC234',
      image: '/share-klockan.png',
      imageAlt: 'Tolv kort runt en urtavla, en kung i mitten',
    })
    expect(tablePreview(peek({ game: 'duel' }), 'en').title).toBe(
      'Idioten för två at kortbord – table ABC234',
    )
  })

  it('a replay says the game and who played it, and that it can be stepped through once over', () => {
    const seats = [{ name: 'Astrid' }, { name: 'Bo' }, { name: 'Cecilia' }]
    expect(recordPreview({ game: 'idiot', seats, over: true }, 'en')).toEqual({
      title: 'Replay: Idiot – kortbord',
      description:
        'Idiot with Astrid, Bo and Cecilia. Step through every move and check the shuffle.',
      image: '/share-idiot.png',
      imageAlt: 'A hand fanned over two face-down cards: a two, a ten and an ace',
    })
    expect(recordPreview({ game: 'duel', seats: seats.slice(0, 2), over: false }, 'sv')).toEqual({
      title: 'Uppspelning: Idioten för två – kortbord',
      description: 'Idioten för två med Astrid och Bo.',
      image: '/share-duel.png',
      imageAlt: 'Fyra högar kort med ett ess överst på var och en',
    })
    expect(
      recordPreview({ game: 'klockan', seats: [{ name: 'Olle' }], over: true }, 'nb').description,
    ).toBe('Klockan med Olle. Gå gjennom hvert trekk og kontroller stokkingen.')
    // Idioten för två for one is the patience Idioten.
    expect(
      recordPreview({ game: 'duel', seats: [{ name: 'Olle' }], over: false }, 'en'),
    ).toMatchObject({
      title: 'Replay: Idioten – kortbord',
      image: '/share-duel.png',
    })
  })

  it("speaks the fetcher's first language kortbord knows, else English", () => {
    expect(previewLang('sv-SE,sv;q=0.9,en;q=0.8')).toBe('sv')
    expect(previewLang('de-DE,nb;q=0.8')).toBe('nb')
    expect(previewLang('no')).toBe('nb')
    expect(previewLang('da-DK')).toBe('nb')
    expect(previewLang('de,fr')).toBe('en')
    expect(previewLang(undefined)).toBe('en')
  })

  it('a name cannot break out of the page: every character that could is written as an entity', () => {
    const html = withPreview(HTML, tablePreview(peek({ host: 'A"/><script>x</script>' }), 'en'))
    expect(html).not.toContain('<script>')
    expect(html).toContain('A&quot;/&gt;&lt;script&gt;x&lt;/script&gt; invites you')
    expect(html.match(/invites you/g)).toHaveLength(2)
    expect(html).toContain('<title>Idiot at kortbord – table ABC234</title>')
  })

  it("shows the game's own picture, where PUBLIC_URL put the general one, and says what it shows", () => {
    const dom = recordPreview({ game: 'herrarna', seats: [{ name: 'Olle' }], over: true }, 'nb')
    const html = withPreview(pageHtml(HTML, 'https://kortbord.example'), dom)
    expect(html).toContain(
      '<meta property="og:image" content="https://kortbord.example/share-herrarna.png" />',
    )
    expect(html).toContain(
      '<meta property="og:image:alt" content="Åtte knekter i to rader: de åtte herrene" />',
    )
    expect(withPreview(HTML, dom)).toContain('content="/share-herrarna.png"')
  })

  it('a store that does not answer holds the page up half a second at most; one that fails, not at all', async () => {
    const limits = new Limits(loadConfig({ ...LOOSE_LIMITS }).limits)
    const store = {
      load: () => new Promise(() => {}),
      loadRecord: () => Promise.reject(new Error('the store is down')),
    } as unknown as TableStore
    const previews = pagePreviews(store, limits, null)
    const req = {
      headers: {},
      raw: { socket: { remoteAddress: '198.51.100.1' } },
    } as unknown as FastifyRequest
    let t0 = performance.now()
    expect(await previews.table('ABC234', req)).toBeNull()
    const waited = performance.now() - t0
    expect(waited).toBeGreaterThanOrEqual(PREVIEW_WAIT_MS - 20)
    expect(waited).toBeLessThan(PREVIEW_WAIT_MS + 2000)
    t0 = performance.now()
    expect(await previews.record('abcdefghjkmn', req)).toBeNull()
    expect(performance.now() - t0).toBeLessThan(PREVIEW_WAIT_MS)
  })

  it("a table's page carries its preview for a link fetcher; past the lookup limit, or for a browser, the page comes with the general one", async () => {
    const host = await tight.client()
    const { code } = await createIdiot(host, { seats: 3, spectators: true, turnSeconds: null })
    const get = (ip: string, lang = 'sv') =>
      fetch(`${tight.url}/t/${code.toLowerCase()}`, {
        headers: { 'x-forwarded-for': ip, 'accept-language': lang },
      })
    // A browser's own load is not looked up (the page names the table itself): no lookup spent.
    for (let i = 0; i < 3; i++) {
      const browser = await fetch(`${tight.url}/t/${code}`, {
        headers: { 'x-forwarded-for': '203.0.113.7', 'sec-fetch-dest': 'document' },
      })
      expect(await browser.text()).toBe(HTML)
    }
    const first = await get('203.0.113.7')
    expect(first.status).toBe(200)
    expect(first.headers.get('vary')).toMatch(/accept-language/)
    const html = await first.text()
    expect(html).toContain(`<meta property="og:title" content="Idiot på kortbord – bord ${code}"`)
    expect(html).toContain('content="Astrid bjuder in dig till Idiot: 2 av 3 platser lediga.')
    expect(html).toContain('<meta property="og:image" content="/share-idiot.png" />')
    // The same lookups as a peek's: the second is the last this address may make this minute.
    const watchLink = await fetch(`${tight.url}/t/${code}?watch`, {
      headers: { 'x-forwarded-for': '203.0.113.7', 'accept-language': 'en' },
    })
    expect(await watchLink.text()).toContain('2 of 3 seats free. Open the link to watch.')
    const over = await get('203.0.113.7')
    expect(over.status).toBe(200)
    expect(await over.text()).toBe(HTML)
    // A replay's page: its preview counts as a record read (a limit of its own).
    const id = (await host.sync(code)).table.fair.record
    if (id) throw new Error('a waiting table has no record yet')
    const solo = must(await host.send('table:create', { game: 'klockan', name: 'Olle' }))
      .table as string
    must(await host.send('table:start', { table: solo, version: 1 }))
    const record = host.state(solo)!.table.fair.record!
    const replay = await fetch(`${tight.url}/r/${record}`, {
      headers: { 'x-forwarded-for': '203.0.113.7', 'accept-language': 'en' },
    })
    expect(await replay.text()).toContain(
      '<meta property="og:description" content="Klockan with Olle." />',
    )
    // And a peek from that address is refused as well: previews cannot be used to scan codes.
    const other = await tight.client({ headers: { 'x-forwarded-for': '203.0.113.7' } })
    expect(await other.send('table:peek', { table: code })).toMatchObject({
      ok: false,
      error: { code: 'TOO_MANY_LOOKUPS' },
    })
  })
})
