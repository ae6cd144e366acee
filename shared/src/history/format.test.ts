import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarizeRun } from '../analysis/summarize-run.ts';
import type { RunHeadline } from '../api/contract.ts';
import { parseFio } from '../fio/parse-fio.ts';
import { checkRegression, type RegressionRun } from './check-regression.ts';
import { formatDeltaPct, formatMetricValue } from './format-value.ts';
import { REGRESSION_COMMENT_MARKER, formatRegressionMarkdown, formatRegressionText } from './format.ts';
import { defaultSeriesConfig } from './series-config.ts';

const FIXTURES = resolve(import.meta.dirname, '../../../fixtures/fio');
const parsed = parseFio(
  new Uint8Array(readFileSync(join(FIXTURES, 'generated/g_randrw_4k_mix70_jsonplus.json'))),
);
if (!parsed.ok) throw new Error(parsed.error.message);
/** A real 4 KiB randrw 70/30 run (fio 3.33, json+). */
const real = summarizeRun(parsed.report, {}).headline;

const scaled = (h: RunHeadline, t: number, l: number): RunHeadline => ({
  ...h,
  readIops: h.readIops * t,
  writeIops: h.writeIops * t,
  readBytesPerSec: h.readBytesPerSec * t,
  writeBytesPerSec: h.writeBytesPerSec * t,
  readClatMs: Object.fromEntries(Object.entries(h.readClatMs ?? {}).map(([k, v]) => [k, v * l])),
  writeClatMs: Object.fromEntries(Object.entries(h.writeClatMs ?? {}).map(([k, v]) => [k, v * l])),
});
const baseline: RegressionRun[] = [1, 0.98, 1.02, 0.975, 1.025].map((t, i) => ({
  id: `main-${i}`,
  labels: { branch: 'main' },
  headline: scaled(real, t, 2 - t),
}));
const degraded = checkRegression(
  {
    id: 'run-1',
    labels: { series: 'pg-data', branch: 'feature/xfs', commit: '1a2b3c4d5e6f7a8b9c0d' },
    headline: scaled(real, 0.7, 1.6),
  },
  baseline,
  defaultSeriesConfig(),
);
const links = {
  comparison: 'https://bw.example.com/c/AAAAAAAAAAAAAAAAAAAAAA',
  run: 'https://bw.example.com/runs/BBBB',
};

describe('value formatting', () => {
  it.each([
    [48326.315789, 'IOPS', '48,326 IOPS'],
    [3.153662, 'IOPS', '3.15 IOPS'],
    [197944589, 'B/s', '188.8 MiB/s'],
    [1429859693, 'B/s', '1,364 MiB/s'],
    [0.059136, 'ms', '0.0591 ms'],
    [0.173056, 'ms', '0.173 ms'],
    [19.267584, 'ms', '19.3 ms'],
    [1669.332992, 'ms', '1,669 ms'],
  ] as const)('%d %s → %s', (value, unit, text) => {
    expect(formatMetricValue(value, unit)).toBe(text);
  });

  it.each([
    [-30.04, '-30.0%'],
    [60, '+60.0%'],
    [0.04, '0.0%'],
    [-0.04, '0.0%'],
  ])('Δ %d → %s', (d, text) => expect(formatDeltaPct(d)).toBe(text));
});

