/**
 * A linear scan over text that holds JSON among other lines. JavaScript has no incremental JSON
 * decoder (Python's `raw_decode`, docs/fio-format.md §8.1), so we find where an object that starts at a
 * `{` ends by counting brackets outside strings, and only then hand that slice to `JSON.parse`.
 * The same pass measures nesting depth, so a hostile file nested 100 000 levels deep is refused
 * before any parser recurses into it.
 */

export type ObjectScan =
  /** `end` is the index just past the closing `}`. */
  | { kind: 'complete'; end: number; maxDepth: number }
  /** The text ended inside the object (or inside a string): `at` is the end of the text. */
  | { kind: 'truncated'; at: number }
  /** Nesting went past the limit at index `at`. */
  | { kind: 'too_deep'; at: number }
  /** A closing bracket that does not match (`{ ]`): not JSON; `at` is its index. */
  | { kind: 'mismatched'; at: number };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;

/**
 * Scans the JSON value that starts with `{` at `start`. Linear in the length of the object, and
 * built on `indexOf` rather than a character loop: engines search for one character with
 * vectorized code (~60× faster than `charCodeAt` per character here), so the scan keeps the next
 * position of each of `"{}[]` and jumps from one to the next. A string is skipped by finding its
 * closing quote; a bracket inside it is skipped by re-searching past the string.
 */
export function scanObject(text: string, start: number, maxDepth: number): ObjectScan {
  const n = text.length;
  // Which bracket each level opened, to reject `{ ]`; never deeper than maxDepth.
  const stack = new Uint8Array(maxDepth + 1);
  let depth = 0;
  let deepest = 0;
  let quote = nextOf(text, '"', start);
  let openBrace = nextOf(text, '{', start);
  let closeBrace = nextOf(text, '}', start);
  let openBracket = nextOf(text, '[', start);
  let closeBracket = nextOf(text, ']', start);
  for (;;) {
    let i = quote < openBrace ? quote : openBrace;
    if (closeBrace < i) i = closeBrace;
    if (openBracket < i) i = openBracket;
    if (closeBracket < i) i = closeBracket;
    if (i >= n) return { kind: 'truncated', at: n };
    if (i === quote) {
      const close = findStringEnd(text, i + 1);
      if (close === -1) return { kind: 'truncated', at: n };
      const after = close + 1;
      quote = nextOf(text, '"', after);
      if (openBrace < after) openBrace = nextOf(text, '{', after);
      if (closeBrace < after) closeBrace = nextOf(text, '}', after);
      if (openBracket < after) openBracket = nextOf(text, '[', after);
      if (closeBracket < after) closeBracket = nextOf(text, ']', after);
      continue;
    }
    const c = text.charCodeAt(i);
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth += 1;
      if (depth > maxDepth) return { kind: 'too_deep', at: i };
      if (depth > deepest) deepest = depth;
      stack[depth] = c;
      if (c === OPEN_BRACE) openBrace = nextOf(text, '{', i + 1);
      else openBracket = nextOf(text, '[', i + 1);
      continue;
    }
    if (depth === 0 || (c === CLOSE_BRACE) !== (stack[depth] === OPEN_BRACE))
      return { kind: 'mismatched', at: i };
    depth -= 1;
    if (depth === 0) return { kind: 'complete', end: i + 1, maxDepth: deepest };
    if (c === CLOSE_BRACE) closeBrace = nextOf(text, '}', i + 1);
    else closeBracket = nextOf(text, ']', i + 1);
  }
}

/**
 * `scanObject` for text that is valid JSON, visiting only the strings on the lines that hold a
 * bracket. A JSON string cannot hold a raw newline, so in valid JSON every line starts outside
 * any string: before each bracket the scan starts again at its line's start and reads only the
 * strings between there and the bracket (fio prints one bracket a line, after at most one key,
 * so this reads a tenth of the quotes `scanObject` reads). On text that is not valid JSON the
 * guess can be wrong either way, so a caller may use a `complete` result only once `JSON.parse`
 * has accepted that slice (then the slice is valid JSON, the guess held, and the result is
 * `scanObject`'s), and must ask `scanObject` in every other case. Linear like `scanObject`:
 * every cursor only moves forward, and a look back that finds no new line start is not repeated
 * before the end of that line.
 */
