// The longest stretches of a V8 .cpuprofile in which the main thread never went idle (the event
// loop blocked: what a player feels as a freeze), and what ran in each: the functions with the
// most inclusive time in the stretch (kortbord's own first) and the top self times.
//
//   tsx bench/profile-stalls.ts <file.cpuprofile> [--min 50 (ms)] [--top 5]
import { readFileSync } from 'node:fs'

interface Node {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
const args = process.argv.slice(2)
const file = args.find((a) => !a.startsWith('--'))
const opt = (k: string, d: number) => {
  const i = args.indexOf(`--${k}`)
  return i >= 0 ? Number(args[i + 1]) : d
}
if (!file) throw new Error('usage: profile-stalls.ts <file.cpuprofile> [--min ms] [--top n]')
const minMs = opt('min', 50)
const top = opt('top', 5)
const p = JSON.parse(readFileSync(file, 'utf8')) as {
  nodes: Node[]
  samples: number[]
  timeDeltas: number[]
}
const byId = new Map(p.nodes.map((n) => [n.id, n]))
const parent = new Map<number, number>()
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
const name = (n: Node) =>
  `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(apps|packages|node_modules)\//, '$1/')}:${n.callFrame.lineNumber + 1}`
const idle = (id: number) => {
  const f = byId.get(id)!.callFrame.functionName
  return f === '(idle)' || f === '(program)'
}
const stack = (id: number): Node[] => {
  const s: Node[] = []
  for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) s.push(byId.get(x)!)
  return s
}
// Stretches of consecutive busy samples.
const stretches: { from: number; to: number; samples: number[]; ms: number }[] = []
let t = 0
let cur: { from: number; to: number; samples: number[]; ms: number } | null = null
for (let i = 0; i < p.samples.length; i++) {
  const dt = p.timeDeltas[i] ?? 0
  t += dt
  const id = p.samples[i]!
  if (idle(id)) {
    if (cur) stretches.push(cur)
    cur = null
    continue
  }
  if (!cur) cur = { from: t, to: t, samples: [], ms: 0 }
  cur.samples.push(i)
  cur.to = t
  cur.ms += dt / 1000
}
if (cur) stretches.push(cur)
const long = stretches.filter((s) => s.ms >= minMs).sort((a, b) => b.ms - a.ms)
console.log(
  `${stretches.length} busy stretches; ${long.length} of ${minMs} ms or more (total ${long.reduce((a, s) => a + s.ms, 0).toFixed(0)} ms)`,
)
for (const s of long.slice(0, top)) {
  const incl = new Map<string, number>()
  const self = new Map<string, number>()
  for (const i of s.samples) {
    const dt = (p.timeDeltas[i + 1] ?? p.timeDeltas[i] ?? 0) / 1000
    const st = stack(p.samples[i]!)
    self.set(name(st[0]!), (self.get(name(st[0]!)) ?? 0) + dt)
    for (const n of new Set(st.map(name))) incl.set(n, (incl.get(n) ?? 0) + dt)
  }
  const ours = [...incl].filter(([n]) => /apps\/|packages\//.test(n) && !/node_modules/.test(n))
  console.log(`\n${s.ms.toFixed(0)} ms busy at ${(s.from / 1e6).toFixed(2)} s:`)
  console.log('  inclusive (ours):')
  for (const [n, ms] of ours.sort((a, b) => b[1] - a[1]).slice(0, 12))
    console.log(`    ${ms.toFixed(1).padStart(7)} ms  ${n}`)
  console.log('  self:')
  for (const [n, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 8))
    console.log(`    ${ms.toFixed(1).padStart(7)} ms  ${n}`)
}
