// The load benchmark's load generator: a separate process (forked by load.ts, IPC) that opens
// real socket.io-client connections, seats bots at tables and has them play legal moves at a
// steady rate, measuring every command: send → acknowledgement, and send → the moment the last
// member of the table (players and spectators) has received an update of at least the acked
// version. Every socket's received versions are checked: gaps (lost), repeats (duplicated) and
// steps back (out of order).
//
// mode 'kortbord': Idiot tables of 4 and Idioten för två tables of 2 over the real protocol;
// a move is chosen from the mover's own latest view (idiotLegalMovesFromView,
// duelLegalMovesFromView) and sent with the version it saw. When a game ends the host starts
// the next (a seeded test deal). mode 'baseline': the same sockets, rooms and rate against
// baseline.ts.
import { monitorEventLoopDelay } from 'node:perf_hooks'
import {
  type DuelMove,
  type DuelView,
  duelLegalMovesFromView,
  type IdiotMove,
  type IdiotView,
  idiotLegalMovesFromView,
  Rng,
  rankOf,
} from '@kortbord/engine'
import { applyDelta, PROTOCOL_VERSION, type TableDelta, type TableUpdate } from '@kortbord/protocol'
import { io, type Socket } from 'socket.io-client'
import {
  type FinalResult,
  type FromGen,
  type GenConfig,
  type PhaseResult,
  summarize,
  type ToGen,
} from './common.ts'

type Kind = 'idiot' | 'duel'
type AckRes =
  | { ok: true; version: number; table?: string; seat?: number }
  | { ok: false; error: { code: string; message: string } }

/** The part of an update the generator reads (kortbord's TableUpdate, or the baseline's). */
type Update = Pick<TableUpdate, 'table'> & Partial<Pick<TableUpdate, 'view' | 'seat'>>

interface Member {
  readonly sock: Socket
  readonly table: Tbl
  /** Index among the table's members (bit in a command's `seen`). */
  readonly idx: number
  /** The seat once known; null for a spectator. */
  seat: number | null
  /** The newest version received (-1: none yet), when it came, and the update (players only). */
  last: number
  lastAt: number
  latest: Update | null
}

/** A window of measurement: what happened to the commands sent while it was open. */
interface Window {
  readonly id: number
  readonly opened: number
  closed: number | null
  sent: number
  acked: number
  starts: number
  refused: Record<string, number>
  ackTimeouts: number
  readonly ack: number[]
  readonly lastView: number[]
  /** Commands of the window not finished yet (ack and every member's view). */
  pending: number
  deferred: number
  missed: number
  updates: number
  lost: number
  duplicated: number
  outOfOrder: number
  deltaMisses: number
  readonly sizeSum: Record<Kind, number>
  readonly sizeN: Record<Kind, number>
  /** Idiot updates: bytes of each part, summed over the sampled updates. */
  readonly parts: { table: number; view: number; log: number; logEntries: number }
  disconnects: number
}

interface Cmd {
  readonly table: Tbl
  readonly sentAt: number
  /** The acked version; null until the acknowledgement. */
  version: number | null
  readonly window: Window | null
  readonly seen: Uint8Array
  seenCount: number
  lastSeenAt: number
  acked: boolean
  done: boolean
}

interface Tbl {
  readonly i: number
  readonly kind: Kind
  readonly seats: number
  readonly members: Member[]
  readonly bySeat: Member[]
  readonly rng: Rng
  code: string
  /** The newest version acknowledged to any command of ours. */
  lastAcked: number
  /** The command waiting for its acknowledgement (one at a time per table). */
  outstanding: Cmd | null
  /** Acked commands still waiting for some member's view. */
  open: Cmd[]
  nextDue: number
  timer: NodeJS.Timeout | null
  /** A tick came while the table was busy: send as soon as it is ready. */
  wantSend: boolean
  broken: boolean
  gameNo: number
  /** Baseline: whose turn it is to send. */
  turn: number
}

