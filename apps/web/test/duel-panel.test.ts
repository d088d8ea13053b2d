import { describe, expect, it } from 'vitest'
import { duelPanelNote } from '../src/lib/duel-panel.ts'
import { DICTS } from '../src/lib/i18n.ts'

const names = ['Astrid', 'Bo']
const base = { games: 3, turn: null, names }

describe('[A-10] the note under a duel panel', () => {
  it('says "your games" only on the viewer’s own panel; the other player’s names them', () => {
    const en = DICTS.en
    expect(duelPanelNote({ ...base, played: 3, mine: true, seat: 1 }, en)).toBe(
      'All your games are played.',
    )
    expect(duelPanelNote({ ...base, played: 3, mine: false, seat: 0 }, en)).toBe(
      'Astrid has played all their games.',
    )
    expect(duelPanelNote({ ...base, played: 3, mine: false, seat: 0 }, DICTS.sv)).toBe(
      'Astrid har spelat alla sina givar.',
    )
  })

  it('while games remain: who is playing when they take turns, else nothing', () => {
    const en = DICTS.en
    expect(duelPanelNote({ ...base, played: 1, turn: 1, mine: false, seat: 0 }, en)).toBe(
      'Bo is playing',
    )
    expect(duelPanelNote({ ...base, played: 1, mine: true, seat: 1 }, en)).toBe('')
  })
})
