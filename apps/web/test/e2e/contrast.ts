// Text contrast measured on the rendered background (issue 15, WCAG 1.4.3 AA). axe-core cannot
// compute a background made of a gradient or of translucent layers over one (the body's radial
// gradient and every panel on it) and marks such text "needs review"; this measures it. All text
// on the page is made transparent and the page photographed: what is left under a text's line
// boxes is its background, and the text's colour is compared with every visible pixel of it. The
// worst pixel counts. Only what can be seen is measured: the parts of a line box that something
// else covers (the next card of a pile over a card's index) are left out, and a text wholly
// covered is not text anyone reads.
import type { Browser, Page } from 'playwright-core'

/** Text measured below what WCAG AA asks for (4.5:1, or 3:1 for large text). */
export interface ContrastShortfall {
  readonly target: string
  readonly text: string
  /** Lowest contrast over the visible pixels under the text. */
  readonly ratio: number
  readonly required: number
  readonly fg: string
  /** The background pixel that gave the lowest contrast, as #rrggbb, and where (CSS pixels). */
  readonly bg: string
}

interface Prepared {
  readonly target: string
  readonly text: string
  /** The text's own colour: r, g, b (0–255) and alpha. */
  readonly fg: readonly [number, number, number, number]
  /** The opacity it is drawn with: the product of its own and every ancestor's. */
  readonly opacity: number
  readonly required: number
}

/** A line box in viewport CSS pixels, and which of its 2×2 blocks are visible (null: all). */
interface Box {
  readonly x: number
  readonly y: number
  readonly w: number
  readonly h: number
  readonly mask: readonly number[] | null
}

interface Visible {
  readonly index: number
  readonly boxes: readonly Box[]
}

/** The page's own global where the elements under measurement are kept between round trips. */
const KEY = '__kortbordContrast'

/**
 * Measures the text of the elements `selectors` name (CSS selectors, as axe reports them) and
 * returns those below AA, with the figure. The page is left as it was (the text shown again,
 * the window's scroll put back).
 */
export async function contrastShortfalls(
  page: Page,
  selectors: readonly string[],
): Promise<ContrastShortfall[]> {
  if (selectors.length === 0) return []
  // The boxes are in the layout viewport's CSS pixels: the pictures must be of the same.
  const width = await page.evaluate(() => window.innerWidth)
  if (width !== page.viewportSize()?.width) {
    throw new Error(
      `contrast: the layout viewport is ${width} px wide on a ${page.viewportSize()?.width} px screen (no meta viewport on a phone?)`,
    )
  }
  const prepared = await page.evaluate(prepare, { selectors, key: KEY })
  const worst: ({ ratio: number; bg: string } | null)[] = prepared.map(() => null)
  try {
    const done = new Set<number>()
    let shifts = 0
    for (let i = 0; i < prepared.length; i++) {
      if (done.has(i)) continue
      // Bring this one into view; measure it and every other one visible in the same picture
      // and not measured yet. One that is not visible even now is covered: nobody reads it.
      const skip = [...done]
      const visible = await page.evaluate(inView, { index: i, skip, key: KEY })
      if (visible.length === 0) {
        done.add(i)
        continue
      }
      // A picture of the part of the screen the boxes are in, one pixel a CSS pixel.
      const clip = {
        x: Math.min(...visible.flatMap((v) => v.boxes.map((b) => b.x))),
        y: Math.min(...visible.flatMap((v) => v.boxes.map((b) => b.y))),
        width: 0,
        height: 0,
      }
      clip.width = Math.max(...visible.flatMap((v) => v.boxes.map((b) => b.x + b.w))) - clip.x
      clip.height = Math.max(...visible.flatMap((v) => v.boxes.map((b) => b.y + b.h))) - clip.y
      const shot = await page.screenshot({ scale: 'css', caret: 'hide', clip })
      // Text drawn with opacity: what lies behind its translucent group is needed too.
      const faded = visible.filter((v) => prepared[v.index]!.opacity < 1).map((v) => v.index)
      let behind: Buffer | null = null
      if (faded.length > 0) {
        await page.evaluate(fadeOut, { indices: faded, key: KEY })
        behind = await page.screenshot({ scale: 'css', caret: 'hide', clip })
        await page.evaluate(fadeBack, KEY)
      }
      // The page moved meanwhile (content arriving pushes the text elsewhere): the picture
      // holds something else where the text was, such as a white card. Take it again.
      const after = await page.evaluate(inView, { index: i, skip, key: KEY })
      if (JSON.stringify(after) !== JSON.stringify(visible) && ++shifts <= 5) {
        await new Promise((res) => setTimeout(res, 100))
        i--
        continue
      }
      done.add(i)
      const measured = await measure(
        page,
        { shot, behind, x: clip.x, y: clip.y },
        visible,
        prepared,
      )
      for (const [k, v] of visible.entries()) {
        done.add(v.index)
        worst[v.index] = measured[k] ?? null
      }
    }
  } finally {
    await page.evaluate(restore, KEY)
  }
  return prepared.flatMap((p, i) => {
    const w = worst[i]
    if (!w || w.ratio >= p.required) return []
    const [r, g, b, a] = p.fg
    const fg = `rgb(${r} ${g} ${b} / ${a.toFixed(2)})${p.opacity < 1 ? ` at opacity ${p.opacity.toFixed(2)}` : ''}`
    return [{ target: p.target, text: p.text, ratio: w.ratio, required: p.required, fg, bg: w.bg }]
  })
}

