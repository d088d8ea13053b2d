import { describe, expect, it } from 'vitest'
import {
  compareForHand,
  deckOf,
  formatCard,
  formatCards,
  fullDeck,
  isCard,
  makeCard,
  parseCard,
  parseCards,
  RANK_ACE,
  RANKS,
  rankOf,
  SUITS,
  suitOf,
} from '../src/cards.ts'
import { Rng } from '../src/rng.ts'

/** Pearson's statistic of observed counts against one common expected count. */
function chiSquare(counts: readonly number[], expected: number): number {
  return counts.reduce((sum, o) => sum + (o - expected) ** 2 / expected, 0)
}

describe('card notation', () => {
  it('formats and parses all 104 ids as a round trip', () => {
    const texts = new Set<string>()
    for (const c of fullDeck(2)) {
      const text = formatCard(c)
      texts.add(text)
      expect(parseCard(text)).toBe(c)
      expect(parseCard(text.toLowerCase())).toBe(c)
      expect(formatCard(makeCard(rankOf(c), suitOf(c), deckOf(c)))).toBe(text)
    }
    expect(texts.size).toBe(104)
  })

  it('spells rank then suit, with a prime for the second deck', () => {
    expect(formatCard(0)).toBe('2C')
    expect(formatCard(8)).toBe('TC')
    expect(formatCard(12)).toBe('AC')
    expect(formatCard(13)).toBe('2D')
    expect(formatCard(51)).toBe('AS')
    expect(formatCard(52)).toBe("2C'")
    expect(formatCard(103)).toBe("AS'")
    expect(parseCard('TH')).toBe(makeCard(10, 2))
    expect(parseCard("QS'")).toBe(makeCard(12, 3, 1))
    expect(rankOf(parseCard('AH')!)).toBe(RANK_ACE)
    expect(suitOf(parseCard('AH')!)).toBe(SUITS.indexOf('H'))
    expect(RANKS.length * SUITS.length).toBe(52)
  })

  it('accepts 10 for the ten, lower case and surrounding blanks', () => {
    expect(parseCard('10H')).toBe(parseCard('TH'))
    expect(parseCard('10h')).toBe(parseCard('TH'))
    expect(parseCard("10S'")).toBe(parseCard("TS'"))
    expect(parseCard(' 9d ')).toBe(parseCard('9D'))
  })

  it('returns undefined for bad input', () => {
    for (const bad of [
      '',
      ' ',
      'T',
      'H',
      '1H',
      '11H',
      '0H',
      'XH',
      'TX',
      'THH',
      'HT',
      "TH''",
      "'TH",
      'T H',
      '10',
      'AS,',
    ]) {
      expect(parseCard(bad), bad).toBeUndefined()
    }
  })

  it('parseCards reads lists separated by blanks or commas and throws on a bad card', () => {
    expect(parseCards('AS KS 2H')).toEqual([51, 50, 26])
    expect(parseCards(' AS,KS ,\n 2H ')).toEqual([51, 50, 26])
    expect(parseCards('')).toEqual([])
    expect(formatCards(parseCards("2C 10H TH' AS"))).toBe("2C TH TH' AS")
    expect(() => parseCards('AS KX 2H')).toThrow(/KX/)
    expect(() => parseCards("AS''")).toThrow()
  })

  it('isCard knows how many decks a game has', () => {
    expect(isCard(0)).toBe(true)
    expect(isCard(51)).toBe(true)
    expect(isCard(52)).toBe(false)
    expect(isCard(52, 2)).toBe(true)
    expect(isCard(103, 2)).toBe(true)
    expect(isCard(104, 2)).toBe(false)
    expect(isCard(-1)).toBe(false)
    expect(isCard(1.5)).toBe(false)
    expect(isCard('1')).toBe(false)
    expect(fullDeck()).toEqual(Array.from({ length: 52 }, (_, i) => i))
    expect(new Set(fullDeck(2)).size).toBe(104)
  })

  it('sorts a hand by rank, then suit, then deck', () => {
    const hand = parseCards("AS 2H TH' TH 2C")
    expect(formatCards(hand.slice().sort(compareForHand))).toBe("2C 2H TH TH' AS")
  })
})

