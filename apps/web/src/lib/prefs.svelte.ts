// The player's preferences: name and language, remembered in the browser.
import { DICTS, type Dict, LANGS, type Lang, pickLang } from './i18n.ts'
import { load, save } from './storage.ts'

class Prefs {
  name = $state(load('name') ?? '')
  lang = $state<Lang>(
    (LANGS as readonly string[]).includes(load('lang') ?? '')
      ? (load('lang') as Lang)
      : pickLang(globalThis.navigator?.languages ?? ['en']),
  )
  readonly t: Dict = $derived(DICTS[this.lang])

  setName(name: string): void {
    this.name = name
    save('name', name.trim() || null)
  }

  setLang(lang: Lang): void {
    this.lang = lang
    save('lang', lang)
    document.documentElement.lang = lang
  }
}

export const prefs = new Prefs()
