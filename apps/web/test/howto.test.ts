import { parseCard, pointsKortKvar, rankOf } from '@kortbord/engine'
import { describe, expect, it } from 'vitest'
import duel from '../src/howto/duel.ts'
import herrarna from '../src/howto/herrarna.ts'
import idiot from '../src/howto/idiot.ts'
import klockan from '../src/howto/klockan.ts'
import type { Block, HowTo, HowToTexts } from '../src/howto/types.ts'
import { LANGS } from '../src/lib/i18n.ts'

const ALL: Record<string, HowToTexts> = { idiot, duel, klockan, herrarna }

/** What must be the same in every language: the sections, the kinds of block, the cards shown. */
function shape(h: HowTo): string[] {
  const kind = (b: Block): string =>
    'p' in b ? 'p' : 'cards' in b ? `cards ${b.cards.join(' ')}` : `table ${b.rows.length}`
  return h.sections.map((s) => s.blocks.map(kind).join(' | '))
}

const blocksOf = (h: HowTo): Block[] => h.sections.flatMap((s) => s.blocks)

describe('How to play texts', () => {
  it('say the same thing in Swedish, Norwegian and English: same sections, same pictures, no empty text', () => {
    for (const [game, texts] of Object.entries(ALL)) {
      const en = shape(texts.en)
      expect(en.length, game).toBeGreaterThanOrEqual(3)
      for (const l of LANGS) {
        const h = texts[l]
        expect(shape(h), `${game} ${l}`).toEqual(en)
        expect(h.intro.trim().length).toBeGreaterThan(20)
        for (const s of h.sections) {
          expect(s.h.trim()).not.toBe('')
          for (const b of s.blocks) {
            const words = 'p' in b ? b.p : 'cards' in b ? b.text : b.head.join(' ')
            expect(words.trim().length, `${game} ${l} ${s.h}`).toBeGreaterThan(0)
          }
        }
      }
    }
  })

  it('[I-7] [I-8] [I-9] Idiot shows a two, a ten and four of a kind, in pictures that are real cards', () => {
    const pictures = blocksOf(idiot.en).flatMap((b) => ('cards' in b ? [b.cards] : []))
    const ranks = pictures.map((cards) => cards.map((n) => rankOf(parseCard(n)!)))
    expect(ranks).toEqual([[2], [10], [7, 7, 7, 7]])
    for (const texts of Object.values(ALL)) {
      for (const b of blocksOf(texts.en)) {
        if ('cards' in b) for (const n of b.cards) expect(parseCard(n), n).not.toBeNull()
      }
    }
  })

  it('[A-11] the duel’s score table matches the engine’s points for cards left, in every language', () => {
    for (const l of LANGS) {
      const tables = blocksOf(duel[l]).flatMap((b) => ('rows' in b ? [b] : []))
      expect(tables).toHaveLength(1)
      const rows = tables[0]!.rows
      expect(rows).toHaveLength(4)
      rows.forEach(([left, points], i) => {
        const [from, to] = (left.match(/\d+/g) ?? []).map(Number)
        expect(from, `${l} "${left}"`).toBeDefined()
        // "5–8" is a band; "4 (only the aces)" one number; the last row ("15 or more") runs to 52.
        const last = to ?? (i === rows.length - 1 ? 52 : from!)
        for (let n = from!; n <= last; n++) {
          expect(pointsKortKvar(n), `${l}: ${n} left`).toBe(Number(points))
        }
      })
    }
  })
})
