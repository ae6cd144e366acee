import { parseCountText } from '@blockwise/shared/units';

/**
 * A number typed by a person: "12000", "12,000", "12 000", "1_000", "3.5". Count fields (IOPS,
 * volume counts) also take the shared parseCountText's suffixes, k = 1,000 and M = 1,000,000
 * ("10k", "1.5M"), as dashboards print them: `{ suffixes: true }`. Every other field refuses
 * them, because beside a unit they read as a unit ("500M" MiB/s is not 500 million MiB/s, "5m" ms
 * is not 5 million ms). Returns null for anything refused (empty, "-5", "1e400", "abc") so the
 * form can say what it expected; `numberProblem` says why.
 */
export type NumberTextOptions = { suffixes?: boolean };

export type NumberProblem = 'negative' | 'not_a_number' | 'suffix';

const SUFFIX = /[kKmM]\s*$/;

function check(
  text: string,
  options: NumberTextOptions,
): { ok: true; value: number } | { ok: false; reason: NumberProblem } {
  const r = parseCountText(text);
  if (!r.ok) return r;
  if (!options.suffixes && SUFFIX.test(text)) return { ok: false, reason: 'suffix' };
  return r;
}

export function parseNumberText(text: string, options: NumberTextOptions = {}): number | null {
  const r = check(text, options);
  return r.ok ? r.value : null;
}

/** Why `parseNumberText` refused a text: a minus sign, a k/M suffix where none is allowed, or no number. */
export function numberProblem(text: string, options: NumberTextOptions = {}): NumberProblem | null {
  const r = check(text, options);
  return r.ok ? null : r.reason;
}

/** The words for a refused k/M suffix in a field with a unit: "type the number in MiB/s, e.g. 500". */
export function suffixRefusal(unit: string): string {
  return `"k" and "M" are only for counts such as IOPS: type the number in ${unit}, e.g. 500 rather than 0.5k.`;
}

/** For inputs: shows a number without grouping, so it parses back unchanged. */
export const numberText = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));
