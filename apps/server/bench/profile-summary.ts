// Summarises a V8 .cpuprofile (node --cpu-prof) by self time: the top functions, the time by
// package or source file, and the inclusive time of kortbord's own functions.
//
//   tsx bench/profile-summary.ts <file.cpuprofile> [--top 25] [--from µs --to µs]
//
// --from/--to keep only the samples between two monotonic timestamps in microseconds (the
// profile's clock is CLOCK_MONOTONIC, the same as process.hrtime's), so that load.ts can
// summarise just its measurement window.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

interface CallFrame {
  readonly functionName: string
  readonly url: string
  readonly lineNumber: number
  readonly columnNumber: number
}
interface ProfileNode {
  readonly id: number
  readonly callFrame: CallFrame
  readonly children?: readonly number[]
}
interface CpuProfile {
  readonly nodes: readonly ProfileNode[]
  readonly startTime: number
  readonly endTime: number
  readonly samples: readonly number[]
  readonly timeDeltas: readonly number[]
}

export interface Row {
  readonly name: string
  readonly where: string
  readonly ms: number
  readonly pct: number
}

export interface ProfileSummary {
  readonly file: string
  /** Time covered by the samples kept, ms. */
  readonly sampledMs: number
  /** Of it, time the thread was idle (waiting for I/O), ms. */
  readonly idleMs: number
  /** The busy time (everything but idle), ms: the percentages below are of this. */
  readonly busyMs: number
  readonly self: readonly Row[]
  readonly byPackage: readonly Row[]
  /** Inclusive time of functions in apps/server/src, packages/engine and packages/protocol. */
  readonly ownInclusive: readonly Row[]
}

/** Where a script comes from: a package, a file of this repository, node itself. */
export function origin(url: string): string {
  if (url === '') return '(native/V8)'
  if (url.startsWith('node:')) return 'node: internals'
  const pnpm = /\/node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)
  if (pnpm) return pnpm[1]!
  const nm = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)
  if (nm) return nm[1]!
  const own = /\/(apps\/server\/(?:src|bench|scripts)|packages\/[^/]+\/src)\/(.+)$/.exec(url)
  if (own) return `${own[1]}/${own[2]}`
  return url.replace(/^file:\/\//, '')
}

// tsx compiles each .ts file with esbuild into one long line (minifyWhitespace), so a profile's
// positions in our own files are columns of line 1. The same transform, with its source map,
// turns them back into source lines.
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** Per generated line: [generated column, source line] pairs in column order. */
function decodeMappings(mappings: string): [number, number][][] {
  const lines: [number, number][][] = []
  let srcLine = 0
  for (const line of mappings.split(';')) {
    const segs: [number, number][] = []
    let col = 0
    for (const seg of line.split(',')) {
      if (seg === '') continue
      const vals: number[] = []
      let value = 0
      let shift = 0
      for (const ch of seg) {
        const d = B64.indexOf(ch)
        value += (d & 31) << shift
        if (d & 32) shift += 5
        else {
          vals.push(value & 1 ? -(value >>> 1) : value >>> 1)
          value = 0
          shift = 0
        }
      }
      col += vals[0] ?? 0
      if (vals.length >= 4) {
        srcLine += vals[2]!
        segs.push([col, srcLine])
      }
    }
    lines.push(segs)
  }
  return lines
}

type SourceIndex = { map: [number, number][][]; source: string[] } | null
const sourceIndex = new Map<string, SourceIndex>()
let esbuild:
  | { transformSync(code: string, o: object): { code: string; map: string } }
  | null
  | undefined