const send = (m: FromGen) => process.send?.(m)
const log = (msg: string) => send({ t: 'log', msg })

let cfg: GenConfig
let perTable = 0
let stopped = false
const tables: Tbl[] = []
let window: Window | null = null
// Whole-run accounting.
const total = {
  lost: 0,
  duplicated: 0,
  outOfOrder: 0,
  deltaMisses: 0,
  refused: {} as Record<string, number>,
  ackTimeouts: 0,
  disconnects: 0,
  gamesStarted: 0,
  stuck: 0,
  disconnectReasons: {} as Record<string, number>,
}
let updateNo = 0
const loop = monitorEventLoopDelay({ resolution: 10 })
loop.enable()

function newWindow(id: number): Window {
  return {
    id,
    opened: performance.now(),
    closed: null,
    sent: 0,
    acked: 0,
    starts: 0,
    refused: {},
    ackTimeouts: 0,
    ack: [],
    lastView: [],
    pending: 0,
    deferred: 0,
    missed: 0,
    updates: 0,
    lost: 0,
    duplicated: 0,
    outOfOrder: 0,
    deltaMisses: 0,
    sizeSum: { idiot: 0, duel: 0 },
    sizeN: { idiot: 0, duel: 0 },
    parts: { table: 0, view: 0, log: 0, logEntries: 0 },
    disconnects: 0,
  }
}

// ---------------------------------------------------------------------------------------------
// Receiving

/**
 * A delta update (issue 17): applied to the update held (every member keeps its latest when it
 * takes deltas), then counted like a whole update, its size being the delta's own.
 */
function onDelta(m: Member, d: TableDelta): void {
  const r = applyDelta(m.latest as TableUpdate | null, d)
  if (!r.ok) {
    // Not the version held (counted as lost once the next update comes), or a patch that did
    // not fit: the whole table is asked for.
    total.deltaMisses++
    if (window) window.deltaMisses++
    m.sock.emit('table:sync', { table: d.code }, () => undefined)
    return
  }
  onUpdate(m, r.update, d)
}

function onUpdate(m: Member, u: Update, wire: object = u): void {
  const now = performance.now()
  const v = u.table.version
  const w = window
  const t = m.table
  if (w) w.updates++
  // Sizes, sampled (stringifying every update would load the generator).
  if ((++updateNo & 63) === 0 && w) {
    w.sizeSum[t.kind] += Buffer.byteLength(JSON.stringify(wire))
    w.sizeN[t.kind]++
    if (cfg.mode === 'kortbord' && t.kind === 'idiot') {
      // A whole update's table, view and log; a delta's table patch with its clocks and head
      // (dl, h), view patch (or whole view) and log (entries counted in the update rebuilt: a
      // delta may leave its log out).
      const d = wire === u ? null : (wire as TableDelta)
      const full = u as TableUpdate
      const bytes = (x: unknown) => (x === undefined ? 0 : Buffer.byteLength(JSON.stringify(x)))
      w.parts.table += d ? bytes(d.t) + bytes(d.dl) + bytes(d.h) : bytes(full.table)
      w.parts.view += bytes(d ? (d.p ?? d.view) : full.view)
      w.parts.log += bytes(d ? d.log : full.log)
      w.parts.logEntries += full.log?.length ?? 0
    }
  }
  if (m.last >= 0) {
    if (v === m.last) {
      total.duplicated++
      if (w) w.duplicated++
      return
    }
    if (v < m.last) {
      total.outOfOrder++
      if (w) w.outOfOrder++
      return
    }
    if (v > m.last + 1) {
      total.lost += v - m.last - 1
      if (w) w.lost += v - m.last - 1
    }
  }
  m.last = v
  m.lastAt = now
  // Players decide from their latest update; spectators only count versions (but with deltas
  // they need it to apply the next one).
  if (m.idx < t.seats || cfg.deltas) m.latest = u
  if (t.open.length > 0) {
    for (let i = t.open.length - 1; i >= 0; i--) {
      const c = t.open[i]!
      if (c.version !== null && v >= c.version && c.seen[m.idx] === 0) seen(c, m.idx, now)
    }
  }
  if (t.wantSend) trySend(t)
}

