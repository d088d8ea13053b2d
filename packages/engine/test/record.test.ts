// Game records (issue 14): every kind replays to the same end, the notation round-trips, and
// tampering with the seed, a contribution or a move is detected.
import { describe, expect, it } from 'vitest'
import {
  chainHeads,
  chainStart,
  commitment,
  type FairDeal,
  formatMove,
  type GameRecord,
  parseMove,
  type RecordGame,
  recordText,
  replayRecord,
  verifyRecord,
} from '../src/index.ts'
import { recordedGame } from './record-games.ts'

const KINDS: RecordGame[] = ['idiot', 'duel', 'klockan', 'herrarna']
/** Games per kind in the test suite; `pnpm records` runs 10,000 of each. */
const SAMPLE = Number(process.env.RECORD_SAMPLE ?? 150)

describe('game records (issue 14)', () => {
  it('[A-15] a version 2 chain starts keyed by the seed; a version 1 record (unkeyed start) still verifies', () => {
    const r = recordedGame('duel', 'keyed')
    expect(verifyRecord(r).problems).toEqual([])
    const seed = (r.deal as { fair: FairDeal }).fair.seed
    expect(chainHeads(r)[0]).toBe(chainStart(r.id, r.commitment, seed))
    expect(chainHeads(r)[0]).not.toBe(chainStart(r.id, r.commitment))
    // The start of version 1, computable by anyone from the id and the commitment.
    const v1: GameRecord = { ...r, version: 1, head: chainHeads({ ...r, version: 1 }).at(-1)! }
    expect(verifyRecord(v1).problems).toEqual([])
    expect(recordText(v1)).toContain('[Format "kortbord-record 1"]')
    // The heads are not interchangeable: an unkeyed chain under version 2 does not verify.
    const relabelled: GameRecord = { ...v1, version: 2 }
    expect(verifyRecord(relabelled).problems.map((p) => p.code)).toContain('CHAIN_MISMATCH')
    // A fixed deal keys with nothing (the empty seed), which is not the version 1 start either.
    expect(chainStart(r.id, null, null)).not.toBe(chainStart(r.id, null))
  })

  for (const game of KINDS) {
    it(`[I-15][A-15] ${SAMPLE} seeded ${game} games: each record verifies and replays to the same end`, () => {
      let over = 0
      for (let i = 0; i < SAMPLE; i++) {
        const r = recordedGame(game, String(i))
        const v = verifyRecord(r)
        expect(v.problems, `${game} seed ${i}`).toEqual([])
        expect(v.shuffle).toBe('verified')
        if (r.end?.reason === 'over') {
          over++
          expect(replayRecord(r).outcome).toEqual(r.end.outcome)
        }
        // A player checking their own contribution finds it used.
        expect(verifyRecord(r, { seat: 0, entropy: r.entropy[0]! }).ok).toBe(true)
      }
      expect(over).toBeGreaterThan(SAMPLE / 2)
    })
  }

  it('a tampered seed is detected: it does not match the commitment', () => {
    const r = recordedGame('idiot', 'tamper-seed')
    const fair = (r.deal as { fair: { seed: string } }).fair
    const other = `${fair.seed.slice(0, 62)}${fair.seed.slice(62) === '00' ? '01' : '00'}`
    const fairOf = (x: GameRecord) => (x.deal as { fair: FairDeal }).fair
    const t: GameRecord = { ...r, deal: { fair: { ...fairOf(r), seed: other } } }
    const v = verifyRecord(t)
    expect(v.ok).toBe(false)
    expect(v.shuffle).toBe('failed')
    expect(v.problems.map((p) => p.code)).toContain('COMMITMENT_MISMATCH')
    // A seed and commitment changed together deal other cards: the moves stop being legal, or
    // the game ends differently (the server cannot swap the deck after the fact).
    // …and so is a rewritten commitment, by the chain (it starts from the commitment).
    expect(
      verifyRecord({ ...t, commitment: commitment(other) }).problems.map((p) => p.code),
    ).toContain('CHAIN_MISMATCH')
    const forged = { ...t, commitment: commitment(other) }
    const both: GameRecord = { ...forged, head: chainHeads(forged).at(-1)! }
    const vb = verifyRecord(both)
    expect(vb.ok).toBe(false)
    expect(
      vb.problems.map((p) => p.code).some((c) => c === 'ILLEGAL_MOVE' || c === 'OUTCOME_MISMATCH'),
    ).toBe(true)
  })

  it("a tampered contribution is detected, and so is a player's own value left out", () => {
    const r = recordedGame('duel', 'tamper-entropy')
    const fair = (r.deal as { fair: { entropy: readonly string[] } }).fair
    const changed = fair.entropy.map((e, i) => (i === 1 ? `${e}aa`.slice(-64) : e))
    const t: GameRecord = {
      ...r,
      deal: { fair: { ...(r.deal as { fair: FairDeal }).fair, entropy: changed } },
    }
    expect(verifyRecord(t).problems.map((p) => p.code)).toContain('ENTROPY_MISMATCH')
    expect(verifyRecord(r, { seat: 1, entropy: 'ffff' }).problems.map((p) => p.code)).toContain(
      'ENTROPY_MISMATCH',
    )
  })

  it('a tampered move list is detected: a move changed, dropped or added', () => {
    const r = recordedGame('idiot', 'tamper-moves')
    expect(r.end?.reason).toBe('over')
    const k = Math.floor(r.moves.length / 2)
    const tampered: GameRecord[] = [
      { ...r, moves: [...r.moves.slice(0, k), ...r.moves.slice(k + 1)] },
      // A pickup instead of a play: a legal game too, to the same end: only the chain tells.
      { ...r, moves: r.moves.map((m, i) => (i === k ? { ...m, move: { type: 'pickup' } } : m)) },
      { ...r, moves: r.moves.slice(0, -1) },
      { ...r, moves: r.moves.map((m, i) => (i === k ? { ...m, at: m.at + 1 } : m)) },
    ]
    for (const t of tampered) {
      expect(verifyRecord(t).problems.map((p) => p.code)).toContain('CHAIN_MISMATCH')
      // A forger who also rewrites the head is caught by anyone who was at the table: the
      // chain no longer passes through the last head the table showed them.
      const forged: GameRecord = { ...t, head: chainHeads(t).at(-1)! }
      const seen = chainHeads(r).at(-1)!
      const codes = verifyRecord(forged, { head: seen }).problems.map((p) => p.code)
      expect(codes).toContain('NOT_WHAT_WAS_SEEN')
      expect(verifyRecord(r, { head: seen }).ok).toBe(true)
    }
  })

  it('a record of a game still being played is not verifiable yet', () => {
    const r = recordedGame('klockan', 'live')
    const live: GameRecord = { ...r, deal: null, end: null }
    expect(verifyRecord(live).problems.map((p) => p.code)).toEqual(['NOT_OVER'])
  })

  it('moves in notation round-trip for every kind; the text names every move with its seat and version', () => {
    for (const game of KINDS) {
      const r = recordedGame(game, 'notation')
      for (const m of r.moves) expect(parseMove(game, formatMove(game, m.move))).toEqual(m.move)
      const text = recordText(r)
      expect(text).toContain('[Format "kortbord-record 2"]')
      expect(text).toContain(`[Commitment "${r.commitment}"]`)
      const lines = text.trim().split('\n').slice(-r.moves.length)
      lines.forEach((line, i) => {
        const m = r.moves[i]!
        expect(line.startsWith(`${m.v} ${m.seat} ${formatMove(game, m.move)}`)).toBe(true)
        if (m.by) expect(line).toContain(`{${m.by}}`)
      })
    }
    expect(parseMove('idiot', 'play 5C 5D')).toEqual({ type: 'play', cards: [3, 16] })
    expect(parseMove('idiot', 'fly')).toBeUndefined()
    expect(parseMove('duel', 'move 1')).toBeUndefined()
  })
})
