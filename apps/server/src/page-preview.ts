// A table's link preview: a link to a table pasted in a chat shows what it is ("Idiot at
// kortbord – table ABC234", "Anna invites you to Idiot: 2 of 4 seats free") instead of the site's
// general words. It says only what `table:peek` tells anyone with the code (peekOf), in the
// language the fetcher asks for, and counts against the same lookup limit as a peek, so previews
// cannot scan codes either. A browser opening the page needs none (the page names the table
// itself once it runs), so its load (Sec-Fetch-Dest: document) is not looked up and costs no
// lookup; a chat app's fetcher sends no such header. Whatever goes wrong (over the limit, no such
// table, a slow store) the page is served with its general words: a preview never holds up or
// refuses the page.
import type { PeekAck } from '@kortbord/protocol/wire'
import type { FastifyRequest } from 'fastify'
import { clientAddress, type Limits, type trustFunction } from './limits.ts'
import type { TableStore } from './store.ts'
import { peekOf } from './table-types.ts'

export interface Preview {
  readonly title: string
  readonly description: string
}

export type PreviewLang = 'sv' | 'nb' | 'en'

/** The first of the fetcher's languages kortbord speaks (Accept-Language), else English. */
export function previewLang(accept: string | undefined): PreviewLang {
  for (const part of (accept ?? '').split(',')) {
    const tag = part.split(';')[0]!.trim().toLowerCase()
    if (tag.startsWith('sv')) return 'sv'
    if (tag.startsWith('nb') || tag.startsWith('no') || tag.startsWith('nn')) return 'nb'
    if (tag.startsWith('en')) return 'en'
  }
  return 'en'
}

const GAME: Record<PeekAck['game'], string> = {
  idiot: 'Idiot',
  duel: 'Idioten för två',
  klockan: 'Klockan',
  herrarna: 'Dom Åtta Herrarna',
}

interface Words {
  title(game: string, code: string): string
  free(open: number, seats: number): string
  invites(host: string, game: string): string
  join: string
  full: string
  playing: string
  over: string
  watch: string
}

const WORDS: Record<PreviewLang, Words> = {
  en: {
    title: (game, code) => `${game} at kortbord – table ${code}`,
    free: (open, seats) => `${open} of ${seats} seats free`,
    invites: (host, game) => `${host} invites you to ${game}`,
    join: 'Open the link to take a seat, nothing to install.',
    full: 'Every seat is taken.',
    playing: 'A game is being played.',
    over: 'The game is over.',
    watch: 'Open the link to watch.',
  },
  sv: {
    title: (game, code) => `${game} på kortbord – bord ${code}`,
    free: (open, seats) => `${open} av ${seats} platser lediga`,
    invites: (host, game) => `${host} bjuder in dig till ${game}`,
    join: 'Öppna länken och sätt dig, inget att installera.',
    full: 'Alla platser är tagna.',
    playing: 'Ett parti pågår.',
    over: 'Partiet är slut.',
    watch: 'Öppna länken och titta på.',
  },
  nb: {
    title: (game, code) => `${game} på kortbord – bord ${code}`,
    free: (open, seats) => `${open} av ${seats} plasser ledige`,
    invites: (host, game) => `${host} inviterer deg til ${game}`,
    join: 'Åpne lenken og sett deg, ingenting å installere.',
    full: 'Alle plassene er tatt.',
    playing: 'Et parti pågår.',
    over: 'Partiet er slutt.',
    watch: 'Åpne lenken og se på.',
  },
}

/** The game's name as the table plays it: Klockan for two is "Klockan för två" (K-6). */
function gameName(p: PeekAck): string {
  const seats = (p.settings as { seats?: number }).seats
  return p.game === 'klockan' && seats === 2 ? 'Klockan för två' : GAME[p.game]
}

/** What a table's preview says, from what a peek tells. */
export function tablePreview(p: PeekAck, lang: PreviewLang): Preview {
  const w = WORDS[lang]
  const game = gameName(p)
  const watch = p.allowSpectators ? ` ${w.watch}` : ''
  let description: string
  if (p.status === 'waiting' && p.open > 0) {
    const who = p.host === null ? game : w.invites(p.host, game)
    description = `${who}: ${w.free(p.open, p.seats)}. ${w.join}`
  } else if (p.status === 'waiting') description = `${w.full}${watch}`
  else description = `${p.status === 'playing' ? w.playing : w.over}${watch}`
  return { title: w.title(game, p.table), description }
}

const escapeHtml = (s: string): string =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  )

/** index.html with the preview's title and description in place of the general ones. */
export function withPreview(html: string, p: Preview): string {
  const title = escapeHtml(p.title)
  const description = escapeHtml(p.description)
  return html
    .replace(/<title>[^<]*<\/title>/, `<title>${title}</title>`)
    .replace(/(<meta property="og:title" content=")[^"]*"/, `$1${title}"`)
    .replace(/(<meta property="og:description" content=")[^"]*"/, `$1${description}"`)
    .replace(/(<meta name="description" content=")[^"]*"/, `$1${description}"`)
}

/** How long a preview may wait for the store before the page goes out without it. */
export const PREVIEW_WAIT_MS = 500

export type TablePreviews = (code: string, req: FastifyRequest) => Promise<Preview | null>

/** Previews of the tables in `store`, each lookup counted against the asker's address. */
export function tablePreviews(
  store: TableStore,
  limits: Limits,
  trust: ReturnType<typeof trustFunction>,
): TablePreviews {
  return async (code, req) => {
    if (req.headers['sec-fetch-dest'] === 'document') return null
    try {
      if (await limits.lookup(clientAddress(req.raw, trust))) return null
      let timer: NodeJS.Timeout | undefined
      const late = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), PREVIEW_WAIT_MS)
      })
      const record = await Promise.race([store.load(code), late]).finally(() => clearTimeout(timer))
      if (record === null) return null
      return tablePreview(peekOf(record), previewLang(req.headers['accept-language']))
    } catch {
      return null
    }
  }
}
