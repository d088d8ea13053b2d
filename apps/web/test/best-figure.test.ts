import { describe, expect, it } from 'vitest'
import { bestFigure } from '../src/lib/best-figure.ts'
import { TABLE_DICTS } from '../src/lib/i18n-table.ts'

const en = TABLE_DICTS.en

describe('[A-16] a best-possible figure on the score sheet (issue 16)', () => {
  it('shows "…" while it is worked out and a proven figure as it is', () => {
    expect(bestFigure(null, en)).toEqual({ shown: '…', said: null })
    expect(bestFigure({ best: 6, proven: 'all' }, en)).toEqual({ shown: '6', said: null })
  })

  it('shows any unproven figure as "≤ n", never as the best, whichever search stopped', () => {
    for (const proven of ['closed', 'none'] as const) {
      const f = bestFigure({ best: 9, proven }, en)
      expect(f).toEqual({ shown: '≤\u00a09', said: en.bestAtMost(9) })
    }
  })

  it('says so when no proof will follow, in every language', () => {
    for (const tt of Object.values(TABLE_DICTS)) {
      const f = bestFigure({ best: 7, proven: 'closed', gaveUp: true }, tt)
      expect(f.shown).toBe('≤\u00a07')
      expect(f.said).toBe(tt.bestAtMostGaveUp(7))
      expect(f.said).not.toBe(tt.bestAtMost(7))
      expect(f.said).toContain('7')
    }
    expect(en.bestAtMostGaveUp(7)).toBe(
      'at most 7; kortbord could not prove that nothing better was possible',
    )
  })
})
