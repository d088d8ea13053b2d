// The replay page's logic (issue 14): a record fetched, its moves in the engine's notation, and
// what verifying it with this browser's witness showed, on seeded games recorded as the server
// records them (the engine's own test games).
import {
  chainHeads,
  type DuelState,
  duelView,
  type FairDeal,
  type GameRecord,
  type IdiotState,
  type IdiotView,
  idiotView,
  type RecordGame,
  recordHidesMoves,
  recordText,
  replayRecord,
} from '@kortbord/engine'
import type { PublicFrames } from '@kortbord/protocol/frames'
import { diff } from '@kortbord/protocol/wire'
import { describe, expect, it } from 'vitest'
import { recordedGame } from '../../../packages/engine/test/record-games.ts'
import { RECORD_DICTS } from '../src/lib/i18n-records.ts'
import { moveWords } from '../src/lib/move-words.ts'
import {
  duelFrameWords,
  frameLines,
  loadFrames,
  loadRecord,
  moveLines,
  verifyReport,
  witnessFor,
} from '../src/lib/replay.ts'

const GAMES: RecordGame[] = ['idiot', 'duel', 'klockan', 'herrarna']
const idiot = recordedGame('idiot', 'web-1')

describe('verifying a record on the replay page (issue 14)', () => {
  it('[I-15] a player’s own witness checks everything: seed, deal, own contribution, moves, what the table showed', () => {
    for (const game of GAMES) {
      const r = recordedGame(game, 'web-2')
      const seat = r.entropy.findIndex((e) => e !== '')
      const kept = seat < 0 ? { head: r.head } : { seat, entropy: r.entropy[seat]!, head: r.head }
      const rep = verifyReport(r, kept)
      expect(rep.problems, game).toEqual([])
      expect(rep.state).toBe('verified')
      const want = ['seed', 'deal', ...(seat < 0 ? [] : ['yours']), 'moves', 'chain', 'seen']
      expect(rep.checked).toEqual(want)
      expect(rep.unchecked).toEqual([])
    }
  })

  it('a head seen during the game, before the last move, is on the chain too', () => {
    const mid = chainHeads(idiot)[Math.floor(idiot.moves.length / 2)]!
    expect(verifyReport(idiot, { head: mid }).state).toBe('verified')
  })

  it('without a witness it says what it checked and what it could not', () => {
    const rep = verifyReport(idiot, null)
    expect(rep.state).toBe('verified')
    expect(rep.checked).toEqual(['seed', 'deal', 'moves', 'chain'])
    expect(rep.unchecked).toEqual(['noWitness'])
  })

  it('a seat without its contribution in this browser, or played by a bot at the deal, is said so', () => {
    expect(verifyReport(idiot, { seat: 0, head: idiot.head }).unchecked).toEqual(['noEntropy'])
    const botted: GameRecord = {
      ...idiot,
      seats: idiot.seats.map((s, i) => (i === 0 ? { ...s, bot: 'normal' } : s)),
    }
    expect(verifyReport(botted, { seat: 0 }).unchecked).toEqual(['bot', 'noHead'])
  })

  it('warns when the server left out this browser’s own contribution', () => {
    const rep = verifyReport(idiot, { seat: 0, entropy: 'abcdef0123', head: idiot.head })
    expect(rep.state).toBe('failed')
    expect(rep.problems.map((p) => p.key)).toEqual(['OWN_ENTROPY'])
  })

  it('warns on a tampered seed, contribution or move list, and on moves the table never showed', () => {
    const fair = (idiot.deal as { fair: FairDeal }).fair
    const seed: GameRecord = {
      ...idiot,
      deal: { fair: { ...fair, seed: `${'0'.repeat(63)}1` } },
    }
    expect(verifyReport(seed, null).problems.map((p) => p.key)).toContain('COMMITMENT_MISMATCH')
    const entropy: GameRecord = { ...idiot, entropy: idiot.entropy.map((e) => `${e}00`) }
    expect(verifyReport(entropy, null).problems.map((p) => p.key)).toContain('ENTROPY_MISMATCH')
    const moves: GameRecord = { ...idiot, moves: idiot.moves.slice(0, -1) }
    expect(verifyReport(moves, null).problems.map((p) => p.key)).toContain('CHAIN_MISMATCH')
    // A record rewritten whole (its chain recomputed) is caught by the head a player saw.
    const rewritten: GameRecord = { ...moves, head: chainHeads(moves).at(-1)! }
    const seen = verifyReport(rewritten, { head: idiot.head })
    expect(seen.state).toBe('failed')
    expect(seen.problems.map((p) => p.key)).toContain('NOT_WHAT_WAS_SEEN')
  })

  it('a game still being played has nothing to check yet', () => {
    const live: GameRecord = { ...idiot, deal: null, end: null, moves: [], endedAt: null }
    expect(verifyReport(live, { head: idiot.head }).state).toBe('playing')
  })

  it('a fixed test deal has no shuffle to verify, but its moves are checked', () => {
    const rep = verifyReport(fixedRecord(), null)
    expect(rep.state).toBe('fixed')
    expect(rep.checked).toEqual(['moves', 'chain'])
  })

  it('takes seat and contribution together into the witness, never one without the other', () => {
    expect(witnessFor({ seat: 1, head: 'h' })).toEqual({ head: 'h' })
    expect(witnessFor({ seat: 1, entropy: 'ab' })).toEqual({ seat: 1, entropy: 'ab' })
    expect(witnessFor(null)).toEqual({})
  })
})

