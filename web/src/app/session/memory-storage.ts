// Test support: an in-memory Storage (imported by tests only).

/** A Storage that keeps items in a Map, or refuses writes as a full browser storage does. */
export function memoryStorage(options: { full?: boolean } = {}): Storage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    key: (i) => [...items.keys()][i] ?? null,
    getItem: (k) => items.get(k) ?? null,
    removeItem: (k) => void items.delete(k),
    setItem: (k, v) => {
      if (options.full) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      items.set(k, v);
    },
  };
}
