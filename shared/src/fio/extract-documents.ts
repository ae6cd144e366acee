import type { Problem, Warning } from '../problem.ts';
import {
  findNextObjectStart,
  lineAndColumn,
  repairFioJson,
  scanObject,
  scanValidObject,
} from './scan-json.ts';

/**
 * Finds fio's JSON document in a text stream (docs/fio-format.md §8 and §9 step 2). The "JSON file"
 * is often not pure JSON: warnings and job errors come before it (§8.1), `normal,json` output puts
 * normal text after it (§8.2), `--status-interval` writes several documents where the last holds
 * the final results (§8.3), a failed job file leaves only `fio:` lines (§8.4), and fio's own JSON
 * writer can print `nan` and raw control characters (§8.5).
 */

/** Deeper than this is refused before parsing. fio's own output nests 6 levels (json+ bins). */
export const DEFAULT_MAX_DEPTH = 64;

/** The keys that make a JSON object a fio result (docs/fio-format.md §9 step 2). */
const FIO_KEYS = ['fio version', 'jobs', 'client_stats'] as const;

export type ExtractOptions = { maxDepth?: number };

export type Extracted =
  | { ok: true; document: Record<string, unknown>; documentsFound: number; warnings: Warning[] }
  | { ok: false; error: Problem };

type Found = { value: Record<string, unknown>; start: number; end: number };
type Failure =
  | { kind: 'invalid'; start: number; end: number; detail: string; at: number | null }
  | { kind: 'truncated' | 'too_deep' | 'mismatched'; start: number; at: number };

/** The last complete fio document in `text`, with warnings about whatever was skipped around it. */
export function extractFioDocument(text: string, options: ExtractOptions = {}): Extracted {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const found: Found[] = [];
  const failures: Failure[] = [];
  const otherJson: Record<string, unknown>[] = [];

  // The first `{` anywhere, so JSON glued to a line of text (`done: {"fio version"...`) is found
  // too; after that, only `{` at line starts (inner, indented objects only when an outer one failed).
  let start = text.indexOf('{');
  while (start !== -1) {
    // The quick scan first (fio's output is valid JSON); its result holds only once JSON.parse has
    // accepted its slice. Otherwise the full scan decides, exactly as it always did.
    const quick = scanValidObject(text, start, maxDepth);
    let parsed = quick.kind === 'complete' ? parseJson(text.slice(start, quick.end)) : null;
    let scan = quick;
    if (parsed === null || !parsed.ok) {
      scan = scanObject(text, start, maxDepth);
      if (scan.kind !== 'complete') parsed = null;
      else if (quick.kind !== 'complete' || quick.end !== scan.end)
        parsed = parseJson(text.slice(start, scan.end));
    }
    if (scan.kind !== 'complete') {
      failures.push({ kind: scan.kind, start, at: scan.at });
    } else if (parsed?.ok) {
      if (isFioDocument(parsed.value)) found.push({ value: parsed.value, start, end: scan.end });
      else otherJson.push(parsed.value as Record<string, unknown>);
      // A complete object is skipped whole: fio never nests a result inside another object.
      start = findNextObjectStart(text, scan.end);
      continue;
    } else if (parsed) {
      failures.push({ kind: 'invalid', start, end: scan.end, detail: parsed.detail, at: parsed.at });
    }
    // The object at `start` failed: an object inside it (or after it) may still be whole.
    start = findNextObjectStart(text, start + 1);
  }

  const warnings: Warning[] = [];
  if (found.length === 0) {
    const repaired = repairInvalidObjects(text, failures);
    if (repaired === null)
      return { ok: false, error: explainNothingFound(text, failures, otherJson, maxDepth) };
    found.push(repaired.found);
    warnings.push(...repaired.warnings);
  }

  const first = found[0]!;
  const last = found[found.length - 1]!;
  if (found.length > 1) {
    warnings.push({
      code: 'multiple_documents',
      message: `${found.length} fio JSON documents found (--status-interval writes one per interval); the last one holds the final results and is the one used`,
    });
  }
  const before = text.slice(0, first.start).trim();
  if (before !== '') {
    const lines = before.split(/\r?\n/).filter((l) => l.trim() !== '');
    warnings.push({
      code: 'text_before_json',
      message: `text before the JSON was skipped (${lines.length} line(s)): ${quoteLine(pickTellingLine(lines))}`,
    });
  }
  const after = text.slice(last.end).trim();
  if (after !== '') {
    const truncatedLater = failures.some((f) => f.kind === 'truncated' && f.start >= last.end);
    warnings.push(
      truncatedLater
        ? {
            code: 'truncated_document_ignored',
            message: `the text after the last complete fio document starts another one that is cut off (line ${lineAndColumn(text, last.end).line + 1} onwards); the last complete document was used`,
          }
        : {
            code: 'text_after_json',
            message: `${after.length} characters of text after the JSON were skipped (e.g. the normal-format results of --output-format=normal,json)`,
          },
    );
  }
  return { ok: true, document: last.value, documentsFound: found.length, warnings };
}

