import type { SeatInfo, TableInfo } from '@kortbord/protocol/wire'
import { describe, expect, it } from 'vitest'
import { gameNames, myGameSeat, seatNames, startNowOffered, tallyLine } from '../src/lib/players.ts'

const seat = (name: string | null): SeatInfo => ({
  name,
  connected: name !== null,
  away: false,
  graceUntil: null,
  gone: false,
  bot: null,
})
type Part = Pick<TableInfo, 'seats' | 'players' | 'tally'>
const table = (names: (string | null)[], players: (string | null)[], tally: number[]): Part => ({
  seats: names.map(seat),
  players,
  tally,
})

describe('whom the seats stand for (I-16)', () => {
  it('while the seats are the players of the game shown, both are the same', () => {
    const t = table(['Astrid', 'Bo', 'Cy'], [null, null, null], [0, 1, 0])
    expect(seatNames(t)).toEqual(['Astrid', 'Bo', 'Cy'])
    expect(gameNames(t)).toEqual(['Astrid', 'Bo', 'Cy'])
    expect(myGameSeat(t, 1)).toBe(1)
    expect(myGameSeat(t, null)).toBeNull()
    expect(tallyLine(t)).toBe('Astrid (0) · Bo (1) · Cy (0)')
  })

  it('offers the host “Start now” beside “Play again” only with another person to wait for', () => {
    const t = table(['Anna', 'Bot 1', 'Bot 2'], [null, null, null], [0, 0, 0])
    const withBots = {
      seats: t.seats.map((x, i) => (i === 0 ? x : { ...x, bot: 'normal' as const })),
    }
    expect(startNowOffered(withBots, 0)).toBe(false)
    const withBo = { seats: withBots.seats.map((x, i) => (i === 2 ? seat('Bo') : x)) }
    expect(startNowOffered(withBo, 0)).toBe(true)
    // An open seat is nobody to wait for.
    const open = { seats: withBots.seats.map((x, i) => (i === 2 ? seat(null) : x)) }
    expect(startNowOffered(open, 0)).toBe(false)
  })

  it('a numbered bot’s count is not read as part of its name', () => {
    const t = table(['Anna', 'Bot 1', 'Bot 2'], [null, null, null], [1, 0, 2])
    expect(tallyLine(t)).toBe('Anna (1) · Bot 1 (0) · Bot 2 (2)')
  })

  it('a seat freed after the game: the game is still Bo’s; the open seat has no tally', () => {
    const t = table(['Astrid', null, 'Cy'], [null, 'Bo', null], [0, 0, 0])
    expect(seatNames(t)).toEqual(['Astrid', '#2', 'Cy'])
    expect(gameNames(t)).toEqual(['Astrid', 'Bo', 'Cy'])
    expect(tallyLine(t)).toBe('Astrid (0) · Cy (0)')
  })

  it('a newcomer in it played none of that game: it is not theirs, and their tally is theirs', () => {
    const t = table(['Astrid', 'Di', 'Cy'], [null, 'Bo', null], [0, 0, 0])
    expect(gameNames(t)).toEqual(['Astrid', 'Bo', 'Cy'])
    expect(myGameSeat(t, 1)).toBeNull()
    expect(myGameSeat(t, 0)).toBe(0)
    expect(tallyLine(t)).toBe('Astrid (0) · Di (0) · Cy (0)')
  })

  it('a table info without players (a server of the version before) is read as the seats', () => {
    const t = { seats: [seat('Astrid'), seat('Bo')] } as unknown as Part
    expect(gameNames(t)).toEqual(['Astrid', 'Bo'])
    expect(myGameSeat(t, 1)).toBe(1)
  })
})
