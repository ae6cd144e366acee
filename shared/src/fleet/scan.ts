/**
 * A fast reader of GetMetricData JSON. JSON.parse of 5,000 volumes × 14 days of 5-minute points
 * (~3 GB of text, 80 M timestamp strings) takes ~14 s on its own; this scanner reads the same
 * BYTES in one pass without building the points and without decoding the file into a string
 * (decoding was ~10 % of reading): timestamps are skipped (only the first and last of each result,
 * a sample and their count are kept), values go to a reused buffer. Strict JSON; any shape it does
 * not expect (a field of another type, a number JSON does not allow) returns null, and the caller
 * falls back to JSON.parse + the schema — which then names the field.
 *
 * The same timestamps come back for every busy volume of a query (CloudWatch aligns the points of
 * one Period), so a Timestamps array byte-for-byte equal to the previous result's is compared as
 * a block (4 bytes a step) and its stamps reused, instead of being scanned stamp by stamp.
 */

// Web platform globals (browsers, Node ≥ 11); this package compiles without DOM or Node types on
// purpose (tsconfig `types: []`), so declare the parts used (as fio/decode-input.ts does).
declare const TextDecoder: new (
  label?: string,
  options?: { ignoreBOM?: boolean },
) => { decode(input: Uint8Array): string };
declare const TextEncoder: new () => { encode(input: string): Uint8Array };

export type ScannedResult = {
  Id: string | undefined;
  Label: string | undefined;
  StatusCode: string | undefined;
  stampCount: number;
  firstStamp: string | undefined;
  lastStamp: string | undefined;
  valueCount: number;
  /** The first STAMP_SAMPLE timestamps: their spacing tells the Period of the points (metrics.ts). */
  stampSample: string[];
};

/**
 * Timestamps kept per result to learn the spacing of its points: the greatest common divisor of
 * their gaps and of the whole span is the Period unless every sampled gap skipped periods (an
 * idle volume), and parsing 16 dates per result costs nothing next to skipping 4,032.
 */
export const STAMP_SAMPLE = 16;

export type ScannedResultWithValues = ScannedResult & { values: Float64Array };

/** One response scanned: its results and whether a non-empty top-level NextToken says more pages exist. */
export type ScannedMetricData = { results: ScannedResultWithValues[]; nextToken: boolean };

class Unexpected extends Error {}
const unexpected = new Unexpected();
const NO_VALUES = new Float64Array(0);
/** A JSON number, whole (the token's characters are found first, then matched). */
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/;
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Whether bytes [a, a + length) and [b, b + length) of `bytes` are equal (both inside `bytes`).
 * Node's Buffer#compare (memcmp) does it ~6× faster than sameBytesLoop: the CLI passes it.
 */
export type SameBytes = (bytes: Uint8Array, a: number, b: number, length: number) => boolean;

/**
 * Pure JavaScript (browsers): 8 bytes a step read as doubles. Equal doubles are equal bytes except
 * +0 and -0 (checked); NaNs compare unequal, and then the array is scanned stamp by stamp, as
 * when it differs.
 */
const sameBytesLoop: SameBytes = (bytes, a, b, length) => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const words = length - (length % 8);
  let k = 0;
  for (; k < words; k += 8) {
    const x = view.getFloat64(a + k, true);
    const y = view.getFloat64(b + k, true);
    if (x !== y || (x === 0 && 1 / x !== 1 / y)) return false;
  }
  for (; k < length; k++) if (bytes[a + k] !== bytes[b + k]) return false;
  return true;
};

/** The response's bytes (UTF-8) scanned; null when it is not the shape expected (see the top). */
export function scanMetricData(
  bytes: Uint8Array,
  sameBytes: SameBytes = sameBytesLoop,
): ScannedMetricData | null {
  try {
    return new MetricDataScanner(bytes, sameBytes).document();
  } catch (error) {
    if (error instanceof Unexpected || error instanceof SyntaxError) return null;
    throw error;
  }
}

/** The same from text (encoded to UTF-8 first: text read by the browser or the server's body parser). */
export function scanMetricDataText(text: string): ScannedResultWithValues[] | null {
  return scanMetricData(new TextEncoder().encode(text))?.results ?? null;
}

/**
 * The scanner's state and steps. A class, not closures made per call: V8 shares one optimized
 * version of each method across files, where closures created per file were each a new call
 * target, so the optimized `result` of the last file was thrown away on the next one (a "wrong call
 * target" deopt per file: 15–36 ms a file instead of ~10 ms, docs/performance.md P15).
 */
