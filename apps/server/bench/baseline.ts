// The load benchmark's baseline: a minimal socket.io server with the same shape of traffic as
// kortbord and none of its work. A table is a set of rooms (one per seat, one for spectators,
// named as kortbord names them); a command is acknowledged at once and an update of a given size
// goes to each of the table's rooms. No validation, no engine, no views, no store.
//
//   PORT=3001 node --import tsx bench/baseline.ts
//
// It serves /readyz and /metrics (prom-client's default metrics, prefix `baseline_`, so that the
// event-loop delay is read exactly as kortbord's is).
import { createServer } from 'node:http'
import { collectDefaultMetrics, Registry } from 'prom-client'
import { Server } from 'socket.io'
import { padTo } from './common.ts'

interface BaseTable {
  readonly code: string
  readonly seats: number
  version: number
  /** The padding that brings an update of this table to the asked size. */
  readonly pad: string
}

type Ack = (res: object) => void

const port = Number(process.env.PORT ?? 3001)
const registry = new Registry()
collectDefaultMetrics({ register: registry, prefix: 'baseline_' })

const http = createServer((req, res) => {
  if (req.url === '/readyz' || req.url === '/healthz') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
    return
  }
  if (req.url === '/metrics') {
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    )
    return
  }
  if (!req.url?.startsWith('/socket.io')) res.writeHead(404).end()
})

// The same engine settings as kortbord's (app.ts).
const io = new Server(http, {
  transports: ['websocket', 'polling'],
  pingInterval: 10_000,
  pingTimeout: 10_000,
  serveClient: false,
  maxHttpBufferSize: 16_384,
})

const tables = new Map<string, BaseTable>()
let next = 0
const room = (code: string, seat: number | null) => `t:${code}:${seat === null ? 'w' : seat}`

function publish(t: BaseTable): void {
  for (let seat = 0; seat < t.seats; seat++) {
    io.to(room(t.code, seat)).emit('table:update', {
      table: { code: t.code, version: t.version },
      seat,
      pad: t.pad,
    })
  }
  io.to(room(t.code, null)).emit('table:update', {
    table: { code: t.code, version: t.version },
    seat: null,
    pad: t.pad,
  })
}

io.on('connection', (socket) => {
  socket.on('b:create', (msg: { seats: number; bytes: number }, ack: Ack) => {
    const code = (100_000 + next++).toString(36).toUpperCase()
    const t: BaseTable = {
      code,
      seats: msg.seats,
      version: 1,
      pad: padTo({ table: { code, version: 1000 }, seat: 0 }, msg.bytes),
    }
    tables.set(code, t)
    void socket.join(room(code, 0))
    publish(t)
    ack({ ok: true, version: t.version, table: code, seat: 0 })
  })
  socket.on('b:join', (msg: { table: string; seat: number | null }, ack: Ack) => {
    const t = tables.get(msg.table)
    if (!t) return ack({ ok: false, error: { code: 'NO_SUCH_TABLE', message: msg.table } })
    void socket.join(room(t.code, msg.seat))
    t.version++
    publish(t)
    ack({ ok: true, version: t.version, table: t.code, seat: msg.seat })
  })
  socket.on('b:cmd', (msg: { table: string; version: number }, ack: Ack) => {
    const t = tables.get(msg.table)
    if (!t) return ack({ ok: false, error: { code: 'NO_SUCH_TABLE', message: msg.table } })
    t.version++
    publish(t)
    ack({ ok: true, version: t.version })
  })
})

http.listen(port, '127.0.0.1', () => {
  console.log(JSON.stringify({ level: 30, msg: 'baseline listening', port }))
})

let stopping = false
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return
    stopping = true
    setTimeout(() => process.exit(1), 10_000).unref()
    io.local.disconnectSockets(true)
    io.close(() => process.exit(0))
  })
}