// ---------------------------------------------------------------------------------------------
// In the page under test (these functions are serialised by page.evaluate: no closures).

function prepare({ selectors, key }: { selectors: readonly string[]; key: string }): Prepared[] {
  const parse = (c: string): [number, number, number, number] => {
    const m = /rgba?\(([\d.]+),?\s*([\d.]+),?\s*([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\)/.exec(c)
    if (!m) return [0, 0, 0, 0]
    const a =
      m[4] === undefined ? 1 : m[4].endsWith('%') ? Number.parseFloat(m[4]) / 100 : Number(m[4])
    return [Number(m[1]), Number(m[2]), Number(m[3]), a]
  }
  const els: Element[] = []
  /** Per element: the outermost of it and its ancestors drawn with opacity, if any. */
  const groups: (HTMLElement | SVGElement | null)[] = []
  const out: Prepared[] = []
  for (const selector of selectors) {
    const el = document.querySelector(selector)
    if (!el) continue
    const cs = getComputedStyle(el)
    // SVG text is drawn in its fill, the rest in its colour.
    const svg = el instanceof SVGElement
    const fg = parse(svg ? cs.fill : cs.color)
    if (svg) fg[3] *= Number(cs.fillOpacity)
    let opacity = 1
    let group: HTMLElement | SVGElement | null = null
    for (let e: Element | null = el; e; e = e.parentElement) {
      const o = Number(getComputedStyle(e).opacity)
      if (o < 1 && (e instanceof HTMLElement || e instanceof SVGElement)) group = e
      opacity *= o
    }
    const px = Number.parseFloat(cs.fontSize)
    const bold = Number(cs.fontWeight) >= 700
    // WCAG: large is 18 pt (24 px), or 14 pt (18.66 px) bold.
    const large = px >= 24 || (bold && px >= 18.66)
    els.push(el)
    groups.push(group)
    out.push({
      target: selector,
      text: (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60),
      fg,
      opacity,
      required: large ? 3 : 4.5,
    })
  }
  // Every text on the page is made transparent at once (text is never the background of other
  // text: a card's rank stands over its suit's glyph box), without a transition.
  const sheet = new CSSStyleSheet()
  sheet.replaceSync(`*, *::before, *::after, *::marker {
    color: transparent !important;
    -webkit-text-fill-color: transparent !important;
    text-shadow: none !important;
    transition: none !important;
  }
  svg text { fill: transparent !important; stroke: none !important; }`)
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]
  ;(window as unknown as Record<string, unknown>)[key] = {
    els,
    groups,
    sheet,
    faded: [],
    scroll: [window.scrollX, window.scrollY],
  }
  return out
}

function inView({
  index,
  skip,
  key,
}: {
  index: number
  skip: readonly number[]
  key: string
}): Visible[] {
  const state = (window as unknown as Record<string, { els: Element[] }>)[key]!
  state.els[index]!.scrollIntoView({ block: 'center', inline: 'nearest' })
  const vw = document.documentElement.clientWidth
  const vh = document.documentElement.clientHeight
  const visible: Visible[] = []
  const skipped = new Set(skip)
  for (const [i, el] of state.els.entries()) {
    if (skipped.has(i)) continue
    const mine = (x: number, y: number) => {
      const hit = document.elementFromPoint(x, y)
      return hit !== null && (hit === el || el.contains(hit))
    }
    // The clip of every scrolling or clipping ancestor, and the viewport.
    let clip = { l: 0, t: 0, r: vw, b: vh }
    for (let a = el.parentElement; a; a = a.parentElement) {
      const s = getComputedStyle(a)
      if (s.overflowX !== 'visible' || s.overflowY !== 'visible') {
        const r = a.getBoundingClientRect()
        clip = {
          l: Math.max(clip.l, r.left),
          t: Math.max(clip.t, r.top),
          r: Math.min(clip.r, r.right),
          b: Math.min(clip.b, r.bottom),
        }
      }
    }
    // A form control draws its value in its content box; SVG text in its box as drawn (a text
    // squeezed by textLength is narrower than its glyphs' ranges); other text in its line boxes.
    const lines: DOMRect[] = []
    if (
      el instanceof HTMLInputElement ||
      el instanceof HTMLSelectElement ||
      el instanceof HTMLTextAreaElement
    ) {
      const s = getComputedStyle(el)
      const b = el.getBoundingClientRect()
      const px = (v: string) => Number.parseFloat(v) || 0
      const l = px(s.borderLeftWidth) + px(s.paddingLeft)
      const t = px(s.borderTopWidth) + px(s.paddingTop)
      const r = px(s.borderRightWidth) + px(s.paddingRight)
      const bt = px(s.borderBottomWidth) + px(s.paddingBottom)
      lines.push(new DOMRect(b.left + l, b.top + t, b.width - l - r, b.height - t - bt))
    } else if (el instanceof SVGTextElement) {
      lines.push(el.getBoundingClientRect())
    } else {
      for (const node of el.childNodes) {
        if (node.nodeType !== Node.TEXT_NODE || !node.textContent?.trim()) continue
        const range = document.createRange()
        range.selectNodeContents(node)
        lines.push(...range.getClientRects())
      }
    }
    const boxes: Box[] = []
    for (const r of lines) {
      // A box's outermost pixel is left out: it is where a neighbour's edge (a card's border
      // beside its index) blends in, never where a glyph lies.
      const x = Math.ceil(Math.max(r.left + 1, clip.l))
      const y = Math.ceil(Math.max(r.top + 1, clip.t))
      const w = Math.floor(Math.min(r.right - 1, clip.r)) - x
      const h = Math.floor(Math.min(r.bottom - 1, clip.b)) - y
      if (w < 1 || h < 1) continue
      // Nothing on top of it (a sticky bar, a dialog, the next card): the box as it is. Else
      // the 2×2 blocks where the element itself is what the point hits.
      const probes = [0.05, 0.5, 0.95].flatMap((fx) => [0.05, 0.5, 0.95].map((fy) => [fx, fy]))
      if (probes.every(([fx, fy]) => mine(x + fx! * w, y + fy! * h))) {
        boxes.push({ x, y, w, h, mask: null })
        continue
      }
      const mask: number[] = []
      for (let by = 0; by < h; by += 2)
        for (let bx = 0; bx < w; bx += 2)
          mask.push(mine(x + Math.min(bx + 1, w - 0.5), y + Math.min(by + 1, h - 0.5)) ? 1 : 0)
      if (mask.includes(1)) boxes.push({ x, y, w, h, mask })
    }
    if (boxes.length > 0) visible.push({ index: i, boxes })
  }
  return visible
}

/** Hides the translucent groups of `indices`, to photograph what lies behind them. */
function fadeOut({ indices, key }: { indices: readonly number[]; key: string }): void {
  const state = (window as unknown as Record<string, unknown>)[key] as {
    groups: (HTMLElement | SVGElement | null)[]
    faded: { el: HTMLElement | SVGElement; value: string; priority: string }[]
  }
  for (const i of indices) {
    const g = state.groups[i]
    if (!g || state.faded.some((f) => f.el === g)) continue
    state.faded.push({
      el: g,
      value: g.style.getPropertyValue('opacity'),
      priority: g.style.getPropertyPriority('opacity'),
    })
    g.style.setProperty('opacity', '0', 'important')
  }
}

function fadeBack(key: string): void {
  const state = (window as unknown as Record<string, unknown>)[key] as {
    faded: { el: HTMLElement | SVGElement; value: string; priority: string }[]
  }
  for (const f of state.faded) {
    if (f.value) f.el.style.setProperty('opacity', f.value, f.priority)
    else f.el.style.removeProperty('opacity')
  }
  state.faded = []
}

function restore(key: string): void {
  const w = window as unknown as Record<string, unknown>
  const state = w[key] as
    | {
        sheet: CSSStyleSheet
        scroll: [number, number]
        faded: { el: HTMLElement | SVGElement; value: string; priority: string }[]
      }
    | undefined
  if (!state) return
  for (const f of state.faded) {
    if (f.value) f.el.style.setProperty('opacity', f.value, f.priority)
    else f.el.style.removeProperty('opacity')
  }
  document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== state.sheet)
  window.scrollTo(state.scroll[0], state.scroll[1])
  delete w[key]
}

