import type { Logger } from 'pino'

/**
 * The last line of defence of a node's process: a promise rejection or an exception that nothing
 * handled is logged and counted (`kortbord_escaped_errors_total`) instead of ending the process,
 * which would drop every table and connection of the node at once. Every known source is handled
 * where it arises (the stores, the adapter's clients); a count above zero is a bug to fix, and the
 * fault tests assert it stays at zero. Installed by main.ts only: tests that build apps in-process
 * keep vitest's own handlers, which fail a test on anything unhandled.
 */
export function installProcessGuard(
  log: Logger,
  count: (kind: 'rejection' | 'exception') => void,
): () => void {
  const onRejection = (reason: unknown) => {
    count('rejection')
    log.error({ err: reason }, 'unhandled promise rejection (kept running)')
  }
  const onException = (err: Error) => {
    count('exception')
    log.error({ err }, 'uncaught exception (kept running)')
  }
  process.on('unhandledRejection', onRejection)
  process.on('uncaughtException', onException)
  return () => {
    process.off('unhandledRejection', onRejection)
    process.off('uncaughtException', onException)
  }
}
