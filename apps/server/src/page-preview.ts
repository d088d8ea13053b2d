// A table's link preview: a link to a table pasted in a chat shows what it is ("Idiot at
// kortbord – table ABC234", "Anna invites you to Idiot: 2 of 4 seats free") instead of the site's
// general words. It says only what `table:peek` tells anyone with the code (peekOf), in the
// language the fetcher asks for, and counts against the same lookup limit as a peek, so previews
// cannot scan codes either. A browser opening the page needs none (the page names the table
// itself once it runs), so its load (Sec-Fetch-Dest: document) is not looked up and costs no
// lookup; a chat app's fetcher sends no such header. Whatever goes wrong (over the limit, no such
// table, a slow store) the page is served with its general words: a preview never holds up or
// refuses the page.
import {
  type GameId,
  type Lang,
  type PeekAck,
  pickLang,
  playedGameName,
} from '@kortbord/protocol/wire'
import type { FastifyRequest } from 'fastify'
import { clientAddress, type Limits, type trustFunction } from './limits.ts'
import type { TableStore } from './store.ts'
import { peekOf } from './table-types.ts'

export interface Preview {
  readonly title: string
  readonly description: string
  /** The game's own picture (apps/web/public/share-<game>.png, drawn by scripts/icons.ts). */
  readonly image: string
  readonly imageAlt: string
}

/** The first of the fetcher's languages kortbord speaks (Accept-Language), chosen as the page chooses. */
export const previewLang = (accept: string | undefined): Lang =>
  pickLang((accept ?? '').split(',').map((part) => part.split(';')[0]!.trim()))

interface Words {
  title(game: string, code: string): string
  replay(game: string): string
  with(game: string, names: string): string
  and: string
  steps: string
  free(open: number, seats: number): string
  invites(host: string, game: string): string
  join: string
  full: string
  playing: string
  over: string
  watch: string
  /** What each game's picture shows, for those who cannot see it. */
  pictures: Record<GameId, string>
}

const WORDS: Record<Lang, Words> = {
  en: {
    title: (game, code) => `${game} at kortbord – table ${code}`,
    replay: (game) => `Replay: ${game} – kortbord`,
    with: (game, names) => `${game} with ${names}`,
    and: 'and',
    steps: 'Step through every move and check the shuffle.',
    free: (open, seats) => `${open} of ${seats} seats free`,
    invites: (host, game) => `${host} invites you to ${game}`,
    join: 'Open the link to take a seat, nothing to install.',
    full: 'Every seat is taken.',
    playing: 'A game is being played.',
    over: 'The game is over.',
    watch: 'Open the link to watch.',
    pictures: {
      idiot: 'A hand fanned over two face-down cards: a two, a ten and an ace',
      duel: 'Four piles of cards, an ace on top of each',
      klockan: 'Twelve cards round a clock face, a king in the middle',
      herrarna: 'Eight jacks in two rows: the eight lords',
    },
  },
  sv: {
    title: (game, code) => `${game} på kortbord – bord ${code}`,
    replay: (game) => `Uppspelning: ${game} – kortbord`,
    with: (game, names) => `${game} med ${names}`,
    and: 'och',
    steps: 'Stega igenom varje drag och kontrollera blandningen.',
    free: (open, seats) => `${open} av ${seats} platser lediga`,
    invites: (host, game) => `${host} bjuder in dig till ${game}`,
    join: 'Öppna länken och sätt dig, inget att installera.',
    full: 'Alla platser är tagna.',
    playing: 'Ett parti pågår.',
    over: 'Partiet är slut.',
    watch: 'Öppna länken och titta på.',
    pictures: {
      idiot: 'En hand i solfjäder över två nedvända kort: en tvåa, en tia och ett ess',
      duel: 'Fyra högar kort med ett ess överst på var och en',
      klockan: 'Tolv kort runt en urtavla, en kung i mitten',
      herrarna: 'Åtta knektar i två rader: de åtta herrarna',
    },
  },
  nb: {
    title: (game, code) => `${game} på kortbord – bord ${code}`,
    replay: (game) => `Avspilling: ${game} – kortbord`,
    with: (game, names) => `${game} med ${names}`,
    and: 'og',
    steps: 'Gå gjennom hvert trekk og kontroller stokkingen.',
    free: (open, seats) => `${open} av ${seats} plasser ledige`,
    invites: (host, game) => `${host} inviterer deg til ${game}`,
    join: 'Åpne lenken og sett deg, ingenting å installere.',
    full: 'Alle plassene er tatt.',
    playing: 'Et parti pågår.',
    over: 'Partiet er slutt.',
    watch: 'Åpne lenken og se på.',
    pictures: {
      idiot: 'En hånd i vifte over to kort med baksiden opp: en toer, en tier og et ess',
      duel: 'Fire bunker med kort, et ess øverst på hver',
      klockan: 'Tolv kort rundt en urskive, en konge i midten',
      herrarna: 'Åtte knekter i to rader: de åtte herrene',
    },
  },
}

