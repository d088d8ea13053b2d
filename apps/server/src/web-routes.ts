// The web client over HTTP: one process on one port is the whole product. Hashed assets are
// cached for good; the page itself is revalidated so a deploy reaches every player at their next
// load. The page (index.html) is read once, at start: with PUBLIC_URL its link preview's picture
// gets an absolute address, since chat apps ignore a relative one when a link is shared.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import { TableCode } from '@kortbord/protocol'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Logger } from 'pino'
import { type Previews, withPreview } from './page-preview.ts'
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
  // A table's page and a replay's: the same page, with their own preview where one can be had.
  const withOwn =
    (key: (params: Record<string, string>) => string | null, own: Previews['table'] | undefined) =>
    async (req: FastifyRequest, reply: FastifyReply) => {
      const k = key(req.params as Record<string, string>)
      const shown = k !== null && own ? await own(k, req) : null
      reply.header('vary', 'accept-language')
      return page(reply, 200, shown === null ? html : withPreview(html, shown))
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
    return page(reply, 404)
  })
}
