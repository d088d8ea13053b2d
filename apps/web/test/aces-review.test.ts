// "What would the hint do?" on an Idioten replay (lib/aces-review.ts): each move a player made,
// beside the move Idioten alone's hint would have chosen from that player's view then, with the
// moves that left clearly more cards listed to look at again. Played on matches recorded as the
// server records them, by random players (whose moves are often clearly worse).
import {
  type AcesUpMove,
  acesUpHint,
  acesUpLegalMoves,
  acesUpView,
  type DuelState,
  Rng,
  replayRecord,
  sameAcesUpMove,
} from '@kortbord/engine'
import { describe, expect, it } from 'vitest'
import { recordedGame } from '../../../packages/engine/test/record-games.ts'
import { acesHint } from '../src/lib/aces-hint-bot.ts'
import {
  type AcesReview,
  acesReviewable,
  acesReviewer,
  positionOf,
  reviewAcesMove,
} from '../src/lib/aces-review.ts'
import { HintReviews, lookAgain } from '../src/lib/hint-reviews.svelte.ts'
import { LANGS } from '../src/lib/i18n.ts'
import { RECORD_DICTS } from '../src/lib/i18n-records.ts'
import { type MoveLine, moveLines } from '../src/lib/replay.ts'

/** A clock that never moves: every hint plays out all its guesses, the same on any machine. */
const still = () => 0
const ask = (v: Parameters<typeof acesHint>[0], ms: readonly AcesUpMove[]) =>
  Promise.resolve(acesHint(v, ms, still))
/** A quicker hint for checking many moves: fewer guesses of the stock. */
const quick = (v: Parameters<typeof acesHint>[0], ms: readonly AcesUpMove[]) =>
  Promise.resolve(acesUpHint(v, ms, Rng.seeded(`quick-${v.moves}`), { tries: 30 }))

const line = (move: AcesUpMove | null, by: MoveLine['by'] = null): MoveLine => ({
  k: 1,
  seat: 0,
  text: '',
  move,
  by,
})

function match(seed: string, moves = 90): { states: DuelState[]; lines: MoveLine[] } {
  const rec = recordedGame('duel', seed)
  const states = replayRecord(rec).states as DuelState[]
  return { states, lines: moveLines(rec).slice(0, moves) }
}

