// A TCP proxy between a node and Redis for fault tests: it passes bytes both ways and, on
// request, resets connections (RST, as a failover or a network blip does) at chosen moments.
import { createServer, type Server, Socket } from 'node:net'

export interface FaultProxy {
  /** The proxy's address, e.g. redis://127.0.0.1:PORT. */
  readonly url: string
  readonly port: number
  /** Connections reset so far. */
  readonly resets: number
  /**
   * Resets the next `times` connections whose client sends a command containing `needle` (e.g.
   * 'EVALSHA', 'XADD', 'HGET'), the moment the command passes: it never reaches Redis, and
   * whatever else was in flight on that connection is lost with it.
   */
  resetOn(needle: string, times?: number): void
  /** Resets every open connection now. */
  resetAll(): void
  /** While down, new connections are reset at once and open ones too. */
  down(): void
  up(): void
  close(): Promise<void>
}

export async function startFaultProxy(target: {
  host?: string
  port: number
}): Promise<FaultProxy> {
  const open = new Set<{ client: Socket; upstream: Socket }>()
  const triggers: { needle: string; left: number }[] = []
  let resets = 0
  let isDown = false

  const reset = (pair: { client: Socket; upstream: Socket }) => {
    if (!open.delete(pair)) return
    resets++
    pair.client.resetAndDestroy()
    pair.upstream.destroy()
  }

  const server: Server = createServer((client) => {
    const upstream = new Socket()
    const pair = { client, upstream }
    open.add(pair)
    if (isDown) {
      reset(pair)
      return
    }
    upstream.connect(target.port, target.host ?? '127.0.0.1')
    client.on('data', (d: Buffer) => {
      const text = d.toString('latin1')
      const t = triggers.find((x) => x.left > 0 && text.includes(x.needle))
      if (t) {
        if (process.env.FAULT_DEBUG)
          console.log('reset on', t.needle, JSON.stringify(text.slice(0, 300)))
        t.left--
        reset(pair)
        return
      }
      upstream.write(d)
    })
    upstream.on('data', (d: Buffer) => {
      if (open.has(pair)) client.write(d)
    })
    const end = () => {
      open.delete(pair)
      client.destroy()
      upstream.destroy()
    }
    client.on('error', end)
    upstream.on('error', end)
    client.on('close', end)
    upstream.on('close', end)
  })
  const resetAll = () => {
    for (const p of [...open]) reset(p)
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const a = server.address()
  const port = typeof a === 'object' && a ? a.port : 0
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get resets() {
      return resets
    },
    resetOn(needle, times = 1) {
      triggers.push({ needle, left: times })
    },
    resetAll,
    down() {
      isDown = true
      resetAll()
    },
    up() {
      isDown = false
    },
    async close() {
      for (const p of [...open]) reset(p)
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
