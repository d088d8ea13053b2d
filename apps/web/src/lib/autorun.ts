// "Kör" for the mechanical patiences: send one step, wait for its acknowledgement, wait out the
// rest of the interval, and go on while the page says another step is wanted. One step is in
// flight at a time, so the rate stays far below the server's limit (20 commands/s).

export interface AutoRunOptions {
  /** Sends one step; resolves true when the server accepted it. */
  step(): Promise<boolean>
  /** Whether another step should be sent now (asked before every step). */
  canStep(): boolean
  /** Milliseconds from the start of one step to the start of the next (at least). */
  intervalMs: number
  /** Told when running starts and stops (for a button that reads Kör / Stopp). */
  onChange?(running: boolean): void
  sleep?(ms: number): Promise<void>
  now?(): number
}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

export class AutoRun {
  #running = false
  /** Bumped by every start and stop: a loop whose run is over sends nothing more. */
  #run = 0
  #inflight: Promise<unknown> = Promise.resolve()
  readonly #o: AutoRunOptions

  constructor(opts: AutoRunOptions) {
    this.#o = opts
  }

  get running(): boolean {
    return this.#running
  }

  /** Runs until `canStep()` says no, a step is refused, or `stop()`; resolves when it ends. */
  async start(): Promise<void> {
    if (this.#running) return
    const run = ++this.#run
    this.#set(true)
    const sleep = this.#o.sleep ?? realSleep
    const now = this.#o.now ?? Date.now
    try {
      // A step sent by an earlier run is answered first: never two in flight.
      await this.#inflight
      while (this.#run === run && this.#o.canStep()) {
        const began = now()
        const sent = this.#o.step()
        this.#inflight = sent.catch(() => false)
        const ok = await sent.catch(() => false)
        if (!ok || this.#run !== run) break
        const wait = this.#o.intervalMs - (now() - began)
        if (wait > 0) await sleep(wait)
      }
    } finally {
      if (this.#run === run) this.#set(false)
    }
  }

  stop(): void {
    this.#run++
    this.#set(false)
  }

  #set(running: boolean): void {
    if (this.#running === running) return
    this.#running = running
    this.#o.onChange?.(running)
  }
}
