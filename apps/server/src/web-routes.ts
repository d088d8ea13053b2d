// The web client over HTTP: one process on one port is the whole product. Hashed assets are
// cached for good; the page itself is revalidated so a deploy reaches every player at their next
// load. The page (index.html) is read once, at start: with PUBLIC_URL its link preview's picture
// gets an absolute address, since chat apps ignore a relative one when a link is shared.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import { TableCode } from '@kortbord/protocol'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { Logger } from 'pino'
import { type TablePreviews, withPreview } from './page-preview.ts'

/** The pages the client routes itself (route.svelte.ts): each is index.html. */
const PAGES = ['/', '/index.html', '/r/:id'] as const

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

export interface WebOptions {
  /** The built client (WEB_DIST); null: no pages served. */
  readonly web: string | null
  readonly publicUrl: string | null
  /** A table's own link preview (page-preview.ts); without, a table's page has the general one. */
  readonly preview?: TablePreviews
}

export function serveWeb(
  fastify: FastifyInstance,
  { web, publicUrl, preview }: WebOptions,
  log: Logger,
): void {
  if (!web) return
  const index = join(web, 'index.html')
  if (!existsSync(index)) {
    log.warn({ web }, 'no built web client here; run pnpm --filter @kortbord/web build')
    return
  }
  const html = pageHtml(readFileSync(index, 'utf8'), publicUrl)
  const page = (reply: FastifyReply, status = 200, body = html) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(body)
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
  for (const path of PAGES) fastify.get(path, (_req, reply) => page(reply))
  // A table's page: the same page, with the table's own preview where one can be had.
  fastify.get('/t/:code', async (req, reply) => {
    const code = TableCode.safeParse((req.params as { code: string }).code)
    const shown = code.success && preview ? await preview(code.data, req) : null
    reply.header('vary', 'accept-language')
    return page(reply, 200, shown === null ? html : withPreview(html, shown))
  })
  // An address that is no page: a browser gets the app, which says so and offers the way home
  // (status 404 all the same); anything else (an API, a script) the plain 404.
  fastify.setNotFoundHandler((req, reply) => {
    const browser =
      req.method === 'GET' &&
      !req.url.startsWith('/api/') &&
      !req.url.startsWith('/assets/') &&
      (req.headers.accept ?? '').includes('text/html')
    if (!browser) return reply.code(404).send({ ok: false, error: 'not found' })
    return page(reply, 404)
  })
}
