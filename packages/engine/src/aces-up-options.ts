/**
 * Aces Up's table options, apart from the game's rules so that a page which only
 * offers them (the home page's form) does not load the rules: a module is bundled whole.
 */

/** 4 piles (standard), 5 (fem högar) or 8 with two decks (två lekar). */
export type AcesUpPiles = 4 | 5 | 8
export const ACES_UP_PILES: readonly AcesUpPiles[] = [4, 5, 8]
/** what the one undo of a game may take back. */
export type UndoSetting = 'none' | 'discards' | 'moves' | 'both'
export const UNDO_SETTINGS: readonly UndoSetting[] = ['none', 'discards', 'moves', 'both']

export interface AcesUpOptions {
  /** Default 4. */
  readonly piles?: AcesUpPiles
  /** Default 'none' (the plain game). */
  readonly undo?: UndoSetting
}

export const decksFor = (piles: AcesUpPiles): 1 | 2 => (piles === 8 ? 2 : 1)
