/**
 * Delta updates (issue 17): a client holding a table at version v is sent what changed at v + 1
 * as a patch, not the whole table again. The format is kortbord's own, compact, and documented
 * in docs/protocol.md ("Delta updates"):
 *
 * - `['s', path, value]`: set the value at `path` (an object key or an array index; a new key is
 *   added);
 * - `['d', path]`: delete the object key at `path`;
 * - `['a', path, items]`: append `items` to the array at `path`;
 * - `['t', path, length]`: cut the array at `path` to `length` items;
 * - `['e', path, items]`: set the value at `path` to the array `items`, in which a row
 *   `[tag, v1, v2, …]` stands for the event `{ t: tag, k1: v1, k2: v2, … }` with the keys
 *   {@link ROW_KEYS}`[tag]` (an Idiot move's `recent` events, written without their keys); any
 *   other item is itself. {@link diff} makes it only when asked (`rows`: the delta updates).
 *
 * A path is a list of object keys and array indices from the root; the empty path is the root
 * itself. Patches are applied in order and never change the value they are applied to: the parts
 * they touch are copied. A checksum of the result ({@link checksum}) lets a client notice that it
 * went astray, and ask for the whole table again. No zod here: the web client uses it.
 */

export type PatchPath = readonly (string | number)[]
export type PatchOp =
  | readonly ['s', PatchPath, unknown]
  | readonly ['d', PatchPath]
  | readonly ['a', PatchPath, readonly unknown[]]
  | readonly ['t', PatchPath, number]
  | readonly ['e', PatchPath, readonly unknown[]]
export type Patch = readonly PatchOp[]

const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x)

/**
 * The keys, after `t`, of the events an `e` operation writes as rows: Idiot's events
 * (packages/engine/src/idiot.ts, IdiotEvent), in the order the engine makes them. An event with
 * other keys, or in another order, travels as it is: a row always means exactly these keys.
 */
export const ROW_KEYS: Readonly<Record<string, readonly string[]>> = {
  swap: ['seat', 'fromHand', 'fromRow'],
  ready: ['seat'],
  start: ['seat'],
  play: ['seat', 'cards', 'from'],
  uncover: ['seat', 'position', 'card'],
  burn: ['seat', 'reason', 'count'],
  draw: ['seat', 'count'],
  pickup: ['seat', 'cards'],
  out: ['seat', 'place'],
  over: ['loser'],
}

/** `e` as a row when it has exactly the keys of its tag's row, in order; else null. */
function toRow(e: unknown): unknown[] | null {
  if (!isObject(e) || typeof e.t !== 'string' || !Object.hasOwn(ROW_KEYS, e.t)) return null
  const keys = ROW_KEYS[e.t]!
  const own = Object.keys(e)
  if (own.length !== keys.length + 1 || own[0] !== 't') return null
  const row: unknown[] = [e.t]
  for (let i = 0; i < keys.length; i++) {
    const v = e[keys[i]!]
    if (own[i + 1] !== keys[i] || v === undefined) return null
    row.push(v)
  }
  return row
}

/** The items of an `e` operation for the array `b`, or null when none would be a row. */
function rowsOf(b: readonly unknown[]): unknown[] | null {
  let any = false
  const out = b.map((item) => {
    const row = toRow(item)
    if (row) any = true
    return row ?? item
  })
  return any && b.every(isObject) ? out : null
}

/** The array an `e` operation's items stand for. Throws on a row of no known tag or length. */
function fromRows(items: readonly unknown[]): unknown[] {
  return items.map((item) => {
    if (!Array.isArray(item)) return item
    const tag = item[0]
    const keys = typeof tag === 'string' && Object.hasOwn(ROW_KEYS, tag) ? ROW_KEYS[tag]! : null
    if (!keys || item.length !== keys.length + 1) throw new Error('a row of no known shape')
    const e: Record<string, unknown> = { t: tag }
    keys.forEach((k, i) => {
      e[k] = item[i + 1]
    })
    return e
  })
}

/** Whether two JSON values are equal (same keys, same order of array items). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false
    return true
  }
  if (isObject(a)) {
    if (!isObject(b)) return false
    const ka = Object.keys(a)
    if (ka.length !== Object.keys(b).length) return false
    for (const k of ka) if (!(k in b) || !jsonEqual(a[k], b[k])) return false
    return true
  }
  return false
}

/**
 * The patch that turns `a` into `b` (both JSON values). With `rows`, an array of events set
 * whole is written with an `e` operation (the delta updates; the record's frames keep to `s`).
 *
 * A part that is the same object on both sides is skipped at once; an object's values are
 * walked without first being compared whole. (An array's items are compared to choose between
 * patching them and setting the array whole; only those that differ are then walked.)
 */
export function diff(a: unknown, b: unknown, opts: { rows?: boolean } = {}): PatchOp[] {
  const ops: PatchOp[] = []
  walk(a, b, [], ops, opts.rows === true)
  return ops
}

/** Adds to `ops` what turns `a` into `b` at `path` (nothing when they are equal). */
function walk(
  a: unknown,
  b: unknown,
  path: (string | number)[],
  ops: PatchOp[],
  rows: boolean,
): void {
  if (a === b) return
  if (Array.isArray(a)) {
    if (Array.isArray(b)) walkArray(a, b, path, ops, rows)
    else ops.push(['s', path.slice(), b])
    return
  }
  if (isObject(a) && isObject(b)) {
    for (const k in a) if (!Object.hasOwn(b, k)) ops.push(['d', [...path, k]])
    for (const k in b) {
      if (!Object.hasOwn(a, k)) {
        ops.push(['s', [...path, k], b[k]])
        continue
      }
      const x = a[k]
      const y = b[k]
      if (x === y) continue
      path.push(k)
      walk(x, y, path, ops, rows)
      path.pop()
    }
    return
  }
  // Two values of which at most one is an object (or array): equal only if both are plain.
  if (typeof a === 'object' || typeof b === 'object' || a !== b) ops.push(['s', path.slice(), b])
}