function seen(c: Cmd, idx: number, at: number): void {
  c.seen[idx] = 1
  c.seenCount++
  if (at > c.lastSeenAt) c.lastSeenAt = at
  if (c.seenCount === c.table.members.length) finish(c, true)
}

/** A command is finished: refused, timed out, or acked and seen by every member. */
function finish(c: Cmd, viewed: boolean): void {
  if (c.done) return
  c.done = true
  const i = c.table.open.indexOf(c)
  if (i >= 0) c.table.open.splice(i, 1)
  if (c.window) {
    if (viewed) c.window.lastView.push(c.lastSeenAt - c.sentAt)
    c.window.pending--
  }
}

// ---------------------------------------------------------------------------------------------
// Sending

function emitAck(
  m: Member,
  event: string,
  payload: unknown,
  cb: (err: Error | null, res: AckRes | null) => void,
): void {
  m.sock
    .timeout(cfg.ackTimeoutMs)
    .emit(event, payload, (err: Error | null, res: AckRes) => cb(err, err ? null : res))
}

function call(m: Member, event: string, payload: unknown): Promise<AckRes & { ok: true }> {
  return new Promise((resolve, reject) => {
    emitAck(m, event, payload, (err, res) => {
      if (err || !res) reject(err ?? new Error(`${event}: no answer`))
      else if (!res.ok) reject(new Error(`${event}: ${res.error.code} ${res.error.message}`))
      else resolve(res)
    })
  })
}

/** Whether every player has seen the newest acked version (their moves are then current). */
function ready(t: Tbl): boolean {
  for (const m of t.bySeat) if (m.last < t.lastAcked) return false
  return true
}

function pickPlay(plays: readonly IdiotMove[], rng: Rng): IdiotMove {
  if (rng.float() < 0.25) return plays[rng.int(plays.length)]!
  const rank = (m: IdiotMove) => (m.type === 'play' ? rankOf(m.cards[0]!) : 99)
  let low = 99
  for (const m of plays) low = Math.min(low, rank(m))
  const lowest = plays.filter((m) => rank(m) === low)
  return lowest[rng.int(lowest.length)]!
}

/** The next command of a table: who sends what. Null when nobody can act. */
function decide(t: Tbl): { m: Member; event: string; payload: unknown; start: boolean } | null {
  if (cfg.mode === 'baseline') {
    const m = t.bySeat[t.turn++ % t.seats]!
    return {
      m,
      event: 'b:cmd',
      payload: { table: t.code, version: m.last, move: { type: 'play', cards: [t.turn % 52] } },
      start: false,
    }
  }
  const host = t.bySeat[0]!
  const hu = host.latest
  if (!hu) return null
  if (hu.table.status !== 'playing') {
    t.gameNo++
    return {
      m: host,
      event: 'table:start',
      payload: {
        table: t.code,
        version: host.last,
        deal: { seed: `${cfg.seed}-${t.i}-${t.gameNo}` },
      },
      start: true,
    }
  }
  if (t.kind === 'idiot') {
    const hv = hu.view as IdiotView
    let seat: number
    if (hv.phase === 'swap') {
      const waiting = hv.players.flatMap((p, i) => (p.ready ? [] : [i]))
      if (waiting.length === 0) return null
      seat = waiting[t.rng.int(waiting.length)]!
    } else if (hv.phase === 'play' && hv.turn !== null) seat = hv.turn
    else return null
    const m = t.bySeat[seat]!
    const view = m.latest?.view as IdiotView | undefined
    if (!view) return null
    const moves = idiotLegalMovesFromView(view)
    if (moves.length === 0) return null
    const readyMove = moves.find((x) => x.type === 'ready')
    const plays = moves.filter((x) => x.type === 'play')
    const move =
      readyMove && t.rng.float() < 0.4
        ? readyMove
        : view.phase === 'play' && plays.length > 0
          ? pickPlay(plays, t.rng)
          : moves[t.rng.int(moves.length)]!
    return {
      m,
      event: 'game:move',
      payload: { table: t.code, version: m.last, move },
      start: false,
    }
  }
  // Idioten för två: a seat with a legal move in its own view (both may act, A-10).
  const options: { m: Member; moves: DuelMove[] }[] = []
  for (const m of t.bySeat) {
    const view = m.latest?.view as DuelView | undefined
    if (!view) continue
    const moves = duelLegalMovesFromView(view)
    if (moves.length > 0) options.push({ m, moves })
  }
  if (options.length === 0) return null
  const { m, moves } = options[t.rng.int(options.length)]!
  const progress = moves.filter((x) => x.type === 'discard' || x.type === 'move')
  const move =
    progress.length > 0 && t.rng.float() < 0.8
      ? progress[t.rng.int(progress.length)]!
      : (moves.find((x) => x.type === 'deal' || x.type === 'finish') ?? moves[0]!)
  return { m, event: 'game:move', payload: { table: t.code, version: m.last, move }, start: false }
}

