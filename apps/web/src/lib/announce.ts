// What a live region says. A screen reader reads out every change of a live region's text, so
// one whose words follow the page's language would say its news again at each switch of the
// language: the news is said when it changes, and words changing alone say nothing.

/**
 * A live region's text: `next(key, text)` is given what the region tells (`key`: the same key is
 * the same news) in the words of the moment, and returns the region's text. New news is said in
 * the words given; the same news in other words (the language switched) empties the region
 * instead, as taking text away is not read out, and it stays empty until the news changes.
 */
export class Announcer {
  #key: string | null = null
  #text = ''

  next(key: string, text: string): string {
    if (key !== this.#key) {
      this.#key = key
      this.#text = text
    } else if (text !== this.#text) {
      this.#text = ''
    }
    return this.#text
  }
}

/**
 * Lines said as one announcement, each a sentence with its full stop ("Bo played seven of
 * hearts" → "Bo played seven of hearts."; one ending in . ! ? or … is left as it is).
 */
export const sentences = (lines: readonly string[]): string =>
  lines.map((s) => (/[.!?…]$/.test(s) ? s : `${s}.`)).join(' ')
