// The player's preferences: name and language, remembered in the browser. The language's words
// are loaded before the page is first shown (main.ts) and again when the player picks another.
import { type Dict, LANGS, type Lang, loadDict, pickLang } from './i18n.ts'
import { load, save } from './storage.ts'

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
    this.lang = lang
    this.#t = t
    document.documentElement.lang = lang
  }
}

export const prefs = new Prefs()
