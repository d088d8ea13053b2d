// What the hard bot (bots.ts) weighs: each candidate move's playouts and the games it lost, and
// when one candidate is clearly better than another. A module of its own, without the bot, so
// that a page can read a hint's figures without carrying the bot's code (the web client loads
// that only when a hint is asked for).
import type { IdiotMove } from './idiot.ts'

/** One candidate the hard bot played out: how many playouts, and how many of them it lost. */
export interface Weighed {
  readonly move: IdiotMove
  readonly tries: number
  /** Playouts in which the bot's seat was the Idiot (one still going at the cap counts half). */
  readonly lost: number
}

/** The share of a candidate's playouts that it lost (1 without any: it is never preferred). */
export const lossRate = (w: Weighed): number => (w.tries > 0 ? w.lost / w.tries : 1)

/**
 * Whether `a` lost fewer of its playouts than `b` by more than `errors` standard errors of the
 * difference (each share's variance floored at 0.05, so that a handful of playouts never looks
 * sure). The hard bot leaves the greedy move only for one clearly better by one error; a replay's
 * review lists a move only when the hint's beats it by two.
 */
export function clearlyFewerLosses(a: Weighed, b: Weighed, errors = 1): boolean {
  const variance = (w: Weighed) =>
    Math.max(lossRate(w) * (1 - lossRate(w)), 0.05) / Math.max(1, w.tries)
  return lossRate(a) + errors * Math.sqrt(variance(a) + variance(b)) < lossRate(b)
}
