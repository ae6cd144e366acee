/**
 * A number typed by a person: "12000", "12,000", "12 000", "1_000", "3.5". Returns null for
 * anything else (empty, "12k", "1e400", "abc") so the form can say what it expected.
 */
export function parseNumberText(text: string): number | null {
  const cleaned = text.trim().replace(/[,_\s\u00a0\u202f]/g, '');
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(cleaned)) return null;
  const n = Number(cleaned);
  return Number.isFinite(n) ? n : null;
}

/** For inputs: shows a number without grouping, so it parses back unchanged. */
export const numberText = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));