function trySend(t: Tbl): void {
  if (stopped || t.broken || t.outstanding || !ready(t)) return
  const d = decide(t)
  t.wantSend = false
  if (!d) {
    total.stuck++
    return
  }
  const w = window
  const c: Cmd = {
    table: t,
    sentAt: performance.now(),
    version: null,
    window: w,
    seen: new Uint8Array(t.members.length),
    seenCount: 0,
    lastSeenAt: 0,
    acked: false,
    done: false,
  }
  if (w) {
    w.sent++
    w.pending++
    if (d.start) w.starts++
  }
  if (d.start) total.gamesStarted++
  t.outstanding = c
  t.open.push(c)
  emitAck(d.m, d.event, d.payload, (err, res) => onAck(c, err, res))
}

function onAck(c: Cmd, err: Error | null, res: AckRes | null): void {
  const now = performance.now()
  const t = c.table
  if (t.outstanding === c) t.outstanding = null
  const w = c.window
  if (err || !res) {
    total.ackTimeouts++
    if (w) w.ackTimeouts++
    finish(c, false)
  } else if (!res.ok) {
    total.refused[res.error.code] = (total.refused[res.error.code] ?? 0) + 1
    if (w) w.refused[res.error.code] = (w.refused[res.error.code] ?? 0) + 1
    finish(c, false)
  } else {
    c.acked = true
    c.version = res.version
    if (res.version > t.lastAcked) t.lastAcked = res.version
    if (w) {
      w.acked++
      w.ack.push(now - c.sentAt)
    }
    // Members that already have it (the update is published before the acknowledgement).
    for (const m of t.members)
      if (m.last >= res.version && c.seen[m.idx] === 0) seen(c, m.idx, m.lastAt)
  }
  if (t.wantSend) trySend(t)
}

/** A table's tick: one command per period; a busy table sends as soon as it is ready. */
function tick(t: Tbl): void {
  t.timer = null
  if (stopped || perTable <= 0 || t.broken) return
  const now = performance.now()
  if (t.wantSend) {
    if (window) window.missed++
  } else if (t.outstanding || !ready(t)) {
    t.wantSend = true
    if (window) window.deferred++
  } else trySend(t)
  const period = 1000 / perTable
  t.nextDue += period
  // Fallen far behind (a stall): carry on from now rather than burst to catch up.
  if (t.nextDue < now - period) t.nextDue = now + period
  t.timer = setTimeout(() => tick(t), Math.max(0, t.nextDue - now))
}

