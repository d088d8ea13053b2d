// Issue 15 on the server: chat and quick reactions (text only, limited, never a version) and the
// next game by agreement.
import type { ChatMessage, ChatReaction } from '@kortbord/protocol'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type Client, must } from '../scripts/client.ts'
import { createIdiot, startServer, type TestServer } from './harness.ts'

/** Everything of a kind a client hears. */
function hear<T>(c: Client, event: 'chat:message' | 'chat:reaction'): T[] {
  const got: T[] = []
  ;(c.socket as unknown as { on(e: string, f: (x: T) => void): void }).on(event, (x) => got.push(x))
  return got
}

async function table(srv: TestServer, bot = false) {
  const a = await srv.client()
  const { code } = await createIdiot(a, { name: 'Ada', turnSeconds: null })
  let b: Client | null = null
  if (bot) must(await a.send('table:bot', { table: code, version: 1, seat: 1, level: 'easy' }))
  else {
    b = await srv.client()
    must(await b.send('table:join', { table: code, name: 'Bo' }))
  }
  const v = (await srv.app.hub.get(code))!.version
  await a.atVersion(code, v)
  return { a, b, code, v }
}

describe('chat and reactions (issue 15)', () => {
  let srv: TestServer
  beforeAll(async () => {
    srv = await startServer()
  })
  afterAll(() => srv.stop())

  it('a message reaches players and spectators as text, changes no version, and comes to latecomers', async () => {
    const { a, b, code, v } = await table(srv)
    const w = await srv.client()
    must(await w.send('table:watch', { table: code }))
    const heard = [a, b!, w].map((c) => hear<ChatMessage>(c, 'chat:message'))
    must(await a.send('chat:send', { table: code, text: '  <b>hej</b>  på  dig ' }))
    await vi.waitFor(() => expect(heard.every((h) => h.length === 1)).toBe(true))
    for (const h of heard)
      expect(h[0]).toMatchObject({ table: code, seat: 0, name: 'Ada', text: '<b>hej</b> på dig' })
    must(await w.send('chat:send', { table: code, text: 'heja!' }))
    await vi.waitFor(() => expect(heard[0]!.at(-1)).toMatchObject({ seat: null, text: 'heja!' }))
    expect((await srv.app.hub.get(code))!.version).toBe(v)
    // Someone who comes later gets the latest messages.
    const late = await srv.client()
    const history: { messages: ChatMessage[] }[] = []
    ;(late.socket as unknown as { on(e: string, f: (x: never) => void): void }).on(
      'chat:history',
      (h: never) => history.push(h),
    )
    must(await late.send('table:watch', { table: code }))
    await vi.waitFor(() =>
      expect(history[0]?.messages.map((m) => m.text)).toEqual(['<b>hej</b> på dig', 'heja!']),
    )
  })

  it('refuses empty, long and hidden text, outsiders, and spectators when the host says so', async () => {
    const { a, code, v } = await table(srv)
    const w = await srv.client()
    must(await w.send('table:watch', { table: code }))
    const code_ = (r: { ok: boolean; error?: { code: string } }) => (r.ok ? 'ok' : r.error!.code)
    expect(code_(await a.send('chat:send', { table: code, text: '   ' }))).toBe('CHAT_EMPTY')
    expect(code_(await a.send('chat:send', { table: code, text: 'x'.repeat(201) }))).toBe(
      'CHAT_TOO_LONG',
    )
    expect(code_(await a.send('chat:send', { table: code, text: 'hi\u202egnp' }))).toBe(
      'CHAT_BAD_TEXT',
    )
    const outsider = await srv.client()
    expect(code_(await outsider.send('chat:send', { table: code, text: 'hi' }))).toBe(
      'NOT_AT_TABLE',
    )
    must(await a.send('table:chat', { table: code, version: v, spectatorChat: false }))
    expect(code_(await w.send('chat:send', { table: code, text: 'hi' }))).toBe('CHAT_OFF')
    expect(code_(await w.send('chat:react', { table: code, reaction: 'gg' }))).toBe('CHAT_OFF')
    must(await a.send('chat:send', { table: code, text: 'players still may' }))
  })

  it('a connection may chat a few times at once, then CHAT_RATE_LIMITED; others are not held up', async () => {
    const { a, b, code } = await table(srv)
    const results: string[] = []
    for (let i = 0; i < 8; i++) {
      const r = await a.send('chat:send', { table: code, text: `m${i}` })
      results.push(r.ok ? 'ok' : r.error.code)
    }
    expect(results.slice(0, 5)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok'])
    expect(results.slice(5)).toEqual([
      'CHAT_RATE_LIMITED',
      'CHAT_RATE_LIMITED',
      'CHAT_RATE_LIMITED',
    ])
    must(await b!.send('chat:send', { table: code, text: 'me too' }))
    // A move is never slowed by it: the table answers at once.
    must(await a.send('table:sync', { table: code }))
  })

  it('reactions carry the seat and a word from the list', async () => {
    const { a, b, code } = await table(srv)
    const got = hear<ChatReaction>(b!, 'chat:reaction')
    must(await a.send('chat:react', { table: code, reaction: 'nice' }))
    await vi.waitFor(() => expect(got[0]).toMatchObject({ seat: 0, name: 'Ada', reaction: 'nice' }))
    const bad = await a.rawAck('chat:react', { table: code, reaction: '💩' })
    expect(bad).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } })
  })
})

describe('the next game by agreement (issue 15)', () => {
  let srv: TestServer
  beforeAll(async () => {
    srv = await startServer({ BOT_DELAY_MS: '5' })
  })
  afterAll(() => srv.stop())

  it('any player asks; the game starts when all have asked, without the host', async () => {
    const { a, b, code, v } = await table(srv)
    // Bo (not the host) asks first: shown to everyone, nothing starts.
    const first = must(await b!.send('table:rematch', { table: code, version: v }))
    expect(first.started).toBe(false)
    const u = await a.atVersion(code, first.version)
    expect(u.table.rematch).toEqual([false, true])
    expect(u.log.at(-1)).toMatchObject({ t: 'rematch', seat: 1, name: 'Bo' })
    expect(u.table.status).toBe('waiting')
    // Ada agrees: the game starts.
    const second = must(await a.send('table:rematch', { table: code, version: first.version }))
    expect(second.started).toBe(true)
    const g = await b!.atVersion(code, second.version)
    expect(g.table.status).toBe('playing')
    expect(g.table.rematch).toEqual([false, false])
    expect(await a.send('table:rematch', { table: code, version: second.version })).toMatchObject({
      ok: false,
      error: { code: 'GAME_IN_PROGRESS' },
    })
  })

  it('bots agree by themselves: one person asking at a table with a bot starts the game', async () => {
    const { a, code, v } = await table(srv, true)
    const r = must(await a.send('table:rematch', { table: code, version: v }))
    expect(r.started).toBe(true)
  })
})
