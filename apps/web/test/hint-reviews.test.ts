// "Check every move" on an Idiot replay (lib/hint-reviews.svelte.ts): every move its player made
// is reviewed in turn, and the moves that lost clearly more games than the hint's are listed.
import { type IdiotMove, type IdiotState, type IdiotView, parseCard } from '@kortbord/engine'
import { describe, expect, it } from 'vitest'
import { chosenOf, lostShare } from '../src/lib/hint.ts'
import { idiotHint } from '../src/lib/hint-bot.ts'
import { clearlyWorse, idiotReviewer, type Review } from '../src/lib/hint-review.ts'
import {
  type Answer,
  allAnswered,
  HintReviews,
  lookAgain,
  type Reviewer,
  summaryBySeat,
} from '../src/lib/hint-reviews.svelte.ts'
import type { MoveLine } from '../src/lib/replay.ts'
import { playedGame } from './idiot-game.ts'

const play = (card: string): IdiotMove => ({ type: 'play', cards: [parseCard(card)!] })
const pickup: IdiotMove = { type: 'pickup' }
const line = (k: number, move: IdiotMove, by: MoveLine['by'] = null): MoveLine => ({
  k,
  seat: k % 2,
  text: '',
  move,
  by,
})
/** A review whose hint played `hint` (lost `mine` of 100) against the move made (lost `played`). */
const review = (hint: IdiotMove, mine: number, played: number | null, same = false): Review => {
  const weighed = [
    { move: hint, tries: 100, lost: mine },
    { move: pickup, tries: 100, lost: played ?? 50 },
  ]
  return { hint: { move: hint, weighed }, same, played: played === null ? null : weighed[1]! }
}

describe('the moves to look at again', () => {
  it('those that lost more than twice the error above the hint’s move, in order', () => {
    const lines = [1, 2, 3, 4, 5].map((k) => line(k, pickup))
    const answers = new Map<number, Answer<Review>>([
      [1, review(play('5D'), 12, 30)],
      [2, review(play('5D'), 12, 21)],
      [3, review(play('5D'), 12, 25)],
      [4, review(play('5D'), 12, 12, true)],
      [5, 'working'],
    ])
    const reviewer = idiotReviewer(() => [])
    expect(lookAgain(reviewer, lines, answers)).toEqual([
      { k: 1, seat: 1, played: 30, hint: 12 },
      { k: 3, seat: 1, played: 25, hint: 12 },
    ])
    // 9 points over a hundred playouts each is within chance; 18 is not; fewer playouts, more error.
    const w = (lost: number, tries = 100) => ({ move: pickup, tries, lost })
    expect(clearlyWorse(w(21), w(12))).toBe(false)
    expect(clearlyWorse(w(30), w(12))).toBe(true)
    expect(clearlyWorse(w(3, 10), w(12))).toBe(false)
    expect(clearlyWorse(w(12), w(30))).toBe(false)
    expect(lostShare(chosenOf(review(play('5D'), 12, 30).hint!)!)).toBe(12)
    expect(chosenOf({ move: pickup, weighed: [] })).toBeUndefined()
    // A move not played out (the swap) is never listed.
    const swap: IdiotMove = { type: 'swap', hand: parseCard('2C')!, faceUp: parseCard('5D')! }
    expect(
      lookAgain(reviewer, [line(1, swap)], new Map([[1, review(play('5D'), 0, null)]])),
    ).toEqual([])
  })
})

/** The hint worked out here (a test has no Web Worker). */
const inThread = (v: IdiotView) => Promise.resolve(idiotHint(v))

describe('checking every move', () => {
  /** A short seeded 2-player game in which every fourth move is the timer's (not reviewed). */
  function game(moves: number): { states: IdiotState[]; lines: MoveLine[] } {
    const { states, lines } = playedGame('check-all', 2, moves)
    return { states, lines: lines.map((l) => ({ ...l, by: l.k % 4 === 0 ? 'timer' : null })) }
  }

  it('reviews each move its player made, once, and then says it has checked them all', async () => {
    const { states, lines } = game(14)
    const book = new HintReviews(idiotReviewer(() => states, inThread))
    await book.checkAll(lines)
    expect(book.checking).toBeNull()
    expect(book.checkedAll).toBe(true)
    for (const l of lines) {
      const a = book.answers.get(l.k)
      if (l.by !== null) expect(a).toBeUndefined()
      else expect(typeof a).toBe('object')
    }
    // Asked again, a move is not worked out again.
    const before = book.answers.get(1)
    await book.ask(lines[0]!)
    expect(book.answers.get(1)).toBe(before)
  })

  it('stops after the move it is at when the page goes', async () => {
    const { states, lines } = game(14)
    const book = new HintReviews(idiotReviewer(() => states, inThread))
    const done = book.checkAll(lines)
    book.stop()
    await done
    expect(book.checkedAll).toBe(false)
    expect(book.answers.size).toBeLessThanOrEqual(1)
  })
})

