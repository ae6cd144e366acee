import { MiB } from '../units.ts';
import type { Problem, Warning } from '../problem.ts';

/**
 * Bytes (or a string) in, text out — the first step of docs/fio-format.md §9. fio itself always writes
 * UTF-8/ASCII, but the file reaches us through shells and editors: PowerShell 5's `>` writes
 * UTF-16LE with a BOM (docs/fio-format.md §8.6), editors add a UTF-8 BOM, and people upload the wrong
 * file (a binary log, a tarball).
 */

/** Largest input parseFio accepts by default (the CLI applies the same limit before reading). */
export const DEFAULT_MAX_INPUT_BYTES = 100 * MiB;

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be';

export type DecodedInput = { text: string; encoding: TextEncodingName; warnings: Warning[] };

export type DecodeOptions = {
  /** Reject larger input with `too_large` (bytes; for a string, its length in UTF-16 code units). */
  maxBytes?: number;
};

// `TextDecoder` is a web platform global (browsers, Node ≥ 11, Deno), but this package compiles
// without DOM or Node types on purpose (tsconfig `types: []`), so declare the part we use.
declare const TextDecoder: new (
  label?: string,
  options?: { fatal?: boolean; ignoreBOM?: boolean },
) => { decode(input: Uint8Array): string };

/** How much of the start of the input the UTF-16 and binary heuristics look at. */
const SNIFF_BYTES = 4096;
/** More invalid UTF-8 than this share of the bytes (or any NUL) means "not a text file". */
const MAX_INVALID_SHARE = 0.01;
/** Control characters other than tab/newline/CR/FF/VT/ESC, as a share of the sniffed text. */
const MAX_CONTROL_SHARE = 0.01;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTERS = /[\x01-\x08\x0e-\x1a\x1c-\x1f\x7f]/g;
// eslint-disable-next-line no-control-regex -- the same class, without `g`, to test for one
const CONTROL_CHARACTER = /[\x01-\x08\x0e-\x1a\x1c-\x1f\x7f]/;

type Decoded = { ok: true; value: DecodedInput } | { ok: false; error: Problem };

const failure = (code: string, message: string): Decoded => ({ ok: false, error: { code, message } });

/** Decodes fio output given as text or bytes: BOM and UTF-16 aware, rejects binary and oversized input. */
export function decodeInput(input: string | Uint8Array, options: DecodeOptions = {}): Decoded {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_INPUT_BYTES;
  const size = typeof input === 'string' ? input.length : input.byteLength;
  if (size > maxBytes) {
    return failure(
      'too_large',
      `the input is ${formatSize(size)}, more than the ${formatSize(maxBytes)} limit for one fio result`,
    );
  }
  const decoded = typeof input === 'string' ? decodeString(input) : decodeBytes(input);
  if (!decoded.ok) return decoded;
  if (decoded.value.text.trim() === '')
    return failure('empty_input', 'the input is empty (or only whitespace)');
  return decoded;
}

function decodeString(input: string): Decoded {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const binary = describeBinaryText(text);
  if (binary) return failure('binary_input', binary);
  return { ok: true, value: { text, encoding: 'utf-8', warnings: [] } };
}

function decodeBytes(bytes: Uint8Array): Decoded {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return decodeUtf8(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return decodeUtf16(bytes.subarray(2), 'utf-16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return decodeUtf16(bytes.subarray(2), 'utf-16be');
  const guess = guessUtf16(bytes);
  if (guess) return decodeUtf16(bytes, guess);
  return decodeUtf8(bytes);
}

/**
 * UTF-16 without a BOM: ASCII text (all of fio's output) then has a NUL in every other byte —
 * the high byte of each code unit, odd positions for little-endian, even for big-endian.
 */
function guessUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const n = Math.min(bytes.length, SNIFF_BYTES) & ~1;
  if (n < 4) return null;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenNul += 1;
    if (bytes[i + 1] === 0) oddNul += 1;
  }
  const pairs = n / 2;
  if (oddNul >= pairs * 0.4 && evenNul <= pairs * 0.05) return 'utf-16le';
  if (evenNul >= pairs * 0.4 && oddNul <= pairs * 0.05) return 'utf-16be';
  return null;
}

