// socket.io's packet encoder, specialised for what kortbord sends. socket.io walks every object
// it sends (hasBinary) to find Buffers to send as separate frames; kortbord sends only JSON, and
// that walk cost ~5% of the server's CPU under load (docs/performance.md). And a table's update
// goes to each seat's room and the spectators' room with the same `table` object in each: its
// JSON (about 40% of an update's) is made once per version, not once per room. Packets are
// encoded exactly as socket.io-parser encodes them (same wire format: the standard client
// decodes them); the decoder is socket.io's own.
import { Decoder, Encoder, type Packet, PacketType } from 'socket.io-parser'

/** JSON of objects shared between packets; updates are immutable, so identity is enough. */
const shared = new WeakMap<object, string>()

function sharedJson(v: object): string {
  let s = shared.get(v)
  if (s === undefined) {
    s = JSON.stringify(v)
    shared.set(v, s)
  }
  return s
}

/** `{"table":…,…}`: a table update with its `table` taken from the cache; JSON.stringify's output. */
function updateJson(u: Record<string, unknown>): string {
  let out = '{'
  for (const k in u) {
    const v = u[k]
    if (v === undefined || typeof v === 'function') continue
    if (out.length > 1) out += ','
    const shareable = k === 'table' && typeof v === 'object' && v !== null
    out += `${JSON.stringify(k)}:${shareable ? sharedJson(v) : JSON.stringify(v)}`
  }
  return `${out}}`
}

function dataJson(data: unknown): string {
  if (
    Array.isArray(data) &&
    data.length === 2 &&
    data[0] === 'table:update' &&
    typeof data[1] === 'object' &&
    data[1] !== null
  ) {
    return `["table:update",${updateJson(data[1] as Record<string, unknown>)}]`
  }
  return JSON.stringify(data)
}

class JsonEncoder extends Encoder {
  override encode(obj: Packet): string[] {
    if (obj.type !== PacketType.EVENT && obj.type !== PacketType.ACK) return super.encode(obj)
    let str = `${obj.type}`
    if (obj.nsp && obj.nsp !== '/') str += `${obj.nsp},`
    if (obj.id !== undefined && obj.id !== null) str += obj.id
    if (obj.data !== undefined && obj.data !== null) str += dataJson(obj.data)
    return [str]
  }
}

/** The `parser` option of kortbord's socket.io server. */
export const jsonParser = { Encoder: JsonEncoder, Decoder }
