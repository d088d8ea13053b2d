// "What would the hint do?" on an Idiot replay (docs/rules.md, hints): which moves it is asked
// for, when two moves come to the same, and the hint's move from the mover's view at that moment.
import {
  type IdiotMove,
  type IdiotView,
  idiotLegalMovesFromView,
  idiotView,
  parseCard,
} from '@kortbord/engine'
import { describe, expect, it } from 'vitest'
import { lostShare } from '../src/lib/hint.ts'
import { idiotHint } from '../src/lib/hint-bot.ts'
import { reviewable, reviewMove, sameMove } from '../src/lib/hint-review.ts'
import { RECORD_DICTS } from '../src/lib/i18n-records.ts'
import type { MoveLine } from '../src/lib/replay.ts'
import { playedGame } from './idiot-game.ts'

const c = (s: string) => parseCard(s)!
const line = (move: IdiotMove | null, by: MoveLine['by'] = null, k = 1, seat = 0): MoveLine => ({
  k,
  seat,
  text: '',
  move,
  by,
})

describe('which moves the replay compares with a hint', () => {
  it('a move its player made, not one the timer or a computer player made for them', () => {
    expect(reviewable(line({ type: 'play', cards: [c('5H')] }))).toBe(true)
    expect(reviewable(line({ type: 'pickup' }))).toBe(true)
    expect(reviewable(line({ type: 'swap', hand: c('2C'), faceUp: c('5D') }))).toBe(true)
    expect(reviewable(line({ type: 'ready' }))).toBe(true)
    expect(reviewable(line({ type: 'pickup' }, 'timer'))).toBe(false)
    expect(reviewable(line({ type: 'play', cards: [c('5H')] }, 'bot'))).toBe(false)
    expect(reviewable(line(null))).toBe(false)
    expect(reviewable(null)).toBe(false)
  })

  it('two moves are the same when they lay or swap the same ranks, whatever the suits', () => {
    const play = (...cs: string[]): IdiotMove => ({ type: 'play', cards: cs.map(c) })
    expect(sameMove(play('5H', '5C'), play('5S', '5D'))).toBe(true)
    expect(sameMove(play('5H'), play('5H', '5C'))).toBe(false)
    expect(sameMove(play('5H'), play('6H'))).toBe(false)
    expect(sameMove(play('5H'), { type: 'pickup' })).toBe(false)
    expect(sameMove({ type: 'pickup' }, { type: 'pickup' })).toBe(true)
    const swap = (h: string, u: string): IdiotMove => ({ type: 'swap', hand: c(h), faceUp: c(u) })
    expect(sameMove(swap('2C', '5D'), swap('2H', '5S'))).toBe(true)
    expect(sameMove(swap('2C', '5D'), swap('2C', '6D'))).toBe(false)
    expect(sameMove({ type: 'ready' }, swap('2C', '5D'))).toBe(false)
  })
})

describe('what the review says of a move made otherwise', () => {
  it('the share of the games that move lost, in three languages', () => {
    expect(RECORD_DICTS.en.reviewOtherLost('Bo', 30)).toBe(
      'Bo did otherwise; that move lost 30% of the games played out.',
    )
    expect(RECORD_DICTS.sv.reviewOtherLost('Bo', 30)).toBe(
      'Bo gjorde annorlunda; det draget förlorade 30\u00a0% av de utspelade partierna.',
    )
    expect(RECORD_DICTS.nb.reviewOtherLost('Bo', 30)).toBe(
      'Bo gjorde noe annet; det trekket tapte 30\u00a0% av de utspilte spillene.',
    )
  })
})

describe('the hint for a move of a replayed game (I-15)', () => {
  it('is the hint the player would have got from their view then, legal there', async () => {
    const { states, lines } = playedGame('review', 3, 40)
    // A clock that stands still: the bot plays all its rollouts, so both answers are the same
    // on a slow machine too (on the page it stops at HINT_THINK_MS).
    const still = () => 0
    let same = 0
    let withShare = 0
    // What the hint is asked with: the view the page would ask it for.
    const asked: IdiotView[] = []
    const ask = (v: IdiotView) => {
      asked.push(v)
      return Promise.resolve(idiotHint(v, still))
    }
    for (const l of lines) {
      if (!reviewable(l)) throw new Error('every move here is its player’s own')
      const view = idiotView(states[l.k - 1]!, l.seat)
      const review = await reviewMove(states, l, ask)
      expect(asked.at(-1)).toEqual(view)
      expect(review.hint).toEqual(idiotHint(view, still))
      expect(idiotLegalMovesFromView(view)).toContainEqual(review.hint!.move)
      expect(review.same).toBe(sameMove(review.hint!.move, l.move))
      // The move made, where the bot played it out: its share of the games lost.
      const played = review.hint!.weighed.find((w) => sameMove(w.move, l.move))
      if (played) {
        expect(review.played).toBe(played)
        expect(lostShare(review.played!)).toBe(Math.round((100 * played.lost) / played.tries))
        withShare++
      } else {
        expect(review.played).toBeNull()
        // Only the swap's moves, and a turn with one choice, are not played out.
        expect(
          l.move.type === 'swap' || l.move.type === 'ready' || review.hint!.weighed.length === 0,
        ).toBe(true)
      }
      if (review.same) same++
    }
    // The normal bot and the hint agree on many moves, not on all.
    expect(same).toBeGreaterThan(0)
    expect(withShare).toBeGreaterThan(10)
    expect(same).toBeLessThan(lines.length)
  })
})
