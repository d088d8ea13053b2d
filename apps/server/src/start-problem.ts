// What a newcomer reads when the server cannot start (main.ts): the cause and what to do.

/** One line on why a start failed, with the way out where there is a usual one. */
export function startProblem(err: unknown): string {
  const e = err as { code?: unknown; port?: unknown; address?: unknown; message?: unknown }
  if (e?.code === 'EADDRINUSE') {
    return `port ${String(e.port)} on ${String(e.address)} is already in use: stop what listens there, or start with PORT set to another port (METRICS_PORT for the metrics)`
  }
  if (e?.code === 'EACCES') {
    return `no permission to listen on port ${String(e.port)}: use a port above 1023 (PORT)`
  }
  return typeof e?.message === 'string' ? e.message : String(err)
}
