// This browser's part in the verifiable shuffle (issue 14, docs/fairness.md): 16 random bytes of
// its own for every game of every table, sent with create/join/start and between games with
// table:entropy; and, per game record, what this browser saw (its seat, its contribution, the
// last hash-chain head the table showed): the witness the replay page verifies the record with.
// Kept in localStorage, bounded. No engine code here: this is part of the first page load.
import type { TableUpdate } from '@kortbord/protocol/wire'
import { loadEntries, saveEntry } from './storage.ts'

/** 16 random bytes from the browser's generator, as 32 lowercase hex digits. */
export function drawEntropy(): string {
  const bytes = new Uint8Array(16)
  globalThis.crypto.getRandomValues(bytes)
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

// ---------------------------------------------------------------------------------------------
// Witnesses, per record id

/** What this browser saw of one game: verifyRecord's witness. */
export interface KeptWitness {
  readonly seat?: number
  readonly entropy?: string
  readonly head?: string
}

const WITNESS_KEY = 'witness'
/** Records remembered; the oldest are forgotten first. */
export const WITNESS_MAX = 50

export function witnessOf(id: string): KeptWitness | null {
  return loadEntries<KeptWitness>(WITNESS_KEY).find(([k]) => k === id)?.[1] ?? null
}

export function keepWitness(id: string, w: KeptWitness): void {
  saveEntry(WITNESS_KEY, id, w, WITNESS_MAX)
}

// ---------------------------------------------------------------------------------------------
// Contributions, per table

interface Kept {
  /** The value for the table's next game. */
  readonly next: string
  /** Values this browser sent to the table, newest last (a refused one may still be in use). */
  readonly sent: readonly string[]
}

const CONTRIB_KEY = 'contrib'
const TABLES_MAX = 20
const SENT_MAX = 4
/** Tries of one value with table:entropy (a refusal that stays is not fought forever). */
const TRIES = 3

export class Contribution {
  private readonly tries = new Map<string, number>()

  constructor(
    readonly code: string,
    private readonly draw: () => string = drawEntropy,
  ) {}

  /** Starts a table's contributions with the value its creation sent. */
  static created(code: string, value: string): void {
    saveEntry<Kept>(CONTRIB_KEY, code, { next: value, sent: [value] }, TABLES_MAX)
  }

  private kept(): Kept {
    const k = loadEntries<Kept>(CONTRIB_KEY).find(([c]) => c === this.code)?.[1]
    if (k && typeof k.next === 'string' && Array.isArray(k.sent)) return k
    const fresh = { next: this.draw(), sent: [] }
    this.store(fresh)
    return fresh
  }

  private store(k: Kept): void {
    saveEntry(CONTRIB_KEY, this.code, k, TABLES_MAX)
  }

  /** The value for the next game (drawn once, kept until a game is dealt with it). */
  get next(): string {
    return this.kept().next
  }

  /** The next game's value, marked as sent: for create, join and start. */
  send(): string {
    const k = this.kept()
    if (!k.sent.includes(k.next)) this.store({ ...k, sent: [...k.sent, k.next].slice(-SENT_MAX) })
    return k.next
  }

  /**
   * Reads an update: keeps the witness of the game it shows, draws a new value once a game was
   * dealt with this one, and says what to send with table:entropy now (between games, when the
   * table does not show the next value yet), or null.
   */
  observe(u: TableUpdate): string | null {
    const fair = u.table.fair
    // Tables of an older server (or a test's made-up table) say nothing of the shuffle.
    if (!fair) return null
    if (fair.record) this.witness(u, fair.record)
    const seat = u.seat
    if (seat === null) return null
    const shown = fair.entropy[seat] ?? ''
    const k = this.kept()
    if (u.table.status === 'playing') {
      if (shown === k.next) this.store({ ...k, next: this.draw() })
      return null
    }
    if (shown === k.next) return null
    const n = this.tries.get(k.next) ?? 0
    if (n >= TRIES) return null
    this.tries.set(k.next, n + 1)
    return this.send()
  }

  /** The witness of the record `id`: the head after the latest move, and at the start our part. */
  private witness(u: TableUpdate, id: string): void {
    const fair = u.table.fair
    const had = witnessOf(id)
    let w: KeptWitness = had ?? {}
    if (fair.head && w.head !== fair.head) w = { ...w, head: fair.head }
    const seat = u.seat
    // Our seat and contribution are known from the game's start (a bot's seat contributes none).
    if (w.seat === undefined && seat !== null && u.table.status === 'playing') {
      const used = fair.entropy[seat] ?? ''
      const sent = this.kept().sent
      // The value the table shows if this browser sent it; else the last one it sent, so that a
      // contribution the server left out shows on the replay page as the problem it is.
      const mine = sent.includes(used) ? used : sent[sent.length - 1]
      w =
        mine === undefined || u.table.seats[seat]?.bot
          ? { ...w, seat }
          : { ...w, seat, entropy: mine }
    }
    if (w !== had) keepWitness(id, w)
  }
}
