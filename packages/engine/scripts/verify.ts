// pnpm verify <record.json | https://…/r/ID | https://…/api/records/ID> [--head HEX] [--seat N --entropy HEX]
//
// Checks a kortbord game record from outside the server (issue 14, docs/fairness.md): the
// revealed seed against the commitment published before the game, the deal derived from the seed
// and the players' contributions, every move replayed through the engine, the end, and the hash
// chain (and, with --head, that the chain passes through the head you saw at the table).
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { type GameRecord, recordText, verifyRecord, type Witness } from '../src/index.ts'

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : undefined
}

/** A record from a file, a record link (/r/ID) or the API (/api/records/ID). */
async function load(where: string): Promise<GameRecord> {
  // pnpm runs this in the engine's folder; a path is the caller's (INIT_CWD).
  if (!/^https?:\/\//.test(where))
    return JSON.parse(
      readFileSync(resolve(process.env.INIT_CWD ?? '.', where), 'utf8'),
    ) as GameRecord
  const u = new URL(where)
  const m = /\/(?:r|api\/records)\/([A-Za-z0-9_-]+)/.exec(u.pathname)
  if (!m) throw new Error(`not a record link: ${where}`)
  const res = await fetch(new URL(`/api/records/${m[1]}`, u))
  if (!res.ok) throw new Error(`${res.status} ${res.statusText} from ${u.origin}`)
  return (await res.json()) as GameRecord
}

const args = process.argv.slice(2)
const where = args.find(
  (a, i) => !a.startsWith('--') && !['--head', '--seat', '--entropy'].includes(args[i - 1] ?? ''),
)
if (!where) {
  console.error(
    'usage: pnpm verify <record.json | record link> [--head HEX] [--seat N --entropy HEX]',
  )
  process.exit(2)
}
const record = await load(where)
const witness: Witness = {
  head: arg('head'),
  seat: arg('seat') === undefined ? undefined : Number(arg('seat')),
  entropy: arg('entropy'),
}
const v = verifyRecord(record, witness)
if (process.argv.includes('--text')) process.stdout.write(recordText(record))
console.log(
  `record ${record.id}: ${record.game}, game ${record.gameNo}, ${record.moves.length} moves`,
)
console.log(
  `shuffle: ${v.shuffle === 'verified' ? 'verified (the committed seed and the contributions give this deal)' : v.shuffle}`,
)
for (const p of v.problems) console.log(`PROBLEM ${p.code}: ${p.message}`)
console.log(v.ok ? 'OK: the record checks out' : 'FAILED: do not trust this record')
process.exit(v.ok ? 0 : 1)