describe('formatRegressionText', () => {
  const text = formatRegressionText(degraded, links);
  const lines = text.split('\n');

  it('starts with the verdict and what was compared with what', () => {
    expect(lines.slice(0, 2)).toEqual([
      'storage regression check: REGRESSION',
      'series pg-data · feature/xfs @ 1a2b3c4d5e6f vs the last 5 runs on main (percent; thresholds: IOPS 10%, throughput 10%, latency 20%)',
    ]);
  });

  it('prints an aligned table: metric, baseline mean, new, Δ%, verdict', () => {
    const table = lines.slice(3, 14);
    expect(table[0]).toBe('metric                    baseline     new      Δ%  verdict');
    expect(table[1]).toBe('read IOPS                   48,326  33,828  -30.0%  REGRESSION');
    expect(table[3]).toBe('read throughput (MiB/s)      188.8   132.1  -30.0%  REGRESSION');
    expect(table[6]).toBe('read clat p99 (ms)           0.173   0.277  +60.0%  REGRESSION');
    // Every row's verdict starts in the same column.
    const column = table[0]!.indexOf('verdict');
    for (const row of table) expect(row.slice(column)).toMatch(/^(verdict|REGRESSION)/);
  });

  it('says why each regression was flagged and ends with the links', () => {
    expect(text).toContain(
      '\n  read IOPS: -30.0% vs the mean of 5 baseline runs: below 43,494 IOPS (10% from the mean)\n',
    );
    expect(lines.slice(-3)).toEqual([
      'comparison: https://bw.example.com/c/AAAAAAAAAAAAAAAAAAAAAA',
      'run: https://bw.example.com/runs/BBBB',
      '',
    ]);
  });

  it('no-base: no table, the reason', () => {
    const report = checkRegression({ id: 'x', labels: {}, headline: real }, baseline, defaultSeriesConfig());
    const out = formatRegressionText(report);
    expect(out).toMatch(/^storage regression check: NOT CHECKED \(no base branch\)\n/);
    expect(out).not.toContain('metric ');
    expect(out).toContain('cannot pick a base branch: the run has no branch label');
  });

  it('insufficient history: a pass that says so', () => {
    const report = checkRegression(
      { id: 'x', labels: { branch: 'main' }, headline: scaled(real, 0.5, 2) },
      baseline.slice(0, 2),
      defaultSeriesConfig(),
    );
    const out = formatRegressionText(report);
    expect(out).toMatch(/^storage regression check: PASS \(insufficient history\)\n/);
    expect(out).toContain('skipped: insufficient history: 2 of 3 baseline runs');
  });
});

describe('formatRegressionMarkdown', () => {
  const md = formatRegressionMarkdown(degraded, links);

  it('is a PR comment: marker, headline, table, reasons, links', () => {
    const lines = md.split('\n');
    expect(lines[0]).toBe(REGRESSION_COMMENT_MARKER);
    expect(lines[1]).toBe('### ❌ Storage regression: `pg-data`');
    expect(md).toContain(
      '`feature/xfs` @ `1a2b3c4d5e6f` vs the last 5 runs on `main` · percent; thresholds: IOPS 10%, throughput 10%, latency 20%',
    );
    expect(md).toContain('**10 of 10 metrics are worse than the baseline** beyond their threshold.');
    const rows = lines.filter((l) => l.startsWith('| '));
    expect(rows).toHaveLength(12); // header + 10 metrics (the separator starts with "| :")
    expect(rows[0]).toBe('| Metric | Baseline (mean of 5) | This run | Δ | Verdict |');
    expect(rows).toContain('| read IOPS | 48,326 | 33,828 | -30.0% | ❌ **regression** |');
    expect(rows).toContain('| write clat p99.9 (ms) | 19.0 | 30.4 | +60.0% | ❌ **regression** |');
    expect(md).toContain(
      '- **write IOPS**: -30.0% vs the mean of 5 baseline runs: below 18,593 IOPS (10% from the mean)',
    );
    expect(md.trimEnd().split('\n').at(-1)).toBe(
      '[Comparison with the latest baseline run](https://bw.example.com/c/AAAAAAAAAAAAAAAAAAAAAA) · [This run](https://bw.example.com/runs/BBBB)',
    );
  });

  it('makes hostile labels and links inert', () => {
    const report = checkRegression(
      {
        id: 'x',
        labels: { series: 'pg', branch: 'feat|<img src=x onerror=alert(1)>`@team', baseBranch: 'ma|in' },
        headline: real,
      },
      [],
      defaultSeriesConfig(),
    );
    const out = formatRegressionMarkdown(report, {
      comparison: 'javascript:alert(1)',
      run: 'https://bw.example.com/runs/a) [x](https://evil',
    });
    expect(out).not.toMatch(/(^|[^\\])<img/m);
    expect(out).toContain('feat¦\\<img src=x onerror=alert(1)\\>\\`@\u200bteam');
    expect(out).toContain('`ma¦in`');
    expect(out).not.toContain('javascript:');
    expect(out).toContain('[This run](https://bw.example.com/runs/a%29%20%5Bx%5D%28https://evil)');
  });

  it('insufficient history says nothing is flagged yet', () => {
    const report = checkRegression(
      { id: 'x', labels: { series: 'pg', branch: 'main' }, headline: real },
      baseline.slice(0, 1),
      defaultSeriesConfig(),
    );
    const out = formatRegressionMarkdown(report);
    expect(out).toContain('### ⏳ Storage check: not enough history yet: `pg`');
    expect(out).toContain('Only 1 earlier run on the base branch; 3 are needed before anything is judged.');
  });
});
