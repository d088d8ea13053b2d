// Preloaded into the server by `pnpm bench:abuse` only (node --expose-gc --import): SIGUSR2 runs
// a full garbage collection, so that the heap the benchmark reads afterwards is what is alive,
// not what the collector has yet to free.
const collect = globalThis.gc
if (collect) process.on('SIGUSR2', () => collect())

export {}