class MetricDataScanner {
  private i = 0;
  private readonly n: number;
  private readonly view: DataView;
  private buffer = new Float64Array(8192);
  private readonly sampleAt = new Int32Array(STAMP_SAMPLE);
  private readonly sampleEnd = new Int32Array(STAMP_SAMPLE);
  /** The first backslash at or after `backslashFrom` (n: none): [backslashFrom, backslash) has none. */
  private backslash = -1;
  private backslashFrom = 0;
  /** The previous result's Timestamps array: its bytes [stampsAt, stampsEnd) and what was read from them. */
  private stampsAt = 0;
  private stampsEnd = 0;
  private stamps: ScannedResult | null = null;
  private readonly out: ScannedResultWithValues[] = [];
  private nextToken = false;

  constructor(
    private readonly b: Uint8Array,
    private readonly sameBytes: SameBytes,
  ) {
    this.n = b.length;
    this.view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }

  document(): ScannedMetricData | null {
    const b = this.b;
    let sawResults = false;
    this.expect(123);
    this.ws();
    if (b[this.i] === 125) this.i++;
    else
      for (;;) {
        const key = this.str();
        this.expect(58);
        this.ws();
        if (key === 'MetricDataResults') {
          // A second key: JSON.parse keeps the last one; refusing sends the caller to that path.
          if (sawResults) return null;
          sawResults = true;
          this.results();
        } else if (key === 'NextToken' && b[this.i] === 34) this.nextToken = this.str().length > 0;
        else {
          if (key === 'NextToken') this.nextToken = false;
          this.skip();
        }
        this.ws();
        const d = b[this.i++];
        if (d === 125) break;
        if (d !== 44) throw unexpected;
      }
    this.ws();
    if (this.i !== this.n || !sawResults) return null;
    return { results: this.out, nextToken: this.nextToken };
  }

  private ws(): void {
    const b = this.b;
    let i = this.i;
    let c = b[i];
    while (c === 32 || c === 10 || c === 13 || c === 9) c = b[++i];
    this.i = i;
  }

  private expect(ch: number): void {
    this.ws();
    if (this.b[this.i] !== ch) throw unexpected;
    this.i++;
  }

  /** Whether a backslash lies in [from, to): looked up once per stretch of text without one. */
  private escapedBetween(from: number, to: number): boolean {
    // Asked behind where it was looked from (the stamp sample is decoded after its whole array was
    // scanned): that part of the string is read byte by byte, the cache answers for the rest. Not
    // looked up again from `from`: with no backslash ahead, that would read to the file's end.
    if (from < this.backslashFrom) {
      const b = this.b;
      const stop = Math.min(to, this.backslashFrom);
      for (let k = from; k < stop; k++) if (b[k] === 92) return true;
      return to > this.backslashFrom && this.backslash < to;
    }
    if (this.backslash < from) {
      const k = this.b.indexOf(92, from);
      this.backslash = k === -1 ? this.n : k;
      this.backslashFrom = from;
    }
    return this.backslash < to;
  }

  /** The end (position of the closing quote) of the string whose opening quote is at `i`. */
  private stringEnd(i: number): number {
    const b = this.b;
    const end = b.indexOf(34, i + 1);
    if (end === -1) throw unexpected;
    if (!this.escapedBetween(i + 1, end)) return end;
    // Escapes: a quote after a backslash does not end the string.
    let j = i + 1;
    for (;;) {
      const c = b[j];
      if (c === undefined) throw unexpected;
      if (c === 92) j += 2;
      else if (c === 34) return j;
      else j++;
    }
  }

  /** The string between the quotes at `at - 1` and `end`: escapes decoded by JSON.parse of the token. */
  private stringAt(at: number, end: number): string {
    const b = this.b;
    let ascii = end - at <= 1024;
    for (let k = at; ascii && k < end; k++) if (b[k]! >= 128) ascii = false;
    const raw = ascii
      ? String.fromCharCode.apply(null, b.subarray(at, end) as unknown as number[])
      : utf8.decode(b.subarray(at, end));
    return this.escapedBetween(at, end) ? (JSON.parse(`"${raw}"`) as string) : raw;
  }

