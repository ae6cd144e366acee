/**
 * How the instance picker reads what was typed: size abbreviations as people write them
 * (`r6id.4xl`, `m5.xl`, `t3.med`), and which types to offer when the name is not in the catalog —
 * the same family's sizes first, nearest size first, then families one or two letters away.
 * Pure: the combobox and its tests call these.
 */

type Named = { instanceType: string };

const SIZE_WORDS: Record<string, string> = {
  l: 'large',
  lg: 'large',
  lrg: 'large',
  m: 'medium',
  med: 'medium',
  s: 'small',
  sm: 'small',
};

/** `r6id.4xl` → `r6id.4xlarge`, `m5.xl` → `m5.xlarge`, `t3.med` → `t3.medium`; anything else as typed (trimmed, lower case). */
export function expandInstanceAbbreviation(text: string): string {
  const q = text.trim().toLowerCase();
  const dot = q.indexOf('.');
  if (dot <= 0) return q;
  const family = q.slice(0, dot);
  const size = q.slice(dot + 1);
  const xl = /^(\d*)xl?$/.exec(size);
  if (xl) return `${family}.${xl[1]}xlarge`;
  const word = SIZE_WORDS[size];
  return word ? `${family}.${word}` : q;
}

/** The size's place on one scale (vCPUs as AWS doubles them): nano < … < large < xlarge < 2xlarge …; metal last. */
export function sizeRank(size: string): number | null {
  const named: Record<string, number> = {
    nano: 0.125,
    micro: 0.25,
    small: 0.5,
    medium: 1,
    large: 2,
    xlarge: 4,
  };
  if (size in named) return named[size]!;
  const n = /^(\d+)xlarge$/.exec(size);
  if (n) return 4 * Number(n[1]);
  if (size.startsWith('metal')) return 10_000;
  return null;
}

function splitName(name: string): { family: string; size: string } {
  const dot = name.indexOf('.');
  return dot < 0 ? { family: name, size: '' } : { family: name.slice(0, dot), size: name.slice(dot + 1) };
}

/** Edit distance with adjacent transpositions (optimal string alignment): `r6di` is one edit from `r6id`. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The listbox's matches: names starting with the text (or its expansion: `r6id.4xl` lists
 * r6id.4xlarge first), then other names containing it; catalog order within each group.
 */
export function filterInstanceTypes<T extends Named>(types: readonly T[], query: string): T[] {
  const q = query.trim().toLowerCase();
  if (!q) return types.slice();
  const expanded = expandInstanceAbbreviation(q);
  const exact: T[] = [];
  const prefix: T[] = [];
  const other: T[] = [];
  for (const t of types) {
    const name = t.instanceType;
    if (name === expanded && expanded !== q) exact.push(t);
    else if (name.startsWith(q)) prefix.push(t);
    else if (name.includes(q)) other.push(t);
  }
  return [...exact, ...prefix, ...other];
}

/** The one type the text names: itself or its expansion, or the single listbox match. */
export function resolveInstanceType<T extends Named>(types: readonly T[], text: string): T | null {
  const q = text.trim().toLowerCase();
  if (!q) return null;
  const expanded = expandInstanceAbbreviation(q);
  const named = types.find((t) => t.instanceType === q) ?? types.find((t) => t.instanceType === expanded);
  if (named) return named;
  const matches = filterInstanceTypes(types, q);
  return matches.length === 1 ? matches[0]! : null;
}

/**
 * "Did you mean" for a name not in the catalog: the same family's sizes, nearest size first (a
 * typo'd `r6id.5xlarge` offers r6id.4xlarge and r6id.8xlarge); then families at most two edits
 * away (`r6di` → r6id; a family of the same length first), their same size first; at most `limit`.
 */
export function suggestInstanceTypes<T extends Named>(types: readonly T[], text: string, limit = 3): T[] {
  const { family, size } = splitName(expandInstanceAbbreviation(text));
  if (!family) return [];
  const wanted = sizeRank(size);
  const sizeDistance = (s: string) => {
    const r = sizeRank(s);
    if (wanted === null || r === null) return Number.POSITIVE_INFINITY;
    return Math.abs(Math.log2(r) - Math.log2(wanted));
  };
  const scored: { t: T; tier: number; lengthGap: number; distance: number; order: number }[] = [];
  types.forEach((t, order) => {
    const n = splitName(t.instanceType);
    if (n.family === family) scored.push({ t, tier: 0, lengthGap: 0, distance: sizeDistance(n.size), order });
    else {
      const d = editDistance(n.family, family);
      if (d <= 2 && d < family.length)
        scored.push({
          t,
          tier: d,
          lengthGap: Math.abs(n.family.length - family.length),
          distance: n.size === size ? -1 : sizeDistance(n.size),
          order,
        });
    }
  });
  scored.sort(
    (a, b) => a.tier - b.tier || a.lengthGap - b.lengthGap || a.distance - b.distance || a.order - b.order,
  );
  return scored.slice(0, limit).map((s) => s.t);
}
