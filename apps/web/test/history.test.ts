// The table's history in words (issue 14): every public log entry as a sentence in sv/nb/en, the
// live region's news, and the log the page keeps since it opened.
import { parseCard } from '@kortbord/engine'
import type { LogEntry } from '@kortbord/protocol/wire'
import { describe, expect, it } from 'vitest'
import { BLIP_MS, describeEntry, historyLines, newsSince } from '../src/lib/history.ts'
import { LANGS } from '../src/lib/i18n.ts'
import { PROBLEM_CODES, RECORD_DICTS } from '../src/lib/i18n-records.ts'
import { HISTORY_KEEP, keepLog } from '../src/lib/log-keep.ts'

const c = (s: string) => parseCard(s)!
const names = ['Astrid', 'Bo']
let seq = 0
const at = 1_700_000_000_000
const e = (body: Record<string, unknown>): LogEntry => ({ seq: ++seq, at, ...body }) as LogEntry

/** One entry of every kind the server logs, and the words each must hold in English. */
const ENTRIES: [LogEntry, RegExp][] = [
  [e({ t: 'started', gameNo: 2 }), /Game 2 started/],
  [e({ t: 'joined', seat: 1, name: 'Bo' }), /Bo sat down/],
  [e({ t: 'left', seat: 1, name: 'Bo' }), /Bo left/],
  [e({ t: 'away', seat: 1, name: 'Bo' }), /Bo is away/],
  [e({ t: 'back', seat: 1, name: 'Bo' }), /Bo is back/],
  [e({ t: 'removed', seat: 1, name: 'Bo' }), /Bo was removed/],
  [
    e({ t: 'game', e: { t: 'swap', seat: 0, fromHand: c('KS'), fromRow: c('3H') } }),
    /Astrid swapped: king of spades face up, three of hearts into the hand/,
  ],
  [e({ t: 'game', e: { t: 'ready', seat: 0 } }), /Astrid is ready/],
  [e({ t: 'game', e: { t: 'start', seat: 1 } }), /Bo plays first/],
  [
    e({ t: 'game', e: { t: 'play', seat: 0, cards: [c('5C'), c('5D')], from: 'hand' } }),
    /Astrid played five of clubs, five of diamonds$/,
  ],
  [
    e({ t: 'game', e: { t: 'play', seat: 1, cards: [c('9S')], from: 'row' } }),
    /Bo played nine of spades from the table/,
  ],
  [
    e({ t: 'game', e: { t: 'uncover', seat: 1, position: 2, card: c('4D') } }),
    /Bo turned up four of diamonds/,
  ],
  [
    e({ t: 'game', e: { t: 'burn', seat: 1, reason: 'ten', count: 7 } }),
    /A ten burned the pile \(7 cards\)/,
  ],
  [
    e({ t: 'game', e: { t: 'burn', seat: 1, reason: 'four', count: 4 } }),
    /Four of a kind burned the pile/,
  ],
  [e({ t: 'game', e: { t: 'draw', seat: 0, count: 2 } }), /Astrid drew 2 cards/],
  [
    e({ t: 'game', e: { t: 'pickup', seat: 1, cards: [c('2C'), c('7H'), c('8H')] } }),
    /Bo picked up the pile \(3 cards\)/,
  ],
  [e({ t: 'game', e: { t: 'out', seat: 0, place: 1 } }), /Astrid is out, in place 1/],
  [e({ t: 'game', e: { t: 'over', loser: 1 } }), /Bo is the Idiot/],
  [
    e({ t: 'timeout', seat: 1, action: 'pickup' }),
    /Bo’s time ran out: the timer picked up the pile/,
  ],
  [
    e({ t: 'best', seat: 0, index: 1, best: 4 }),
    /Astrid’s round 2: perfect play would have left 4/,
  ],
  [
    e({ t: 'bot', seat: 1, name: 'Bo', level: 'hard', by: 0 }),
    /A bot \(hard\) plays for Bo, as Astrid asked/,
  ],
  [e({ t: 'forfeit', seat: 1, name: 'Bo', by: 0 }), /Bo forfeited the game \(Astrid ended it\)/],
  [e({ t: 'timer', turnSeconds: 45 }), /turn timer is now 45 s/],
  [e({ t: 'timer', turnSeconds: null }), /turn timer was turned off/],
  [e({ t: 'rematch', seat: 0, name: 'Astrid' }), /Astrid wants another game/],
  [e({ t: 'ended', gameNo: 3, winner: 1 }), /^Game 3: Bo won$/],
  [e({ t: 'ended', gameNo: 3, winner: null }), /^Game 3: a draw$/],
]

