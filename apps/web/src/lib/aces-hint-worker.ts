// The Web Worker that works out Idioten's hint (lib/aces-hint.ts): the playouts take up to 300 ms
// on a computer and about a second on a slow phone, which the page's own thread must not wait
// for. A table's hint has a worker of its own; a replay's review keeps one for every move.
import type { AcesUpMove, AcesUpThought, AcesUpView } from '@kortbord/engine'
import { acesHint } from './aces-hint-bot.ts'
import { answerRequests } from './worker-call.ts'

export interface AcesHintRequest {
  readonly view: AcesUpView
  readonly moves: readonly AcesUpMove[]
}

export interface AcesHintDone {
  readonly ok: true
  readonly thought: AcesUpThought | null
}

answerRequests(({ view, moves }: AcesHintRequest) => ({ thought: acesHint(view, moves) }))
