/**
 * Structural equality of render data (what a chart's props are made of): primitives by value
 * (NaN equals NaN), arrays and plain objects member by member, anything else — functions, Dates,
 * DOM nodes, React elements' owners — by identity. The what-if controls recompute the whole
 * analysis on every slider step, so the arrays a chart receives are new each time even when their
 * numbers are not; comparing them is far cheaper than Recharts drawing them again.
 */
export function sameData(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameData(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b) || !isPlain(a) || !isPlain(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(b, key)) return false;
    if (!sameData((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Props of a panel that shows a plan's profile, limits or latency — not its right-sizing —
 * compared by value with the what-if part left out: a headroom step changes only
 * `plan.headroom` and `plan.rightSizing` of every plan, and such a panel then has nothing new
 * to draw. A panel using this must read neither.
 */
export function samePropsBesidesWhatIf<P extends { plan: { rightSizing: unknown; headroom: unknown } }>(
  a: P,
  b: P,
): boolean {
  const strip = (p: P) => ({ ...p, plan: { ...p.plan, rightSizing: null, headroom: null } });
  return sameData(strip(a), strip(b));
}
