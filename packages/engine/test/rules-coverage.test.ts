import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const here = dirname(fileURLToPath(import.meta.url))
// shared/ lies beside the repository (DEVELOPERS.md); CI lays a copy there too.
const rulesPath = join(here, '..', '..', '..', '..', 'shared', 'RULES.md')

it('every rule of sections I, A, K and H of RULES.md is named as [I-n] / [A-n] / [K-n] / [H-n] in a test title', () => {
  if (!existsSync(rulesPath)) {
    if (process.env.CI) throw new Error(`RULES.md not found at ${rulesPath}`)
    console.warn(`skipping: RULES.md not found at ${rulesPath}`)
    return
  }
  const rules = [...readFileSync(rulesPath, 'utf8').matchAll(/\*\*([IAKH]-\d+)\*\*/g)].map(
    (m) => m[1]!,
  )
  expect(rules).toContain('I-16')
  expect(rules).toContain('A-16')
  expect(rules).toContain('K-8')
  expect(rules).toContain('H-7')
  const titles: string[] = []
  for (const f of readdirSync(here)) {
    if (!f.endsWith('.test.ts')) continue
    const src = readFileSync(join(here, f), 'utf8')
    for (const m of src.matchAll(/\bit\(\s*(['"`])((?:(?!\1).)*)\1/g)) titles.push(m[2]!)
  }
  const missing = [...new Set(rules)].filter((r) => !titles.some((t) => t.includes(`[${r}]`)))
  expect(missing).toEqual([])
})
