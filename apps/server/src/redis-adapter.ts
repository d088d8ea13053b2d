import { createAdapter } from '@socket.io/redis-streams-adapter'
import type { Logger } from 'pino'
import { createClient } from 'redis'

type AdapterClient = ReturnType<typeof createClient>

/**
 * The socket.io Redis streams adapter with a client of its own, hardened: the adapter sends its
 * ephemeral messages (serverSideEmit: kortbord's `table:changed`) with a PUBLISH whose promise it
 * never awaits, so a connection reset during one would be an unhandled rejection that ends the
 * process. Here every publish is caught, logged and counted; the stream writes and reads are
 * caught by the adapter itself, and the client (and the adapter's duplicates of it) reconnect by
 * themselves.
 */
export async function connectRedisAdapter(
  url: string,
  prefix: string,
  log: Logger,
  onError: (what: string) => void,
): Promise<{ adapter: ReturnType<typeof createAdapter>; close(): Promise<void> }> {
  // It may queue while Redis is away (its blocking reads resume by themselves), while the store's
  // client fails fast so that commands are answered at once. No per-command timeout
  // (node-redis's default is 5 s, an AbortSignal per command, and each update is a command here).
  const client: AdapterClient = createClient({ url, commandOptions: { timeout: 0 } })
  let up = true
  client.on('error', (e: Error) => {
    onError('adapter connection')
    if (up) log.warn({ err: e.message }, 'adapter redis client: connection lost; reconnecting')
    up = false
  })
  client.on('ready', () => {
    up = true
  })
  guardPublish(client, (e) => {
    onError('adapter publish')
    log.warn({ err: (e as Error)?.message ?? String(e) }, 'adapter publish failed (dropped)')
  })
  await client.connect()
  return {
    adapter: createAdapter(client, {
      streamName: `${prefix}socket.io`,
      channelPrefix: `${prefix}socket.io`,
      // kortbord sends only JSON: no search for binary attachments, no msgpack.
      onlyPlaintext: true,
    }),
    async close() {
      await client.close().catch(() => undefined)
    },
  }
}

/** Makes the client's PUBLISH and SPUBLISH settle quietly (0 receivers) when they fail. */
export function guardPublish(client: AdapterClient, onFail: (e: unknown) => void): void {
  const c = client as unknown as Record<
    'publish' | 'sPublish',
    (...a: unknown[]) => Promise<number>
  >
  for (const name of ['publish', 'sPublish'] as const) {
    const original = c[name].bind(client)
    c[name] = (...args: unknown[]) =>
      original(...args).catch((e: unknown) => {
        onFail(e)
        return 0
      })
  }
}