/** A test server's fixed deal: no commitment, no seed (here a game abandoned at the deal). */
function fixedRecord(): GameRecord {
  const r: GameRecord = {
    ...idiot,
    shuffle: 'fixed',
    commitment: null,
    entropy: [],
    deal: { seed: 'fixed-test' },
    moves: [],
    end: { reason: 'abandoned' },
  }
  return { ...r, head: chainHeads(r).at(-1)! }
}

describe('the move list', () => {
  it('is the engine’s notation, with the moves the timer or a bot made marked', () => {
    const lines = moveLines(idiot)
    expect(lines).toHaveLength(idiot.moves.length)
    const text = recordText(idiot).trim().split('\n').slice(-idiot.moves.length)
    lines.forEach((l, i) => {
      const m = idiot.moves[i]!
      expect(l.k).toBe(i + 1)
      expect(text[i]).toBe(`${m.v} ${m.seat} ${l.text}${l.by ? ` {${l.by}}` : ''}`)
    })
    expect(lines.some((l) => l.by === 'timer')).toBe(true)
  })
})

describe('fetching a record', () => {
  const answer = (status: number, body: unknown) =>
    (async () => new Response(JSON.stringify(body), { status })) as unknown as typeof fetch
  it('tells a missing record from a failure', async () => {
    expect(await loadRecord('abcdefghijkm', answer(200, idiot))).toEqual({
      kind: 'ok',
      record: idiot,
    })
    expect((await loadRecord('abcdefghijkm', answer(404, {}))).kind).toBe('notFound')
    expect((await loadRecord('abcdefghijkm', answer(503, {}))).kind).toBe('failed')
    const offline = (async () => {
      throw new TypeError('offline')
    }) as unknown as typeof fetch
    expect((await loadRecord('abcdefghijkm', offline)).kind).toBe('failed')
  })
})

