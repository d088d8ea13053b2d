// The verifiable shuffle (issue 14), checked against an independent implementation on Node's
// own crypto: the derivation as docs/fairness.md writes it, not as fair.ts happens to do it.
import { createHash, createHmac } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  commitment,
  type FairDeal,
  FairStream,
  fairMessage,
  fairShuffle,
  formatCard,
  fullDeck,
  idiot,
} from '../src/index.ts'

/** docs/fairness.md, step by step, with node:crypto. */
function reference(fair: FairDeal, label: string, items: readonly number[]): number[] {
  const msg = ['kortbord-shuffle-v1', `game=${fair.game}`, `deal=${label}`, ...fair.entropy].join(
    '|',
  )
  let block = 0
  let buf = Buffer.alloc(0)
  const u32 = () => {
    if (buf.length < 4) {
      buf = Buffer.concat([
        buf,
        createHmac('sha256', Buffer.from(fair.seed, 'hex')).update(`${msg}|${block++}`).digest(),
      ])
    }
    const x = buf.readUInt32BE(0)
    buf = buf.subarray(4)
    return x
  }
  const a = items.slice()
  for (let i = a.length - 1; i > 0; i--) {
    const n = i + 1
    const limit = Math.floor(2 ** 32 / n) * n
    let x = u32()
    while (x >= limit) x = u32()
    const j = x % n
    ;[a[i], a[j]] = [a[j]!, a[i]!]
  }
  return a
}

const SEED = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff'

