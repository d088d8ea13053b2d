// A table's chat and quick reactions (issue 15): text only, checked as a person sees it
// (checkChat), limited per connection, kept in memory (the latest CHAT_KEEP messages on this
// node) and never part of the table's state: chatting changes no version and cannot slow a move.
import type { Seat } from '@kortbord/engine'
import type { ChatMessage, ChatReaction, Reaction } from '@kortbord/protocol'

/** Messages a table keeps on a node, for members who arrive later. */
export const CHAT_KEEP = 30

export interface ChatDeps {
  /** Sends a message to every member of the table (on every node). */
  message(m: ChatMessage): void
  reaction(r: ChatReaction): void
  /** Sends the latest messages to one connection. */
  history(member: string, code: string, messages: readonly ChatMessage[]): void
  now(): number
}

export class TableChat {
  private readonly kept: ChatMessage[] = []
  private nextId = 1

  constructor(
    private readonly code: string,
    private readonly deps: ChatDeps,
  ) {}

  say(seat: Seat | null, name: string, text: string): void {
    const m: ChatMessage = {
      table: this.code,
      id: this.nextId++,
      seat,
      name,
      text,
      at: this.deps.now(),
    }
    this.kept.push(m)
    if (this.kept.length > CHAT_KEEP) this.kept.shift()
    this.deps.message(m)
  }

  react(seat: Seat | null, name: string, reaction: Reaction): void {
    this.deps.reaction({ table: this.code, seat, name, reaction, at: this.deps.now() })
  }

  /** The latest messages, to a connection that just came to the table. */
  welcome(member: string): void {
    if (this.kept.length > 0) this.deps.history(member, this.code, this.kept.slice())
  }
}

/**
 * How often one connection may chat or react: a burst of `burst`, then one per `everyMs`
 * (defaults: 5 at once, one every 3 s, i.e. 20 a minute).
 */
export class ChatLimit {
  private tokens: number
  private last = performance.now()

  constructor(
    private readonly burst = 5,
    private readonly everyMs = 3000,
  ) {
    this.tokens = burst
  }

  take(): boolean {
    const now = performance.now()
    this.tokens = Math.min(this.burst, this.tokens + (now - this.last) / this.everyMs)
    this.last = now
    if (this.tokens < 1) return false
    this.tokens -= 1
    return true
  }
}
