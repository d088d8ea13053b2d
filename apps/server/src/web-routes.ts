// The web client over HTTP: one process on one port is the whole product. Hashed assets are
// cached for good; the page itself is revalidated so a deploy reaches every player at their next
// load. The page (index.html) is read once, at start: with PUBLIC_URL its link preview's picture
// gets an absolute address, since chat apps ignore a relative one when a link is shared; each
// answer preloads the words of the language its page will show (languagePreloads).
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import { TableCode } from '@kortbord/protocol'
import { LANGS, type Lang } from '@kortbord/protocol/wire'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Logger } from 'pino'
import { type Preview, type Previews, previewLang, withPreview } from './page-preview.ts'
import { RECORD_ID } from './record-routes.ts'

/** The pages the client routes itself (route.svelte.ts): each is index.html. */
const PAGES = ['/', '/index.html'] as const

/**
 * index.html as served: a relative link-preview picture (`og:image`, `content="/…"`) made
 * absolute on `publicUrl`; unchanged without one.
 */
export function pageHtml(html: string, publicUrl: string | null): string {
  if (publicUrl === null) return html
  return html.replace(
    /(<meta property="og:image" content=")(\/[^"]*)"/g,
    (_m, head: string, path: string) => `${head}${new URL(`${publicUrl}${path}`).href}"`,
  )
}

/**
 * The page's words come in a chunk per language, which the page imports as it starts. The build
 * names each language's files in preload.json (apps/web/vite.config.ts); a page served with
 * its fetcher's language preloaded (Accept-Language, chosen as the page chooses) fetches them
 * with its first wave of requests rather than one round trip later, after its entry has run.
 * Without the file (an older build), no preloads; a file that is no JSON throws (serveWeb then
 * serves the pages without preloads).
 */
export function languagePreloads(web: string): Partial<Record<Lang, string>> {
  const file = join(web, 'preload.json')
  if (!existsSync(file)) return {}
  const found = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
  const out: Partial<Record<Lang, string>> = {}
  for (const lang of LANGS) {
    const files = found[lang]
    if (!Array.isArray(files)) continue
    out[lang] = files
      .filter((f): f is string => typeof f === 'string' && /^\/assets\/[\w.-]+\.js$/.test(f))
      .map((f) => `<link rel="modulepreload" crossorigin href="${f}">`)
      .join('')
  }
  return out
}

/**
 * The language the page will show: the one its player chose (the page keeps it in a `lang`
 * cookie as well as in its storage, prefs.svelte.ts), else the browser's first that kortbord
 * speaks, as the page picks it.
 */
export function pageLang(req: FastifyRequest): Lang {
  const chosen = /(?:^|;\s*)lang=([a-z]+)(?:;|$)/.exec(req.headers.cookie ?? '')?.[1]
  return LANGS.find((l) => l === chosen) ?? previewLang(req.headers['accept-language'])
}

/** index.html with `links` (preloads) at the end of its head. */
export const withHeadLinks = (html: string, links: string | undefined): string =>
  links ? html.replace('</head>', `${links}</head>`) : html

export interface WebOptions {
  /** The built client (WEB_DIST); null: no pages served. */
  readonly web: string | null
  readonly publicUrl: string | null
  /** A table's and a replay's own link previews (page-preview.ts); without, the general one. */
  readonly previews?: Previews
}

export function serveWeb(
  fastify: FastifyInstance,
  { web, publicUrl, previews }: WebOptions,
  log: Logger,
): void {
  if (!web) return
  const index = join(web, 'index.html')
  if (!existsSync(index)) {
    log.warn({ web }, 'no built web client here; run pnpm --filter @kortbord/web build')
    return
  }
  const html = pageHtml(readFileSync(index, 'utf8'), publicUrl)
  let preloads: Partial<Record<Lang, string>> = {}
  try {
    preloads = languagePreloads(web)
  } catch (err) {
    log.warn(
      { err, web },
      'preload.json of the web client is unreadable: pages go without preloads',
    )
  }
  // The page in each language, built once; per request only a table's or replay's preview.
  const pages = Object.fromEntries(
    LANGS.map((l) => [l, withHeadLinks(html, preloads[l])]),
  ) as Record<Lang, string>
  const page = (req: FastifyRequest, reply: FastifyReply, status = 200, shown?: Preview) => {
    const body = pages[pageLang(req)]
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-language, cookie')
      .send(shown === undefined ? body : withPreview(body, shown))
  }
  void fastify.register(fastifyStatic, {
    root: web,
    preCompressed: true,
    cacheControl: false,
    setHeaders(res, path) {
      res.header(
        'cache-control',
        path.includes(`${join('assets', '')}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      )
    },
  })
  for (const path of PAGES) fastify.get(path, (req, reply) => page(req, reply))
  // A table's page and a replay's: the same page, with their own preview where one can be had.
  const withOwn =
    (key: (params: Record<string, string>) => string | null, own: Previews['table'] | undefined) =>
    async (req: FastifyRequest, reply: FastifyReply) => {
      const k = key(req.params as Record<string, string>)
      const shown = k !== null && own ? await own(k, req) : null
      return page(req, reply, 200, shown ?? undefined)
    }
  const code = (p: Record<string, string>) => TableCode.safeParse(p.code).data ?? null
  const record = (p: Record<string, string>) => (RECORD_ID.test(p.id ?? '') ? p.id! : null)
  fastify.get('/t/:code', withOwn(code, previews?.table))
  fastify.get('/r/:id', withOwn(record, previews?.record))
  // An address that is no page: a browser gets the app, which says so and offers the way home
  // (status 404 all the same); anything else (an API, a script) the plain 404.
  fastify.setNotFoundHandler((req, reply) => {
    const browser =
      req.method === 'GET' &&
      !req.url.startsWith('/api/') &&
      !req.url.startsWith('/assets/') &&
      (req.headers.accept ?? '').includes('text/html')
    if (!browser) return reply.code(404).send({ ok: false, error: 'not found' })
    return page(req, reply, 404)
  })
}