export function scanValidObject(text: string, start: number, maxDepth: number): ObjectScan {
  const n = text.length;
  const stack = new Uint8Array(maxDepth + 1);
  let depth = 0;
  let deepest = 0;
  // Everything before `known` is read, and `known` is outside any string.
  let known = start;
  let quote = nextOf(text, '"', start);
  // When at or past the bracket: no newline between `known` and here, so no look back.
  let lineEnd = -1;
  let openBrace = nextOf(text, '{', start);
  let closeBrace = nextOf(text, '}', start);
  let openBracket = nextOf(text, '[', start);
  let closeBracket = nextOf(text, ']', start);
  for (;;) {
    let i = openBrace < closeBrace ? openBrace : closeBrace;
    if (openBracket < i) i = openBracket;
    if (closeBracket < i) i = closeBracket;
    if (i >= n) return { kind: 'truncated', at: n };
    if (lineEnd < i) {
      const lineStart = text.lastIndexOf('\n', i) + 1;
      if (lineStart > known) known = lineStart;
      // Several brackets on one line (or none but this one): find where it ends, once.
      else lineEnd = nextOf(text, '\n', i);
    }
    if (quote < known) quote = nextOf(text, '"', known);
    // The strings between `known` and the bracket: the bracket may be inside the last one.
    while (quote < i) {
      const close = findStringEnd(text, quote + 1);
      if (close === -1) return { kind: 'truncated', at: n };
      known = close + 1;
      quote = nextOf(text, '"', known);
    }
    if (known > i) {
      if (openBrace < known) openBrace = nextOf(text, '{', known);
      if (closeBrace < known) closeBrace = nextOf(text, '}', known);
      if (openBracket < known) openBracket = nextOf(text, '[', known);
      if (closeBracket < known) closeBracket = nextOf(text, ']', known);
      continue;
    }
    known = i + 1;
    const c = text.charCodeAt(i);
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth += 1;
      if (depth > maxDepth) return { kind: 'too_deep', at: i };
      if (depth > deepest) deepest = depth;
      stack[depth] = c;
      if (c === OPEN_BRACE) openBrace = nextOf(text, '{', i + 1);
      else openBracket = nextOf(text, '[', i + 1);
      continue;
    }
    if (depth === 0 || (c === CLOSE_BRACE) !== (stack[depth] === OPEN_BRACE))
      return { kind: 'mismatched', at: i };
    depth -= 1;
    if (depth === 0) return { kind: 'complete', end: i + 1, maxDepth: deepest };
    if (c === CLOSE_BRACE) closeBrace = nextOf(text, '}', i + 1);
    else closeBracket = nextOf(text, ']', i + 1);
  }
}

/** The next index of `ch` at or after `from`, or the text's length (so `Math.min`-style comparisons work). */
function nextOf(text: string, ch: string, from: number): number {
  const p = text.indexOf(ch, from);
  return p === -1 ? text.length : p;
}

/** Index of the quote that closes a string whose content starts at `from`, or -1. */
function findStringEnd(text: string, from: number): number {
  let q = text.indexOf('"', from);
  // The quote is escaped when an odd number of backslashes precede it.
  while (q !== -1 && text.charCodeAt(q - 1) === BACKSLASH) {
    let k = q - 1;
    while (k >= from && text.charCodeAt(k) === BACKSLASH) k -= 1;
    if ((q - 1 - k) % 2 === 0) return q;
    q = text.indexOf('"', q + 1);
  }
  return q;
}

/**
 * The next position at or after `from` where a JSON object may start: a `{` at the start of a
 * line, optionally after spaces or tabs (fio writes its root object at column 0; indented inner
 * objects are only reached when the object around them failed). -1 when there is none.
 */
export function findNextObjectStart(text: string, from: number): number {
  const re = /^[ \t]*\{/gm;
  re.lastIndex = from;
  const m = re.exec(text);
  return m === null ? -1 : m.index + m[0].length - 1;
}

/** 1-based line and column of a character index, for messages people can act on. */
export function lineAndColumn(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: index - lineStart + 1 };
}

export type Repair = { text: string; nonFinite: number; controlCharacters: number };

/**
 * Makes fio's near-JSON strict (docs/fio-format.md §8.5): json.c prints floats with `%f`, so a
 * non-finite value comes out as a bare `nan`, `-nan`, `inf` or `-inf`; and it escapes only `"`
 * and `\` in strings, so a tab or newline in a job name or description is a raw control
 * character. Bare non-finite numbers become `null`, raw control characters in strings `\u00XX`.
 */
export function repairFioJson(text: string): Repair {
  let out = '';
  let copied = 0;
  let nonFinite = 0;
  let controlCharacters = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) inString = false;
      else if (c < 0x20) {
        out += text.slice(copied, i) + `\\u${c.toString(16).padStart(4, '0')}`;
        copied = i + 1;
        controlCharacters += 1;
      }
      continue;
    }
    if (c === QUOTE) {
      inString = true;
      continue;
    }
    // Outside strings the only letters JSON allows start true/false/null; fio's non-finite floats
    // are the words below, possibly signed.
    if (
      c === 0x6e /* n */ ||
      c === 0x69 /* i */ ||
      c === 0x4e /* N */ ||
      c === 0x49 /* I */ ||
      c === 0x2d /* - */
    ) {
      const m = /^-?(?:nan|inf(?:inity)?)(?![A-Za-z0-9_])/i.exec(text.slice(i, i + 10));
      if (m) {
        out += `${text.slice(copied, i)}null`;
        i += m[0].length - 1;
        copied = i + 1;
        nonFinite += 1;
      }
    }
  }
  return { text: copied === 0 ? text : out + text.slice(copied), nonFinite, controlCharacters };
}