function walkArray(
  a: readonly unknown[],
  b: readonly unknown[],
  path: (string | number)[],
  ops: PatchOp[],
  rows: boolean,
): void {
  // A list of events (a move's `recent`: a few short rows) is set whole whenever it changed.
  const r = rows ? rowsOf(b) : null
  if (r) {
    if (!jsonEqual(a, b)) ops.push(['e', path.slice(), r])
    return
  }
  const n = Math.min(a.length, b.length)
  // Items in common one by one when few differ; else the array whole.
  const differing: number[] = []
  for (let i = 0; i < n; i++) if (!jsonEqual(a[i], b[i])) differing.push(i)
  if (differing.length > 0 && differing.length * 2 > n) {
    ops.push(['s', path.slice(), b])
    return
  }
  const first = ops.length
  for (const i of differing) {
    path.push(i)
    walk(a[i], b[i], path, ops, rows)
    path.pop()
  }
  if (b.length > a.length) ops.push(['a', path.slice(), b.slice(a.length)])
  else if (b.length < a.length) ops.push(['t', path.slice(), b.length])
  // Several operations on an array of plain values may take more bytes than the array itself
  // (a turn timer moving from one seat to the next: two items of four): then the array whole.
  // (Arrays of objects are left as they are: measuring them costs more than it saves.)
  if (ops.length - first > 1 && b.every(isPlain)) {
    const whole: PatchOp = ['s', path.slice(), b]
    if (jsonLength(whole) <= jsonLength(ops.slice(first)) - 2) {
      ops.length = first
      ops.push(whole)
    }
  }
}

const jsonLength = (x: unknown): number => JSON.stringify(x).length
const isPlain = (x: unknown): boolean => x === null || typeof x !== 'object'

/** The value `patch` turns `doc` into; `doc` is left as it is. Throws on a path that is not there. */
export function applyPatch<T>(doc: T, patch: Patch): T {
  let root: unknown = doc
  for (const op of patch) root = applyOp(root, op, 0)
  return root as T
}

function applyOp(node: unknown, op: PatchOp, depth: number): unknown {
  const path = op[1]
  if (depth === path.length) {
    switch (op[0]) {
      case 's':
        return op[2]
      case 'e':
        return fromRows(op[2])
      case 'a':
        if (!Array.isArray(node)) throw new Error('append to a non-array')
        return node.concat(op[2])
      case 't':
        if (!Array.isArray(node)) throw new Error('cut of a non-array')
        return node.slice(0, op[2])
      default:
        throw new Error('delete at the root')
    }
  }
  const key = path[depth]!
  if (Array.isArray(node)) {
    if (typeof key !== 'number' || key < 0 || key >= node.length) throw new Error('bad index')
    const copy = node.slice()
    copy[key] = applyOp(node[key], op, depth + 1)
    return copy
  }
  if (!isObject(node)) throw new Error('path through a value')
  const copy: Record<string, unknown> = { ...node }
  if (op[0] === 'd' && depth === path.length - 1) {
    delete copy[key]
    return copy
  }
  const sets = op[0] === 's' || op[0] === 'e'
  if (!(key in node) && !(sets && depth === path.length - 1))
    throw new Error(`no ${String(key)} here`)
  copy[key] = applyOp(node[key], op, depth + 1)
  return copy
}

// ---------------------------------------------------------------------------------------------
// A checksum of a JSON value: FNV-1a over its structure, independent of the order of object
// keys (a patch may add a key after the others), cheap enough to compute per version and seat.

const FNV_OFFSET = 0x811c9dc5
const FNV_PRIME = 0x01000193

function fnvString(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, FNV_PRIME)
  }
  return h >>> 0
}

function fnvNumber(h: number, n: number): number {
  // Integers (cards, counts, times) exactly; anything else by its text.
  if (Number.isSafeInteger(n)) {
    h = Math.imul(h ^ (n & 0xffff), FNV_PRIME)
    h = Math.imul(h ^ ((n / 0x10000) & 0xffff), FNV_PRIME)
    h = Math.imul(h ^ ((n / 0x100000000) | 0), FNV_PRIME)
    return h >>> 0
  }
  return fnvString(h, String(n))
}

function hashValue(h: number, v: unknown): number {
  if (v === null || v === undefined) return Math.imul(h ^ 0x6e, FNV_PRIME) >>> 0
  switch (typeof v) {
    case 'boolean':
      return Math.imul(h ^ (v ? 0x74 : 0x66), FNV_PRIME) >>> 0
    case 'number':
      return fnvNumber(Math.imul(h ^ 0x23, FNV_PRIME), v)
    case 'string':
      return fnvString(Math.imul(h ^ 0x22, FNV_PRIME), v)
  }
  if (Array.isArray(v)) {
    let x = Math.imul(h ^ 0x5b, FNV_PRIME) >>> 0
    for (const item of v) x = hashValue(x, item)
    return Math.imul(x ^ 0x5d, FNV_PRIME) >>> 0
  }
  // An object: the sum of its entries' hashes, so that key order does not matter.
  let sum = 0
  for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
    if (item === undefined) continue
    sum = (sum + hashValue(fnvString(FNV_OFFSET, k), item)) >>> 0
  }
  return fnvNumber(Math.imul(h ^ 0x7b, FNV_PRIME), sum)
}

/** A 32-bit checksum of a JSON value (for a client to check that its patched copy is right). */
export function checksum(v: unknown): number {
  return hashValue(FNV_OFFSET, v)
}
