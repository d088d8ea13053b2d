// An Idiot table's hint (lib/table-hint.svelte.ts): it holds while the player's own situation
// stays, the focus goes to what completes it, and a hint worked out for a situation that has
// changed meanwhile is not shown.
import {
  applyIdiot,
  type HardThought,
  type IdiotMove,
  type IdiotState,
  idiotLegalMoves,
  idiotView,
  parseCard,
  setupIdiot,
} from '@kortbord/engine'
import { describe, expect, it } from 'vitest'
import { idiotHint } from '../src/lib/hint-bot.ts'
import { completing, standingOf, TableHint } from '../src/lib/table-hint.svelte.ts'

const ready = (s: IdiotState, seat: number): IdiotState => {
  const r = applyIdiot(s, seat, { type: 'ready' })
  if (!r.ok) throw new Error(r.error.message)
  return r.value
}

describe('where the player stands', () => {
  it('in the swap, only their own cards and readiness count; in play, every move', () => {
    const s = setupIdiot({}, 3, { seed: 'standing' })
    const mine = (st: IdiotState) => idiotView(st, 0).players[0]!
    const at = standingOf(idiotView(s, 0), mine(s))
    // Another player's Ready changes the table, not where seat 0 stands.
    const other = ready(s, 1)
    expect(standingOf(idiotView(other, 0), mine(other))).toBe(at)
    const own = ready(s, 0)
    expect(standingOf(idiotView(own, 0), mine(own))).not.toBe(at)
    let p = ready(ready(own, 1), 2)
    const before = standingOf(idiotView(p, 0), mine(p))
    // Any move in play, whoever makes it, is a new situation.
    const move = idiotLegalMoves(p, p.turn!).find((m) => m.type === 'play')!
    const r = applyIdiot(p, p.turn!, move)
    if (!r.ok) throw new Error(r.error.message)
    p = r.value
    expect(standingOf(idiotView(p, 0), mine(p))).not.toBe(before)
  })

  it('the focus goes to what completes the hint', () => {
    const play: IdiotMove = { type: 'play', cards: [parseCard('5D')!] }
    const swap: IdiotMove = { type: 'swap', hand: parseCard('2C')!, faceUp: parseCard('KH')! }
    expect(completing(play)).toBe('[data-testid="play"]')
    expect(completing(swap)).toBe(`[data-testid="faceup-${parseCard('KH')}"]`)
    expect(completing({ type: 'pickup' })).toBe('[data-testid="pickup"]')
    expect(completing({ type: 'ready' })).toBe('[data-testid="ready"]')
  })
})

describe('the hint asked for', () => {
  const s = setupIdiot({}, 2, { seed: 'table-hint' })
  const view = idiotView(s, 0)

  it('is shown for where the player stood, and gone once that changes', async () => {
    let standing = 'a'
    const hint = new TableHint<HardThought>(() => standing)
    expect(hint.thought).toBeNull()
    expect(await hint.ask(() => Promise.resolve(idiotHint(view)))).toBe(true)
    expect(hint.thinking).toBe(false)
    expect(hint.thought?.move.type).toMatch(/^(swap|ready)$/)
    standing = 'b'
    expect(hint.thought).toBeNull()
  })

  it('is not shown when the player’s situation changed while it was worked out', async () => {
    let standing = 'a'
    const hint = new TableHint<HardThought>(() => standing)
    // As from a worker: the answer comes a moment later.
    const later = () =>
      new Promise<HardThought | null>((r) => setTimeout(() => r(idiotHint(view)), 20))
    const asked = hint.ask(later)
    expect(hint.thinking).toBe(true)
    // A second ask while one is under way does nothing.
    expect(await hint.ask(() => Promise.resolve(idiotHint(view)))).toBe(false)
    standing = 'b'
    expect(await asked).toBe(false)
    expect(hint.thought).toBeNull()
  })
})
