// Hints at an Idiot table (docs/rules.md, "At the table (Idiot)"; I-15): when the Hint button is
// offered, what a hint says in each language, and that the move it names is one the player may
// make, worked out from their own view alone.
import {
  applyIdiot,
  type IdiotMove,
  type IdiotState,
  idiotLegalMovesFromView,
  idiotView,
  parseCard,
  setupIdiot,
} from '@kortbord/engine'
import type { SeatInfo, TableStatus } from '@kortbord/protocol/wire'
import { describe, expect, it } from 'vitest'
import { hintOdds, hintOffered, hintWords } from '../src/lib/hint.ts'
import { HINT_THINK_MS, idiotHint } from '../src/lib/hint-bot.ts'
import { TABLE_DICTS } from '../src/lib/i18n-table.ts'
import { playedGame } from './idiot-game.ts'

type Seat = Pick<SeatInfo, 'bot'> & { name: string }
const person = (name: string): Seat => ({ name, bot: null })
const bot = (name: string): Seat => ({ name, bot: 'normal' })
/** An Idiot table's part that decides it; `hints`: the host's option (undefined: older tables). */
const table = (seats: Seat[], status: TableStatus = 'playing', hints?: boolean) => ({
  seats,
  status,
  settings: hints === undefined ? { seats: seats.length } : { seats: seats.length, hints },
})

describe('when a hint is offered', () => {
  const practice = [person('Astrid'), bot('Alva'), bot('Sixten'), bot('Ebba')]
  const withBo = [person('Astrid'), bot('Alva'), person('Bo')]

  it('to a seated player while every other seat is a computer player', () => {
    expect(hintOffered(table(practice), 0, false)).toBe(true)
    // A person's seat handed to a computer player (I-16) counts as the computer's.
    const handedOver = [person('Astrid'), { name: 'Bo', bot: 'hard' as const }]
    expect(hintOffered(table(handedOver), 0, false)).toBe(true)
  })

  it('never with another person at the table, to a spectator, for a seat a bot plays, or between games', () => {
    expect(hintOffered(table(withBo), 0, false)).toBe(false)
    expect(hintOffered(table(withBo, 'playing', false), 2, false)).toBe(false)
    expect(hintOffered(table(practice), null, false)).toBe(false)
    expect(hintOffered(table(practice), 0, true)).toBe(false)
    expect(hintOffered(table(practice, 'over'), 0, false)).toBe(false)
    expect(hintOffered(table(practice, 'waiting'), 0, false)).toBe(false)
  })

  it('to every seated player at a table created with hints for all, never to a spectator', () => {
    for (const me of [0, 2])
      expect(hintOffered(table(withBo, 'playing', true), me, false)).toBe(true)
    expect(hintOffered(table(withBo, 'playing', true), null, false)).toBe(false)
    expect(hintOffered(table(withBo, 'over', true), 0, false)).toBe(false)
    expect(hintOffered(table(withBo, 'playing', true), 0, true)).toBe(false)
  })
})

describe('what a hint says', () => {
  const fiveClubs = parseCard('5C')!
  const fiveHearts = parseCard('5H')!
  const kingSpades = parseCard('KS')!
  const cases: [IdiotMove, Record<'sv' | 'nb' | 'en', string>][] = [
    [
      { type: 'play', cards: [fiveHearts, fiveClubs] },
      {
        en: 'Hint: play the five of hearts and five of clubs.',
        sv: 'Tips: lägg fem i hjärter och fem i klöver.',
        nb: 'Tips: legg hjerter fem og kløver fem.',
      },
    ],
    [
      { type: 'swap', hand: kingSpades, faceUp: fiveClubs },
      {
        en: 'Hint: swap the king of spades in your hand for the five of clubs on the table.',
        sv: 'Tips: byt kung i spader i handen mot fem i klöver på bordet.',
        nb: 'Tips: bytt spar konge på hånden mot kløver fem på bordet.',
      },
    ],
    [
      { type: 'pickup' },
      { en: 'Hint: pick up the pile.', sv: 'Tips: ta upp högen.', nb: 'Tips: ta opp bunken.' },
    ],
  ]
  for (const [move, words] of cases) {
    it(`a ${move.type}, in three languages`, () => {
      for (const lang of ['sv', 'nb', 'en'] as const) {
        expect(hintWords(move, lang, TABLE_DICTS[lang])).toBe(words[lang])
      }
    })
  }
})