describe('the verifiable shuffle (issue 14)', () => {
  it('commits to a seed with SHA-256 of its 32 bytes', () => {
    expect(commitment(SEED)).toBe(
      createHash('sha256').update(Buffer.from(SEED, 'hex')).digest('hex'),
    )
    expect(() => commitment('abc')).toThrow()
    expect(() => commitment(SEED.toUpperCase())).toThrow()
  })

  it('derives exactly what the specification says, for every label and deck size', () => {
    for (let k = 0; k < 40; k++) {
      const fair: FairDeal = {
        v: 1,
        seed: createHash('sha256').update(`seed ${k}`).digest('hex'),
        entropy: ['', 'ab', createHash('sha256').update(`e ${k}`).digest('hex')].slice(
          0,
          1 + (k % 3),
        ),
        game: 1 + (k % 7),
      }
      for (const [label, n] of [
        ['idiot', 52],
        ['0.2', 104],
        ['klockan', 52],
      ] as const) {
        const deck = Array.from({ length: n }, (_, i) => i)
        expect(fairShuffle(deck, fair, label)).toEqual(reference(fair, label, deck))
      }
    }
  })

  it('the message names the version, the game, the label and every contribution in seat order', () => {
    const fair: FairDeal = { v: 1, seed: SEED, entropy: ['aa', '', 'ff'], game: 3 }
    expect(fairMessage(fair, '1.0')).toBe('kortbord-shuffle-v1|game=3|deal=1.0|aa||ff')
    // Block 0 is the HMAC of the message with "|0".
    const b0 = new FairStream(fair, '1.0').blockAt(0)
    const want = createHmac('sha256', Buffer.from(SEED, 'hex'))
      .update('kortbord-shuffle-v1|game=3|deal=1.0|aa||ff|0')
      .digest('hex')
    expect(Buffer.from(b0).toString('hex')).toBe(want)
  })

  it('any change of seed, contribution, game or label gives another deck', () => {
    const base: FairDeal = { v: 1, seed: SEED, entropy: ['01', '02'], game: 1 }
    const deck = fullDeck(1)
    const d0 = fairShuffle(deck, base, 'idiot')
    for (const other of [
      { ...base, seed: `${SEED.slice(0, 63)}0` },
      { ...base, entropy: ['01', '03'] },
      { ...base, entropy: ['02', '01'] },
      { ...base, game: 2 },
    ]) {
      expect(fairShuffle(deck, other, 'idiot')).not.toEqual(d0)
    }
    expect(fairShuffle(deck, base, 'klockan')).not.toEqual(d0)
  })

  it('is unbiased: over 20,000 deals each card lands in each of four places about equally', () => {
    const counts = Array.from({ length: 4 }, () => new Array<number>(4).fill(0))
    for (let k = 0; k < 20_000; k++) {
      const fair: FairDeal = { v: 1, seed: SEED, entropy: [k.toString(16)], game: 1 }
      fairShuffle([0, 1, 2, 3], fair, 'x').forEach((c, place) => {
        counts[c]![place]!++
      })
    }
    // Each cell expects 5,000; ±300 is about 4.9 standard deviations (σ ≈ 61).
    for (const row of counts) for (const n of row) expect(Math.abs(n - 5000)).toBeLessThan(300)
  })

  it('refuses malformed inputs rather than deal from them', () => {
    const ok: FairDeal = { v: 1, seed: SEED, entropy: ['ab'], game: 1 }
    expect(() => new FairStream({ ...ok, seed: 'xyz' }, 'a')).toThrow()
    expect(() => new FairStream({ ...ok, entropy: ['XYZ'] }, 'a')).toThrow()
    expect(() => new FairStream({ ...ok, entropy: ['a'.repeat(65)] }, 'a')).toThrow()
    expect(() => new FairStream({ ...ok, v: 2 as 1 }, 'a')).toThrow()
  })

  it('[I-3][I-5] an Idiot game dealt fairly draws its first dealer from the same stream, then shuffles', () => {
    const fair: FairDeal = { v: 1, seed: SEED, entropy: ['aa', 'bb'], game: 1 }
    const s = idiot.setup({}, 2, { fair })
    const stream = new FairStream(fair, 'idiot')
    expect(s.dealer).toBe(stream.int(2))
    const deck = stream.shuffle(fullDeck(1))
    expect(idiot.setup({ dealer: s.dealer }, 2, { deck })).toEqual(s)
  })

  it('docs/fairness.md: the worked example is what the code computes', () => {
    const doc = readFileSync(new URL('../../../docs/fairness.md', import.meta.url), 'utf8')
    const block = /## Worked example[\s\S]*?```text\n([\s\S]*?)```/.exec(doc)![1]!
    const field = (k: string) => new RegExp(`^${k}:\\s+(.*)$`, 'm').exec(block)![1]!.trim()
    const entropy = field('entropy')
      .split('|')
      .map((e) => e.trim())
      .map((e) => (e === '(none)' ? '' : e))
    const fair: FairDeal = { v: 1, seed: field('seed'), entropy, game: Number(field('game')) }
    const label = field('label')
    expect(commitment(fair.seed)).toBe(field('commitment'))
    expect(fairMessage(fair, label)).toBe(field('message'))
    const st = new FairStream(fair, label)
    expect(Buffer.from(st.blockAt(0)).toString('hex')).toBe(field('block 0'))
    expect(Buffer.from(st.blockAt(1)).toString('hex')).toBe(field('block 1'))
    const u32s = field('u32s').split(/\s+/).map(Number)
    expect(u32s.map(() => st.nextU32())).toEqual(u32s)
    const s = idiot.setup({}, 3, { fair })
    expect(s.dealer).toBe(Number(field('dealer')))
    const d = new FairStream(fair, label)
    d.int(3)
    expect(d.shuffle(fullDeck(1)).map(formatCard).join(' ')).toBe(field('deck'))
    // The hands the page names, dealt as I-3 says.
    expect(doc).toContain(
      `seat 0 gets \`${s.players[0]!.hand.map(formatCard).join(' ')}\` in hand, seat 1 \`${s.players[1]!.hand.map(formatCard).join(' ')}\`, seat 2 \`${s.players[2]!.hand.map(formatCard).join(' ')}\``,
    )
  })
})
