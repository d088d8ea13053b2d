import type { DuelBest } from '@kortbord/engine'
import type { TableDict } from './i18n-table.ts'

/** A best-possible figure as the score sheet shows it, and what a screen reader says instead. */
export interface BestFigure {
  readonly shown: string
  /**
   * The words read instead of `shown`: for an upper bound, or a same-deal "…" that waits for the
   * other player; null for a proven figure or a "…" being worked out.
   */
  readonly said: string | null
}

/**
 * A-16, issue 16: "…" while a figure is worked out, a proven figure as it is, and any other as
 * "≤ n", an upper bound, never as the best; its words say whether a proof is still to come.
 */
export function bestFigure(best: DuelBest | null, tt: TableDict): BestFigure {
  if (best === null) return { shown: '…', said: null }
  if (best.proven === 'all') return { shown: String(best.best), said: null }
  return {
    shown: `≤\u00a0${best.best}`,
    said: best.gaveUp === true ? tt.bestAtMostGaveUp(best.best) : tt.bestAtMost(best.best),
  }
}