describe('how much the choice matters, from the playouts', () => {
  const play = (card: string): IdiotMove => ({ type: 'play', cards: [parseCard(card)!] })
  const pickup: IdiotMove = { type: 'pickup' }
  const weighed = [
    { move: play('5D'), tries: 100, lost: 21 },
    { move: pickup, tries: 100, lost: 30 },
    { move: play('9S'), tries: 100, lost: 24.5 },
  ]

  it('the share of games the hint’s move lost, and the others’, in three languages', () => {
    const thought = { move: play('5D'), weighed }
    expect(hintOdds(thought, TABLE_DICTS.en)).toBe(
      'Played out 300 times from guesses of the hidden cards: the hint’s move lost 21% of the games, the others 25–30%.',
    )
    expect(hintOdds(thought, TABLE_DICTS.sv)).toBe(
      'Utspelat 300 gånger från gissningar av de dolda korten: tipsets drag förlorade 21\u00a0% av partierna, de andra 25–30\u00a0%.',
    )
    expect(hintOdds(thought, TABLE_DICTS.nb)).toBe(
      'Spilt ut 300 ganger fra gjetninger av de skjulte kortene: tipsets trekk tapte 21\u00a0% av spillene, de andre 25–30\u00a0%.',
    )
  })

  it('one other move; a move that lost fewer games but not clearly fewer; nothing weighed', () => {
    const two = { move: pickup, weighed: weighed.slice(0, 2) }
    expect(hintOdds(two, TABLE_DICTS.en)).toBe(
      'Played out 200 times from guesses of the hidden cards: the hint’s move lost 30% of the games, the other 21%. No other move did clearly better.',
    )
    expect(hintOdds({ move: pickup, weighed: [] }, TABLE_DICTS.en)).toBeNull()
    expect(hintOdds({ move: { type: 'ready' }, weighed: [] }, TABLE_DICTS.en)).toBeNull()
  })
})

describe('the move a hint names (I-15)', () => {
  /** Plays a seeded game with normal bots and calls `see` at each position where seat 0 acts. */
  /** Calls `see` at each position of a seeded game where seat 0 is to act. */
  function positions(seed: string, seats: number, see: (s: IdiotState) => void): void {
    const { states, lines } = playedGame(seed, seats)
    for (const l of lines) if (l.seat === 0) see(states[l.k - 1]!)
  }

  it('is always a move the player may make, the same each time it is asked at one position', () => {
    // A clock that stands still: all the bot's rollouts, so the same answer on a slow machine too.
    const still = () => 0
    let asked = 0
    for (const seats of [2, 3, 4]) {
      positions(`hint-${seats}`, seats, (s) => {
        const view = idiotView(s, 0)
        const hint = idiotHint(view, still)
        expect(hint).not.toBeNull()
        expect(idiotLegalMovesFromView(view)).toContainEqual(hint!.move)
        if (asked++ % 10 === 0) expect(idiotHint(view, still)).toEqual(hint)
      })
    }
    expect(asked).toBeGreaterThan(30)
  })

  it('stops thinking at its time limit and still names a legal move', () => {
    let s = setupIdiot({}, 3, { seed: 'hint-clock' })
    // Everyone ready, so that seat 0 or another has a play to make.
    for (const seat of [0, 1, 2]) {
      const r = applyIdiot(s, seat, { type: 'ready' })
      if (!r.ok) throw new Error(r.error.message)
      s = r.value
    }
    const view = idiotView(s, s.turn!)
    let t = 0
    // A clock that jumps past the limit at its second reading: the bot stops at once.
    const now = () => (t++ === 0 ? 0 : HINT_THINK_MS + 1)
    const hint = idiotHint(view, now)!
    expect(idiotLegalMovesFromView(view)).toContainEqual(hint.move)
    // It read the clock after one playout of each move, as the hard bot does, and stopped there.
    expect(t).toBeGreaterThanOrEqual(2)
    expect(t).toBeLessThan(10)
    expect(hint.weighed.length).toBeGreaterThan(1)
    expect(hint.weighed.every((w) => w.tries === 1)).toBe(true)
  })
})
