// The web client's pages and files over HTTP (web-routes.ts): every page the client routes is
// index.html, revalidated; hashed assets are cached for good; with PUBLIC_URL the link preview's
// picture is an absolute address (chat apps ignore a relative one).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pageHtml } from '../src/web-routes.ts'
import { startServer, type TestServer } from './harness.ts'

const HTML = `<!doctype html><html><head>
<meta property="og:image" content="/share.png" />
<meta property="og:title" content="kortbord" />
</head><body><div id="app"></div></body></html>`

describe('web routes', () => {
  let dist = ''
  let plain: TestServer
  let public_: TestServer
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'kortbord-web-'))
    writeFileSync(join(dist, 'index.html'), HTML)
    writeFileSync(join(dist, 'manifest.webmanifest'), '{"name":"kortbord"}')
    mkdirSync(join(dist, 'assets'))
    writeFileSync(join(dist, 'assets', 'app-abc123.js'), 'console.log(1)')
    plain = await startServer({ WEB_DIST: dist })
    public_ = await startServer({ WEB_DIST: dist, PUBLIC_URL: 'https://kortbord.example/' })
  })
  afterAll(async () => {
    await plain?.stop()
    await public_?.stop()
    rmSync(dist, { recursive: true, force: true })
  })

  it('every page the client routes is index.html, revalidated at each load', async () => {
    for (const path of ['/', '/index.html', '/t/ABC234', '/t/ABC234?watch', '/r/abcdefghjkmn']) {
      const res = await fetch(`${plain.url}${path}`)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/)
      expect(res.headers.get('cache-control'), path).toBe('no-cache')
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