function decodeUtf16(bytes: Uint8Array, encoding: 'utf-16le' | 'utf-16be'): Decoded {
  if (bytes.length % 2 !== 0) {
    return failure(
      'binary_input',
      `the input looks like ${encoding.toUpperCase()} but has an odd number of bytes`,
    );
  }
  // Big-endian support in TextDecoder depends on the ICU build; swapping to little-endian does not.
  const le = encoding === 'utf-16be' ? swapBytePairs(bytes) : bytes;
  let text: string;
  try {
    text = new TextDecoder('utf-16le', { fatal: true, ignoreBOM: true }).decode(le);
  } catch {
    return failure(
      'binary_input',
      `the input looks like ${encoding.toUpperCase()} but is not valid ${encoding}`,
    );
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const binary = describeBinaryText(text);
  if (binary) return failure('binary_input', binary);
  return { ok: true, value: { text, encoding, warnings: [] } };
}

function swapBytePairs(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i + 1 < bytes.length; i += 2) {
    out[i] = bytes[i + 1]!;
    out[i + 1] = bytes[i]!;
  }
  return out;
}

/**
 * A NUL byte is the one byte that decodes to U+0000 (with or without `fatal`), so the decoded text
 * is searched for it: a string search is vectorized, `Uint8Array.prototype.indexOf` is not (27 µs
 * against 1 µs for 104 KB).
 */
const nulBytes = () =>
  failure('binary_input', 'the input contains NUL bytes: it is a binary file, not fio output');

function decodeUtf8(bytes: Uint8Array): Decoded {
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    if (text.indexOf('\u0000') !== -1) return nulBytes();
    const binary = describeBinaryText(text);
    if (binary) return failure('binary_input', binary);
    return { ok: true, value: { text, encoding: 'utf-8', warnings: [] } };
  } catch {
    // Not valid UTF-8. fio copies job names, descriptions and paths byte for byte, so a Latin-1
    // path can make an otherwise fine result invalid UTF-8: tolerate a few bad bytes, not many.
  }
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  if (text.indexOf('\u0000') !== -1) return nulBytes();
  let replaced = 0;
  for (let i = text.indexOf('\ufffd'); i !== -1; i = text.indexOf('\ufffd', i + 1)) replaced += 1;
  if (replaced > Math.max(8, bytes.length * MAX_INVALID_SHARE)) {
    return failure('binary_input', `the input is not text: ${replaced} byte sequences are not valid UTF-8`);
  }
  const binary = describeBinaryText(text);
  if (binary) return failure('binary_input', binary);
  return {
    ok: true,
    value: {
      text,
      encoding: 'utf-8',
      warnings: [
        {
          code: 'invalid_utf8',
          message: `${replaced} byte sequence(s) are not valid UTF-8 and were replaced by "\ufffd" (job names or paths in another encoding?)`,
        },
      ],
    },
  };
}

/** Why decoded text is not text (NULs, many control characters), or null when it looks like text. */
function describeBinaryText(text: string): string | null {
  if (text.indexOf('\u0000') !== -1) {
    return 'the input contains NUL characters: it is a binary file (or text in an unexpected encoding), not fio output';
  }
  const head = text.length > SNIFF_BYTES ? text.slice(0, SNIFF_BYTES) : text;
  // Tab, LF, VT, FF, CR and ESC (terminal colours in captured output) are normal in text files.
  // Counted only when there is one: `test` stops at the first, `match` builds an array of all.
  const control = CONTROL_CHARACTER.test(head) ? (head.match(CONTROL_CHARACTERS)?.length ?? 0) : 0;
  const n = head.length;
  if (control > Math.max(4, n * MAX_CONTROL_SHARE)) {
    return `the input is not text: ${control} control characters in its first ${n} characters`;
  }
  return null;
}

function formatSize(bytes: number): string {
  return bytes >= MiB ? `${(bytes / MiB).toFixed(1)} MiB` : `${bytes} bytes`;
}
