// docs/protocol.md is how a client other than the web page learns the protocol: every client event,
// error code and table option the schemas accept must be written there (Idioten alone's `seats` was
// accepted for a stop before the page said so).
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  CLIENT_EVENTS,
  DuelTableOptions,
  HerrarnaTableOptions,
  IdiotTableOptions,
  KlockanTableOptions,
} from '../src/index.ts'
import { SERVER_ERROR_CODES } from '../src/wire.ts'

const doc = readFileSync(new URL('../../../docs/protocol.md', import.meta.url), 'utf8')

/** The table of a heading line such as "Idiot options: `{ … }`": the lines up to a blank one. */
function optionsSection(title: string): { braces: string; rows: string[] } {
  const start = doc.indexOf(`${title} options: \``)
  expect(start, `${title} options in docs/protocol.md`).toBeGreaterThanOrEqual(0)
  const lines = doc.slice(start).split('\n')
  const rows: string[] = []
  for (const line of lines.slice(2)) {
    if (!line.startsWith('|')) break
    rows.push(line)
  }
  return { braces: lines[0]!, rows }
}

const fieldOf = (row: string): string | undefined => /^\| `([A-Za-z]+)` \|/.exec(row)?.[1]

describe('docs/protocol.md', () => {
  it('has a row for every client event', () => {
    const rows = new Set(doc.split('\n').map((l) => /^\| `([a-z]+:[a-z]+)` \|/.exec(l)?.[1]))
    for (const e of CLIENT_EVENTS) expect(rows, e).toContain(e)
  })

  it('has a row for every error code of the server', () => {
    const rows = new Set(doc.split('\n').map((l) => /^\| `([A-Z_]+)` \|/.exec(l)?.[1]))
    for (const c of SERVER_ERROR_CODES) expect(rows, c).toContain(c)
  })

  it.each([
    ['Idiot', IdiotTableOptions],
    ['Duel (Idioten för två)', DuelTableOptions],
    ['Klockan', KlockanTableOptions],
  ] as const)('documents every %s option, and no other', (title, schema) => {
    const { braces, rows } = optionsSection(title)
    const fields = Object.keys(schema.shape).sort()
    const documented = rows.map(fieldOf).filter((f) => f !== undefined)
    expect(documented.sort()).toEqual(fields)
    for (const f of fields) expect(braces).toMatch(new RegExp(`[{ ]${f}\\??[,} ]`))
  })

  it('says Dom Åtta Herrarna has no options', () => {
    expect(Object.keys(HerrarnaTableOptions.shape)).toEqual([])
    expect(doc).toContain('has one seat and no options (`{}`)')
  })
})
