// Small word helpers the page's languages share (i18n-en.ts, i18n-sv.ts, i18n-nb.ts and the
// lazily loaded dictionaries of the table and the replay).

/** "1 card", "2 cards". */
export const cardCount = (n: number): string => (n === 1 ? '1 card' : `${n} cards`)
/** Swedish "1 nedvänd", "2 nedvända". */
export const svFaceDown = (n: number): string => `${n} ${n === 1 ? 'nedvänd' : 'nedvända'}`
/** 1st, 2nd, 3rd, 4th, …, 11th, 21st. */
export const ordinalEn = (n: number): string =>
  `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`
/** 1:a, 2:a, 3:e, 4:e, …, 11:e, 21:a (Swedish ordinals in figures). */
export const ordinalSv = (n: number): string =>
  `${n}:${(n % 10 === 1 || n % 10 === 2) && n % 100 !== 11 && n % 100 !== 12 ? 'a' : 'e'}`
/** Swedish genitive: Astrids, but Mats, Max, Inez (a name ending in s, x or z takes no s). */
export const svGenitive = (name: string): string => (/[sxz]$/i.test(name) ? name : `${name}s`)
/** Norwegian genitive: Astrids, but Mats' (a name ending in s, x or z takes an apostrophe). */
export const nbGenitive = (name: string): string => (/[sxz]$/i.test(name) ? `${name}'` : `${name}s`)
