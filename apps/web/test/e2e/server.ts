// Helpers for the browser tests: the real server as a child process (serving the built client
// from apps/web/dist) and a headless Chromium through playwright-core.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from 'playwright-core'
import { afterEach } from 'vitest'
import { contrastShortfalls } from './contrast.ts'

export const WEB_DIR = fileURLToPath(new URL('../../', import.meta.url))
export const SERVER_DIR = fileURLToPath(new URL('../../../server/', import.meta.url))
/**
 * The built client the test server serves: apps/web/dist, or E2E_WEB_DIST (a folder ending in /)
 * so that two people testing at once can each build into their own (`vite build --outDir`).
 */
export const WEB_DIST =
  process.env.E2E_WEB_DIST ?? fileURLToPath(new URL('../../dist/', import.meta.url))
export const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url))

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium'
const CI = process.env.CI === 'true'

/**
 * Whether the browser tests run here. Without Chromium they are skipped with a printed reason,
 * except on CI (CI=true), where they run and fail loudly in `launch()`.
 */
export function browserTestsEnabled(file: string): boolean {
  if (existsSync(CHROMIUM)) return true
  if (CI) return true
  console.warn(
    `[${file}] skipped: no Chromium at ${CHROMIUM} (install chromium or set CHROMIUM=/path/to/chromium; on CI this fails)`,
  )
  return false
}

export async function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `browser tests: no Chromium at ${CHROMIUM}. Install chromium (apt-get install chromium) or set CHROMIUM to its path.`,
    )
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
    ],
  })
}

export interface TestServer {
  readonly url: string
  readonly port: number
  /** What the server printed so far (stdout and stderr), for failure messages. */
  output(): string
  stop(): Promise<void>
}

export interface ServerOptions {
  /** KORTBORD_TEST_DECK: every game started from the page deals from this deck. */
  deck?: string
  env?: Record<string, string>
}

/** A free TCP port on 127.0.0.1 (asks the OS for one and lets it go again). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.unref()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address()
      if (addr === null || typeof addr === 'string') {
        srv.close()
        reject(new Error('no port'))
        return
      }
      srv.close(() => resolve(addr.port))
    })
  })
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve()
    else child.once('exit', () => resolve())
  })
}

/** Starts `node --import tsx src/main.ts` in apps/server and waits until /readyz answers 200. */
export async function startServer(opts: ServerOptions = {}): Promise<TestServer> {
  if (!existsSync(`${WEB_DIST}index.html`)) {
    throw new Error(`browser tests: ${WEB_DIST}index.html is missing; run \`vite build\` first`)
  }
  // A PORT of the options starts it again where one was stopped (a restart, as a page sees it).
  const port = opts.env?.PORT ? Number(opts.env.PORT) : await freePort()
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    KORTBORD_TEST_DEALS: '1',
    WEB_DIST,
    SOLVER: '1',
    // Background proofs as deep as before stop 25 (the default, 20 million nodes, takes up to
    // half a minute of a core on a hard deal): what the tests check needs no deeper ones.
    SOLVER_PROOF_NODES: '5000000',
    // Every browser of a test comes from 127.0.0.1: the per-address limits are for strangers.
    LOOKUPS_PER_ADDRESS_PER_MINUTE: '10000',
    TABLES_PER_ADDRESS_PER_MINUTE: '1000',
    TABLES_PER_ADDRESS_PER_HOUR: '10000',
    CONNECTIONS_PER_ADDRESS: '1000',
    ...opts.env,
  }
  // Vitest sets NODE_ENV=test and may set options the child does not need.
  delete env.NODE_OPTIONS
  delete env.VITEST
  if (opts.deck) env.KORTBORD_TEST_DECK = opts.deck
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  // If the test process goes away without stop() (a crash, a killed worker), so does the server.
  const killOnExit = () => child.kill('SIGKILL')
  process.once('exit', killOnExit)
  child.once('exit', () => process.off('exit', killOnExit))
  let out = ''
  child.stdout?.on('data', (b: Buffer) => {
    out += b.toString()
  })
  child.stderr?.on('data', (b: Buffer) => {
    out += b.toString()
  })
  const url = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const done = exited(child)
    child.kill('SIGTERM')
    const t = setTimeout(() => child.kill('SIGKILL'), 10_000)
    await done
    clearTimeout(t)
  }
  const deadline = Date.now() + 30_000
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`the server exited with ${child.exitCode} before it was ready:\n${out}`)
    }
    try {
      const r = await fetch(`${url}/readyz`)
      if (r.status === 200) break
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`the server did not become ready within 30 s:\n${out}`)
    }
    await sleep(100)
  }
  await expectCsp(url).catch(async (e: unknown) => {
    await stop()
    throw e
  })
  return { url, port, output: () => out, stop }
}