/** "Astrid, Bo and Cecilia". */
function listed(names: readonly string[], and: string): string {
  if (names.length < 2) return names.join('')
  return `${names.slice(0, -1).join(', ')} ${and} ${names.at(-1)}`
}

/**
 * What a table's preview says, from what a peek tells. A spectator's link (`?watch`) to a table
 * that takes spectators invites to watch, even while seats are free.
 */
export function tablePreview(p: PeekAck, lang: Lang, watching = false): Preview {
  const w = WORDS[lang]
  const game = playedGameName(p.game, p.seats)
  const watch = p.allowSpectators ? ` ${w.watch}` : ''
  let description: string
  if (p.status === 'waiting' && p.open > 0) {
    const who = p.host === null ? game : w.invites(p.host, game)
    const free = `${who}: ${w.free(p.open, p.seats)}.`
    description = `${free} ${watching && p.allowSpectators ? w.watch : w.join}`
  } else if (p.status === 'waiting') description = `${w.full}${watch}`
  else description = `${p.status === 'playing' ? w.playing : w.over}${watch}`
  return { title: w.title(game, p.table), description, ...picture(p.game, w) }
}

/** The game's own preview picture and what it shows. */
const picture = (game: GameId, w: Words) => ({
  image: `/share-${game}.png`,
  imageAlt: w.pictures[game],
})

/** What a game record tells of itself on its replay page (record-routes.ts). */
export interface RecordFacts {
  readonly game: PeekAck['game']
  readonly seats: readonly { readonly name: string }[]
  /** Whether the game is over (its moves can be stepped through). */
  readonly over: boolean
}

/** What a replay's preview says: the game and who played it. */
export function recordPreview(r: RecordFacts, lang: Lang): Preview {
  const w = WORDS[lang]
  const game = playedGameName(r.game, r.seats.length)
  const who = w.with(
    game,
    listed(
      r.seats.map((s) => s.name),
      w.and,
    ),
  )
  return {
    title: w.replay(game),
    description: r.over ? `${who}. ${w.steps}` : `${who}.`,
    ...picture(r.game, w),
  }
}

const escapeHtml = (s: string): string =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  )

/**
 * index.html with the preview's title, description and picture in place of the general ones (the
 * picture keeps the address PUBLIC_URL gave the general one).
 */
export function withPreview(html: string, p: Preview): string {
  const title = escapeHtml(p.title)
  const description = escapeHtml(p.description)
  return html
    .replace(/(<meta property="og:image" content="[^"]*?)\/share\.png"/, `$1${p.image}"`)
    .replace(/(<meta property="og:image:alt" content=")[^"]*"/, `$1${escapeHtml(p.imageAlt)}"`)
    .replace(/<title>[^<]*<\/title>/, `<title>${title}</title>`)
    .replace(/(<meta property="og:title" content=")[^"]*"/, `$1${title}"`)
    .replace(/(<meta property="og:description" content=")[^"]*"/, `$1${description}"`)
    .replace(/(<meta name="description" content=")[^"]*"/, `$1${description}"`)
}

/** How long a preview may wait for the store before the page goes out without it. */
export const PREVIEW_WAIT_MS = 500

/** The previews a page may carry: a table's (its code) and a replay's (its record's id). */
export interface Previews {
  table(code: string, req: FastifyRequest): Promise<Preview | null>
  record(id: string, req: FastifyRequest): Promise<Preview | null>
}

/** Resolves as `p`, or as null after {@link PREVIEW_WAIT_MS}. */
async function inTime<T>(p: Promise<T>): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), PREVIEW_WAIT_MS)
  })
  return Promise.race([p, late]).finally(() => clearTimeout(timer))
}

/**
 * The previews of what `store` holds. Each is counted against the asker's address by `limit`
 * (a table's as a lookup, a replay's as a record read); a browser's load is not looked up.
 */
export function pagePreviews(
  store: TableStore,
  limits: Limits,
  trust: ReturnType<typeof trustFunction>,
): Previews {
  const preview =
    <T>(
      limit: (address: string) => Promise<unknown>,
      load: (key: string) => Promise<T | null>,
      describe: (found: T, lang: Lang, req: FastifyRequest) => Preview,
    ) =>
    async (key: string, req: FastifyRequest): Promise<Preview | null> => {
      if (req.headers['sec-fetch-dest'] === 'document') return null
      try {
        if (await limit(clientAddress(req.raw, trust))) return null
        const found = await inTime(load(key))
        return found === null
          ? null
          : describe(found, previewLang(req.headers['accept-language']), req)
      } catch {
        return null
      }
    }
  return {
    table: preview(
      (a) => limits.lookup(a),
      (code) => store.load(code),
      (r, lang, req) => tablePreview(peekOf(r), lang, 'watch' in (req.query as object)),
    ),
    record: preview(
      (a) => limits.recordRead(a),
      (id) => store.loadRecord(id),
      (r, lang) => recordPreview({ game: r.game, seats: r.seats, over: r.end !== null }, lang),
    ),
  }
}
