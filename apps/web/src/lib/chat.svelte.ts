// A table's chat and quick reactions on this page (issue 15): what the server sent (text only,
// shown as text), what this device mutes, and what the last refusal was. Nothing here touches
// the game: chat is not a version of the table, and a message never waits for a move.
import type {
  ChatMessage,
  ChatReaction,
  ClientToServerEvents,
  Reaction,
  ServerToClientEvents,
  WireError,
} from '@kortbord/protocol/wire'
import type { Socket } from 'socket.io-client'
import { load, save } from './storage.ts'

/** One line of the chat: a message, or a quick reaction. */
export type ChatItem =
  | ({ readonly kind: 'message'; readonly key: string } & ChatMessage)
  | ({ readonly kind: 'reaction'; readonly key: string } & ChatReaction)

/** How many lines a page keeps. */
export const CHAT_LINES = 100

type Ack = { ok: true } | { ok: false; error: WireError }

/** The seats this device mutes at a table, remembered per table. */
export const muteKey = (code: string): string => `mute.${code}`

export function parseMuted(raw: string | null): Set<number> {
  const out = new Set<number>()
  for (const part of (raw ?? '').split(',')) {
    const n = Number(part)
    if (part !== '' && Number.isInteger(n) && n >= 0 && n < 16) out.add(n)
  }
  return out
}

/** Merges lines into a timeline in time order, without the same line twice, keeping the newest. */
export function mergeItems(held: readonly ChatItem[], more: readonly ChatItem[]): ChatItem[] {
  const seen = new Set(held.map((i) => i.key))
  const fresh = more.filter((i) => !seen.has(i.key) && seen.add(i.key))
  if (fresh.length === 0) return held as ChatItem[]
  const all = held.concat(fresh).sort((a, b) => a.at - b.at)
  return all.length > CHAT_LINES ? all.slice(-CHAT_LINES) : all
}

const messageItem = (m: ChatMessage): ChatItem => ({
  ...m,
  kind: 'message',
  key: `m${m.id}:${m.at}`,
})
let reactions = 0
const reactionItem = (r: ChatReaction): ChatItem => ({
  ...r,
  kind: 'reaction',
  key: `r${r.at}:${r.seat}:${r.reaction}:${reactions++}`,
})

export class TableChat {
  items = $state.raw<ChatItem[]>([])
  /** Lines that came while the panel was closed. */
  unread = $state(0)
  open = $state(false)
  muted = $state.raw<ReadonlySet<number>>(new Set())
  /** The last refusal of something this page sent. */
  error = $state.raw<WireError | null>(null)
  /** The newest line from someone else that is not muted (for the live region). */
  latest = $state.raw<ChatItem | null>(null)
  sending = $state(false)
  private readonly off: (() => void)[] = []

  constructor(
    readonly socket: Socket<ServerToClientEvents, ClientToServerEvents>,
    readonly code: string,
    /** This page's seat now (null for a spectator): its own lines are not announced. */
    private readonly mySeat: () => number | null,
  ) {
    this.muted = parseMuted(load(muteKey(code)))
    this.listen('chat:message', (m) => {
      if (m.table === code) this.add([messageItem(m)])
    })
    this.listen('chat:reaction', (r) => {
      if (r.table === code) this.add([reactionItem(r)])
    })
    this.listen('chat:history', (h) => {
      if (h.table !== code) return
      this.items = mergeItems(this.items, h.messages.map(messageItem))
    })
    // The history comes with arriving at the table; this page may have come later (the table's
    // code loads lazily): ask for the table again, which brings the chat with it.
    if (socket.connected) socket.emit('table:sync', { table: code }, () => {})
  }

  private listen<E extends 'chat:message' | 'chat:reaction' | 'chat:history'>(
    event: E,
    fn: ServerToClientEvents[E],
  ): void {
    const s = this.socket as unknown as {
      on(e: E, f: ServerToClientEvents[E]): void
      off(e: E, f: ServerToClientEvents[E]): void
    }
    s.on(event, fn)
    this.off.push(() => s.off(event, fn))
  }

  private add(items: ChatItem[]): void {
    const before = this.items
    this.items = mergeItems(before, items)
    if (this.items === before) return
    const item = items[items.length - 1]!
    const mine = item.seat !== null && item.seat === this.mySeat()
    if (mine || this.isMuted(item.seat)) return
    this.latest = item
    if (!this.open) this.unread++
  }

  isMuted(seat: number | null): boolean {
    return seat !== null && this.muted.has(seat)
  }

  toggleMute(seat: number): void {
    const next = new Set(this.muted)
    if (next.has(seat)) next.delete(seat)
    else next.add(seat)
    this.muted = next
    save(muteKey(this.code), next.size === 0 ? null : [...next].sort().join(','))
  }

  setOpen(open: boolean): void {
    this.open = open
    if (open) this.unread = 0
  }

  /** Sends a message; false (and `error`) when the server refused it. */
  say(text: string): Promise<boolean> {
    return this.send('chat:send', { table: this.code, text })
  }

  react(reaction: Reaction): Promise<boolean> {
    return this.send('chat:react', { table: this.code, reaction })
  }

  private async send(event: 'chat:send' | 'chat:react', payload: object): Promise<boolean> {
    if (!this.socket.connected) {
      this.error = { code: 'offline', message: 'not connected' }
      return false
    }
    this.sending = true
    try {
      const r = await new Promise<Ack>((resolve) => {
        ;(
          this.socket.timeout(10_000) as unknown as {
            emit(e: string, p: unknown, cb: (err: unknown, r: Ack) => void): void
          }
        ).emit(event, payload, (err, res) =>
          resolve(err ? { ok: false, error: { code: 'offline', message: 'no answer' } } : res),
        )
      })
      this.error = r.ok ? null : r.error
      return r.ok
    } finally {
      this.sending = false
    }
  }

  close(): void {
    for (const off of this.off.splice(0)) off()
  }
}