function setRate(r: number): void {
  perTable = r
  const now = performance.now()
  for (const t of tables) {
    if (t.timer) clearTimeout(t.timer)
    t.timer = null
    if (r <= 0 || t.broken) continue
    // Phases spread evenly so that the load is steady, not a pulse per period.
    const period = 1000 / r
    t.nextDue = now + t.rng.float() * period
    t.timer = setTimeout(() => tick(t), t.nextDue - now)
  }
}

// ---------------------------------------------------------------------------------------------
// Setting up

function connectOne(t: Tbl, idx: number): Promise<Member> {
  return new Promise((resolve, reject) => {
    // Several nodes (issue 17): every member of a table connects to the node its table is made
    // on, which serves it: clients routed to owners.
    const url = cfg.urls && cfg.urls.length > 0 ? cfg.urls[t.i % cfg.urls.length]! : cfg.url
    const sock = io(url, {
      transports: ['websocket'],
      auth: { protocol: PROTOCOL_VERSION, ...(cfg.deltas ? { deltas: 1 } : {}) },
      reconnection: false,
      forceNew: true,
      timeout: 30_000,
    })
    const m: Member = { sock, table: t, idx, seat: null, last: -1, lastAt: 0, latest: null }
    sock.on('table:update', (u: Update) => onUpdate(m, u))
    sock.on('table:delta', (d: TableDelta) => onDelta(m, d))
    sock.once('connect', () => {
      sock.on('disconnect', (reason) => {
        if (stopped) return
        total.disconnects++
        total.disconnectReasons[reason] = (total.disconnectReasons[reason] ?? 0) + 1
        if (window) window.disconnects++
      })
      resolve(m)
    })
    sock.once('connect_error', (e) => reject(e))
  })
}

async function batches<T>(
  items: readonly T[],
  size: number,
  fn: (x: T) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < items.length; i += size) {
    await Promise.all(items.slice(i, i + size).map(fn))
  }
}

async function waitUntil(pred: () => boolean, ms: number, what: string): Promise<void> {
  const until = performance.now() + ms
  while (!pred()) {
    if (performance.now() > until) throw new Error(`timed out: ${what}`)
    await new Promise((r) => setTimeout(r, 5))
  }
}

async function setupTable(t: Tbl): Promise<void> {
  const [host, ...rest] = t.members as [Member, ...Member[]]
  const players = rest.slice(0, t.seats - 1)
  const watchers = rest.slice(t.seats - 1)
  if (cfg.mode === 'baseline') {
    const bytes = cfg.updateBytes?.[t.kind] ?? 1000
    const created = await call(host, 'b:create', { seats: t.seats, bytes })
    t.code = created.table!
    host.seat = 0
    let v = created.version
    const acks = await Promise.all(
      players.map((m, i) =>
        call(m, 'b:join', { table: t.code, seat: i + 1 }).then((a) => {
          m.seat = i + 1
          return a
        }),
      ),
    )
    for (const a of acks) v = Math.max(v, a.version)
    for (const a of await Promise.all(
      watchers.map((m) => call(m, 'b:join', { table: t.code, seat: null })),
    ))
      v = Math.max(v, a.version)
    t.lastAcked = v
  } else {
    const created = await call(host, 'table:create', {
      game: t.kind,
      name: `Bot ${t.i}`,
      spectators: true,
      ...(t.kind === 'idiot' ? { options: { seats: 4 } } : {}),
    })
    t.code = created.table!
    host.seat = 0
    let v = created.version
    const acks = await Promise.all(
      players.map((m, i) =>
        call(m, 'table:join', { table: t.code, name: `Bot ${t.i}.${i + 1}` }).then((a) => {
          m.seat = a.seat!
          return a
        }),
      ),
    )
    for (const a of acks) v = Math.max(v, a.version)
    for (const a of await Promise.all(
      watchers.map((m) => call(m, 'table:watch', { table: t.code })),
    ))
      v = Math.max(v, a.version)
    t.lastAcked = v
  }
  t.bySeat.length = 0
  for (const m of [host, ...players]) t.bySeat[m.seat!] = m
  // Everyone has everything before the first command.
  await waitUntil(
    () => t.members.every((m) => m.last >= t.lastAcked),
    30_000,
    `table ${t.code} settles`,
  )
  if (cfg.mode === 'kortbord') {
    t.gameNo = 1
    const started = await call(host, 'table:start', {
      table: t.code,
      version: host.last,
      deal: { seed: `${cfg.seed}-${t.i}-1` },
    })
    total.gamesStarted++
    t.lastAcked = started.version
    await waitUntil(
      () => t.members.every((m) => m.last >= t.lastAcked),
      30_000,
      `table ${t.code} starts`,
    )
  }
}

