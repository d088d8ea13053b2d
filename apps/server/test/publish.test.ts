// What a table's version costs to send (issue 17): publish builds and emits an update only for
// the rooms that have a socket in them (socket.io serialises a broadcast before it finds the room
// empty), and a newcomer, who gets the whole update of its own, does not count as one.
import type { Seat } from '@kortbord/engine'
import { describe, expect, it } from 'vitest'
import { type KortbordServer, roomOf, roomsFor } from '../src/sockets.ts'
import type { Table } from '../src/table.ts'

/** A socket.io server as publish sees it: its rooms, and every emit made through it. */
function fakeServer(rooms: Record<string, string[]>) {
  const emitted: { to: string; except: string | null; event: string }[] = []
  const adapter = { rooms: new Map(Object.entries(rooms).map(([r, ids]) => [r, new Set(ids)])) }
  const target = (to: string, except: string | null) => ({
    except: (id: string) => target(to, id),
    emit: (event: string) => {
      emitted.push({ to, except, event })
      return true
    },
  })
  const server = { of: () => ({ adapter }), to: (room: string) => target(room, null) }
  return { server: server as unknown as KortbordServer, emitted }
}

/** A 4-seat table that counts what it was asked to build; `hidden`: viewers who cannot see it. */
function countingTable(hidden: readonly (Seat | null)[] = []) {
  const built = { updates: [] as (Seat | null)[], deltas: [] as (Seat | null)[] }
  const table = {
    code: 'ABCDEF',
    seatCount: 4,
    sees: (seat: Seat | null) => !hidden.includes(seat),
    updateFor(seat: Seat | null) {
      built.updates.push(seat)
      return {}
    },
    deltaFor(seat: Seat | null) {
      built.deltas.push(seat)
      return {}
    },
  }
  return { table: table as unknown as Table, built }
}

describe('publish: only rooms with sockets in them (issue 17)', () => {
  it('builds and emits nothing for empty rooms: one delta room, one whole room', () => {
    const { server, emitted } = fakeServer({
      [roomOf('ABCDEF', 1, true)]: ['a'],
      [roomOf('ABCDEF', null)]: ['w'],
      [roomOf('ABCDEF', 2)]: [],
    })
    const { table, built } = countingTable()
    roomsFor(() => server).publish(table)
    expect(built.deltas).toEqual([1])
    expect(built.updates).toEqual([null])
    expect(emitted).toEqual([
      { to: roomOf('ABCDEF', 1, true), except: null, event: 'table:delta' },
      { to: roomOf('ABCDEF', null), except: null, event: 'table:update' },
    ])
  })

  it('[A-15] a viewer who cannot see the change (a same-deal opponent, spectators) is sent nothing of it', () => {
    const { server, emitted } = fakeServer({
      [roomOf('ABCDEF', 0, true)]: ['a'],
      [roomOf('ABCDEF', 1, true)]: ['b'],
      [roomOf('ABCDEF', 1)]: ['b2'],
      [roomOf('ABCDEF', null, true)]: ['w'],
    })
    const { table, built } = countingTable([1, null])
    roomsFor(() => server).publish(table)
    expect(built.deltas).toEqual([0])
    expect(built.updates).toEqual([])
    expect(emitted).toEqual([{ to: roomOf('ABCDEF', 0, true), except: null, event: 'table:delta' }])
  })

  it('a room whose only socket is the newcomer is empty for the broadcast; the newcomer gets its own', () => {
    const { server, emitted } = fakeServer({
      [roomOf('ABCDEF', 0, true)]: ['new'],
      [roomOf('ABCDEF', null, true)]: ['new2', 'old'],
    })
    const { table, built } = countingTable()
    const rooms = roomsFor(() => server)
    rooms.publish(table, { member: 'new', seat: 0 })
    expect(built.deltas).toEqual([null])
    expect(emitted).toEqual([
      { to: roomOf('ABCDEF', null, true), except: null, event: 'table:delta' },
      { to: 'new', except: null, event: 'table:update' },
    ])
    // A room with others in it still gets the version, but for the newcomer.
    emitted.length = 0
    rooms.publish(table, { member: 'new2', seat: null })
    expect(emitted).toEqual([
      { to: roomOf('ABCDEF', 0, true), except: null, event: 'table:delta' },
      { to: roomOf('ABCDEF', null, true), except: 'new2', event: 'table:delta' },
      { to: 'new2', except: null, event: 'table:update' },
    ])
  })

  it('a table with nobody on this node builds nothing', () => {
    const { server, emitted } = fakeServer({})
    const { table, built } = countingTable()
    roomsFor(() => server).publish(table)
    expect(built).toEqual({ updates: [], deltas: [] })
    expect(emitted).toEqual([])
  })
})
