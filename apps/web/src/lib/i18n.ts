// Swedish, Norwegian (bokmål) and English. Plain functions and objects: no library needed for
// three languages and a few hundred words. Each language's dictionary is a chunk of its own
// (i18n-en.ts, i18n-sv.ts, i18n-nb.ts): the page loads the one it shows (loadDict), and another
// only when the player switches to it.
import type { Lang } from '@kortbord/protocol/wire'
import type { Dict } from './i18n-en.ts'

export { LANGS, type Lang, pickLang } from '@kortbord/protocol/wire'
export const LANG_NAMES: Record<Lang, string> = { sv: 'Svenska', nb: 'Norsk', en: 'English' }

export type { Dict } from './i18n-en.ts'
export { cardCount, nbGenitive, svGenitive } from './i18n-words.ts'

const LOADERS: Record<Lang, () => Promise<Dict>> = {
  en: () => import('./i18n-en.ts').then((m) => m.en),
  sv: () => import('./i18n-sv.ts').then((m) => m.sv),
  nb: () => import('./i18n-nb.ts').then((m) => m.nb),
}

/** The dictionary of `lang`, loaded once (a chunk of its own). */
export const loadDict = (lang: Lang): Promise<Dict> => LOADERS[lang]()

/** An error from the server in words: the translation of its code, else its own message. */
export function errorText(t: Dict, error: { code: string; message: string }): string {
  return t.errors[error.code] ?? t.errorGeneric(error.message)
}