async function init(c: GenConfig): Promise<void> {
  cfg = c
  setTimeout(() => {
    send({ t: 'fatal', msg: `hard deadline of ${cfg.hardDeadlineMs} ms reached` })
    process.exit(3)
  }, cfg.hardDeadlineMs).unref()
  const kinds: Kind[] = [
    ...Array.from({ length: c.tables }, () => 'idiot' as const),
    ...Array.from({ length: c.duelTables }, () => 'duel' as const),
  ]
  const base = Rng.seeded(c.seed)
  kinds.forEach((kind, i) => {
    tables.push({
      i,
      kind,
      seats: kind === 'idiot' ? 4 : 2,
      members: [],
      bySeat: [],
      rng: Rng.seeded(`${c.seed}-${i}-${base.int(1e9)}`),
      code: '',
      lastAcked: 0,
      outstanding: null,
      open: [],
      nextDue: 0,
      timer: null,
      wantSend: false,
      broken: false,
      gameNo: 0,
      turn: 0,
    })
  })
  const slots = tables.flatMap((t) =>
    Array.from({ length: t.seats + c.spectators }, (_, idx) => ({ t, idx })),
  )
  const t0 = performance.now()
  let connected = 0
  await batches(slots, c.connectBatch, async ({ t, idx }) => {
    const m = await connectOne(t, idx)
    t.members[idx] = m
    if (++connected % 2000 === 0) log(`${connected} sockets connected`)
  })
  const connectMs = performance.now() - t0
  const t1 = performance.now()
  let failed = 0
  await batches(tables, c.setupBatch, async (t) => {
    try {
      await setupTable(t)
    } catch (e) {
      failed++
      t.broken = true
      if (failed <= 5) log(`table ${t.i} not set up: ${(e as Error).message}`)
    }
  })
  send({
    t: 'ready',
    sockets: connected,
    tables: tables.length - failed,
    failedTables: failed,
    connectMs,
    setupMs: performance.now() - t1,
  })
}

// ---------------------------------------------------------------------------------------------
// Windows

function closeWindow(w: Window): Promise<PhaseResult> {
  w.closed = performance.now()
  const loopP99 = loop.percentile(99) / 1e6
  const loopMax = loop.max / 1e6
  return new Promise((resolve) => {
    const until = performance.now() + Math.max(5000, cfg.ackTimeoutMs + 1000)
    const check = () => {
      if (w.pending > 0 && performance.now() < until) {
        setTimeout(check, 20)
        return
      }
      const size = (k: Kind) => (w.sizeN[k] > 0 ? w.sizeSum[k] / w.sizeN[k] : 0)
      const n = w.sizeN.idiot + w.sizeN.duel
      resolve({
        seconds: (w.closed! - w.opened) / 1000,
        sent: w.sent,
        acked: w.acked,
        starts: w.starts,
        refused: w.refused,
        ackTimeouts: w.ackTimeouts,
        ack: summarize(w.ack),
        lastView: summarize(w.lastView),
        incompleteViews: w.pending,
        deferred: w.deferred,
        missed: w.missed,
        updates: w.updates,
        lost: w.lost,
        duplicated: w.duplicated,
        outOfOrder: w.outOfOrder,
        deltaMisses: w.deltaMisses,
        updateBytes: {
          idiot: size('idiot'),
          duel: size('duel'),
          all: n > 0 ? (w.sizeSum.idiot + w.sizeSum.duel) / n : 0,
        },
        idiotUpdateParts: {
          table: w.sizeN.idiot > 0 ? w.parts.table / w.sizeN.idiot : 0,
          view: w.sizeN.idiot > 0 ? w.parts.view / w.sizeN.idiot : 0,
          log: w.sizeN.idiot > 0 ? w.parts.log / w.sizeN.idiot : 0,
          logEntries: w.sizeN.idiot > 0 ? w.parts.logEntries / w.sizeN.idiot : 0,
        },
        genLoopP99: loopP99,
        genLoopMax: loopMax,
        disconnects: w.disconnects,
      })
    }
    check()
  })
}

