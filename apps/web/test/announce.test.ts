import { describe, expect, it } from 'vitest'
import { Announcer } from '../src/lib/announce.ts'
import { RECORD_DICTS } from '../src/lib/i18n-records.ts'

describe('a live region’s text', () => {
  it('says new news, and says nothing when only its words change (the language switched)', () => {
    const a = new Announcer()
    const { en, sv, nb } = RECORD_DICTS
    expect(a.next('verified', en.verified)).toBe(en.verified)
    // Asked again with the same words: unchanged (nothing new is read out).
    expect(a.next('verified', en.verified)).toBe(en.verified)
    // The language switched: the region empties rather than reading "verified" again in Swedish.
    expect(a.next('verified', sv.verified)).toBe('')
    expect(a.next('verified', nb.verified)).toBe('')
    expect(a.next('verified', en.verified)).toBe('')
    // New news is said, in the words of the moment.
    expect(a.next('failed', nb.warning)).toBe(nb.warning)
    expect(a.next('verified', nb.verified)).toBe(nb.verified)
  })
})