// ---------------------------------------------------------------------------------------------
// The pictures are read in a blank page of the same browser: Chromium decodes the PNGs, and the
// page under test is not touched.

const readers = new WeakMap<Browser, Promise<Page>>()

function reader(page: Page): Promise<Page> {
  const browser = page.context().browser()
  if (!browser) throw new Error('contrast: the page has no browser')
  let r = readers.get(browser)
  if (!r) {
    r = browser.newContext().then((c) => c.newPage())
    readers.set(browser, r)
  }
  return r
}

/**
 * The lowest contrast over each visible text's pixels (null: no pixel of it visible). For text
 * drawn at opacity α over what lies behind its group (B), the picture shows the group's own
 * background C as P = αC + (1−α)B, and the text as α(aF + (1−a)C) + (1−α)B.
 */
async function measure(
  page: Page,
  pictures: { shot: Buffer; behind: Buffer | null; x: number; y: number },
  visible: readonly Visible[],
  prepared: readonly Prepared[],
): Promise<({ ratio: number; bg: string } | null)[]> {
  const blank = await reader(page)
  return blank.evaluate(
    async ({ shot, behind, ox, oy, items }) => {
      const pixels = async (b64: string) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }))
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height)
        const ctx = canvas.getContext('2d')!
        ctx.drawImage(bitmap, 0, 0)
        return { data: ctx.getImageData(0, 0, bitmap.width, bitmap.height).data, w: bitmap.width }
      }
      const p = await pixels(shot)
      const b = behind === null ? null : await pixels(behind)
      const lin = (c: number) => {
        const s = Math.min(255, Math.max(0, c)) / 255
        return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
      }
      const lum = (r: number, g: number, bl: number) =>
        0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(bl)
      const hex = (v: number[]) =>
        `#${v.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`
      const height = p.data.length / 4 / p.w
      return items.map(({ boxes, fg, opacity }) => {
        const alpha = b === null ? 1 : opacity
        const a = b === null ? fg[3] * opacity : fg[3]
        // Pixels of a background repeat: each pair (picture, behind) is worked out once.
        const known = new Map<number, number>()
        const contrast = (k: number) => {
          const P = [p.data[k]!, p.data[k + 1]!, p.data[k + 2]!]
          const B = b ? [b.data[k]!, b.data[k + 1]!, b.data[k + 2]!] : P
          const key =
            (P[0]! * 65536 + P[1]! * 256 + P[2]!) * 16777216 + B[0]! * 65536 + B[1]! * 256 + B[2]!
          const seen = known.get(key)
          if (seen !== undefined) return seen
          const T = P.map((pc, c) => {
            const bc = B[c]!
            const own = alpha === 1 ? pc : (pc - (1 - alpha) * bc) / alpha
            return alpha * (a * fg[c]! + (1 - a) * own) + (1 - alpha) * bc
          })
          const l1 = lum(T[0]!, T[1]!, T[2]!)
          const l2 = lum(P[0]!, P[1]!, P[2]!)
          const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05)
          known.set(key, ratio)
          return ratio
        }
        let worst: { ratio: number; bg: string } | null = null
        for (const q of boxes) {
          const cols = Math.ceil(q.w / 2)
          for (let y = q.y; y < q.y + q.h; y++) {
            if (y - oy < 0 || y - oy >= height) continue
            for (let x = q.x; x < q.x + q.w; x++) {
              if (x - ox < 0 || x - ox >= p.w) continue
              if (q.mask && !q.mask[((y - q.y) >> 1) * cols + ((x - q.x) >> 1)]) continue
              const k = ((y - oy) * p.w + (x - ox)) * 4
              const ratio = contrast(k)
              if (!worst || ratio < worst.ratio) {
                const P = [p.data[k]!, p.data[k + 1]!, p.data[k + 2]!]
                worst = { ratio, bg: `${hex(P)} at ${x},${y}` }
              }
            }
          }
        }
        return worst
      })
    },
    {
      ox: pictures.x,
      oy: pictures.y,
      shot: pictures.shot.toString('base64'),
      behind: pictures.behind?.toString('base64') ?? null,
      items: visible.map((v) => {
        const pr = prepared[v.index]!
        return { boxes: v.boxes, fg: pr.fg, opacity: pr.opacity }
      }),
    },
  )
}
