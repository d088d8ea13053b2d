// /readyz is public (a load balancer asks it), so it must not let anyone ask Redis as often as
// they like: the store's answer is shared for READY_CACHE_MS, and callers in the meantime wait
// for the one question in flight.

/** How long one answer of the store's readiness serves every /readyz. */
export const READY_CACHE_MS = 250

/**
 * `ask` at most once per `ms` (measured from when it was asked), however often the result is
 * wanted; a failure reads as not ready.
 */
export function sharedReadiness(
  ask: () => Promise<boolean>,
  now: () => number,
  ms = READY_CACHE_MS,
): () => Promise<boolean> {
  let askedAt = Number.NEGATIVE_INFINITY
  let answer: Promise<boolean> = Promise.resolve(false)
  return () => {
    const t = now()
    if (t - askedAt >= ms) {
      askedAt = t
      answer = ask().catch(() => false)
    }
    return answer
  }
}