/**
 * The page is served with the server's Content-Security-Policy: without it, the check that no
 * page violates it (below) would prove nothing.
 */
async function expectCsp(url: string): Promise<void> {
  const r = await fetch(`${url}/`)
  const csp = r.headers.get('content-security-policy') ?? ''
  if (!/script-src 'self'(;|$)/.test(csp) || !/frame-ancestors 'none'/.test(csp)) {
    throw new Error(
      `browser tests: the page came without the expected Content-Security-Policy (got "${csp}")`,
    )
  }
}

// ---------------------------------------------------------------------------------------------
// Browser helpers

export const PHONE: BrowserContextOptions = {
  viewport: { width: 360, height: 740 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
}
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } }
/** Phones held sideways, as QA measured them: a table's own controls must stay on these screens. */
export const SIDEWAYS = [
  { width: 844, height: 390 },
  { width: 740, height: 360 },
  { width: 667, height: 375 },
] as const
/** A phone held sideways (the largest of SIDEWAYS). */
export const SIDEWAYS_PHONE: BrowserContextOptions = { ...PHONE, viewport: SIDEWAYS[0] }

// ---------------------------------------------------------------------------------------------
// Every page is watched: a test fails on any Content-Security-Policy violation, any uncaught
// error and any console error of a page it opened (checked after each test, for all of them).

interface Watched {
  readonly page: Page
  readonly errors: string[]
  /** Console errors a test expects (e.g. a network it cut); CSP violations are never allowed. */
  readonly allowed: RegExp[]
  checked: number
}
const watched: Watched[] = []
const CSP = /Content[- ]Security[- ]Policy|securitypolicyviolation/i

/** Lets a page log console errors matching `patterns` from now on (never CSP violations). */
export function allowConsoleErrors(page: Page, ...patterns: RegExp[]): void {
  const w = watched.find((x) => x.page === page)
  if (!w) throw new Error('allowConsoleErrors: not a page made by person()')
  w.allowed.push(...patterns)
}

/** The problems the pages had since the last check, and marks them checked. */
export function pageProblems(): string[] {
  const out: string[] = []
  for (const w of watched) {
    for (const e of w.errors.slice(w.checked)) {
      const allowed = !CSP.test(e) && !e.startsWith('pageerror') && w.allowed.some((r) => r.test(e))
      if (!allowed) out.push(`${w.page.url()} ${e}`)
    }
    w.checked = w.errors.length
  }
  return out
}

afterEach(() => {
  const problems = pageProblems()
  if (problems.length > 0) {
    throw new Error(`the pages reported problems:\n${problems.join('\n')}`)
  }
})

/** A page in a fresh context (its own storage: a separate person), with errors collected. */
export async function person(
  browser: Browser,
  opts: BrowserContextOptions,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ reducedMotion: 'reduce', ...opts })
  // Before any script of the page: a violation of the Content-Security-Policy is an error.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(
        `securitypolicyviolation: ${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`,
      )
    })
  })
  const page = await context.newPage()
  waitForMount(page)
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`))
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`)
  })
  page.setDefaultTimeout(10_000)
  watched.push({ page, errors, allowed: [], checked: 0 })
  return { context, page, errors }
}

/**
 * Makes the page's goto and reload wait, beyond the load event, until kortbord's page is shown:
 * the page's words are a chunk per language, loaded before the page mounts (i18n.ts), so the
 * load event can come before anything is on the screen.
 */
function waitForMount(page: Page): void {
  const mounted = async () => {
    if (!page.url().startsWith('http')) return
    await page.waitForFunction(() => document.querySelector('#app > :not(.boot)') !== null)
  }
  const goto = page.goto.bind(page)
  const reload = page.reload.bind(page)
  page.goto = async (...args: Parameters<Page['goto']>) => {
    const r = await goto(...args)
    await mounted()
    return r
  }
  page.reload = async (...args: Parameters<Page['reload']>) => {
    const r = await reload(...args)
    await mounted()
    return r
  }
}

