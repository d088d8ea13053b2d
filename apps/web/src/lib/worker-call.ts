// One request to a Web Worker of its own, and the worker's side of it: the page never waits on
// the work (the solver's search, a hint's playouts), a worker that fails or does not answer in
// time is ended and says why, and a worker answers each request with its result or its error.

/** What a worker answers when it has no result. */
export interface WorkerFailed {
  readonly ok: false
  readonly error: string
}

/**
 * Sends `request` to `worker` (made for this request) and ends it after its answer, its failure
 * or `limitMs`, whichever comes first.
 */
export function askWorker<Reply>(
  worker: Worker,
  request: unknown,
  limitMs: number,
): Promise<Reply | WorkerFailed> {
  return new Promise((resolve) => {
    const done = (reply: Reply | WorkerFailed) => {
      clearTimeout(timer)
      worker.terminate()
      resolve(reply)
    }
    const timer = setTimeout(() => done({ ok: false, error: 'time limit' }), limitMs)
    worker.onmessage = (e: MessageEvent<Reply>) => done(e.data)
    worker.onerror = (e) => done({ ok: false, error: e.message || 'worker failed' })
    worker.postMessage(request)
  })
}

/** In a worker: answers every request with `{ ok: true, ...work(request) }`, or its error. */
export function answerRequests<Request, Result extends object>(
  work: (request: Request) => Result,
): void {
  addEventListener('message', (e: MessageEvent<Request>) => {
    let reply: ({ readonly ok: true } & Result) | WorkerFailed
    try {
      reply = { ok: true, ...work(e.data) }
    } catch (err) {
      reply = { ok: false, error: String(err) }
    }
    postMessage(reply)
  })
}
