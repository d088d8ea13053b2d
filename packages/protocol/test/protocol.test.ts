import { describe, expect, it } from 'vitest'
import {
  CLIENT_EVENTS,
  CODE_ALPHABET,
  CreateTable,
  LOG_TAIL,
  type LogEntry,
  MakeMove,
  mergeLog,
  Nickname,
  PROTOCOL_VERSION,
  parseClientMessage,
  SeatToken,
  TableCode,
} from '../src/index.ts'

describe('protocol schemas', () => {
  it('has a version and a schema for every client event', () => {
    expect(PROTOCOL_VERSION).toBeGreaterThanOrEqual(1)
    expect(CLIENT_EVENTS).toContain('game:move')
    expect(CLIENT_EVENTS).toContain('table:create')
  })

  it('table codes avoid look-alike symbols and are normalised to upper case', () => {
    for (const c of '01ILO') expect(CODE_ALPHABET).not.toContain(c)
    expect(TableCode.parse(' abc234 ')).toBe('ABC234')
    expect(TableCode.safeParse('ABC10O').success).toBe(false)
    expect(TableCode.safeParse('ABCDEFG').success).toBe(false)
  })

  it('nicknames are trimmed, non-empty, short and free of control characters', () => {
    expect(Nickname.parse('  Åsa ')).toBe('Åsa')
    expect(Nickname.safeParse('   ').success).toBe(false)
    expect(Nickname.safeParse('x'.repeat(25)).success).toBe(false)
    expect(Nickname.safeParse('a\u0000b').success).toBe(false)
    expect(Nickname.safeParse('a\nb').success).toBe(false)
    expect(Nickname.safeParse('\u200b\u200b').success).toBe(false)
    expect(Nickname.safeParse('evil\u202egnp').success).toBe(false)
    for (const blank of ['\u3164', '\u115f', '\u2800\u2800', 'a\u061cb', 'x\u{e0041}'])
      expect(Nickname.safeParse(blank).success, JSON.stringify(blank)).toBe(false)
    expect(Nickname.parse('Åsa 👩‍👧')).toBe('Åsa 👩‍👧')
  })

  it('seat tokens are 43 base64url characters', () => {
    expect(SeatToken.safeParse('A'.repeat(43)).success).toBe(true)
    expect(SeatToken.safeParse('A'.repeat(42)).success).toBe(false)
    expect(SeatToken.safeParse(`${'A'.repeat(42)}=`).success).toBe(false)
  })

  it('[I-3][A-10] table options default sensibly and refuse what the rules do not allow', () => {
    const idiot = CreateTable.parse({ game: 'idiot', name: 'Bo', options: { seats: 3 } })
    // I-16: a live table deals with stalling: a turn timer by default.
    expect(idiot).toMatchObject({ spectators: true, options: { seats: 3, turnSeconds: 30 } })
    expect(
      CreateTable.safeParse({ game: 'idiot', name: 'Bo', options: { seats: 5 } }).success,
    ).toBe(false)
    expect(
      CreateTable.safeParse({ game: 'idiot', name: 'Bo', options: { seats: 2, turnSeconds: 5 } })
        .success,
    ).toBe(false)
    const duel = CreateTable.parse({ game: 'duel', name: 'Bo' })
    expect(duel.options).toEqual({
      seats: 2,
      games: 5,
      scoring: 'kort-kvar',
      piles: [4, 4],
      sameDeal: false,
      mode: 'simultaneous',
      undo: 'none',
      turnSeconds: 60,
    })
    expect(
      CreateTable.safeParse({ game: 'duel', name: 'Bo', options: { games: 21 } }).success,
    ).toBe(false)
    expect(
      CreateTable.safeParse({ game: 'duel', name: 'Bo', options: { piles: [4, 6] } }).success,
    ).toBe(false)
  })

  it('[A-17] Idioten alone: one or two seats; alone, no shared deal and no turns', () => {
    const alone = CreateTable.parse({ game: 'duel', name: 'Bo', options: { seats: 1, games: 1 } })
    expect(alone.options).toMatchObject({ seats: 1, games: 1, mode: 'simultaneous' })
    const refused = (options: object): string[] => {
      const r = CreateTable.safeParse({ game: 'duel', name: 'Bo', options })
      return r.success ? [] : r.error.issues.map((i) => i.path.join('.'))
    }
    expect(refused({ seats: 3 })).toEqual(['options.seats'])
    expect(refused({ seats: 0 })).toEqual(['options.seats'])
    expect(refused({ seats: 1, sameDeal: true })).toEqual(['options.sameDeal'])
    expect(refused({ seats: 1, mode: 'alternating' })).toEqual(['options.mode'])
    expect(refused({ seats: 2, sameDeal: true, mode: 'alternating' })).toEqual([])
  })

  it('moves are checked field by field; unknown fields are refused', () => {
    const ok = MakeMove.safeParse({
      table: 'ABCDEF',
      version: 3,
      move: { type: 'play', cards: [0, 13] },
    })
    expect(ok.success).toBe(true)
    for (const move of [
      { type: 'play', cards: [] },
      { type: 'play', cards: [104] },
      { type: 'play', cards: [1.5] },
      { type: 'pickup', extra: 1 },
      { type: 'teleport' },
      { type: 'discard', pile: 8 },
    ]) {
      expect(
        MakeMove.safeParse({ table: 'ABCDEF', version: 3, move }).success,
        JSON.stringify(move),
      ).toBe(false)
    }
    expect(
      MakeMove.safeParse({ table: 'ABCDEF', version: -1, move: { type: 'pickup' } }).success,
    ).toBe(false)
  })

  it('a refusal names the field and says what is wrong', () => {
    const r = parseClientMessage('table:join', { table: 'ABCDEF', name: '' })
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error.code).toBe('NAME_EMPTY')
      expect(r.error.message).toContain('name')
    }
    expect(parseClientMessage('table:join', null).ok).toBe(false)
    expect(parseClientMessage('table:join', 'x'.repeat(100)).ok).toBe(false)
  })
})

describe('mergeLog', () => {
  const e = (seq: number): LogEntry => ({ seq, at: seq, t: 'started', gameNo: seq })
  it('a whole update (logAfter null) replaces what is held, keeping the newest', () => {
    expect(mergeLog([e(1)], { log: [e(5), e(6), e(7)], logAfter: null }, 2).log).toEqual([
      e(6),
      e(7),
    ])
  })
  it('a delta that follows on is appended; entries already held are not repeated', () => {
    const r = mergeLog([e(1), e(2)], { log: [e(2), e(3)], logAfter: 1 })
    expect(r).toEqual({ log: [e(1), e(2), e(3)], gap: false })
    expect(mergeLog([e(1)], { log: [], logAfter: 1 })).toEqual({ log: [e(1)], gap: false })
  })
  it('a delta after a missed update is appended and reported as a gap', () => {
    expect(mergeLog([e(1)], { log: [e(4)], logAfter: 3 })).toEqual({ log: [e(1), e(4)], gap: true })
  })
  it('keeps at most `keep` entries', () => {
    const held = Array.from({ length: LOG_TAIL }, (_, i) => e(i + 1))
    const r = mergeLog(held, { log: [e(LOG_TAIL + 1)], logAfter: LOG_TAIL })
    expect(r.log).toHaveLength(LOG_TAIL)
    expect(r.log.at(-1)).toEqual(e(LOG_TAIL + 1))
  })
})
