// The games keep their Swedish names in every language of the page (Idiot, Idioten för två,
// Klockan, Klockan för två, Dom Åtta Herrarna). Inside an English or Norwegian text a screen
// reader would read them with that language's voice and get them wrong, so they are marked
// lang="sv" (by GameName.svelte, from the parts made here).
import { type GameId, IDIOTEN, playedGameName, type TableSettings } from '@kortbord/protocol/wire'
import type { Dict, Lang } from './i18n.ts'

/** A piece of a text: `sv` when it is a game's name to be read as Swedish. */
export interface NamePart {
  readonly text: string
  readonly sv: boolean
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * `text` cut around the game names `names` in it (by default the whole text is one name), each
 * name a part of its own marked `sv` unless the page is Swedish already. A name is found as a
 * whole word (not "Idiot" in "Idioten"), the longest first ("Klockan för två" before
 * "Klockan"). Empty parts are left out.
 */
export function gameNameParts(
  pageLang: Lang,
  text: string,
  names: readonly string[] = [text],
): NamePart[] {
  const wanted = names.filter((n) => n !== '')
  if (pageLang === 'sv' || wanted.length === 0) return text === '' ? [] : [{ text, sv: false }]
  const alternatives = [...wanted].sort((a, b) => b.length - a.length).map(escapeRe)
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`, 'gu')
  const parts: NamePart[] = []
  let at = 0
  for (const m of text.matchAll(re)) {
    if (m.index > at) parts.push({ text: text.slice(at, m.index), sv: false })
    parts.push({ text: m[0], sv: true })
    at = m.index + m[0].length
  }
  if (at < text.length) parts.push({ text: text.slice(at), sv: false })
  return parts
}

/** A game's name. */
export const gameTitle = (t: Dict, game: GameId): string =>
  ({ idiot: t.idiot, duel: t.duel, klockan: t.klockan, herrarna: t.herrarna })[game]

/**
 * A table's game by name, without Klockan's variant: "Klockan för två" for two (K-6), "Idioten"
 * for Idioten för två alone (A-17; a duel stored before it has no seats: two).
 */
export const tableGameName = (game: GameId, settings: TableSettings): string =>
  playedGameName(game, (settings as { seats?: number }).seats ?? (game === 'duel' ? 2 : 1))

/** A table's game in words, with Klockan's variant: what the people at it play. */
export function gameLabel(t: Dict, game: GameId, settings: TableSettings): string {
  if (game === 'duel') return tableGameName(game, settings)
  if (game !== 'klockan') return gameTitle(t, game)
  const s = settings as { variant: 'standard' | 'rescue' | 'twelve' | 'twoDecks' }
  const variant = {
    standard: t.variantStandard,
    rescue: t.variantRescue,
    twelve: t.variantTwelve,
    twoDecks: t.variantTwoDecks,
  }[s.variant]
  return `${tableGameName(game, settings)} · ${variant}`
}

/** Every game name a text of {@link gameLabel}'s may hold (GameName's `names`). */
export const gameNamesOf = (t: Dict): string[] => [
  t.idiot,
  t.duel,
  IDIOTEN,
  t.herrarna,
  t.klockan,
  t.klockanForTwo,
]
