/**
 * Draws kortbord's icons and its link preview into public/ (committed, so that a build needs no
 * browser): the favicon and home-screen icon as SVG, the PNG sizes phones ask for, a maskable one
 * (Android crops it to its own shape: the cards stay inside the middle 80%) and the picture a chat
 * shows beside a shared link. Run after changing the drawing: `pnpm --filter @kortbord/web icons`
 * (needs Chromium at /usr/bin/chromium, or CHROMIUM).
 */
import { writeFileSync } from 'node:fs'
import { GAME_NAMES } from '@kortbord/protocol/wire'
import { chromium } from 'playwright-core'

const FELT = '#0f5132'
const EDGE = '#0b3d26'
const RED = '#c0182b'

/** Two cards fanned, a back and the ace of hearts, on a 512 square. */
const CARDS = `
  <g transform="rotate(-14 256 300)">
    <rect x="118" y="120" width="196" height="276" rx="22" fill="#ffffff" stroke="${EDGE}" stroke-width="6"/>
    <rect x="136" y="138" width="160" height="240" rx="12" fill="#8e1b2a"/>
    <rect x="150" y="152" width="132" height="212" rx="8" fill="none" stroke="#ffffff" stroke-opacity="0.55" stroke-width="5"/>
  </g>
  <g transform="rotate(10 256 300)">
    <rect x="190" y="110" width="196" height="276" rx="22" fill="#ffffff" stroke="${EDGE}" stroke-width="6"/>
    <path transform="translate(214 134)" fill="${RED}" fill-rule="evenodd" d="M0 56 L20 0 L32 0 L52 56 L40 56 L35.5 42 L16.5 42 L12 56 Z M19.5 32 L32.5 32 L26 12 Z"/>
    <path transform="translate(228 200) scale(1.2)" fill="${RED}" d="M50 88 C20 65 5 48 5 30 C5 15 17 5 30 5 C40 5 47 11 50 18 C53 11 60 5 70 5 C83 5 95 15 95 30 C95 48 80 65 50 88 Z"/>
  </g>`