function indexOf(path: string): SourceIndex {
  if (sourceIndex.has(path)) return sourceIndex.get(path)!
  let idx: SourceIndex = null
  try {
    if (esbuild === undefined) {
      // esbuild as tsx uses it (tsx depends on it; the server does not).
      const req = createRequire(createRequire(import.meta.url).resolve('tsx/package.json'))
      esbuild = req('esbuild') as typeof esbuild
    }
    const text = readFileSync(path, 'utf8')
    // tsx's options (dist: minifyWhitespace, keepNames, sourcemap, target node<version>).
    const r = esbuild!.transformSync(text, {
      target: `node${process.versions.node}`,
      loader: 'ts',
      format: 'esm',
      sourcemap: true,
      minifyWhitespace: true,
      keepNames: true,
      sourcefile: path,
    })
    idx = {
      map: decodeMappings((JSON.parse(r.map) as { mappings: string }).mappings),
      source: text.split('\n'),
    }
  } catch {
    esbuild ??= null
    idx = null
  }
  sourceIndex.set(path, idx)
  return idx
}

/** The source line (1-based) and its text for a position in a tsx-compiled file of ours. */
function sourceLine(f: CallFrame): { line: number; text: string } | null {
  if (!f.url.startsWith('file://') || !f.url.endsWith('.ts') || f.url.includes('/node_modules/'))
    return null
  const idx = indexOf(fileURLToPath(f.url))
  const segs = idx?.map[f.lineNumber]
  if (!idx || !segs || segs.length === 0) return null
  let best: [number, number] | undefined
  for (const s of segs) {
    if (s[0] > f.columnNumber) break
    best = s
  }
  if (!best) return null
  return { line: best[1] + 1, text: (idx.source[best[1]] ?? '').trim().slice(0, 60) }
}

const shortWhere = (f: CallFrame): string => {
  const o = origin(f.url)
  if (f.url === '') return o
  const src = sourceLine(f)
  if (src) return f.functionName ? `${o}:${src.line}` : `${o}:${src.line} \`${src.text}\``
  return `${o}:${f.lineNumber + 1}`
}

export function summariseProfile(
  file: string,
  opts: { top?: number; from?: number; to?: number } = {},
): ProfileSummary {
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile
  const top = opts.top ?? 25
  const byId = new Map<number, ProfileNode>()
  const parent = new Map<number, number>()
  for (const n of p.nodes) {
    byId.set(n.id, n)
    for (const c of n.children ?? []) parent.set(c, n.id)
  }
  // Each sample lasts until the next one.
  const n = p.samples.length
  const selfUs = new Map<number, number>()
  let t = p.startTime
  let sampled = 0
  for (let i = 0; i < n; i++) {
    t += p.timeDeltas[i] ?? 0
    const dur = i + 1 < n ? (p.timeDeltas[i + 1] ?? 0) : 0
    if (opts.from !== undefined && t < opts.from) continue
    if (opts.to !== undefined && t > opts.to) continue
    const id = p.samples[i]!
    selfUs.set(id, (selfUs.get(id) ?? 0) + dur)
    sampled += dur
  }
  const key = (f: CallFrame) => `${f.functionName || '(anonymous)'}\u0000${shortWhere(f)}`
  const self = new Map<string, number>()
  const pkg = new Map<string, number>()
  const incl = new Map<string, number>()
  let idle = 0
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!
    const f = node.callFrame
    if (f.functionName === '(idle)') {
      idle += us
      continue
    }
    const k = key(f)
    self.set(k, (self.get(k) ?? 0) + us)
    const special = f.url === '' && /^\(.*\)$/.test(f.functionName)
    const o = special ? f.functionName : origin(f.url)
    pkg.set(o, (pkg.get(o) ?? 0) + us)
    // Inclusive time of our own functions: each once per stack.
    const onStack = new Set<string>()
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const cf = byId.get(cur)!.callFrame
      if (!/\/(apps\/server\/src|packages\/(engine|protocol)\/src)\//.test(cf.url)) continue
      const ck = key(cf)
      if (onStack.has(ck)) continue
      onStack.add(ck)
      incl.set(ck, (incl.get(ck) ?? 0) + us)
    }
  }
  const busy = sampled - idle
  const rows = (m: Map<string, number>, split: boolean): Row[] =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, us]) => {
        const [name, where] = split ? (k.split('\u0000') as [string, string]) : [k, '']
        return { name, where, ms: us / 1000, pct: busy > 0 ? (100 * us) / busy : 0 }
      })
  return {
    file,
    sampledMs: sampled / 1000,
    idleMs: idle / 1000,
    busyMs: busy / 1000,
    self: rows(self, true),
    byPackage: rows(pkg, false),
    ownInclusive: rows(incl, true),
  }
}

