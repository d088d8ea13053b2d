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
export class KeptWorker implements WorkerAsker {
  #worker: Worker | null = null
  #turn: Promise<unknown> = Promise.resolve()
  #ended = false
  /** Requests sent and not yet answered. */
  pending = 0

  constructor(private readonly start: () => Worker) {}

  /** Sends `request` once the requests before it are answered; its answer or why there is none. */
  ask<Reply>(request: unknown, limitMs: number): Promise<Reply | WorkerFailed> {
    this.pending++
    const asked = this.#turn
      .then(() => this.#send<Reply>(request, limitMs))
      .finally(() => {
        this.pending--
      })
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

/** What asks a worker: one kept (KeptWorker) or a few (WorkerLanes). */
export interface WorkerAsker {
  ask<Reply>(request: unknown, limitMs: number): Promise<Reply | WorkerFailed>
  end(): void
}

/**
 * A few workers kept side by side, each request going to the one with the fewest waiting: a
 * replay's check of every move asks about several moves at once on a computer or phone with
 * cores to spare.
 */
export class WorkerLanes implements WorkerAsker {
  readonly #lanes: KeptWorker[]

  constructor(start: () => Worker, size: number) {
    this.#lanes = Array.from({ length: Math.max(1, size) }, () => new KeptWorker(start))
  }

  get size(): number {
    return this.#lanes.length
  }

  ask<Reply>(request: unknown, limitMs: number): Promise<Reply | WorkerFailed> {
    const free = this.#lanes.reduce((a, b) => (b.pending < a.pending ? b : a))
    return free.ask<Reply>(request, limitMs)
  }

  end(): void {
    for (const l of this.#lanes) l.end()
  }
}

/**
 * Lanes for work beside the page: one core is left to the page and the browser, at least two
 * lanes where there are two cores (the page waits on the workers, it does not compete), at most
 * three.
 */
export function lanesFor(cores: number | undefined): number {
  const n = cores ?? 1
  return n < 2 ? 1 : Math.min(3, Math.max(2, n - 1))
}

/** Workers of `start` side by side, as many as this device's cores allow (lanesFor). */
export const workerLanes = (start: () => Worker): WorkerLanes =>
  new WorkerLanes(start, lanesFor(globalThis.navigator?.hardwareConcurrency))

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
  kept?: WorkerAsker,
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
