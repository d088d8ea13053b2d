/** Small statistics helpers for the simulation and benchmark scripts. */

export interface Interval {
  value: number
  lo: number
  hi: number
}

/** Wilson score interval for a proportion, 95%. */
export function proportion(successes: number, n: number): Interval {
  if (n === 0) return { value: Number.NaN, lo: Number.NaN, hi: Number.NaN }
  const z = 1.959964
  const p = successes / n
  const d = 1 + (z * z) / n
  const centre = (p + (z * z) / (2 * n)) / d
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d
  // Rounding can put a bound a hair outside [0, 1] (printed as -0.0).
  return { value: p, lo: Math.max(0, centre - half), hi: Math.min(1, centre + half) }
}

/** Mean with a normal 95% interval. */
export function mean(xs: readonly number[]): Interval {
  const n = xs.length
  const m = xs.reduce((a, b) => a + b, 0) / n
  const v = xs.reduce((a, b) => a + (b - m) ** 2, 0) / Math.max(1, n - 1)
  const half = 1.959964 * Math.sqrt(v / n)
  return { value: m, lo: m - half, hi: m + half }
}

export function quantile(xs: readonly number[], q: number): number {
  const s = xs.slice().sort((a, b) => a - b)
  if (s.length === 0) return Number.NaN
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))
  return s[i]!
}

export const pct = (i: Interval, digits = 1): string =>
  `${(i.value * 100).toFixed(digits)}% [${(i.lo * 100).toFixed(digits)}, ${(i.hi * 100).toFixed(digits)}]`

export const num = (i: Interval, digits = 2): string =>
  `${i.value.toFixed(digits)} [${i.lo.toFixed(digits)}, ${i.hi.toFixed(digits)}]`

/** `--name value` from the command line, else the default. */
export function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`)
  if (i < 0) return dflt
  const v = Number(process.argv[i + 1])
  if (!Number.isFinite(v) || v < 0) throw new Error(`--${name} needs a number`)
  return v
}