  /** A string token. */
  private str(): string {
    this.ws();
    const i = this.i;
    if (this.b[i] !== 34) throw unexpected;
    const end = this.stringEnd(i);
    this.i = end + 1;
    return this.stringAt(i + 1, end);
  }

  /**
   * A number at `this.i` (no whitespace before it), of any form JSON allows: its characters
   * matched whole against the grammar and given to Number(), as JSON.parse reads it. The common
   * forms are read in place by `values`.
   */
  private num(): number {
    const b = this.b;
    const i = this.i;
    let end = i;
    for (;;) {
      const d = b[end];
      if (
        d === undefined ||
        !((d >= 48 && d <= 57) || d === 45 || d === 43 || d === 46 || d === 101 || d === 69)
      )
        break;
      end++;
    }
    const m = NUMBER.exec(String.fromCharCode.apply(null, b.subarray(i, end) as unknown as number[]));
    if (!m) throw unexpected;
    this.i = i + m[0].length;
    return Number(m[0]);
  }

  /** Any JSON value, skipped (not built). */
  private skip(): void {
    this.ws();
    const b = this.b;
    const c = b[this.i];
    if (c === 34) this.i = this.stringEnd(this.i) + 1;
    else if (c === 123) {
      this.i++;
      this.ws();
      if (b[this.i] === 125) {
        this.i++;
        return;
      }
      for (;;) {
        this.str();
        this.expect(58);
        this.skip();
        this.ws();
        const d = b[this.i++];
        if (d === 125) return;
        if (d !== 44) throw unexpected;
      }
    } else if (c === 91) {
      this.i++;
      this.ws();
      if (b[this.i] === 93) {
        this.i++;
        return;
      }
      for (;;) {
        this.skip();
        this.ws();
        const d = b[this.i++];
        if (d === 93) return;
        if (d !== 44) throw unexpected;
      }
    } else if (this.word(116, 'true')) this.i += 4;
    else if (this.word(102, 'false')) this.i += 5;
    else if (this.word(110, 'null')) this.i += 4;
    else this.num();
  }

  /** Whether the ASCII `word` (starting with the byte `first`) is at `this.i`. */
  private word(first: number, word: string): boolean {
    const b = this.b;
    if (b[this.i] !== first) return false;
    for (let k = 1; k < word.length; k++) if (b[this.i + k] !== word.charCodeAt(k)) return false;
    return true;
  }

  /** `[ result, ... ]` */
  private results(): void {
    this.expect(91);
    this.ws();
    if (this.b[this.i] === 93) {
      this.i++;
      return;
    }
    for (;;) {
      this.result();
      this.ws();
      const d = this.b[this.i++];
      if (d === 93) return;
      if (d !== 44) throw unexpected;
    }
  }

  private result(): void {
    const b = this.b;
    // Every field present from the start: one object shape for every result.
    const r: ScannedResultWithValues = {
      Id: undefined,
      Label: undefined,
      StatusCode: undefined,
      stampCount: 0,
      firstStamp: undefined,
      lastStamp: undefined,
      valueCount: 0,
      stampSample: [],
      values: NO_VALUES,
    };
    this.expect(123);
    this.ws();
    if (b[this.i] === 125) this.i++;
    else
      for (;;) {
        const key = this.str();
        this.expect(58);
        this.ws();
        if (key === 'Id') r.Id = this.str();
        else if (key === 'Label') r.Label = this.str();
        else if (key === 'StatusCode') r.StatusCode = this.str();
        else if (key === 'Timestamps') this.timestamps(r);
        else if (key === 'Values') this.values(r);
        else this.skip();
        this.ws();
        const d = b[this.i++];
        if (d === 125) break;
        if (d !== 44) throw unexpected;
      }
    // A copy: the file's values are added only once the whole file has scanned (no half-added file on a fallback).
    r.values = this.buffer.slice(0, r.valueCount);
    this.out.push(r);
  }