/** A picture of the whole page, or with `{ screen: true }` of what the screen shows now. */
export async function screenshot(
  page: Page,
  name: string,
  opts: { screen?: boolean } = {},
): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: !opts.screen })
}

/** A picture of the page (as `screenshot` takes it), and axe-core's verdict on it (issue 15). */
export async function shot(
  page: Page,
  name: string,
  opts: { screen?: boolean } = {},
): Promise<void> {
  await screenshot(page, name, opts)
  await expectNoAxeViolations(page, name)
}

/** `shot` of a phone's page at desktop size for a moment (the same seat, no second tab). */
export async function desktopShot(page: Page, name: string): Promise<void> {
  await page.setViewportSize(DESKTOP.viewport!)
  await shot(page, name)
  await page.setViewportSize(PHONE.viewport!)
}

/** Polls `fn` until it returns without throwing (or the time is up: rethrows the last error). */
export async function eventually<T>(fn: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return await fn()
    } catch (e) {
      if (Date.now() > deadline) throw e
      await sleep(50)
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Accessibility (issue 15): axe-core on every page state a browser test visits.

let axeSource: string | null = null

/** One axe finding, short enough to read in a failed test's message. */
export interface AxeFinding {
  readonly id: string
  readonly impact: string | null
  readonly help: string
  readonly nodes: readonly string[]
}

/**
 * Runs axe-core (every rule it runs by default: WCAG 2 A/AA and best practices) on the page as
 * it is now and returns what it found. axe is put into the page by evaluating its source over the
 * DevTools protocol, which the page's Content-Security-Policy (script-src 'self') does not govern:
 * an inline script tag would be refused, and rightly so.
 *
 * Text whose contrast axe could not work out ("needs review": a gradient or translucent layers
 * behind it, which is most text here) is measured on the rendered pixels (contrast.ts) and is a
 * finding below WCAG AA, so no text goes unmeasured.
 */
export async function axeFindings(page: Page): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) {
    axeSource ??= readFileSync(
      createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
      'utf8',
    )
    await page.evaluate(axeSource)
  }
  const { violations, unmeasured } = await page.evaluate(async () => {
    type Result = {
      id: string
      impact: string | null
      help: string
      nodes: { target: unknown[]; failureSummary?: string }[]
    }
    const axe = (
      window as unknown as {
        axe: {
          run(ctx: Document, o: object): Promise<{ violations: Result[]; incomplete: Result[] }>
        }
      }
    ).axe
    const r = await axe.run(document, { resultTypes: ['violations', 'incomplete'] })
    return {
      violations: r.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map(
          (n) =>
            `${n.target.join(' ')}${n.failureSummary ? ` — ${n.failureSummary.replace(/\s+/g, ' ')}` : ''}`,
        ),
      })),
      unmeasured: r.incomplete
        .filter((v) => v.id === 'color-contrast')
        .flatMap((v) => v.nodes.map((n) => n.target.join(' '))),
    }
  })
  const short = await contrastShortfalls(page, unmeasured)
  if (short.length === 0) return violations
  const contrast: AxeFinding = {
    id: 'color-contrast (measured on the rendered background)',
    impact: 'serious',
    help: 'Text contrast is below WCAG AA (4.5:1, large text 3:1)',
    nodes: short.map(
      (s) =>
        `${s.target} "${s.text}": ${s.ratio.toFixed(2)}:1, needs ${s.required}:1 (text ${s.fg} on ${s.bg})`,
    ),
  }
  return [...violations, contrast]
}

/** Fails unless axe finds nothing (of any impact) on the page as it is now, in `state`. */
export async function expectNoAxeViolations(page: Page, state: string): Promise<void> {
  const found = await axeFindings(page)
  if (found.length === 0) return
  const lines = found.map(
    (f) => `- ${f.id} (${f.impact}): ${f.help}\n    ${f.nodes.slice(0, 6).join('\n    ')}`,
  )
  throw new Error(
    `axe found ${found.length} kinds of violation in "${state}":\n${lines.join('\n')}`,
  )
}