/** The call stacks (callers outwards, `depth` frames) that spent self time in `fn`, by time. */
export function callersOf(
  file: string,
  fn: string,
  opts: { depth?: number; top?: number; from?: number | undefined; to?: number | undefined } = {},
): Row[] {
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile
  const byId = new Map<number, ProfileNode>()
  const parent = new Map<number, number>()
  for (const n of p.nodes) {
    byId.set(n.id, n)
    for (const c of n.children ?? []) parent.set(c, n.id)
  }
  const stacks = new Map<string, number>()
  let busy = 0
  let t = p.startTime
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i] ?? 0
    const dur = i + 1 < p.samples.length ? (p.timeDeltas[i + 1] ?? 0) : 0
    if (opts.from !== undefined && t < opts.from) continue
    if (opts.to !== undefined && t > opts.to) continue
    const id = p.samples[i]!
    const name = byId.get(id)?.callFrame.functionName
    if (name !== '(idle)') busy += dur
    if (name !== fn) continue
    const names: string[] = []
    for (
      let cur = parent.get(id);
      cur !== undefined && names.length < (opts.depth ?? 6);
      cur = parent.get(cur)
    ) {
      const f = byId.get(cur)!.callFrame
      if (f.functionName === '(root)') break
      names.push(`${f.functionName || '(anonymous)'} (${shortWhere(f)})`)
    }
    const k = names.join(' ← ')
    stacks.set(k, (stacks.get(k) ?? 0) + dur)
  }
  return [...stacks.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, opts.top ?? 10)
    .map(([k, us]) => ({
      name: fn,
      where: k,
      ms: us / 1000,
      pct: busy > 0 ? (100 * us) / busy : 0,
    }))
}

export function formatSummary(s: ProfileSummary): string {
  const out: string[] = []
  const f = (x: number) => x.toFixed(1).padStart(7)
  out.push(
    `${s.file}: ${(s.sampledMs / 1000).toFixed(1)} s sampled, ${(s.busyMs / 1000).toFixed(1)} s busy (${((100 * s.busyMs) / Math.max(1, s.sampledMs)).toFixed(0)}%); percentages are of busy time`,
  )
  out.push('', 'Self time by function:', '     ms      %  function  (where)')
  for (const r of s.self) out.push(`${f(r.ms)} ${f(r.pct)}  ${r.name}  (${r.where})`)
  out.push('', 'Self time by package / file:', '     ms      %  origin')
  for (const r of s.byPackage) out.push(`${f(r.ms)} ${f(r.pct)}  ${r.name}`)
  out.push('', 'Inclusive time of kortbord functions:', '     ms      %  function  (where)')
  for (const r of s.ownInclusive) out.push(`${f(r.ms)} ${f(r.pct)}  ${r.name}  (${r.where})`)
  return out.join('\n')
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2)
  const file = args.find((a) => a.endsWith('.cpuprofile'))
  const opt = (name: string): number | undefined => {
    const i = args.indexOf(`--${name}`)
    return i >= 0 && args[i + 1] !== undefined ? Number(args[i + 1]) : undefined
  }
  const callers = args.indexOf('--callers')
  if (!file) {
    console.error(
      'usage: tsx bench/profile-summary.ts <file.cpuprofile> [--top N] [--from µs --to µs] [--callers fn --depth N]',
    )
    process.exit(2)
  }
  const window = { from: opt('from'), to: opt('to') }
  if (callers >= 0 && args[callers + 1]) {
    const rows = callersOf(file, args[callers + 1]!, {
      depth: opt('depth') ?? 6,
      top: opt('top') ?? 10,
      ...window,
    })
    for (const r of rows)
      console.log(`${r.ms.toFixed(1).padStart(8)} ms ${r.pct.toFixed(1).padStart(5)}%  ${r.where}`)
  } else console.log(formatSummary(summariseProfile(file, { top: opt('top') ?? 25, ...window })))
}
