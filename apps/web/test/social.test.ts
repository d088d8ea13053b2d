// Issue 15 on the page: the chat's timeline and muting, and whose turn a table waits for.

import { parseCard } from '@kortbord/engine'
import type { ChatMessage, TableUpdate } from '@kortbord/protocol/wire'
import { describe, expect, it } from 'vitest'
import { cardLabel } from '../src/lib/card-names.ts'
import { CHAT_LINES, type ChatItem, mergeItems, parseMuted } from '../src/lib/chat.svelte.ts'
import { isMyTurn } from '../src/lib/turn.ts'

const msg = (id: number, at: number, text = `m${id}`): ChatItem => {
  const m: ChatMessage = { table: 'ABCDEF', id, seat: 0, name: 'Ada', text, at }
  return { ...m, kind: 'message', key: `m${id}:${at}` }
}

describe('the chat on the page', () => {
  it('merges the history and new lines in time order, never the same line twice', () => {
    const held = [msg(1, 10), msg(3, 30)]
    const merged = mergeItems(held, [msg(2, 20), msg(3, 30), msg(4, 40)])
    expect(merged.map((m) => m.key)).toEqual(['m1:10', 'm2:20', 'm3:30', 'm4:40'])
    // Nothing new: the same array (no re-render).
    expect(mergeItems(merged, [msg(2, 20)])).toBe(merged)
  })

  it(`keeps the newest ${CHAT_LINES} lines`, () => {
    const many = Array.from({ length: CHAT_LINES + 5 }, (_, i) => msg(i + 1, i))
    const kept = mergeItems([], many)
    expect(kept).toHaveLength(CHAT_LINES)
    expect(kept[0]!.key).toBe(`m6:5`)
  })

  it('reads the muted seats this device remembers, and nothing else', () => {
    expect([...parseMuted('0,2')]).toEqual([0, 2])
    expect([...parseMuted(null)]).toEqual([])
    expect([...parseMuted('x,-1,1.5,99,3')]).toEqual([3])
  })
})

const update = (game: string, view: object, seat: number | null = 0, status = 'playing') =>
  ({
    seat,
    view: { game, ...view },
    table: { status, seats: [{ bot: null }, { bot: null }] },
  }) as unknown as TableUpdate

describe('whose turn the table waits for (turn alerts)', () => {
  it('Idiot: the player on turn in the play phase, not in the swap', () => {
    expect(isMyTurn(update('idiot', { phase: 'play', turn: 0 }))).toBe(true)
    expect(isMyTurn(update('idiot', { phase: 'play', turn: 1 }))).toBe(false)
    expect(isMyTurn(update('idiot', { phase: 'swap', turn: 0 }))).toBe(false)
    expect(isMyTurn(update('idiot', { phase: 'play', turn: 0 }, null))).toBe(false)
    expect(isMyTurn(update('idiot', { phase: 'play', turn: 0 }, 0, 'over'))).toBe(false)
  })

  it('the duel only when taking turns; Klockan only för två; a patience alone never', () => {
    expect(isMyTurn(update('duel', { turn: null }))).toBe(false)
    expect(isMyTurn(update('duel', { turn: 0 }))).toBe(true)
    expect(isMyTurn(update('klockan', { players: 2, phase: 'turn', turn: 0 }))).toBe(true)
    expect(isMyTurn(update('klockan', { players: 1, phase: 'turn', turn: 0 }))).toBe(false)
    expect(isMyTurn(update('herrarna', { turn: 0 }))).toBe(false)
  })

  it('not while a bot plays the seat', () => {
    const u = update('idiot', { phase: 'play', turn: 0 })
    const botted = { ...u, table: { ...u.table, seats: [{ bot: 'normal' }, { bot: null }] } }
    expect(isMyTurn(botted as unknown as TableUpdate)).toBe(false)
  })
})

describe('card names (issue 15)', () => {
  it('start with what the card shows, so a voice-control user can say it', () => {
    expect(cardLabel('en', parseCard('TD')!)).toBe('10♦, ten of diamonds')
    expect(cardLabel('sv', parseCard('2H')!)).toBe('2♥, två i hjärter')
    expect(cardLabel('nb', parseCard('KS')!)).toBe('K♠, spar konge')
  })
})
