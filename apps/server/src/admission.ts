// Who may open a socket at all (issue 13): pages of allowed origins only, and a bounded number
// of connections per client address on this node.
import type { IncomingMessage } from 'node:http'
import type { Config } from './config.ts'
import { clientAddress, type Limits } from './limits.ts'
import type { Metrics } from './metrics.ts'

type Trust = ((addr: string, i: number) => boolean) | null

/**
 * A page's origin may open a socket when it is the server's own (the Host the request came to:
 * same origin, also behind a proxy that passes Host on), PUBLIC_URL's, or in ALLOWED_ORIGINS. A
 * client that sends no Origin is no page (bots, `pnpm play`, other programs) and cannot carry a
 * player's cookies anyway: it is let in.
 */
export function originAllowed(
  origin: string | undefined,
  host: string | undefined,
  allowed: ReadonlySet<string>,
): boolean {
  if (origin === undefined) return true
  if (allowed.has(origin)) return true
  try {
    return host !== undefined && new URL(origin).host === host
  } catch {
    return false
  }
}

/** The engine's handshake check and connection count (socket.io's `allowRequest`). */
export function admission(config: Config, limits: Limits, trust: Trust, metrics: Metrics) {
  const allowed = new Set(config.allowedOrigins)
  if (config.publicUrl) allowed.add(new URL(config.publicUrl).origin)
  return {
    allowRequest(req: IncomingMessage, answer: (err: string | null, ok: boolean) => void): void {
      if (!originAllowed(req.headers.origin, req.headers.host, allowed)) {
        metrics.limited('origin')
        answer('ORIGIN_NOT_ALLOWED: pages of this origin may not open a table here', false)
        return
      }
      if (!limits.roomFor(clientAddress(req, trust))) {
        metrics.limited('connections')
        answer(
          `TOO_MANY_CONNECTIONS: one address may hold ${limits.settings.connectionsPerAddress} connections here`,
          false,
        )
        return
      }
      answer(null, true)
    },
    /**
     * Counts an engine connection under its address, and closes it at once if the address has
     * too many (handshakes at the same moment can all pass the check above).
     */
    counted(raw: {
      request: IncomingMessage
      close(): void
      once(e: 'close', f: () => void): void
    }): void {
      const address = clientAddress(raw.request, trust)
      if (!limits.connect(address)) {
        metrics.limited('connections')
        raw.close()
        return
      }
      raw.once('close', () => limits.disconnect(address))
    },
  }
}
