// This browser's contributions to the shuffle and its witness of each game (issue 14), as the
// table client reads the server's updates.
import type { FairInfo, TableInfo, TableUpdate } from '@kortbord/protocol/wire'
import { beforeEach, describe, expect, it } from 'vitest'
import {
  Contribution,
  drawEntropy,
  keepWitness,
  WITNESS_MAX,
  witnessOf,
} from '../src/lib/contribution.ts'
import { installLocalStorage } from './local-storage.ts'

const seat = { connected: true, away: false, graceUntil: null, gone: false, bot: null }

function update(
  me: number | null,
  status: TableInfo['status'],
  fair: Partial<FairInfo>,
  bots: (string | null)[] = [null, null],
): TableUpdate {
  const table = {
    code: 'ABCDEF',
    game: 'idiot',
    settings: { seats: 2, turnSeconds: 30 },
    host: 0,
    seats: bots.map((b, i) => ({ ...seat, name: `P${i}`, bot: b })),
    status,
    version: 1,
    fair: { commitment: 'c'.repeat(64), entropy: ['', ''], record: null, head: null, ...fair },
  } as unknown as TableInfo
  return { table, seat: me, view: null, log: [], logAfter: null }
}

/** A drawer that hands out the given values in turn (the real one is random). */
const values = (...vs: string[]) => {
  let i = 0
  return () => vs[i++] ?? `end${i}`
}

