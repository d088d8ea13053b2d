// Ports on 127.0.0.1 for the servers that tests and benchmarks start (their own Redis, nodes).
import { createServer, Socket } from 'node:net'

/** A port nothing listens on right now (the OS's pick, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const a = s.address()
      s.close(() => (a && typeof a === 'object' ? resolve(a.port) : reject(new Error('no port'))))
    })
  })
}

/** Whether something takes TCP connections on the port (half a second to answer). */
export function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = new Socket()
    const done = (ok: boolean) => {
      s.destroy()
      resolve(ok)
    }
    s.setTimeout(500, () => done(false))
    s.once('connect', () => done(true))
    s.once('error', () => done(false))
    s.connect(port, '127.0.0.1')
  })
}
