/**
 * A fast reader of GetMetricData JSON text. JSON.parse of 5,000 volumes × 14 days of 5-minute
 * points (~3 GB of text, 80 M timestamp strings) takes ~14 s on its own; this scanner reads the
 * same text in one pass without building the points: timestamps are skipped (only the first and
 * last of each result and their count are kept), values go to a reused buffer. Strict JSON; any
 * shape it does not expect (a field of another type, an escape in a timestamp) returns null, and
 * the caller falls back to JSON.parse + the schema — which then names the field.
 */

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

class Unexpected extends Error {}
const unexpected = new Unexpected();

export function scanMetricDataText(text: string): ScannedResultWithValues[] | null {
  let i = 0;
  const out: ScannedResultWithValues[] = [];
  const n = text.length;
  let buffer = new Float64Array(8192);
  const sampleAt = new Int32Array(STAMP_SAMPLE);
  const sampleEnd = new Int32Array(STAMP_SAMPLE);
  let sawResults = false;
  // Without a backslash anywhere, no string has an escape: timestamps can be skipped by position.
  const plain = text.indexOf('\\') === -1;

  const ws = () => {
    let c = text.charCodeAt(i);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++i);
  };
  const expect = (ch: number) => {
    ws();
    if (text.charCodeAt(i) !== ch) throw unexpected;
    i++;
  };
  /** A string token; plain strings by indexOf, escaped ones through JSON.parse of the token. */
  const str = (): string => {
    ws();
    if (text.charCodeAt(i) !== 34) throw unexpected;
    const end = text.indexOf('"', i + 1);
    if (end === -1) throw unexpected;
    const raw = text.slice(i + 1, end);
    if (raw.indexOf('\\') === -1) {
      i = end + 1;
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
    i = j + 1;
    return value;
  };
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const num = (): number => {
    ws();
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
          i = k;
          return neg ? -v : v;
        }
      } else if (c !== 101 && c !== 69) {
        i = j;
        return neg ? -v : v;
      }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) throw unexpected;
    i += m[0].length;
    return Number(m[0]);
  };
  /** Any JSON value, skipped (not built). */
  const skip = (): void => {
    ws();
    const c = text.charCodeAt(i);
    if (c === 34) str();
    else if (c === 123) {
      i++;
      ws();
      if (text.charCodeAt(i) === 125) {
        i++;
        return;
      }
      for (;;) {
        str();
        expect(58);
        skip();
        ws();
        const d = text.charCodeAt(i++);
        if (d === 125) return;
        if (d !== 44) throw unexpected;
      }
    } else if (c === 91) {
      i++;
      ws();
      if (text.charCodeAt(i) === 93) {
        i++;
        return;
      }
      for (;;) {
        skip();
        ws();
        const d = text.charCodeAt(i++);
        if (d === 93) return;
        if (d !== 44) throw unexpected;
      }
    } else if (text.startsWith('true', i)) i += 4;
    else if (text.startsWith('false', i)) i += 5;
    else if (text.startsWith('null', i)) i += 4;
    else num();
  };
  /** `[ ... ]` calling `item` for each element. */
  const array = (item: () => void) => {
    expect(91);
    ws();
    if (text.charCodeAt(i) === 93) {
      i++;
      return;
    }
    for (;;) {
      item();
      ws();
      const d = text.charCodeAt(i++);
      if (d === 93) return;
      if (d !== 44) throw unexpected;
    }
  };
  const result = () => {
    const r: ScannedResult = {
      Id: undefined,
      Label: undefined,
      StatusCode: undefined,
      stampCount: 0,
      firstStamp: undefined,
      lastStamp: undefined,
      valueCount: 0,
      stampSample: [],
    };
    expect(123);
    ws();
    if (text.charCodeAt(i) === 125) i++;
    else
      for (;;) {
        const key = str();
        expect(58);
        ws();
        if (key === 'Id' || key === 'Label' || key === 'StatusCode') r[key] = str();
        else if (key === 'Timestamps' && plain) {
          // Hot loop (one per point): positions only, locals only; strings made for the two ends.
          expect(91);
          let j = i;
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
          i = j;
          r.stampCount = count;
          if (count > 0) {
            r.firstStamp = text.slice(firstAt, text.indexOf('"', firstAt));
            r.lastStamp = text.slice(lastAt, lastEnd);
            for (let k = 0; k < Math.min(count, STAMP_SAMPLE); k++)
              r.stampSample.push(text.slice(sampleAt[k], sampleEnd[k]));
          }
        } else if (key === 'Timestamps')
          array(() => {
            const s = str();
            if (r.stampCount === 0) r.firstStamp = s;
            if (r.stampCount < STAMP_SAMPLE) r.stampSample.push(s);
            r.lastStamp = s;
            r.stampCount++;
          });
        else if (key === 'Values') {
          // Hot loop: integers and zero fractions (12345.0) read in place; anything else via Number().
          expect(91);
          let j = i;
          let count = 0;
          let c = text.charCodeAt(j);
          while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++j);
          if (c === 93) j++;
          else
            for (;;) {
              if (count === buffer.length) {
                const bigger = new Float64Array(buffer.length * 2);
                bigger.set(buffer);
                buffer = bigger;
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
                i = start;
                buffer[count++] = num();
                j = i;
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
          i = j;
          r.valueCount = count;
        } else skip();
        ws();
        const d = text.charCodeAt(i++);
        if (d === 125) break;
        if (d !== 44) throw unexpected;
      }
    // A copy: the file's values are added only once the whole file has scanned (no half-added file on a fallback).
    out.push({ ...r, values: buffer.slice(0, r.valueCount) });
  };
  try {
    expect(123);
    ws();
    if (text.charCodeAt(i) === 125) i++;
    else
      for (;;) {
        const key = str();
        expect(58);
        if (key === 'MetricDataResults') {
          sawResults = true;
          array(result);
        } else skip();
        ws();
        const d = text.charCodeAt(i++);
        if (d === 125) break;
        if (d !== 44) throw unexpected;
      }
    ws();
    if (i !== n || !sawResults) return null;
    return out;
  } catch (error) {
    if (error instanceof Unexpected || error instanceof SyntaxError) return null;
    throw error;
  }
}
