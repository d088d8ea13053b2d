import { NAME_MAX } from '@kortbord/protocol/wire'
import { describe, expect, it } from 'vitest'
import { nameState } from '../src/lib/names.ts'

describe('the name fields', () => {
  it('send the name as the server keeps it: NFC, spaces trimmed and collapsed', () => {
    const decomposed = 'A\u030asa  Berg ' // Å as A + combining ring
    expect(nameState(decomposed, false)).toEqual({ name: 'Åsa Berg', problem: null })
    expect(nameState('  Bo ', true)).toEqual({ name: 'Bo', problem: null })
  })

  it('say why a name is refused while it is typed', () => {
    expect(nameState('Bo\u200b', false).problem).toBe('NAME_INVISIBLE_CHARS')
    expect(nameState('Bo\tB', false).problem).toBe('NAME_CONTROL_CHARS')
    expect(nameState('x'.repeat(NAME_MAX + 1), false).problem).toBe('NAME_TOO_LONG')
    // NFC makes e + the first accent one letter: four more are too many.
    expect(nameState(`e${'\u0301'.repeat(5)}`, false).problem).toBe('NAME_TOO_MANY_MARKS')
    expect(nameState('\ud800', false).problem).toBe('NAME_BAD_UNICODE')
    expect(nameState('Bo\u200b', false).name).toBeNull()
  })

  it('count what a person sees: 24 flags or accented letters are 24 characters', () => {
    expect(nameState('🇸🇪'.repeat(NAME_MAX), false).problem).toBeNull()
    expect(nameState('é'.normalize('NFD').repeat(NAME_MAX), false).problem).toBeNull()
    expect(nameState('🇸🇪'.repeat(NAME_MAX + 1), false).problem).toBe('NAME_TOO_LONG')
  })

  it('do not scold an empty field before the player goes on, but do when they try', () => {
    expect(nameState('', false)).toEqual({ name: null, problem: null })
    expect(nameState('   ', false)).toEqual({ name: null, problem: null })
    expect(nameState('', true).problem).toBe('NAME_EMPTY')
    // Typed, yet nothing a person can read: said at once.
    expect(nameState('\u0301', false).problem).toBe('NAME_EMPTY')
  })
})
