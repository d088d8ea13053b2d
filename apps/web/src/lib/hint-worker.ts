// The Web Worker that works out an Idiot hint (lib/hint.ts): the hard computer player's playouts
// take up to 300 ms, more on a slow phone, which the page's own thread must not wait for. A
// table's hint has a worker of its own; a replay's review keeps one for every move.
import type { HardThought, IdiotView } from '@kortbord/engine'
import { idiotHint } from './hint-bot.ts'
import { answerRequests } from './worker-call.ts'

export interface HintRequest {
  readonly view: IdiotView
}

export interface HintDone {
  readonly ok: true
  readonly thought: HardThought | null
}

answerRequests(({ view }: HintRequest) => ({ thought: idiotHint(view) }))
