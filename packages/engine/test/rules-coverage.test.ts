import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const here = dirname(fileURLToPath(import.meta.url))
// The rules live in the repository (docs/rules.md), so this test always has them.
const rulesPath = join(here, '..', '..', '..', 'docs', 'rules.md')

/** Every rule id docs/rules.md defines: the bold ids, e.g. **I-9**. */
function ruleIds(): string[] {
  return [...readFileSync(rulesPath, 'utf8').matchAll(/\*\*([IAKH]-\d+)\*\*/g)].map((m) => m[1]!)
}

it('docs/rules.md defines each rule once, every section numbered from 1 without gaps and none shorter than I-16, A-16, K-8, H-7', () => {
  const ids = ruleIds()
  expect(new Set(ids).size).toBe(ids.length)
  // A rule may be added at the end of a section; none of the agreed ones may go missing.
  const atLeast = { I: 16, A: 16, K: 8, H: 7 }
  for (const [section, count] of Object.entries(atLeast)) {
    const numbers = ids
      .filter((id) => id.startsWith(`${section}-`))
      .map((id) => Number(id.slice(2)))
    expect(numbers.length, `section ${section}`).toBeGreaterThanOrEqual(count)
    expect(numbers, `section ${section}`).toEqual(numbers.map((_, i) => i + 1))
  }
})

it('every rule of sections I, A, K and H of docs/rules.md is named as [I-n] / [A-n] / [K-n] / [H-n] in a test title', () => {
  const rules = ruleIds()
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
