import { describe, expect, it } from 'vitest';
import { storedRunBytes, type StoredRunText } from './pair-comparison.ts';

// A job named in Japanese, as fio writes it ("jobname" is free text): 3 UTF-8 bytes a character.
const report = JSON.stringify({ jobs: [{ jobname: 'データベース書き込み', read: { iops: 1200 } }] });
const summary = JSON.stringify({ headline: { note: 'écriture séquentielle' } });
const asText: StoredRunText = { id: 'r1', labels: {}, reportJson: report, summaryJson: summary };
const asBytes: StoredRunText = { ...asText, reportJson: new TextEncoder().encode(report) };

describe('storedRunBytes', () => {
  it('counts UTF-8 bytes whether the report is text or the bytes the store gave', () => {
    const bytes = Buffer.byteLength(report) + Buffer.byteLength(summary);
    // The same run read two ways must weigh the same against largeBodyBytes.
    expect(storedRunBytes([asText])).toBe(bytes);
    expect(storedRunBytes([asBytes])).toBe(bytes);
    // What `length` counted: 2 bytes short per kana/kanji (10 of them) and 1 per é (2 of them).
    expect(bytes - (report.length + summary.length)).toBe(10 * 2 + 2);
  });

  it('sums every run', () => {
    expect(storedRunBytes([asText, asBytes])).toBe(2 * storedRunBytes([asText]));
    expect(storedRunBytes([])).toBe(0);
  });
});
