/**
 * Draws kortbord's icons and its link preview into public/ (committed, so that a build needs no
 * browser): the favicon and home-screen icon as SVG, the PNG sizes phones ask for, a maskable one
 * (Android crops it to its own shape: the cards stay inside the middle 80%) and the picture a chat
 * shows beside a shared link. Run after changing the drawing: `pnpm --filter @kortbord/web icons`
 * (needs Chromium at /usr/bin/chromium, or CHROMIUM).
 */
import { writeFileSync } from 'node:fs'
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

const SHARE = page(`
  <div style="width:1200px;height:630px;background:${FELT};display:flex;align-items:center;gap:48px;
    padding:0 72px;box-sizing:border-box;font-family:'DejaVu Sans',Arial,sans-serif;color:#fff">
    ${sized(svg(CARDS), 420)}
    <div>
      <div style="font-size:104px;font-weight:800;letter-spacing:-2px">kortbord</div>
      <div style="font-size:34px;margin-top:18px;line-height:1.35">Idiot · Idioten för två<br>Klockan · Dom Åtta Herrarna</div>
      <div style="font-size:28px;margin-top:26px;opacity:0.85">Open a link and play, nothing to install</div>
    </div>
  </div>`)

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
} finally {
  await browser.close()
}
