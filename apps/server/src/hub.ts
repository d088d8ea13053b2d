import { randomInt } from 'node:crypto'
import { CODE_ALPHABET, CODE_LENGTH, type CreateAck, type CreateTableMsg } from '@kortbord/protocol'
import { type Ownership, TableMoved } from './ownership.ts'
import { type TableStore, VersionConflict } from './store.ts'
import { type MemberId, newToken, type Outcome, Table, type TableDeps } from './table.ts'

/** A short join code from the unambiguous alphabet, with a cryptographic generator. */
export function newCode(): string {
  let s = ''
  for (let i = 0; i < CODE_LENGTH; i++) s += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]
  return s
}

/** The tables this node serves, loaded from the store on first use. */
export class Hub {
  private readonly tables = new Map<string, Table>()
  private readonly loading = new Map<string, Promise<Table | null>>()
  private readonly deps: TableDeps

  constructor(
    private readonly store: TableStore,
    deps: TableDeps,
    /** Prefix of table links: the public address, or '' for links relative to the page. */
    private readonly linkBase = '',
    /** Tables this node holds at most: loaded here, and with the memory store stored at all. */
    private readonly maxTables = Number.POSITIVE_INFINITY,
    /** Which node serves which table (issue 17); none: this node serves every table. */
    private readonly ownership: Ownership | null = null,
  ) {
    this.deps = {
      ...deps,
      retired: (t) => {
        if (this.tables.get(t.code) === t) this.tables.delete(t.code)
      },
      hardBots: () => this.hardBots(),
    }
  }

  /** Hard bots seated at the tables loaded here (HARD_BOTS_PER_NODE). */
  hardBots(): number {
    let n = 0
    for (const t of this.tables.values()) n += t.hardBots
    return n
  }

  get size(): number {
    return this.tables.size
  }

  all(): IterableIterator<Table> {
    return this.tables.values()
  }

  async create(member: MemberId, msg: CreateTableMsg): Promise<Outcome<CreateAck>> {
    const held = Math.max(this.tables.size, this.store.count() ?? 0)
    if (held >= this.maxTables) {
      return {
        ok: false,
        error: {
          code: 'SERVER_FULL',
          message: 'this server has all the tables it can hold; try later',
        },
      }
    }
    const token = newToken()
    // A code this node owns (issue 17): its creator is served here, with no move; with n nodes
    // about one code in n is, so a few dozen tries find one all but surely.
    for (let attempt = 0; attempt < 64; attempt++) {
      const code = newCode()
      if (this.tables.has(code) || (this.ownership && !this.ownership.owns(code))) continue
      const record = Table.create(code, msg, token, this.deps.now(), member, this.deps.node ?? null)
      try {
        await this.store.save(record, null)
      } catch (e) {
        if (e instanceof VersionConflict) continue
        this.deps.log.error({ err: e }, 'store refused a new table')
        // A table whose save may have landed has no one who holds its token: it expires alone.
        const unknown = (e as { maybeApplied?: boolean })?.maybeApplied !== false
        return {
          ok: false,
          error: unknown
            ? { code: 'OUTCOME_UNKNOWN', message: 'the table may not have been made; make another' }
            : { code: 'UNAVAILABLE', message: 'tables cannot be created just now' },
        }
      }
      const t = new Table(record, this.deps)
      this.tables.set(code, t)
      t.attachCreator(member)
      t.log.info({ game: msg.game }, 'table created')
      return {
        ok: true,
        version: record.version,
        table: code,
        seat: 0,
        token,
        link: `${this.linkBase}/t/${code}`,
        watchLink: `${this.linkBase}/t/${code}?watch`,
      }
    }
    return { ok: false, error: { code: 'UNAVAILABLE', message: 'no free table code was found' } }
  }

  /**
   * Throws TableMoved when another node serves `code`. It looks nothing up: which node serves a
   * code follows from the code alone, whether a table has it or not.
   */
  route(code: string): void {
    if (this.ownership && !this.ownership.owns(code))
      throw new TableMoved(code, this.ownership.ownerOf(code))
  }

  /**
   * The table with this code, or null if there is none. Throws TableMoved when another node
   * serves it (issue 17).
   */
  async get(code: string): Promise<Table | null> {
    this.route(code)
    const t = this.tables.get(code)
    if (t) return t
    let p = this.loading.get(code)
    if (!p) {
      p = this.store.load(code).then((record) => {
        if (!record) return null
        const existing = this.tables.get(code)
        if (existing) return existing
        const table = new Table(record, this.deps)
        this.tables.set(code, table)
        table.resume()
        return table
      })
      // Settled either way, the next caller asks the store again (an outage is not remembered).
      const settle = () => {
        this.loading.delete(code)
      }
      p.then(settle, settle)
      this.loading.set(code, p)
    }
    return p
  }

  /**
   * The nodes changed (one joined or left): the tables loaded here that another node owns now
   * are handed over: their members are told where to go, and the table leaves this node.
   */
  async rebalance(): Promise<void> {
    if (!this.ownership) return
    const moving = [...this.tables.values()].filter((t) => !this.ownership!.owns(t.code))
    await Promise.all(moving.map((t) => t.handOver(this.ownership!.ownerOf(t.code))))
  }

  /** Drops idle tables from memory (their records stay in the store). */
  evictIdle(): void {
    for (const [code, t] of this.tables) {
      if (t.idle) {
        t.close()
        this.tables.delete(code)
      }
    }
  }

  async drain(): Promise<void> {
    await Promise.all([...this.tables.values()].map((t) => t.drain()))
  }

  close(): void {
    for (const t of this.tables.values()) t.close()
    this.tables.clear()
  }
}