describe('rng', () => {
  it('gives the same sequence for the same seed', () => {
    const a = Rng.seeded('kortbord')
    const b = Rng.seeded('kortbord')
    const xs = Array.from({ length: 200 }, () => a.nextU32())
    const ys = Array.from({ length: 200 }, () => b.nextU32())
    expect(xs).toEqual(ys)
    expect(xs.every((x) => Number.isInteger(x) && x >= 0 && x < 2 ** 32)).toBe(true)
    expect(Rng.seeded('s').shuffle(fullDeck())).toEqual(Rng.seeded('s').shuffle(fullDeck()))
  })

  it('gives different sequences for different seeds', () => {
    const seqs = new Set<string>()
    for (const seed of ['', 'a', 'b', 'ab', 'ba', 'seed-1', 'seed-2', 'kortbord']) {
      const r = Rng.seeded(seed)
      seqs.add(JSON.stringify(Array.from({ length: 8 }, () => r.nextU32())))
    }
    expect(seqs.size).toBe(8)
    expect(Rng.seeded('x').shuffle(fullDeck())).not.toEqual(Rng.seeded('y').shuffle(fullDeck()))
  })

  it('continues exactly from a saved state', () => {
    const a = Rng.seeded('state')
    for (let i = 0; i < 10; i++) a.nextU32()
    const saved = a.state()
    const b = Rng.from(JSON.parse(JSON.stringify(saved)))
    expect(Array.from({ length: 50 }, () => b.int(1000))).toEqual(
      Array.from({ length: 50 }, () => a.int(1000)),
    )
  })

  it('int(n) stays in [0, n) and refuses bad bounds', () => {
    const r = Rng.seeded('range')
    for (const n of [1, 2, 3, 7, 52, 1000, 2 ** 31 + 1, 2 ** 32]) {
      for (let i = 0; i < 500; i++) {
        const x = r.int(n)
        expect(Number.isInteger(x) && x >= 0 && x < n).toBe(true)
      }
    }
    for (const bad of [0, -1, 1.5, 2 ** 32 + 1, Number.NaN]) {
      expect(() => r.int(bad)).toThrow(RangeError)
    }
    const f = Array.from({ length: 1000 }, () => r.float())
    expect(f.every((x) => x >= 0 && x < 1)).toBe(true)
  })

  it('int(6) is uniform: chi-square over 60,000 draws', () => {
    const r = Rng.seeded('chi-square')
    const counts = [0, 0, 0, 0, 0, 0]
    for (let i = 0; i < 60_000; i++) counts[r.int(6)]!++
    // 5 degrees of freedom: P(chi² > 40) ≈ 2e-7 for a uniform generator.
    expect(chiSquare(counts, 10_000)).toBeLessThan(40)
  })

  it('int(n) has no modulo bias even when n is close to 2^32', () => {
    // Without rejection, 2^32 mod n = 2^30 values would come twice as often: P(x < 2^30) = 1/2.
    const r = Rng.seeded('bias')
    const n = 3 * 2 ** 30
    let low = 0
    const draws = 30_000
    for (let i = 0; i < draws; i++) if (r.int(n) < 2 ** 30) low++
    // Expected 1/3 with sd ≈ 0.0027; 0.02 is more than 7 sd away from both 1/3 and 1/2.
    expect(Math.abs(low / draws - 1 / 3)).toBeLessThan(0.02)
  })

  it('shuffle returns a permutation and leaves its input alone', () => {
    const r = Rng.seeded('perm')
    const deck = fullDeck(2)
    const frozen = Object.freeze(deck.slice())
    for (let i = 0; i < 50; i++) {
      const s = r.shuffle(frozen)
      expect(s).toHaveLength(104)
      expect(s.slice().sort((a, b) => a - b)).toEqual(deck)
    }
    expect(frozen).toEqual(deck)
    expect(r.shuffle([])).toEqual([])
    expect(r.shuffle(['x'])).toEqual(['x'])
  })

  it('shuffle puts a card in every position equally often (52,000 shuffles)', () => {
    const r = Rng.seeded('positions')
    const deck = fullDeck()
    const at = new Array<number>(52).fill(0)
    const last = new Array<number>(52).fill(0)
    for (let i = 0; i < 52_000; i++) {
      const s = r.shuffle(deck)
      at[s.indexOf(0)]!++
      last[s[51]!]!++
    }
    // 51 degrees of freedom: P(chi² > 120) < 1e-6 for a uniform shuffle.
    expect(chiSquare(at, 1000)).toBeLessThan(120)
    expect(chiSquare(last, 1000)).toBeLessThan(120)
  })

  it('pick chooses from the array and throws on an empty one', () => {
    const r = Rng.seeded('pick')
    const seen = new Set<string>()
    for (let i = 0; i < 200; i++) seen.add(r.pick(['a', 'b', 'c']))
    expect([...seen].sort()).toEqual(['a', 'b', 'c'])
    expect(() => r.pick([])).toThrow(RangeError)
  })
})
