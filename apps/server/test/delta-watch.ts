// Set up before every test file (vitest.config.ts): a test fails when one of its clients had a
// delta update that did not fit the table it held (issue 17) and was not told to expect that.
// The client asks for the whole table by itself and carries on, so without this a server that
// sends wrong deltas would pass every test.
import { afterEach, expect } from 'vitest'
import { Client } from '../scripts/client.ts'

const watched = new Set<Client>()
const counted = new WeakMap<Client, number>()
Client.onCreate = (c) => watched.add(c)

/**
 * The clients that missed deltas since the last call without expecting to, and how many each.
 * Clients whose socket is closed are looked at a last time and then forgotten.
 */
export function unexpectedDeltaMisses(): { url: string; misses: number }[] {
  const out: { url: string; misses: number }[] = []
  for (const c of watched) {
    const before = counted.get(c) ?? 0
    counted.set(c, c.deltaMisses)
    if (c.deltaMisses > before && !c.expectsDeltaMisses)
      out.push({ url: c.url, misses: c.deltaMisses - before })
    if (!c.socket.connected) watched.delete(c)
  }
  return out
}

afterEach(() => {
  expect(unexpectedDeltaMisses(), 'clients with delta updates that did not fit').toEqual([])
})