describe('the history panel’s words (issue 14)', () => {
  it('[I-15] says every public event of the log in English', () => {
    for (const [entry, words] of ENTRIES) {
      expect(describeEntry(entry, names, RECORD_DICTS.en, 'en'), entry.t).toMatch(words)
    }
  })

  it('says every event in Swedish and bokmål too, with the names and cards in words', () => {
    for (const lang of ['sv', 'nb'] as const) {
      const t = RECORD_DICTS[lang]
      for (const [entry] of ENTRIES) {
        const text = describeEntry(entry, names, t, lang)
        expect(text, `${lang} ${entry.t}`).toMatch(/\S/)
        expect(text).not.toMatch(/undefined|NaN|\[object/)
      }
    }
    const play = ENTRIES[9]![0]
    expect(describeEntry(play, names, RECORD_DICTS.sv, 'sv')).toBe(
      'Astrid lade fem i klöver, fem i ruter',
    )
    expect(describeEntry(play, names, RECORD_DICTS.nb, 'nb')).toBe(
      'Astrid la kløver fem, ruter fem',
    )
  })

  it('[K-6] says who won a game of the patiences or the duel; alone, whether it came out', () => {
    const won = e({ t: 'ended', gameNo: 2, winner: 0 })
    const lost = e({ t: 'ended', gameNo: 2, winner: null })
    expect(describeEntry(won, names, RECORD_DICTS.sv, 'sv')).toBe('Parti 2: Astrid vann')
    expect(describeEntry(won, ['Astrid'], RECORD_DICTS.en, 'en')).toBe(
      'Game 2: the patience came out',
    )
    expect(describeEntry(lost, ['Astrid'], RECORD_DICTS.nb, 'nb')).toBe(
      'Spill 2: kabalen gikk ikke opp',
    )
  })

  it('leaves out an entry it does not know (a newer server’s), and marks game starts', () => {
    const log = [ENTRIES[0]![0], e({ t: 'something-new' }), ENTRIES[1]![0]]
    const lines = historyLines(log, names, RECORD_DICTS.en, 'en')
    expect(lines.map((l) => l.text)).toEqual(['Game 2 started', 'Bo sat down'])
    expect(lines.map((l) => l.start)).toEqual([true, false])
  })

  it('an old line keeps the name of who sat there then, not of who sits there now', () => {
    const log = [
      e({ t: 'game', e: { t: 'ready', seat: 1 } }),
      e({ t: 'left', seat: 1, name: 'Bo' }),
      e({ t: 'joined', seat: 1, name: 'Cilla' }),
      e({ t: 'game', e: { t: 'ready', seat: 1 } }),
      e({ t: 'game', e: { t: 'ready', seat: 0 } }),
    ]
    const text = (l: readonly LogEntry[], now: string[]) =>
      historyLines(l, now, RECORD_DICTS.en, 'en').map((x) => x.text)
    expect(text(log, ['Astrid', 'Cilla'])).toEqual([
      'Bo is ready',
      'Bo left the table',
      'Cilla sat down',
      'Cilla is ready',
      'Astrid is ready',
    ])
    // The log's start is gone (it keeps a tail): before Cilla sat down, the seat is "#2".
    expect(text(log.slice(2), ['Astrid', 'Cilla'])[0]).toBe('Cilla sat down')
    expect(
      historyLines(
        [e({ t: 'game', e: { t: 'ready', seat: 1 } }), log[2]!],
        ['Astrid', 'Cilla'],
        RECORD_DICTS.en,
        'en',
      )[0]!.text,
    ).toBe('#2 is ready')
  })

  it('the live region says only what is new, and nothing of what was there at first', () => {
    const lines = historyLines(
      ENTRIES.slice(0, 4).map(([x]) => x),
      names,
      RECORD_DICTS.en,
      'en',
    )
    expect(newsSince(lines, null)).toBe('')
    expect(newsSince(lines, lines[1]!.seq)).toBe('Bo left the table. Bo is away')
    expect(newsSince(lines, lines[3]!.seq)).toBe('')
  })

  it('the live region leaves out what the table says itself: moves and table news, not presence', () => {
    const lines = historyLines(
      [
        e({ t: 'game', e: { t: 'ready', seat: 1 } }),
        e({ t: 'game', e: { t: 'play', seat: 0, cards: [5] } }),
        e({ t: 'game', e: { t: 'draw', seat: 0, count: 1 } }),
        e({ t: 'timer', turnSeconds: 20 }),
        e({ t: 'away', seat: 1, name: 'Bo' }),
      ],
      ['Astrid', 'Bo'],
      RECORD_DICTS.en,
      'en',
    )
    expect(lines.map((l) => l.told)).toEqual([false, true, true, true, false])
    expect(newsSince(lines, 0)).toBe('Bo is ready. Bo is away')
  })

  it('a seat away and back within BLIP_MS (a reload) is left out of the list, not out of the live region; a longer absence is listed', () => {
    const away = (seat: number, t: number): LogEntry =>
      ({ seq: ++seq, at: at + t, t: 'away', seat, name: names[seat] }) as LogEntry
    const back = (seat: number, t: number): LogEntry =>
      ({ seq: ++seq, at: at + t, t: 'back', seat, name: names[seat] }) as LogEntry
    const texts = (log: LogEntry[]) =>
      historyLines(log, names, RECORD_DICTS.en, 'en')
        .filter((l) => !l.blip)
        .map((l) => l.text)
    // A reload of Bo's, while Astrid is away for good.
    expect(texts([away(1, 0), away(0, 1000), back(1, 2000)])).toEqual(['Astrid is away'])
    expect(texts([away(1, 0), back(1, BLIP_MS + 1)])).toEqual(['Bo is away', 'Bo is back'])
    // Away while still away counts from the last one; back alone is told.
    expect(texts([away(1, 0), away(1, 20_000), back(1, 21_000)])).toEqual(['Bo is away'])
    expect(texts([back(0, 0)])).toEqual(['Astrid is back'])
    // The live region said the away as it came, so it says the back too.
    const lines = historyLines([away(1, 0), back(1, 2000)], names, RECORD_DICTS.en, 'en')
    expect(newsSince(lines, lines[0]!.seq)).toBe('Bo is back')
  })
})

describe('the words of issue 14 in every language', () => {
  it('has every text in every language, nested ones included', () => {
    const shape = (d: object): string[] =>
      Object.entries(d).flatMap(([k, v]) =>
        typeof v === 'object' && v !== null ? shape(v).map((x) => `${k}.${x}`) : [k],
      )
    const keys = shape(RECORD_DICTS.en).sort()
    for (const l of LANGS) expect(shape(RECORD_DICTS[l]).sort(), l).toEqual(keys)
  })

  it('every problem a verification can report is a sentence, not a code', () => {
    for (const l of LANGS) {
      for (const code of PROBLEM_CODES) {
        const text = RECORD_DICTS[l].problems[code]
        expect(text, `${l} ${code}`).toMatch(/^\p{Lu}.*\.$/u)
        expect(text).not.toContain(code)
      }
    }
  })
})

const entries = (from: number, to: number): LogEntry[] =>
  Array.from({ length: to - from + 1 }, (_, i) => ({
    seq: from + i,
    at,
    t: 'timer',
    turnSeconds: 30,
  }))

describe('the log the page keeps for its history', () => {
  it(`keeps appending deltas past the server’s tail of 40, up to ${HISTORY_KEEP}`, () => {
    let log = keepLog([], { log: entries(1, 40), logAfter: null }).log
    for (let s = 41; s <= 700; s += 10) {
      const r = keepLog(log, { log: entries(s, s + 9), logAfter: s - 1 })
      expect(r.gap).toBe(false)
      log = r.log
    }
    expect(log).toHaveLength(HISTORY_KEEP)
    expect(log[0]!.seq).toBe(700 - HISTORY_KEEP + 1)
    expect(log.at(-1)!.seq).toBe(700)
  })

  it('a whole tail that joins up with what is held (a reconnection) continues it', () => {
    const held = entries(1, 100)
    const r = keepLog(held, { log: entries(71, 110), logAfter: null })
    expect(r.log.map((x) => x.seq)).toEqual(entries(1, 110).map((x) => x.seq))
    expect(r.gap).toBe(false)
  })

  it('a whole tail that does not reach back to it replaces it (entries were missed)', () => {
    const r = keepLog(entries(1, 100), { log: entries(150, 189), logAfter: null })
    expect(r.log.map((x) => x.seq)).toEqual(entries(150, 189).map((x) => x.seq))
  })

  it('a missed delta is a gap to fill with table:sync', () => {
    expect(keepLog(entries(1, 10), { log: entries(15, 16), logAfter: 14 }).gap).toBe(true)
  })
})