describe('stopping a check and going on', () => {
  /** A reviewer whose every answer waits for the test to let it go. */
  function held(lanes = 1) {
    const waiting: (() => void)[] = []
    const reviewer: Reviewer<{ same: boolean }> = {
      lanes,
      reviewable: (l) => l !== null && l.by === null,
      review: () => new Promise((res) => waiting.push(() => res({ same: true }))),
      behind: () => null,
      words: () => {
        throw new Error('not said here')
      },
    }
    /** Lets the answer under way go, once it is asked for. */
    const release = async () => {
      while (waiting.length === 0) await new Promise((r) => setTimeout(r, 1))
      waiting.shift()!()
    }
    return { reviewer, release, waiting }
  }
  const lines = [1, 2, 3, 4, 5].map((k) => line(k, pickup))

  it('ends after the move it is at, keeps what it found, and goes on from there', async () => {
    const { reviewer, release } = held()
    const book = new HintReviews(reviewer)
    const first = book.checkAll(lines)
    await release()
    await release()
    // Stopped while the third move is worked out: that one still gets its answer.
    while (book.answers.size < 3) await new Promise((r) => setTimeout(r, 1))
    book.pause()
    await release()
    await first
    expect(book.checking).toBeNull()
    expect(book.checkedAll).toBe(false)
    expect(book.paused).toEqual({ done: 3, of: 5 })
    expect([...book.answers.keys()]).toEqual([1, 2, 3])
    // Going on asks only for the two moves left.
    const rest = book.checkAll(lines)
    expect(book.paused).toBeNull()
    await release()
    await release()
    await rest
    expect(book.checkedAll).toBe(true)
    expect(book.answers.size).toBe(5)
    // Stopping when nothing is under way changes nothing.
    book.pause()
    expect(book.paused).toBeNull()
    expect(book.checkedAll).toBe(true)
  })

  it('with two lanes, two moves are worked out at once, each once, and none is left out', async () => {
    const { reviewer, release, waiting } = held(2)
    const book = new HintReviews(reviewer)
    const all = book.checkAll(lines)
    while (waiting.length < 2) await new Promise((r) => setTimeout(r, 1))
    expect(book.checking?.of).toBe(5)
    for (let i = 0; i < 5; i++) await release()
    await all
    expect(book.checkedAll).toBe(true)
    expect([...book.answers.keys()].sort()).toEqual([1, 2, 3, 4, 5])
    expect(waiting).toHaveLength(0)
  })
})

describe('each player’s moves checked', () => {
  it('counts the hint’s own moves and the moves to look at again, seat by seat', () => {
    const lines = [1, 2, 3, 4, 5, 6].map((k) => line(k, pickup))
    // Seats alternate: moves 2, 4, 6 are seat 0's; 1, 3, 5 seat 1's.
    const answers = new Map<number, Answer<Review>>([
      [1, review(play('5D'), 12, 30)],
      [2, review(play('5D'), 12, 12, true)],
      [3, review(play('5D'), 12, 13)],
      [4, review(play('5D'), 12, 12, true)],
      [5, 'failed'],
      [6, 'working'],
    ])
    expect(
      summaryBySeat(
        idiotReviewer(() => []),
        lines,
        answers,
      ),
    ).toEqual([
      { seat: 0, checked: 2, same: 2, again: 0 },
      { seat: 1, checked: 2, same: 0, again: 1 },
    ])
    expect(
      summaryBySeat(
        idiotReviewer(() => []),
        lines,
        new Map(),
      ),
    ).toEqual([])
  })
})

describe('whether every move is answered', () => {
  it('counts only the moves that can be reviewed; one under way counts', () => {
    const reviewer = idiotReviewer(() => [])
    const lines = [line(1, pickup), line(2, pickup, 'timer'), line(3, pickup)]
    expect(allAnswered(reviewer, lines, new Map())).toBe(false)
    expect(allAnswered(reviewer, lines, new Map([[1, 'working']]))).toBe(false)
    expect(
      allAnswered(
        reviewer,
        lines,
        new Map<number, Answer<Review>>([
          [1, 'working'],
          [3, 'failed'],
        ]),
      ),
    ).toBe(true)
    expect(allAnswered(reviewer, [], new Map())).toBe(true)
  })
})
