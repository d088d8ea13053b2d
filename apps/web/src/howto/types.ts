// The shape of a game's "How to play" text. Each game's texts (all three languages) are a module
// of their own, fetched when someone opens them, so they cost the first page load nothing.
import type { Lang } from '../lib/i18n.ts'

/** A paragraph, a row of card pictures (notation, e.g. "TH") with a caption, or a small table. */
export type Block =
  | { readonly p: string }
  | { readonly cards: readonly string[]; readonly text: string }
  | {
      readonly head: readonly [string, string]
      readonly rows: readonly (readonly [string, string])[]
    }

export interface Section {
  readonly h: string
  readonly blocks: readonly Block[]
}

export interface HowTo {
  /** One or two sentences: what the game is about. */
  readonly intro: string
  readonly sections: readonly Section[]
}

export type HowToTexts = Readonly<Record<Lang, HowTo>>