describe('the hint beside an Idioten move (A-17 hints)', () => {
  it('reviews the moves of the game its player made: not undo, a timer’s or a frame', () => {
    expect(acesReviewable(line({ type: 'discard', pile: 2 }))).toBe(true)
    expect(acesReviewable(line({ type: 'move', from: 0, to: 3 }))).toBe(true)
    expect(acesReviewable(line({ type: 'deal' }))).toBe(true)
    expect(acesReviewable(line({ type: 'finish' }))).toBe(true)
    expect(acesReviewable(line({ type: 'undo' }))).toBe(false)
    expect(acesReviewable(line({ type: 'deal' }, 'timer'))).toBe(false)
    expect(acesReviewable(line({ type: 'deal' }, 'bot'))).toBe(false)
    expect(acesReviewable(line(null))).toBe(false)
    expect(acesReviewable(null)).toBe(false)
  })

  it('[I-15][A-15] the hint is the table’s own, from the mover’s view: the stock’s order changes nothing', async () => {
    const { states, lines } = match('aces-review-view', 40)
    let reviewed = 0
    for (const l of lines.filter(acesReviewable)) {
      const game = states[l.k - 1]!.players[l.seat]!.current!
      const { view, moves } = positionOf(states, l)
      expect(view).toEqual(acesUpView(game, 0))
      expect(moves).toEqual(acesUpLegalMoves(game, 0))
      const review = await reviewAcesMove(states, l, ask)
      // What the table's Hint button would have said at that moment (the same seed and view).
      expect(review.hint).toEqual(acesHint(view, moves, still))
      // The same table with the stock in another order: the same review.
      const turned = states.map((s, i) =>
        i !== l.k - 1
          ? s
          : {
              ...s,
              players: s.players.map((p, seat) =>
                seat === l.seat && p.current
                  ? { ...p, current: { ...p.current, stock: p.current.stock.slice().reverse() } }
                  : p,
              ),
            },
      ) as DuelState[]
      expect(await reviewAcesMove(turned, l, ask)).toEqual(review)
      reviewed++
      if (reviewed >= 8) break
    }
    expect(reviewed).toBe(8)
  })

  it('checks every move, and lists those that left clearly more cards than the hint’s, in words', async () => {
    const { states, lines } = match('aces-review-4', 60)
    const reviewer = acesReviewer(() => states, quick)
    const book = new HintReviews(reviewer)
    await book.checkAll(lines)
    expect(book.checkedAll).toBe(true)
    let same = 0
    let other = 0
    for (const l of lines) {
      const a = book.answers.get(l.k)
      if (!acesReviewable(l)) {
        expect(a).toBeUndefined()
        continue
      }
      const r = a as AcesReview
      expect(typeof r).toBe('object')
      expect(r.same).toBe(sameAcesUpMove(r.hint!.move, l.move as AcesUpMove))
      if (r.same) same++
      else other++
      // The move made has figures whenever the hint weighed more than one move.
      expect(r.played === null).toBe(r.hint!.weighed.length === 0)
    }
    // Random players agree with the hint sometimes, not always.
    expect(same).toBeGreaterThan(0)
    expect(other).toBeGreaterThan(0)
    const again = lookAgain(reviewer, lines, book.answers)
    expect(again.length).toBeGreaterThan(0)
    for (const a of again) {
      const r = book.answers.get(a.k) as AcesReview
      expect(r.same).toBe(false)
      expect(r.played!.behind).toBeGreaterThan(0)
      expect(a.played).toBeGreaterThan(a.hint)
    }
    // Every move the hint did not clearly beat is left out.
    const listed = new Set(again.map((a) => a.k))
    for (const [k, r] of book.answers) {
      if (!listed.has(k) && typeof r === 'object')
        expect(r.same || !(r.played!.behind > 0)).toBe(true)
    }
    for (const lang of LANGS) {
      const names = ['Ada', 'Bo']
      const w = reviewer.words(lang, names)
      const item = w.lookItem(again[0]!)
      expect(item).toContain(names[again[0]!.seat]!)
      expect(item).toContain(`${again[0]!.k}`)
      const sameLine = lines.find((l) => (book.answers.get(l.k) as AcesReview | undefined)?.same)!
      expect(w.said(book.answers.get(sameLine.k) as AcesReview, sameLine)).toContain(
        RECORD_DICTS[lang].reviewSame(names[sameLine.seat]!),
      )
      // A move to look at again is said with its own figure.
      const first = lines.find((l) => l.k === again[0]!.k)!
      const figure = new Intl.NumberFormat(lang, {
        minimumFractionDigits: 1,
        maximumFractionDigits: 1,
      })
      expect(w.said(book.answers.get(first.k) as AcesReview, first)).toContain(
        RECORD_DICTS[lang].reviewOtherLeft(names[first.seat]!, figure.format(again[0]!.played)),
      )
    }
  })

  it('a move into a gap that the hint would make into another gap is said with the player’s own gap', () => {
    const { states } = match('aces-review-gap', 4000)
    const reviewer = acesReviewer(() => states, ask)
    const w = reviewer.words('en', ['Ada'])
    // A position with two gaps and a card to move is rare in random play: build the review.
    const game = states.find((s) => s.players[0]!.current)!.players[0]!.current!
    const view = { ...acesUpView(game, 0), piles: [[...game.piles[0]!], [], [], game.piles[3]!] }
    const made: AcesUpMove = { type: 'move', from: 0, to: 2 }
    const review: AcesReview = {
      view,
      hint: { move: { type: 'move', from: 0, to: 1 }, weighed: [] },
      same: true,
      played: null,
    }
    const said = w.said(review, { ...line(made), k: 5 })
    expect(said).toContain('empty pile 3')
    expect(said).toContain('Ada did the same.')
  })
})
