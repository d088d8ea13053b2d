/**
 * A flood of new connections is shed at the socket, before any HTTP (issue 13, finding 6).
 *
 * Refusing a connection past `CONNECTIONS_PER_ADDRESS` costs the node an accepted socket, an
 * HTTP parse, the Engine.IO handshake's checks and a response: about a third of a millisecond
 * on this event loop. One address retrying 1,900 times a second (`pnpm bench:abuse`,
 * connections) held the loop long enough for an honest player's p99 to reach 220 ms, while the
 * same flood aimed at another process on the same machine cost that player nothing (the
 * `connections-decoy` control): the work was the node's own.
 *
 * So the node accepts at most `perSecond` new connections a second, counted in windows of a
 * tenth of a second: once a window's share is used up, Node closes further connections as they
 * are accepted (`net.Server.maxConnections`, no socket object, no parsing) until the window
 * ends. Connections already open are untouched; a client shed this way sees a failed connect and
 * tries again (socket.io clients do so by themselves, after 1–5 s), as after a network blip.
 * In production the proxy's per-address limits (deploy/nginx.conf) stop a flood earlier; this
 * bounds what reaches the node whatever is in front of it.
 */
import type { Server } from 'node:net'

const WINDOW_MS = 100

export class AcceptGuard {
  private windowStart = 0
  private accepted = 0
  private timer: NodeJS.Timeout | null = null
  private readonly perWindow: number

  constructor(
    private readonly server: Server,
    perSecond: number,
    private readonly shed: () => void,
  ) {
    this.perWindow = Math.max(1, Math.round((perSecond * WINDOW_MS) / 1000))
    server.on('connection', () => this.onAccept())
    server.on('drop', () => this.shed())
  }

  private onAccept(): void {
    const now = performance.now()
    if (now - this.windowStart >= WINDOW_MS) {
      this.windowStart = now
      this.accepted = 0
    }
    if (++this.accepted < this.perWindow || this.timer) return
    // This window's share is used: shed until it ends. `maxConnections` 1 closes every new
    // connection while any is open (one always is: this one).
    this.server.maxConnections = 1
    this.timer = setTimeout(() => this.reopen(), this.windowStart + WINDOW_MS - now)
    this.timer.unref()
  }

  private reopen(): void {
    this.timer = null
    this.server.maxConnections = Number.POSITIVE_INFINITY
    this.windowStart = performance.now()
    this.accepted = 0
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }
}