describe('contributions to the shuffle (issue 14)', () => {
  beforeEach(() => {
    installLocalStorage()
  })

  it('draws 16 random bytes as lowercase hex, a new value every time', () => {
    const a = drawEntropy()
    const b = drawEntropy()
    expect(a).toMatch(/^[0-9a-f]{32}$/)
    expect(b).toMatch(/^[0-9a-f]{32}$/)
    expect(a).not.toBe(b)
  })

  it('keeps the value a new table was created with, for the first game', () => {
    Contribution.created('ABCDEF', 'aa11')
    const c = new Contribution('ABCDEF', values('bb22'))
    expect(c.next).toBe('aa11')
    // The table shows it: nothing to send.
    expect(c.observe(update(0, 'waiting', { entropy: ['aa11', ''] }))).toBeNull()
  })

  it('sends a fresh value between games, once a game was dealt with the last one', () => {
    const c = new Contribution('ABCDEF', values('a1', 'a2', 'a3'))
    expect(c.send()).toBe('a1') // with the join
    expect(c.observe(update(1, 'waiting', { entropy: ['', 'a1'] }))).toBeNull()
    // The game is dealt with it: the next game gets a new value, sent only when it is over.
    const playing = { record: 'r1', entropy: ['x', 'a1'], head: 'h0' }
    expect(c.observe(update(1, 'playing', playing))).toBeNull()
    expect(c.next).toBe('a2')
    expect(c.observe(update(1, 'playing', { ...playing, head: 'h1' }))).toBeNull()
    expect(c.observe(update(1, 'over', { ...playing, head: 'h2' }))).toBe('a2')
    // Shown at the table now: nothing more to send.
    expect(c.observe(update(1, 'over', { ...playing, entropy: ['x', 'a2'] }))).toBeNull()
    expect(c.observe(update(1, 'playing', { record: 'r2', entropy: ['y', 'a2'] }))).toBeNull()
    expect(c.next).toBe('a3')
  })

  it('does not fight a refusal forever: a value is offered three times', () => {
    const c = new Contribution('ABCDEF', values('a1'))
    const over = update(0, 'over', { record: 'r1', entropy: ['old', ''] })
    const sent = [1, 2, 3, 4, 5].map(() => c.observe(over))
    expect(sent).toEqual(['a1', 'a1', 'a1', null, null])
  })

  it('keeps the witness of each game: seat, own contribution, the last head seen', () => {
    const c = new Contribution('ABCDEF', values('a1', 'a2'))
    c.send()
    c.observe(update(1, 'playing', { record: 'r1', entropy: ['x', 'a1'], head: 'h0' }))
    c.observe(update(1, 'playing', { record: 'r1', entropy: ['x', 'a1'], head: 'h7' }))
    c.observe(update(1, 'over', { record: 'r1', entropy: ['x', 'a1'], head: 'h9' }))
    expect(witnessOf('r1')).toEqual({ seat: 1, entropy: 'a1', head: 'h9' })
  })

  it('witnesses the value it sent when the table shows another: the replay page then warns', () => {
    const c = new Contribution('ABCDEF', values('a1'))
    c.send()
    c.observe(update(1, 'playing', { record: 'r1', entropy: ['x', 'forged'], head: 'h0' }))
    expect(witnessOf('r1')).toEqual({ seat: 1, entropy: 'a1', head: 'h0' })
  })

  it('a refused value is not blamed: any value this browser sent counts as its own', () => {
    const c = new Contribution('ABCDEF', values('a1', 'a2'))
    c.send()
    c.observe(update(1, 'playing', { record: 'r1', entropy: ['x', 'a1'] }))
    // a2 was sent between games, but the host started first (GAME_IN_PROGRESS): a1 dealt again.
    expect(c.observe(update(1, 'over', { record: 'r1', entropy: ['x', 'a1'] }))).toBe('a2')
    c.observe(update(1, 'playing', { record: 'r2', entropy: ['x', 'a1'] }))
    expect(witnessOf('r2')).toMatchObject({ seat: 1, entropy: 'a1' })
  })

  it('a spectator keeps the heads it saw, and sends nothing', () => {
    const c = new Contribution('ABCDEF', values('a1'))
    expect(c.observe(update(null, 'playing', { record: 'r1', head: 'h3' }))).toBeNull()
    expect(c.observe(update(null, 'over', { record: 'r1', head: 'h4' }))).toBeNull()
    expect(witnessOf('r1')).toEqual({ head: 'h4' })
  })

  it('[I-16] a seat a bot plays when the game is dealt contributes nothing of this browser', () => {
    const c = new Contribution('ABCDEF', values('a1'))
    c.send()
    c.observe(update(1, 'playing', { record: 'r1', entropy: ['x', ''] }, [null, 'normal']))
    expect(witnessOf('r1')).toEqual({ seat: 1 })
  })

  it('a browser that sent nothing to the table knows its seat but claims no contribution', () => {
    const c = new Contribution('ABCDEF', values('a1'))
    c.observe(update(0, 'playing', { record: 'r1', entropy: ['zz', ''], head: 'h1' }))
    expect(witnessOf('r1')).toEqual({ seat: 0, head: 'h1' })
  })

  it('an update without fair information (an older server) changes nothing', () => {
    const c = new Contribution('ABCDEF', values('a1'))
    const u = update(0, 'over', {})
    const bare = { ...u, table: { ...u.table, fair: undefined } } as unknown as TableUpdate
    expect(c.observe(bare)).toBeNull()
  })

  it(`remembers the witnesses of the last ${WITNESS_MAX} records only`, () => {
    for (let i = 0; i < WITNESS_MAX + 10; i++) keepWitness(`r${i}`, { head: `h${i}` })
    expect(witnessOf('r0')).toBeNull()
    expect(witnessOf('r9')).toBeNull()
    expect(witnessOf('r10')).toEqual({ head: 'h10' })
    // Seeing a record again makes it the newest.
    keepWitness('r10', { head: 'again' })
    for (let i = 0; i < WITNESS_MAX - 1; i++) keepWitness(`s${i}`, {})
    expect(witnessOf('r10')).toEqual({ head: 'again' })
    expect(witnessOf('r11')).toBeNull()
    const stored = JSON.parse(localStorage.getItem('kortbord.witness')!) as unknown[]
    expect(stored).toHaveLength(WITNESS_MAX)
  })

  it('a damaged store reads as empty', () => {
    localStorage.setItem('kortbord.witness', '{not json')
    expect(witnessOf('r1')).toBeNull()
    keepWitness('r1', { head: 'h' })
    expect(witnessOf('r1')).toEqual({ head: 'h' })
  })
})