async function stopAll(): Promise<FinalResult> {
  setRate(0)
  // Let what is in flight arrive.
  const until = performance.now() + Math.max(3000, cfg.ackTimeoutMs)
  await waitUntil(
    () => tables.every((t) => t.outstanding === null && t.open.length === 0),
    Math.max(0, until - performance.now()),
    'in-flight commands',
  ).catch(() => undefined)
  stopped = true
  let missing = 0
  let incomplete = 0
  for (const t of tables) {
    if (t.broken) continue
    incomplete += t.open.length
    for (const m of t.members) if (m.last < t.lastAcked) missing += t.lastAcked - m.last
  }
  return {
    lost: total.lost,
    duplicated: total.duplicated,
    outOfOrder: total.outOfOrder,
    deltaMisses: total.deltaMisses,
    missingAtEnd: missing,
    incompleteViews: incomplete,
    refused: total.refused,
    ackTimeouts: total.ackTimeouts,
    disconnects: total.disconnects,
    disconnectReasons: total.disconnectReasons,
    gamesStarted: total.gamesStarted,
    stuck: total.stuck,
  }
}

process.on('disconnect', () => process.exit(0))
process.on('message', (msg: ToGen) => {
  switch (msg.t) {
    case 'init':
      init(msg.cfg).catch((e: unknown) => {
        send({ t: 'fatal', msg: (e as Error)?.stack ?? String(e) })
        process.exit(2)
      })
      break
    case 'rate': {
      setRate(msg.perTable)
      const live = tables.filter((t) => !t.broken)
      const notReady = live.filter((t) => !ready(t)).length
      if (process.env.GEN_DEBUG)
        log(
          `rate ${msg.perTable}: ${live.length} tables, ${notReady} not ready, ${live.filter((t) => t.outstanding).length} busy`,
        )
      break
    }
    case 'measure':
      if (process.env.GEN_DEBUG) {
        const live = tables.filter((t) => !t.broken)
        const socketsDown = tables.reduce(
          (a, t) => a + t.members.filter((m) => !m.sock.connected).length,
          0,
        )
        log(
          `measure: ${live.filter((t) => !ready(t)).length} not ready, ${live.filter((t) => t.outstanding).length} busy, ${live.filter((t) => t.wantSend).length} waiting, ${socketsDown} sockets down, timers ${live.filter((t) => t.timer).length}; totals ${JSON.stringify(total)}`,
        )
      }
      loop.reset()
      window = newWindow(msg.id)
      break
    case 'endMeasure': {
      const w = window
      window = null
      if (!w) break
      closeWindow(w).then((result) => send({ t: 'phase', id: msg.id, result }))
      break
    }
    case 'stop':
      stopAll().then((result) => send({ t: 'final', result }))
      break
    case 'exit':
      stopped = true
      for (const t of tables) for (const m of t.members) m.sock.disconnect()
      setTimeout(() => process.exit(0), 200)
      break
  }
})