describe('a game in play replayed from the server’s public frames (issue 14)', () => {
  // Frames as the server sends them: the first view whole, each next one a patch of it.
  const r = recordedGame('idiot', 'web-frames')
  const states = replayRecord(r).states as IdiotState[]
  const views = states.map((s) => idiotView(s, 'spectator'))
  const frames: PublicFrames = {
    format: 'kortbord-frames',
    version: 1,
    id: r.id,
    game: 'idiot',
    moves: r.moves.length,
    over: false,
    truncated: false,
    from: 0,
    frames: views.map((view, k) => {
      const m = k === 0 ? null : r.moves[k - 1]!
      const base = { k, v: m?.v ?? null, at: m?.at ?? r.startedAt, seat: m?.seat ?? null }
      return k === 0
        ? { ...base, view }
        : { ...base, ...(m?.by ? { by: m.by } : {}), p: diff(views[k - 1], view) }
    }),
  }
  const answer =
    (status: number, body: unknown = {}): typeof fetch =>
    async () =>
      new Response(JSON.stringify(body), { status })

  it('[I-15] rebuilds every frame’s view, which is the engine’s spectator view of that move', async () => {
    const got = await loadFrames(r.id, answer(200, frames))
    expect(got.kind).toBe('ok')
    if (got.kind !== 'ok') return
    expect(got.live.views).toEqual(views)
    // No view names a hand (a spectator sees counts only).
    for (const v of got.live.views as IdiotView[])
      expect(v.players.every((p) => p.hand === null)).toBe(true)
    // The list: one line per move (not the deal), who moved and on whose behalf.
    const lines = frameLines(frames)
    expect(lines.map((l) => l.k)).toEqual(r.moves.map((_, i) => i + 1))
    expect(lines.map((l) => l.by)).toEqual(r.moves.map((m) => m.by ?? null))
    expect(lines.every((l) => l.text === '')).toBe(true)
  })

  it('tells a game it cannot replay (404, 409) from a failure to try again', async () => {
    expect(await loadFrames(r.id, answer(404))).toEqual({ kind: 'none' })
    expect(await loadFrames(r.id, answer(409))).toEqual({ kind: 'none' })
    expect(await loadFrames(r.id, answer(503))).toEqual({ kind: 'failed' })
    expect(await loadFrames(r.id, answer(429))).toEqual({ kind: 'failed' })
    const offline: typeof fetch = async () => {
      throw new TypeError('offline')
    }
    expect(await loadFrames(r.id, offline)).toEqual({ kind: 'failed' })
    // Frames that do not fit together are a failure, never a wrong board.
    const broken = { ...frames, frames: frames.frames.slice(1) }
    expect(await loadFrames(r.id, answer(200, broken))).toEqual({ kind: 'failed' })
  })
})

describe('[A-15] a same-deal duel on the replay page', () => {
  it('is known by its record: no frames asked for while it is played, every card shown once it is over', () => {
    const duel = recordedGame('duel', 'web-same')
    expect(recordHidesMoves(duel)).toBe(false)
    expect(recordHidesMoves({ ...duel, options: { ...duel.options, sameDeal: true } })).toBe(true)
    expect(recordHidesMoves({ ...idiot, options: { ...idiot.options, sameDeal: true } })).toBe(
      false,
    )
  })
})

describe('a duel in play: its moves in words from the public frames (QA: the list said only "1. Ann")', () => {
  it('says what the frames show a move did, as the finished record’s words do, and nothing it cannot know', () => {
    const r = RECORD_DICTS.en
    let said = 0
    let told = 0
    for (const seed of ['web-live-1', 'web-live-2', 'web-live-3', 'web-live-4']) {
      const rec = recordedGame('duel', seed)
      if (recordHidesMoves(rec)) continue
      const states = replayRecord(rec).states as DuelState[]
      const views = states.map((s) => duelView(s, 'spectator'))
      rec.moves.forEach((m, i) => {
        const words = duelFrameWords(r, 'en', views[i], views[i + 1], m.seat)
        const whole = moveWords(r, 'en', 'duel', m.seat, m.move, states[i])
        const ended =
          states[i + 1]!.players[m.seat]!.results.length !==
          states[i]!.players[m.seat]!.results.length
        if (['discard', 'move', 'deal', 'undo'].includes(m.move.type) && !ended) {
          expect(words, `${seed} move ${i + 1}`).toBe(whole)
          said++
        } else expect(words, `${seed} move ${i + 1} (${m.move.type})`).toBe('')
        told++
        // The first frame kept (no frame before it) still tells a move that went on in its game.
        if (!ended) expect(duelFrameWords(r, 'en', undefined, views[i + 1], m.seat)).toBe(words)
      })
    }
    expect(said).toBeGreaterThan(told / 2)
  })
})
