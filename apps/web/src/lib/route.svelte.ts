// Three pages: home (/), a table (/t/CODE, ?watch for spectators) and a game record's replay
// (/r/<id>, issue 14); any other address is no page, said as such. The History API is enough.
export type Route =
  | { page: 'home' }
  | { page: 'none' }
  | { page: 'table'; code: string; watch: boolean }
  | { page: 'record'; id: string }

export function parseRoute(path: string, search: string): Route {
  const r = /^\/r\/([a-z2-9]{12})\/?$/.exec(path)
  if (r) return { page: 'record', id: r[1]! }
  const m = /^\/t\/([A-Za-z0-9]{6})\/?$/.exec(path)
  if (!m) return path === '/' || path === '/index.html' ? { page: 'home' } : { page: 'none' }
  const params = new URLSearchParams(search)
  return { page: 'table', code: m[1]!.toUpperCase(), watch: params.has('watch') }
}

class Router {
  current = $state<Route>(parseRoute(location.pathname, location.search))
  constructor() {
    addEventListener('popstate', () => {
      this.current = parseRoute(location.pathname, location.search)
    })
  }
}

export const route = new Router()

export function navigate(url: string): void {
  history.pushState(null, '', url)
  route.current = parseRoute(location.pathname, location.search)
}
