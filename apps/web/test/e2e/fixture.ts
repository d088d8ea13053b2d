// The setup every browser test shares: one Chromium, the real server, and the people (browser
// contexts) a test opens, all closed again after the describe it is called in, even when the
// setup failed halfway.
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import type { Lang } from '../../src/lib/i18n.ts'
import { type Person, personOf } from './pages.ts'
import { launch, person, type ServerOptions, startServer, type TestServer } from './server.ts'

/** The locale a person's browser asks for, by the language the test expects it to get. */
export const LOCALES: Readonly<Record<Lang, string>> = { sv: 'sv-SE', nb: 'nb-NO', en: 'en-GB' }

/** A page in its own context, as `person()` makes it. */
export interface Opened {
  readonly context: BrowserContext
  readonly page: Page
  /** The page's console errors and uncaught errors, as they come. */
  readonly errors: string[]
}

export interface BrowserFixture {
  /** The Chromium (from beforeAll on). */
  readonly browser: Browser
  /** The server started with the fixture's options (from beforeAll on). */
  readonly server: TestServer
  /** The server's address, e.g. http://127.0.0.1:4321 (no slash at the end). */
  readonly url: string
  /** Another server, stopped with the fixture's (for a describe that needs several). */
  startServer(opts?: ServerOptions): Promise<TestServer>
  /** A page in a fresh context (a separate person), closed after the describe. */
  person(opts: BrowserContextOptions): Promise<Opened>
  /** A person whose browser asks for `lang` (the locale of LOCALES unless `opts` gives one). */
  open(opts: BrowserContextOptions, lang: Lang): Promise<Person>
  /** The context of a person `open()` made. */
  contextOf(who: Person): BrowserContext
  /** The errors of the page of a person `open()` made. */
  errorsOf(who: Person): string[]
  /** The errors of every page made so far, one list a page, in the order they were made. */
  errors(): string[][]
}

/**
 * Registers the beforeAll and afterAll of a describe of browser tests: beforeAll launches Chromium
 * and then starts the server with `server` (the browser first: without one, no server is left
 * behind), or starts none with `false`; afterAll closes every context the fixture made, the
 * browser and every server it started. Teardown also waits for a launch or a server start still
 * under way (a beforeAll that timed out), so nothing is left running.
 */
export function browserFixture(server: ServerOptions | false = {}): BrowserFixture {
  let browser: Browser | undefined
  let main: TestServer | undefined
  const servers: TestServer[] = []
  const contexts: BrowserContext[] = []
  const pages: Opened[] = []
  const people = new Map<Person, Opened>()
  /** Launches and server starts under way, settled once what they made is recorded above. */
  const pending = new Set<Promise<void>>()

  function tracked<T>(start: () => Promise<T>): Promise<T> {
    const p = start()
    const settled = p.then(
      () => {},
      () => {},
    )
    pending.add(settled)
    void settled.then(() => pending.delete(settled))
    return p
  }

  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) {
      throw new Error(`browserFixture: no ${what} (the describe's beforeAll did not make one)`)
    }
    return value
  }

  const startTracked = (opts: ServerOptions = {}) =>
    tracked(async () => {
      const s = await startServer(opts)
      servers.push(s)
      return s
    })

  const madeBy = (who: Person): Opened => {
    const made = people.get(who)
    if (!made) throw new Error('browserFixture: not a person open() made')
    return made
  }

  const fixture: BrowserFixture = {
    get browser() {
      return need(browser, 'browser')
    },
    get server() {
      return need(main, 'server')
    },
    get url() {
      return need(main, 'server').url
    },
    startServer: startTracked,
    async person(opts) {
      const made = await person(need(browser, 'browser'), opts)
      contexts.push(made.context)
      pages.push(made)
      return made
    },
    async open(opts, lang) {
      const made = await fixture.person({ locale: LOCALES[lang], ...opts })
      const who = personOf(made.page, lang)
      people.set(who, made)
      return who
    },
    contextOf: (who) => madeBy(who).context,
    errorsOf: (who) => madeBy(who).errors,
    errors: () => pages.map((p) => p.errors),
  }

  beforeAll(async () => {
    browser = await tracked(launch)
    if (server) main = await startTracked(server)
  })

  afterAll(async () => {
    await Promise.all(pending)
    for (const c of contexts.splice(0)) await c.close().catch(() => {})
    const failures: unknown[] = []
    if (browser) await browser.close().catch((e: unknown) => failures.push(e))
    for (const r of await Promise.allSettled(servers.splice(0).map((s) => s.stop()))) {
      if (r.status === 'rejected') failures.push(r.reason)
    }
    if (failures.length === 1) throw failures[0]
    if (failures.length > 1) throw new AggregateError(failures, 'browserFixture: teardown failed')
  })

  return fixture
}
