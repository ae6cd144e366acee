/**
 * The scanner of GetMetricData TEXT as it was before fleet/scan.ts read bytes (issue 24), kept
 * unchanged as the reference its tests compare the byte scanner with (scan-before.test.ts).
 *
 * A fast reader of GetMetricData JSON text. JSON.parse of 5,000 volumes × 14 days of 5-minute
 * points (~3 GB of text, 80 M timestamp strings) takes ~14 s on its own; this scanner reads the
 * same text in one pass without building the points: timestamps are skipped (only the first and
 * last of each result and their count are kept), values go to a reused buffer. Strict JSON; any
 * shape it does not expect (a field of another type, an escape in a timestamp) returns null, and
 * the caller falls back to JSON.parse + the schema — which then names the field.
 */

type ScannedResult = {
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
const STAMP_SAMPLE = 16;

type ScannedResultWithValues = ScannedResult & { values: Float64Array };

class Unexpected extends Error {}
const unexpected = new Unexpected();
const NO_VALUES = new Float64Array(0);

export function scanMetricDataTextBefore(text: string): ScannedResultWithValues[] | null {
  try {
    return new MetricDataScanner(text).document();
  } catch (error) {
    if (error instanceof Unexpected || error instanceof SyntaxError) return null;
    throw error;
  }
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
  private buffer = new Float64Array(8192);
  private readonly sampleAt = new Int32Array(STAMP_SAMPLE);
  private readonly sampleEnd = new Int32Array(STAMP_SAMPLE);
  /** Without a backslash anywhere, no string has an escape: timestamps can be skipped by position. */
  private readonly plain: boolean;
  private readonly out: ScannedResultWithValues[] = [];
  private readonly NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

  constructor(private readonly text: string) {
    this.n = text.length;
    this.plain = text.indexOf('\\') === -1;
  }

  document(): ScannedResultWithValues[] | null {
    const text = this.text;
    let sawResults = false;
    this.expect(123);
    this.ws();
    if (text.charCodeAt(this.i) === 125) this.i++;
    else
      for (;;) {
        const key = this.str();
        this.expect(58);
        if (key === 'MetricDataResults') {
          sawResults = true;
          this.results();
        } else this.skip();
        this.ws();
        const d = text.charCodeAt(this.i++);
        if (d === 125) break;
        if (d !== 44) throw unexpected;
      }
    this.ws();
    if (this.i !== this.n || !sawResults) return null;
    return this.out;
  }

  private ws(): void {
    const text = this.text;
    let i = this.i;
    let c = text.charCodeAt(i);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++i);
    this.i = i;
  }

  private expect(ch: number): void {
    this.ws();
    if (this.text.charCodeAt(this.i) !== ch) throw unexpected;
    this.i++;
  }

  /** A string token; plain strings by indexOf, escaped ones through JSON.parse of the token. */
  private str(): string {
    this.ws();
    const text = this.text;
    const i = this.i;
    if (text.charCodeAt(i) !== 34) throw unexpected;
    const end = text.indexOf('"', i + 1);
    if (end === -1) throw unexpected;
    const raw = text.slice(i + 1, end);
    if (raw.indexOf('\\') === -1) {
      this.i = end + 1;
      return raw;
    }
    // Escapes: find the real end, let JSON.parse decode the token.
    let j = i + 1;
    for (;;) {
      const c = text.charCodeAt(j);
      if (Number.isNaN(c)) throw unexpected;
      if (c === 92) j += 2;
      else if (c === 34) break;
      else j++;
    }
    const value = JSON.parse(text.slice(i, j + 1)) as string;
    this.i = j + 1;
    return value;
  }

  private num(): number {
    this.ws();
    const text = this.text;
    const i = this.i;
    // Fast path: digits with an optional all-zero fraction (the aws cli prints Sums as 12345.0).
    let j = i;
    let neg = false;
    if (text.charCodeAt(j) === 45) {
      neg = true;
      j++;
    }
    let v = 0;
    let digits = 0;
    let c = text.charCodeAt(j);
    while (c >= 48 && c <= 57) {
      v = v * 10 + (c - 48);
      digits++;
      c = text.charCodeAt(++j);
    }
    if (digits > 0 && digits < 16 && !(digits > 1 && text.charCodeAt(neg ? i + 1 : i) === 48)) {
      if (c === 46) {
        let k = j + 1;
        let zeros = 0;
        while (text.charCodeAt(k) === 48) {
          k++;
          zeros++;
        }
        const after = text.charCodeAt(k);
        if (zeros > 0 && !(after >= 48 && after <= 57) && after !== 101 && after !== 69) {
          this.i = k;
          return neg ? -v : v;
        }
      } else if (c !== 101 && c !== 69) {
        this.i = j;
        return neg ? -v : v;
      }
    }
    this.NUMBER.lastIndex = i;
    const m = this.NUMBER.exec(text);
    if (!m) throw unexpected;
    this.i = i + m[0].length;
    return Number(m[0]);
  }

  /** Any JSON value, skipped (not built). */
  private skip(): void {
    this.ws();
    const text = this.text;
    const c = text.charCodeAt(this.i);
    if (c === 34) this.str();
    else if (c === 123) {
      this.i++;
      this.ws();
      if (text.charCodeAt(this.i) === 125) {
        this.i++;
        return;
      }
      for (;;) {
        this.str();
        this.expect(58);
        this.skip();
        this.ws();
        const d = text.charCodeAt(this.i++);
        if (d === 125) return;
        if (d !== 44) throw unexpected;
      }
    } else if (c === 91) {
      this.i++;
      this.ws();
      if (text.charCodeAt(this.i) === 93) {
        this.i++;
        return;
      }
      for (;;) {
        this.skip();
        this.ws();
        const d = text.charCodeAt(this.i++);
        if (d === 93) return;
        if (d !== 44) throw unexpected;
      }
    } else if (text.startsWith('true', this.i)) this.i += 4;
    else if (text.startsWith('false', this.i)) this.i += 5;
    else if (text.startsWith('null', this.i)) this.i += 4;
    else this.num();
  }

  /** `[ result, ... ]` */
  private results(): void {
    this.expect(91);
    this.ws();
    if (this.text.charCodeAt(this.i) === 93) {
      this.i++;
      return;
    }
    for (;;) {
      this.result();
      this.ws();
      const d = this.text.charCodeAt(this.i++);
      if (d === 93) return;
      if (d !== 44) throw unexpected;
    }
  }

  private result(): void {
    const text = this.text;
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
    if (text.charCodeAt(this.i) === 125) this.i++;
    else
      for (;;) {
        const key = this.str();
        this.expect(58);
        this.ws();
        if (key === 'Id') r.Id = this.str();
        else if (key === 'Label') r.Label = this.str();
        else if (key === 'StatusCode') r.StatusCode = this.str();
        else if (key === 'Timestamps') {
          if (this.plain) this.plainTimestamps(r);
          else this.escapedTimestamps(r);
        } else if (key === 'Values') this.values(r);
        else this.skip();
        this.ws();
        const d = text.charCodeAt(this.i++);
        if (d === 125) break;
        if (d !== 44) throw unexpected;
      }
    // A copy: the file's values are added only once the whole file has scanned (no half-added file on a fallback).
    r.values = this.buffer.slice(0, r.valueCount);
    this.out.push(r);
  }

  /** Hot loop (one step per point): positions only, locals only; strings made for the two ends and the sample. */
  private plainTimestamps(r: ScannedResult): void {
    this.expect(91);
    const text = this.text;
    const sampleAt = this.sampleAt;
    const sampleEnd = this.sampleEnd;
    let j = this.i;
    let count = 0;
    let firstAt = -1;
    let lastAt = -1;
    let lastEnd = -1;
    let c = text.charCodeAt(j);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++j);
    if (c === 93) j++;
    else
      for (;;) {
        if (c !== 34) throw unexpected;
        const end = text.indexOf('"', j + 1);
        if (end === -1) throw unexpected;
        if (count === 0) firstAt = j + 1;
        if (count < STAMP_SAMPLE) {
          sampleAt[count] = j + 1;
          sampleEnd[count] = end;
        }
        lastAt = j + 1;
        lastEnd = end;
        count++;
        j = end + 1;
        c = text.charCodeAt(j);
        while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++j);
        if (c === 93) {
          j++;
          break;
        }
        if (c !== 44) throw unexpected;
        c = text.charCodeAt(++j);
        while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++j);
      }
    this.i = j;
    r.stampCount = count;
    if (count > 0) {
      r.firstStamp = text.slice(firstAt, text.indexOf('"', firstAt));
      r.lastStamp = text.slice(lastAt, lastEnd);
      for (let k = 0; k < Math.min(count, STAMP_SAMPLE); k++)
        r.stampSample.push(text.slice(sampleAt[k], sampleEnd[k]));
    }
  }

  /** Timestamps in a text with escapes somewhere: each one read as a string. */
  private escapedTimestamps(r: ScannedResult): void {
    this.expect(91);
    this.ws();
    if (this.text.charCodeAt(this.i) === 93) {
      this.i++;
      return;
    }
    for (;;) {
      const s = this.str();
      if (r.stampCount === 0) r.firstStamp = s;
      if (r.stampCount < STAMP_SAMPLE) r.stampSample.push(s);
      r.lastStamp = s;
      r.stampCount++;
      this.ws();
      const d = this.text.charCodeAt(this.i++);
      if (d === 93) return;
      if (d !== 44) throw unexpected;
    }
  }

  /** Hot loop: integers and zero fractions (12345.0) read in place; anything else via Number(). */
  private values(r: ScannedResult): void {
    this.expect(91);
    const text = this.text;
    let buffer = this.buffer;
    let j = this.i;
    let count = 0;
    let c = text.charCodeAt(j);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++j);
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
        let digits = 0;
        while (c >= 48 && c <= 57) {
          v = v * 10 + (c - 48);
          digits++;
          c = text.charCodeAt(++j);
        }
        let simple = digits > 0 && digits < 16 && !(digits > 1 && text.charCodeAt(start) === 48);
        if (simple && c === 46) {
          c = text.charCodeAt(++j);
          let zeros = 0;
          while (c === 48) {
            zeros++;
            c = text.charCodeAt(++j);
          }
          simple = zeros > 0 && !(c >= 49 && c <= 57);
        }
        if (simple && (c === 101 || c === 69)) simple = false;
        if (simple) buffer[count++] = v;
        else {
          this.i = start;
          buffer[count++] = this.num();
          j = this.i;
          c = text.charCodeAt(j);
        }
        while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++j);
        if (c === 93) {
          j++;
          break;
        }
        if (c !== 44) throw unexpected;
        c = text.charCodeAt(++j);
        while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++j);
      }
    this.i = j;
    r.valueCount = count;
  }
}
