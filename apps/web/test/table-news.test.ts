import type { IdiotEvent } from '@kortbord/engine'
import type { LogEntry } from '@kortbord/protocol/wire'
import { describe, expect, it } from 'vitest'
import { DICTS } from '../src/lib/i18n-all.ts'
import {
  describeTableEvent,
  forfeitOf,
  latestTableEvent,
  timedGame,
  timerChoices,
  turnSecondsOf,
} from '../src/lib/table-news.ts'

type Body = LogEntry extends infer E ? (E extends LogEntry ? Omit<E, 'seq' | 'at'> : never) : never
const logOf = (...bodies: Body[]): LogEntry[] =>
  bodies.map((b, i) => ({ ...b, seq: i + 1, at: 1000 + i }) as LogEntry)
const game = (e: IdiotEvent): Body => ({ t: 'game', e })
const names = ['Astrid', 'Bo']

describe('what the table did, in words (I-16)', () => {
  it('[I-16] a timeout stays news through the forced move, until another player moves', () => {
    const timedOut = logOf(
      { t: 'started', gameNo: 1 },
      game({ t: 'play', seat: 0, cards: [3], from: 'hand' }),
      { t: 'timeout', seat: 1, action: 'pickup' },
      game({ t: 'pickup', seat: 1, cards: [3] }),
      { t: 'away', seat: 1, name: 'Bo' },
    )
    const e = latestTableEvent(timedOut)
    expect(e).toMatchObject({ t: 'timeout', seat: 1, action: 'pickup' })
    expect(describeTableEvent(e!, names, DICTS.en)).toBe('Time ran out for Bo: picked up the pile')
    expect(describeTableEvent(e!, names, DICTS.sv)).toBe('Tiden tog slut för Bo: högen togs upp')
    const moved = [
      ...timedOut,
      ...logOf(game({ t: 'play', seat: 0, cards: [9], from: 'hand' })).map((x) => ({
        ...x,
        seq: 99,
      })),
    ]
    expect(latestTableEvent(moved)).toBeNull()
  })

  it('[I-16] a swap-phase timeout is not made stale by the game starting', () => {
    const log = logOf(
      { t: 'started', gameNo: 1 },
      game({ t: 'ready', seat: 0 }),
      { t: 'timeout', seat: 1, action: 'ready' },
      game({ t: 'ready', seat: 1 }),
      game({ t: 'start', seat: 1 }),
    )
    expect(describeTableEvent(latestTableEvent(log)!, names, DICTS.nb)).toBe(
      'Tiden gikk ut for Bo: markert som klar',
    )
  })

  it('[I-16] a bot taking over, a forfeit and the timer are told; a new game clears them', () => {
    const bot = logOf(
      { t: 'started', gameNo: 1 },
      {
        t: 'bot',
        seat: 1,
        name: 'Bo',
        level: 'normal',
        by: 0,
      },
      game({ t: 'play', seat: 1, cards: [5], from: 'hand' }),
    )
    expect(describeTableEvent(latestTableEvent(bot)!, names, DICTS.en)).toBe('A bot plays for Bo')
    // Bo takes the seat back: no longer news, even where no move follows (the duel, Klockan).
    const back = logOf(
      { t: 'started', gameNo: 1 },
      { t: 'bot', seat: 1, name: 'Bo', level: 'normal', by: 0 },
      { t: 'back', seat: 1, name: 'Bo' },
    )
    expect(latestTableEvent(back)).toBeNull()
    // Someone else coming back changes nothing.
    const other = logOf(
      { t: 'started', gameNo: 1 },
      { t: 'bot', seat: 1, name: 'Bo', level: 'normal', by: 0 },
      { t: 'back', seat: 0, name: 'Astrid' },
    )
    expect(latestTableEvent(other)).toMatchObject({ t: 'bot', seat: 1 })
    const forfeit = logOf({ t: 'started', gameNo: 2 }, { t: 'forfeit', seat: 1, name: 'Bo', by: 0 })
    expect(describeTableEvent(latestTableEvent(forfeit)!, names, DICTS.en)).toBe('Bo forfeited')
    expect(forfeitOf(forfeit)).toMatchObject({ seat: 1, by: 0 })
    const timer = logOf({ t: 'started', gameNo: 1 }, { t: 'timer', turnSeconds: null })
    expect(describeTableEvent(latestTableEvent(timer)!, names, DICTS.en)).toBe(
      'The turn timer is now off',
    )
    const timer45 = logOf({ t: 'started', gameNo: 1 }, { t: 'timer', turnSeconds: 45 })
    expect(describeTableEvent(latestTableEvent(timer45)!, names, DICTS.sv)).toBe(
      'Tidsgränsen är nu 45 s',
    )
    // Any move after a timer change makes it old news.
    const played = logOf(
      { t: 'started', gameNo: 1 },
      { t: 'timer', turnSeconds: 45 },
      game({ t: 'play', seat: 0, cards: [5], from: 'hand' }),
    )
    expect(latestTableEvent(played)).toBeNull()
    const next = logOf({ t: 'forfeit', seat: 1, name: 'Bo', by: 0 }, { t: 'started', gameNo: 2 })
    expect(latestTableEvent(next)).toBeNull()
    expect(forfeitOf(next)).toBeNull()
  })

  it('[I-16] the duel and Klockan för två have timers; patiences alone have none', () => {
    expect(timedGame('idiot', { seats: 2, turnSeconds: 30, hints: false })).toBe(true)
    expect(timedGame('klockan', { variant: 'standard', seats: 2, turnSeconds: 20 })).toBe(true)
    expect(timedGame('klockan', { variant: 'standard', seats: 1, turnSeconds: 20 })).toBe(false)
    expect(timedGame('herrarna', {})).toBe(false)
    expect(
      turnSecondsOf({
        game: 'klockan',
        settings: { variant: 'standard', seats: 1, turnSeconds: 20 },
      }),
    ).toBeNull()
    expect(
      turnSecondsOf({ game: 'idiot', settings: { seats: 2, turnSeconds: null, hints: false } }),
    ).toBeNull()
    expect(
      turnSecondsOf({ game: 'idiot', settings: { seats: 2, turnSeconds: 45, hints: false } }),
    ).toBe(45)
  })

  it('[I-16] the host’s timer choices keep an unusual current setting, in order', () => {
    expect(timerChoices(30)).toEqual([null, 15, 20, 30, 45, 60, 90, 120])
    expect(timerChoices(37)).toEqual([null, 15, 20, 30, 37, 45, 60, 90, 120])
  })
})
