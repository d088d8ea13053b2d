// socket.io's packet encoder, without its search for binary attachments. socket.io walks every
// object it sends (hasBinary) to find Buffers to send as separate frames; kortbord sends only
// JSON, and the walk cost ~5% of the server's CPU under load (docs/performance.md). Packets are
// encoded exactly as socket.io-parser encodes them (same wire format, the standard client
// decodes them); the decoder is socket.io's own.
import { Decoder, Encoder, type Packet, PacketType } from 'socket.io-parser'

class JsonEncoder extends Encoder {
  override encode(obj: Packet): string[] {
    if (obj.type !== PacketType.EVENT && obj.type !== PacketType.ACK) return super.encode(obj)
    let str = `${obj.type}`
    if (obj.nsp && obj.nsp !== '/') str += `${obj.nsp},`
    if (obj.id !== undefined && obj.id !== null) str += obj.id
    if (obj.data !== undefined && obj.data !== null) str += JSON.stringify(obj.data)
    return [str]
  }
}

/** The `parser` option of kortbord's socket.io server. */
export const jsonParser = { Encoder: JsonEncoder, Decoder }
