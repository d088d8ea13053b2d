// The Web Worker that works out Idioten alone's hint (lib/aces-hint.ts): the playouts take up to
// 300 ms on a computer and about a second on a slow phone, which the page's own thread must not
// wait for. One request per worker.
import type { AcesUpMove, AcesUpThought, AcesUpView } from '@kortbord/engine'
import { acesHint } from './aces-hint-bot.ts'

export interface AcesHintRequest {
  readonly view: AcesUpView
  readonly moves: readonly AcesUpMove[]
}

export type AcesHintReply =
  | { readonly ok: true; readonly thought: AcesUpThought | null }
  | { readonly ok: false; readonly error: string }

addEventListener('message', (e: MessageEvent<AcesHintRequest>) => {
  let reply: AcesHintReply
  try {
    reply = { ok: true, thought: acesHint(e.data.view, e.data.moves) }
  } catch (err) {
    reply = { ok: false, error: String(err) }
  }
  postMessage(reply)
})