  /**
   * `[ "stamp", ... ]`: the same bytes as the previous result's array → its stamps again; else
   * positions only in the loop (one step per point), strings made for the two ends and the sample.
   * A repeated key in one result counts its last array, as JSON.parse keeps the last.
   */
  private timestamps(r: ScannedResult): void {
    this.expect(91);
    const b = this.b;
    const open = this.i - 1;
    const previous = this.stamps;
    const length = this.stampsEnd - this.stampsAt;
    if (
      previous !== null &&
      open + length <= this.n &&
      b[open + length - 1] === 93 &&
      this.sameBytes(b, this.stampsAt, open, length)
    ) {
      this.i = open + length;
      r.stampCount = previous.stampCount;
      r.firstStamp = previous.firstStamp;
      r.lastStamp = previous.lastStamp;
      r.stampSample = previous.stampSample.slice();
      return;
    }
    const sampleAt = this.sampleAt;
    const sampleEnd = this.sampleEnd;
    let j = this.i;
    let count = 0;
    let lastAt = -1;
    let lastEnd = -1;
    let c = b[j];
    while (c === 32 || c === 10 || c === 13 || c === 9) c = b[++j];
    if (c === 93) j++;
    else
      for (;;) {
        if (c !== 34) throw unexpected;
        const end = this.stringEnd(j);
        if (count < STAMP_SAMPLE) {
          sampleAt[count] = j + 1;
          sampleEnd[count] = end;
        }
        lastAt = j + 1;
        lastEnd = end;
        count++;
        j = end + 1;
        c = b[j];
        while (c === 32 || c === 10 || c === 13 || c === 9) c = b[++j];
        if (c === 93) {
          j++;
          break;
        }
        if (c !== 44) throw unexpected;
        c = b[++j];
        while (c === 32 || c === 10 || c === 13 || c === 9) c = b[++j];
      }
    this.i = j;
    r.stampCount = count;
    r.stampSample = [];
    r.firstStamp = r.lastStamp = undefined;
    if (count > 0) {
      for (let k = 0; k < Math.min(count, STAMP_SAMPLE); k++)
        r.stampSample.push(this.stringAt(sampleAt[k]!, sampleEnd[k]!));
      r.firstStamp = r.stampSample[0];
      r.lastStamp = count <= STAMP_SAMPLE ? r.stampSample[count - 1] : this.stringAt(lastAt, lastEnd);
    }
    this.stampsAt = open;
    this.stampsEnd = j;
    this.stamps = { ...r, stampSample: r.stampSample.slice() };
  }

  /**
   * Hot loop (one step per point), locals only: integers and all-zero fractions (the aws cli
   * prints Sums as 12345.0) of fewer than 16 digits read in place, exactly; anything else by num().
   */
  private values(r: ScannedResult): void {
    this.expect(91);
    const b = this.b;
    const n = this.n;
    const view = this.view;
    let buffer = this.buffer;
    let j = this.i;
    let count = 0;
    let c = b[j]!;
    while (c === 32 || c === 10 || c === 13 || c === 9) c = b[++j]!;
    if (c === 93) j++;
    else
      for (;;) {
        if (count === buffer.length) {
          const bigger = new Float64Array(buffer.length * 2);
          bigger.set(buffer);
          buffer = this.buffer = bigger;
        }
        const start = j;
        let v = 0;
        // Four digits a step while there are four (bytes 0x30–0x39: high nibble 3, and still 3 plus 6).
        while (j + 4 <= n) {
          const x = view.getUint32(j, true);
          if ((x & 0xf0f0f0f0) !== 0x30303030 || ((x + 0x06060606) & 0xf0f0f0f0) !== 0x30303030) break;
          v =
            v * 10000 +
            ((x & 0xff) - 48) * 1000 +
            (((x >>> 8) & 0xff) - 48) * 100 +
            (((x >>> 16) & 0xff) - 48) * 10 +
            ((x >>> 24) - 48);
          j += 4;
        }
        c = b[j]!;
        let d = c - 48;
        while (d >= 0 && d <= 9) {
          v = v * 10 + d;
          c = b[++j]!;
          d = c - 48;
        }
        const digits = j - start;
        let simple = digits > 0 && digits < 16 && !(digits > 1 && b[start] === 48);
        if (simple && c === 46) {
          const point = j;
          c = b[++j]!;
          while (c === 48) c = b[++j]!;
          simple = j > point + 1 && !(c >= 49 && c <= 57);
        }
        if (simple && c !== 101 && c !== 69) buffer[count++] = v;
        else {
          this.i = start;
          buffer[count++] = this.num();
          j = this.i;
          c = b[j]!;
        }
        while (c === 32 || c === 10 || c === 13 || c === 9) c = b[++j]!;
        if (c === 93) {
          j++;
          break;
        }
        if (c !== 44) throw unexpected;
        c = b[++j]!;
        while (c === 32 || c === 10 || c === 13 || c === 9) c = b[++j]!;
      }
    this.i = j;
    r.valueCount = count;
  }
}
