// Requests to a Web Worker, and the worker's side of them: the page never waits on the work (the
// solver's search, a hint's playouts), a worker that fails or does not answer in time is ended
// and says why, and a worker answers each request with its result or its error.

/** What a worker answers when it has no result. */
export interface WorkerFailed {
  readonly ok: false
  readonly error: string
}

/**
 * A worker kept for one request after another (a replay's review asks the hint about every move:
 * starting a worker each time would cost more than most answers). Requests wait their turn; one
 * that fails or runs past its time limit ends the worker, and the next request starts a new one.
 */
export class KeptWorker {
  #worker: Worker | null = null
  #turn: Promise<unknown> = Promise.resolve()
  #ended = false

  constructor(private readonly start: () => Worker) {}

  /** Sends `request` once the requests before it are answered; its answer or why there is none. */
  ask<Reply>(request: unknown, limitMs: number): Promise<Reply | WorkerFailed> {
    const asked = this.#turn.then(() => this.#send<Reply>(request, limitMs))
    this.#turn = asked.catch(() => undefined)
    return asked
  }

  /** Ends the worker; a request after this fails at once. */
  end(): void {
    this.#ended = true
    this.#worker?.terminate()
    this.#worker = null
  }

  #send<Reply>(request: unknown, limitMs: number): Promise<Reply | WorkerFailed> {
    if (this.#ended) return Promise.resolve({ ok: false, error: 'ended' })
    let worker: Worker
    try {
      worker = this.#worker ?? this.start()
    } catch (err) {
      return Promise.resolve({ ok: false, error: String(err) })
    }
    this.#worker = worker
    return new Promise((resolve) => {
      const done = (reply: Reply | WorkerFailed, broken: boolean) => {
        clearTimeout(timer)
        worker.onmessage = null
        worker.onerror = null
        if (broken && this.#worker === worker) {
          worker.terminate()
          this.#worker = null
        }
        resolve(reply)
      }
      const timer = setTimeout(() => done({ ok: false, error: 'time limit' }, true), limitMs)
      worker.onmessage = (e: MessageEvent<Reply>) => done(e.data, false)
      worker.onerror = (e) => done({ ok: false, error: e.message || 'worker failed' }, true)
      worker.postMessage(request)
    })
  }
}

/**
 * Sends `request` to `worker` (made for this request) and ends it after its answer, its failure
 * or `limitMs`, whichever comes first.
 */
export async function askWorker<Reply>(
  worker: Worker,
  request: unknown,
  limitMs: number,
): Promise<Reply | WorkerFailed> {
  const kept = new KeptWorker(() => worker)
  try {
    return await kept.ask<Reply>(request, limitMs)
  } finally {
    kept.end()
  }
}

/**
 * `request`, as a plain copy (the page's state may be a proxy, which a worker cannot receive), to
 * `kept`, else to a worker `start`ed for it alone; the worker's result, or an error saying why
 * there is none.
 */
export async function workOff<Result extends { readonly ok: true }>(
  start: () => Worker,
  request: unknown,
  limitMs: number,
  kept?: KeptWorker,
): Promise<Result> {
  const copy: unknown = JSON.parse(JSON.stringify(request))
  const r = kept
    ? await kept.ask<Result>(copy, limitMs)
    : await askWorker<Result>(start(), copy, limitMs)
  if (!r.ok) throw new Error(r.error)
  return r
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
