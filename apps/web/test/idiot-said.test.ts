import { describe, expect, it } from 'vitest'
import { MoveNews } from '../src/lib/idiot-said.ts'

/** Timers a test moves by hand. */
function clock() {
  let now = 0
  let next = 1
  const due = new Map<number, { at: number; f: () => void }>()
  return {
    timers: {
      set: (f: () => void, ms: number) => {
        const id = next++
        due.set(id, { at: now + ms, f })
        return id
      },
      clear: (id: unknown) => void due.delete(id as number),
    },
    advance(ms: number) {
      now += ms
      for (const [id, d] of [...due]) {
        if (d.at <= now) {
          due.delete(id)
          d.f()
        }
      }
    },
  }
}

describe('what a screen reader hears at an Idiot table (QA: ~3 announcements a second with bots)', () => {
  it('[I-15] a run of others’ moves is one announcement once the table is quiet', () => {
    const c = clock()
    const said: string[] = []
    const news = new MoveNews((s) => said.push(s), 1500, c.timers)
    news.push(['Bot 1 played seven of hearts'], 'Bot 2’s turn', false)
    c.advance(700)
    news.push(['Bot 2 played eight of spades'], 'Bot 3’s turn', false)
    c.advance(700)
    expect(said).toEqual([])
    c.advance(1500)
    expect(said).toEqual([
      'Bot 1 played seven of hearts. Bot 2 played eight of spades. Bot 3’s turn.',
    ])
  })

  it('the reader’s turn is said at once, with what came before it', () => {
    const c = clock()
    const said: string[] = []
    const news = new MoveNews((s) => said.push(s), 1500, c.timers)
    news.push(['Bot 1 played seven of hearts'], 'Bot 2’s turn', false)
    c.advance(700)
    news.push(['Bot 2 picked up the pile (5 cards)'], 'Your turn', true)
    expect(said).toEqual([
      'Bot 1 played seven of hearts. Bot 2 picked up the pile (5 cards). Your turn.',
    ])
    // Nothing is said again when the old timer would have run.
    c.advance(5000)
    expect(said).toHaveLength(1)
  })

  it('a burn, where the same player goes again, still ends with whose turn it is', () => {
    const c = clock()
    const said: string[] = []
    const news = new MoveNews((s) => said.push(s), 1500, c.timers)
    news.push(['Astrid played ten of clubs', 'Astrid burned the pile'], 'Your turn', true)
    expect(said).toEqual(['Astrid played ten of clubs. Astrid burned the pile. Your turn.'])
  })

  it('a move without words (a bot’s swap) does not say the same tail again', () => {
    const c = clock()
    const said: string[] = []
    const news = new MoveNews((s) => said.push(s), 1500, c.timers)
    news.push([], 'Swap cards, then press Ready', true)
    news.push([], 'Swap cards, then press Ready', false)
    c.advance(2000)
    news.push([], 'Waiting for the others', true)
    expect(said).toEqual(['Swap cards, then press Ready.', 'Waiting for the others.'])
  })

  it('stop forgets what was gathered', () => {
    const c = clock()
    const said: string[] = []
    const news = new MoveNews((s) => said.push(s), 1500, c.timers)
    news.push(['Bot 1 played seven of hearts'], 'Bot 2’s turn', false)
    news.stop()
    c.advance(5000)
    expect(said).toEqual([])
  })
})
