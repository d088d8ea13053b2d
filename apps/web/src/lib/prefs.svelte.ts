// The player's preferences: name and language, remembered in the browser. The language's words
// are loaded before the page is first shown (main.ts) and again when the player picks another.
import { type Dict, LANGS, type Lang, loadDict, pickLang } from './i18n.ts'
import { load, save } from './storage.ts'

/**
 * The language chosen, as a cookie too: the server sends the page with that language's words
 * preloaded (web-routes.ts), and without the cookie it can only go by the browser's languages,
 * which a player who picked another does not share. Cookie Store API, where the page has it (a
 * secure context); elsewhere the words come a moment later, no worse.
 */
function langCookie(lang: Lang): void {
  const store = (globalThis as { cookieStore?: CookieStore }).cookieStore
  const year = 365 * 24 * 3600 * 1000
  store
    ?.set({ name: 'lang', value: lang, path: '/', expires: Date.now() + year, sameSite: 'lax' })
    .catch(() => {})
}

class Prefs {
  name = $state(load('name') ?? '')
  lang = $state<Lang>(
    (LANGS as readonly string[]).includes(load('lang') ?? '')
      ? (load('lang') as Lang)
      : pickLang(globalThis.navigator?.languages ?? ['en']),
  )
  #t = $state.raw<Dict | null>(null)

  /** The words of the page's language; there from the first render on (main.ts awaits load). */
  get t(): Dict {
    if (this.#t === null) throw new Error('the page has no words yet: prefs.load() first')
    return this.#t
  }

  /** Loads the words of the language chosen. */
  async load(): Promise<void> {
    if (load('lang') !== null) langCookie(this.lang)
    this.#t = await loadDict(this.lang)
  }

  setName(name: string): void {
    this.name = name
    save('name', name.trim() || null)
  }

  /** Switches the page to `lang` once its words have come (the old ones stay until then). */
  async setLang(lang: Lang): Promise<void> {
    let t: Dict
    try {
      t = await loadDict(lang)
    } catch {
      // The words did not come (offline): the page stays in the language it is in.
      return
    }
    save('lang', lang)
    langCookie(lang)
    this.lang = lang
    this.#t = t
    document.documentElement.lang = lang
  }
}

export const prefs = new Prefs()
