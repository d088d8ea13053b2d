import { Encoder, type Packet, PacketType } from 'socket.io-parser'
import { describe, expect, it } from 'vitest'
import { jsonParser } from '../src/parser.ts'

const ours = new jsonParser.Encoder()
const theirs = new Encoder()

describe('the socket.io encoder', () => {
  it('encodes every packet exactly as socket.io-parser does', () => {
    const table = { code: 'ABCDEF', seats: [{ name: 'Åsa "the" \\ one', connected: true }], n: 1 }
    const packets: Packet[] = [
      {
        type: PacketType.EVENT,
        nsp: '/',
        data: ['table:update', { table, seat: 0, view: null, log: [], logAfter: null }],
      },
      {
        type: PacketType.EVENT,
        nsp: '/',
        data: [
          'table:update',
          {
            table,
            seat: null,
            view: { a: [1, 2] },
            log: [{ seq: 3 }],
            logAfter: 2,
            skip: undefined,
          },
        ],
      },
      {
        type: PacketType.EVENT,
        nsp: '/',
        data: ['table:gone', { table: 'ABCDEF', reason: 'replaced' }],
      },
      { type: PacketType.ACK, nsp: '/', id: 17, data: [{ ok: true, version: 4 }] },
      { type: PacketType.EVENT, nsp: '/admin', id: 3, data: ['x', 1, 'two', null] },
      { type: PacketType.CONNECT, nsp: '/', data: { sid: 'abc' } },
      { type: PacketType.DISCONNECT, nsp: '/' },
      { type: PacketType.CONNECT_ERROR, nsp: '/', data: { message: 'PROTOCOL_MISMATCH' } },
    ]
    for (const p of packets) expect(ours.encode(p)).toEqual(theirs.encode(p))
  })

  it('makes the shared table JSON once, and a new table object gets its own', () => {
    const table = { version: 1 }
    const a = ours.encode({
      type: PacketType.EVENT,
      nsp: '/',
      data: ['table:update', { table, seat: 0 }],
    })
    const next = { version: 2 }
    const b = ours.encode({
      type: PacketType.EVENT,
      nsp: '/',
      data: ['table:update', { table: next, seat: 0 }],
    })
    expect(a).toEqual(['2["table:update",{"table":{"version":1},"seat":0}]'])
    expect(b).toEqual(['2["table:update",{"table":{"version":2},"seat":0}]'])
  })
})
