// A localStorage for unit tests (node has none): a Map behind the Storage interface.
export function installLocalStorage(): Map<string, string> {
  const m = new Map<string, string>()
  const storage: Storage = {
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => {
      m.set(k, String(v))
    },
    removeItem: (k) => {
      m.delete(k)
    },
    clear: () => m.clear(),
    key: (i) => [...m.keys()][i] ?? null,
    get length() {
      return m.size
    },
  }
  ;(globalThis as { localStorage?: Storage }).localStorage = storage
  return m
}