function isFioDocument(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return FIO_KEYS.some((key) => Object.hasOwn(value, key));
}

type JsonParse = { ok: true; value: unknown } | { ok: false; detail: string; at: number | null };

function parseJson(slice: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(slice) };
  } catch (error) {
    // V8 from Node 22 on appends "(line L column C)" of the slice; the message already says where
    // in the whole input, so it is dropped: one wording on every Node version users run.
    const detail = (error instanceof Error ? error.message : String(error)).replace(
      / \(line \d+ column \d+\)$/,
      '',
    );
    const m = /at position (\d+)/.exec(detail);
    return { ok: false, detail, at: m ? Number(m[1]) : null };
  }
}

/** docs/fio-format.md §8.5: retry objects that failed to parse after making fio's near-JSON strict. */
function repairInvalidObjects(
  text: string,
  failures: Failure[],
): { found: Found; warnings: Warning[] } | null {
  let result: { found: Found; warnings: Warning[] } | null = null;
  for (const failure of failures) {
    if (failure.kind !== 'invalid') continue;
    // Inside an object already repaired: the outer one wins.
    if (result && failure.start < result.found.end) continue;
    const repair = repairFioJson(text.slice(failure.start, failure.end));
    if (repair.nonFinite === 0 && repair.controlCharacters === 0) continue;
    const parsed = parseJson(repair.text);
    if (!parsed.ok || !isFioDocument(parsed.value)) continue;
    const warnings: Warning[] = [];
    if (repair.nonFinite > 0) {
      warnings.push({
        code: 'non_finite_numbers',
        message: `${repair.nonFinite} bare nan/inf value(s), which fio prints for non-finite floats and JSON does not allow, were read as null (unknown)`,
      });
    }
    if (repair.controlCharacters > 0) {
      warnings.push({
        code: 'control_characters',
        message: `${repair.controlCharacters} raw control character(s) inside strings (fio does not escape them in job names or descriptions) were escaped`,
      });
    }
    result = { found: { value: parsed.value, start: failure.start, end: failure.end }, warnings };
  }
  return result;
}

function explainNothingFound(
  text: string,
  failures: Failure[],
  otherJson: Record<string, unknown>[],
  maxDepth: number,
): Problem {
  const tooDeep = failures.find((f) => f.kind === 'too_deep');
  if (tooDeep && tooDeep.kind === 'too_deep') {
    const where = lineAndColumn(text, tooDeep.at);
    return {
      code: 'too_deep',
      message: `the JSON starting on line ${lineAndColumn(text, tooDeep.start).line} nests more than ${maxDepth} levels deep (line ${where.line}, column ${where.column}); fio output nests at most 6 levels, so this was not parsed`,
    };
  }
  const failure = failures[0];
  if (failure) {
    const startLine = lineAndColumn(text, failure.start).line;
    if (failure.kind === 'truncated') {
      const end = lineAndColumn(text, failure.at);
      return {
        code: 'invalid_json',
        message: `the JSON starting on line ${startLine} is cut off: the input ends at line ${end.line}, column ${end.column} (character ${failure.at}) before the object is closed; the file is truncated`,
      };
    }
    if (failure.kind === 'mismatched') {
      const at = lineAndColumn(text, failure.at);
      return {
        code: 'invalid_json',
        message: `the JSON starting on line ${startLine} is not valid: "${text[failure.at]}" at line ${at.line}, column ${at.column} (character ${failure.at}) closes the wrong bracket`,
      };
    }
    if (failure.kind === 'invalid') {
      let position = '';
      if (failure.at !== null) {
        const abs = failure.start + failure.at;
        const at = lineAndColumn(text, abs);
        position = ` at line ${at.line}, column ${at.column} (character ${abs})`;
      }
      return {
        code: 'invalid_json',
        message: `the JSON starting on line ${startLine} is not valid${position}: ${failure.detail}`,
      };
    }
  }
  const other = otherJson[0];
  if (other) {
    const keys = Object.keys(other).slice(0, 5);
    return {
      code: 'not_fio_json',
      message: `the input holds JSON, but not fio's: it has none of the keys "fio version", "jobs" or "client_stats"${keys.length ? ` (its keys: ${keys.map((k) => JSON.stringify(k)).join(', ')})` : ''}`,
    };
  }
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  return {
    code: 'not_fio_json',
    message: `no fio JSON found in the input (fio writes it with --output-format=json); the input says: ${quoteLine(pickTellingLine(lines))}`,
  };
}

/** fio's own `fio: …` error line says what went wrong; otherwise the first line. */
function pickTellingLine(lines: string[]): string {
  return lines.find((l) => /^\s*fio:/.test(l)) ?? lines[0] ?? '';
}

/** The line as it is (fio's messages contain quotes of their own), cut at 200 characters. */
function quoteLine(line: string): string {
  const trimmed = line.trim();
  return trimmed.length > 200 ? `${trimmed.slice(0, 200)}…` : trimmed;
}