const svg = (body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">\n  <title>kortbord</title>${body}\n</svg>\n`

/** Rounded, for tabs and launchers that show the icon as it is. */
const ROUNDED = svg(`\n  <rect width="512" height="512" rx="96" fill="${FELT}"/>${CARDS}`)
/** Full bleed, the cards within the safe circle (radius 40% of the side). */
const FULL = svg(
  `\n  <rect width="512" height="512" fill="${FELT}"/>\n  <g transform="translate(256 256) scale(0.76) translate(-256 -262)">${CARDS}\n  </g>`,
)

const page = (body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0">${body}</body></html>`
const sized = (s: string, px: number) => s.replace('<svg ', `<svg width="${px}" height="${px}" `)

/** A link preview's 1200×630 picture: a drawing (of a 512 square) on the felt, words beside it. */
const sharePage = (drawing: string, px: number, words: string) =>
  page(`
  <div style="width:1200px;height:630px;background:${FELT};display:flex;align-items:center;gap:48px;
    padding:0 72px;box-sizing:border-box;font-family:'DejaVu Sans',Arial,sans-serif;color:#fff">
    ${sized(svg(drawing), px)}
    ${words}
  </div>`)

const SHARE = sharePage(
  CARDS,
  420,
  `<div>
      <div style="font-size:104px;font-weight:800;letter-spacing:-2px">kortbord</div>
      <div style="font-size:34px;margin-top:18px;line-height:1.35">Idiot · Idioten för två<br>Klockan · Dom Åtta Herrarna</div>
      <div style="font-size:28px;margin-top:26px;opacity:0.85">Open a link and play, nothing to install</div>
    </div>`,
)

const SUITS = { S: ['♠', '#1b1b1b'], H: ['♥', RED], D: ['♦', RED], C: ['♣', '#1b1b1b'] } as const
type Suit = keyof typeof SUITS

/** A face-up card at (x, y), w wide, turned `rot` degrees about its middle. */
function face(x: number, y: number, w: number, rank: string, suit: Suit, rot = 0): string {
  const h = w * 1.4
  const [sym, ink] = SUITS[suit]
  return `
  <g transform="rotate(${rot} ${x + w / 2} ${y + h / 2})">
    <rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${w * 0.11}" fill="#ffffff" stroke="${EDGE}" stroke-width="${w * 0.03}"/>
    <text x="${x + w * 0.09}" y="${y + w * 0.34}" font-size="${w * 0.3}" font-weight="700" fill="${ink}" font-family="DejaVu Sans">${rank}</text>
    <text x="${x + w / 2}" y="${y + h * 0.78}" font-size="${w * 0.62}" text-anchor="middle" fill="${ink}" font-family="DejaVu Sans">${sym}</text>
  </g>`
}

/** A card face down, as the icon's back. */
function back(x: number, y: number, w: number, rot = 0): string {
  const h = w * 1.4
  const m = w * 0.09
  return `
  <g transform="rotate(${rot} ${x + w / 2} ${y + h / 2})">
    <rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${w * 0.11}" fill="#ffffff" stroke="${EDGE}" stroke-width="${w * 0.03}"/>
    <rect x="${x + m}" y="${y + m}" width="${w - 2 * m}" height="${h - 2 * m}" rx="${w * 0.06}" fill="#8e1b2a"/>
  </g>`
}

/** Each game's own picture, on a 512 square: what its table looks like. */
const GAME_PICTURES = {
  // A hand fanned over the face-down cards: the two and the ten, Idiot's own cards.
  idiot: `${back(150, 60, 150, -6)}${back(190, 70, 150, 8)}${face(70, 170, 150, '2', 'C', -16)}${face(181, 150, 150, '10', 'D', 0)}${face(292, 170, 150, 'A', 'H', 16)}`,
  // Aces Up well played: four piles, an ace on each.
  duel: (['S', 'H', 'D', 'C'] as const)
    .map((suit, i) => {
      const x = 22 + i * 120
      return `${back(x, 90, 108)}${face(x, 140, 108, String(5 + i), suit === 'S' ? 'D' : 'S')}${face(x, 200, 108, 'A', suit)}`
    })
    .join(''),
  // The clock: twelve hours round the kings' pile.
  klockan: [
    ...['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q'].map((rank, i) => {
      const a = ((i + 1) * Math.PI) / 6
      const w = 64
      const x = 256 + Math.sin(a) * 196 - w / 2
      const y = 256 - Math.cos(a) * 196 - (w * 1.4) / 2
      return face(Math.round(x), Math.round(y), w, rank, (['H', 'S', 'D', 'C'] as const)[i % 4]!)
    }),
    face(211, 193, 90, 'K', 'H'),
  ].join(''),
  // The eight lords: a jack on each of the eight finished piles.
  herrarna: (['S', 'H', 'D', 'C', 'S', 'H', 'D', 'C'] as const)
    .map((suit, i) => face(20 + (i % 4) * 122, i < 4 ? 90 : 262, 104, 'J', suit))
    .join(''),
} as const

/** A game's link preview: its table, its name and kortbord's. */
const gameShare = (game: keyof typeof GAME_PICTURES, name: string) =>
  sharePage(
    GAME_PICTURES[game],
    440,
    `<div style="max-width:580px">
      <div style="font-size:84px;font-weight:800;letter-spacing:-1px;line-height:1.1">${name}</div>
      <div style="font-size:44px;margin-top:28px;opacity:0.85">kortbord</div>
    </div>`,
  )

/** The cards alone, cut close, for the home page's heading (on the felt already). */
const LOGO = svg(CARDS).replace('viewBox="0 0 512 512"', 'viewBox="84 76 344 344"')

const out = new URL('../public/', import.meta.url)
writeFileSync(new URL('icon.svg', out), ROUNDED)
writeFileSync(new URL('logo.svg', out), LOGO)

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
})
try {
  const shoot = async (html: string, w: number, h: number, file: string, clear: boolean) => {
    const p = await browser.newPage({ viewport: { width: w, height: h } })
    await p.setContent(html)
    await p.screenshot({ path: new URL(file, out).pathname, omitBackground: clear })
    await p.close()
  }
  for (const px of [192, 512]) await shoot(page(sized(ROUNDED, px)), px, px, `icon-${px}.png`, true)
  await shoot(page(sized(FULL, 512)), 512, 512, 'icon-maskable-512.png', false)
  // iOS rounds the corners itself and draws a transparent one on black.
  await shoot(page(sized(FULL, 180)), 180, 180, 'apple-touch-icon.png', false)
  await shoot(SHARE, 1200, 630, 'share.png', false)
  for (const [game, name] of Object.entries(GAME_NAMES))
    await shoot(
      gameShare(game as keyof typeof GAME_PICTURES, name),
      1200,
      630,
      `share-${game}.png`,
      false,
    )
} finally {
  await browser.close()
}
