import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarizeRun } from '../analysis/summarize-run.ts';
import type { RunHeadline } from '../api/contract.ts';
import { parseFio } from '../fio/parse-fio.ts';
import { checkRegression, pickBaseBranch, type RegressionRun } from './check-regression.ts';
import { extractMetrics, METRIC_IDS, METRICS, readMetric, metricDefinition } from './metrics.ts';
import { SeriesConfigSchema, defaultSeriesConfig, type SeriesConfigInput } from './series-config.ts';

const FIXTURES = resolve(import.meta.dirname, '../../../fixtures/fio');

/** The headline the server stores for a real fio file (parseFio → summarizeRun, no labels). */
function headline(file: string): RunHeadline {
  const parsed = parseFio(new Uint8Array(readFileSync(join(FIXTURES, file))));
  if (!parsed.ok) throw new Error(`${file}: ${parsed.error.message}`);
  return summarizeRun(parsed.report, {}).headline;
}

const MIXED = 'generated/a_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_grouped.json';
const mixed = headline(MIXED);

/** The same run, as if the storage were `throughput`× as fast and its latency `latency`× as long. */
function scaled(h: RunHeadline, f: { throughput?: number; latency?: number }): RunHeadline {
  const t = f.throughput ?? 1;
  const l = f.latency ?? 1;
  const clat = (c: Record<string, number> | null) =>
    c ? Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v * l])) : null;
  return {
    ...h,
    readIops: h.readIops * t,
    writeIops: h.writeIops * t,
    readBytesPerSec: h.readBytesPerSec * t,
    writeBytesPerSec: h.writeBytesPerSec * t,
    readClatMs: clat(h.readClatMs),
    writeClatMs: clat(h.writeClatMs),
  };
}

/** Five main-branch runs of the same job: ±2.5 % throughput and ±3 % latency, as repeated CI runs show. */
const NOISE = [
  { throughput: 1.0, latency: 1.0 },
  { throughput: 0.98, latency: 1.03 },
  { throughput: 1.02, latency: 0.97 },
  { throughput: 0.975, latency: 1.02 },
  { throughput: 1.025, latency: 0.98 },
];
const mainRuns = (h: RunHeadline = mixed): RegressionRun[] =>
  NOISE.map((f, i) => ({
    id: `main-${i}`,
    labels: { series: 'pg-data', branch: 'main', commit: `aaaa00${i}` },
    headline: scaled(h, f),
  }));
const feature = (h: RunHeadline, labels: RegressionRun['labels'] = {}): RegressionRun => ({
  id: 'feature-run',
  labels: { series: 'pg-data', branch: 'feature/xfs-nobarrier', commit: 'bbbb001', ...labels },
  headline: h,
});
const config = (input: SeriesConfigInput = {}) => SeriesConfigSchema.parse(input);
const flagged = (r: ReturnType<typeof checkRegression>, verdict = 'regression') =>
  r.metrics.filter((m) => m.verdict === verdict).map((m) => m.metric);

const THROUGHPUT_METRICS = ['read.iops', 'write.iops', 'read.bytesPerSec', 'write.bytesPerSec'];
const LATENCY_METRICS = METRIC_IDS.filter((id) => id.includes('clat'));

describe('metric extraction from real headlines', () => {
  it('defines one metric per id, with the way that is better', () => {
    expect(METRICS.map((m) => m.id)).toEqual([...METRIC_IDS]);
    expect(metricDefinition('read.iops').direction).toBe('higher-is-better');
    expect(metricDefinition('write.clat.p99.9')).toMatchObject({
      direction: 'lower-is-better',
      unit: 'ms',
      percentile: '99.9',
    });
  });

  it.each([
    [
      'randrw grouped: both directions, every percentile',
      MIXED,
      {
        'read.iops': 10267.013091,
        'write.iops': 21817.927451,
        'read.bytesPerSec': 103176876,
        'write.bytesPerSec': 1429859693,
        'read.clat.p50': 1.499136,
        'read.clat.p99': 19.267584,
        'read.clat.p99.9': 24.24832,
        'write.clat.p50': 1.581056,
        'write.clat.p99': 19.529728,
        'write.clat.p99.9': 24.510464,
      },
    ],
    [
      'randread only: no write metrics (no writes is not a collapse)',
      'generated/c_randread_4k_libaio_qd32_timebased5s.json',
      {
        'read.iops': 77896.220756,
        'read.bytesPerSec': 319062920,
        'read.clat.p50': 0.284672,
        'read.clat.p99': 0.468992,
        'read.clat.p99.9': 32.374784,
      },
    ],
    [
      'clat_percentiles=0: IOPS and throughput only',
      'generated/i2_randwrite_4k_clat_percentiles_off.json',
      { 'write.iops': 27935.208866, 'write.bytesPerSec': 114422615 },
    ],
    [
      'percentile_list=50:90:95:99:99.5:99.9:99.99',
      'generated/i1_randread_4k_percentile_list_lat_clat_percentiles.json',
      {
        'read.iops': 82331.658291,
        'read.bytesPerSec': 337230472,
        'read.clat.p50': 0.129536,
        'read.clat.p99': 0.700416,
        'read.clat.p99.9': 17.170432,
      },
    ],
    ['a job that failed on its file: nothing to judge', 'generated/m_randtrim_on_file_error.json', {}],
  ])('%s (%s)', (_, file, expected) => {
    const metrics = extractMetrics(headline(file));
    expect(Object.keys(metrics).sort()).toEqual(Object.keys(expected).sort());
    for (const [id, value] of Object.entries(expected))
      expect(metrics[id as keyof typeof metrics]).toBeCloseTo(value, 6);
  });

  it.each([
    ['generated/c_randread_4k_libaio_qd32_timebased5s.json', 'write.iops', 'no-io'],
    ['generated/c_randread_4k_libaio_qd32_timebased5s.json', 'write.clat.p99', 'no-io'],
    ['generated/i2_randwrite_4k_clat_percentiles_off.json', 'write.clat.p50', 'no-percentiles'],
  ] as const)('%s: %s is absent (%s)', (file, id, absent) => {
    expect(readMetric(headline(file), metricDefinition(id))).toEqual({ ok: false, absent });
  });

  it('a headline without p99.9 (custom percentile_list) reports that percentile as absent', () => {
    const h = { ...mixed, readClatMs: { '50': 1.2, '99': 9.5 } };
    expect(readMetric(h, metricDefinition('read.clat.p99.9'))).toEqual({
      ok: false,
      absent: 'no-such-percentile',
    });
  });
});

describe('SeriesConfigSchema', () => {
  it('fills every default from {}', () => {
    expect(defaultSeriesConfig()).toEqual({
      baseBranch: 'main',
      baselineRuns: 5,
      minBaselineRuns: 3,
      method: 'percent',
      sigmaK: 3,
      thresholds: { iops: 10, throughput: 10, latency: 20 },
      ignoreMetrics: [],
    });
    expect(config({ thresholds: { latency: 30 } }).thresholds).toEqual({
      iops: 10,
      throughput: 10,
      latency: 30,
    });
  });

  it.each([
    [{ minBaselineRuns: 6 }, 'minBaselineRuns'],
    [{ baselineRuns: 0 }, 'baselineRuns'],
    [{ method: 'median' }, 'method'],
    [{ thresholds: { iopz: 5 } }, 'thresholds'],
    [{ thresholds: { latency: -1 } }, 'thresholds.latency'],
    [{ ignoreMetrics: ['read.clat.p42'] }, 'ignoreMetrics.0'],
    [{ treshold: 5 }, ''],
    [{ baseBranch: '  ' }, 'baseBranch'],
  ])('%j is refused at %s', (input, path) => {
    const r = SeriesConfigSchema.safeParse(input);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path.join('.')).toBe(path);
  });
});

describe('pickBaseBranch', () => {
  it.each([
    [{ branch: 'feature/x' }, { ok: true, baseBranch: 'main' }],
    [
      { branch: 'feature/x', baseBranch: 'release-7' },
      { ok: true, baseBranch: 'release-7' },
    ],
    [{ baseBranch: 'release-7' }, { ok: true, baseBranch: 'release-7' }],
    [{ branch: 'main' }, { ok: true, baseBranch: 'main' }],
    [{}, { ok: false }],
  ])('%j → %j', (labels, expected) => {
    expect(pickBaseBranch(labels, defaultSeriesConfig())).toMatchObject(expected);
  });
});

describe('checkRegression on a real randrw run with five noisy main runs', () => {
  it.each([
    ['the same storage (+1 %)', { throughput: 1.01, latency: 0.99 }, {}, 'pass', []],
    ['IOPS and bandwidth -8 % (inside 10 %)', { throughput: 0.92 }, {}, 'pass', []],
    ['IOPS and bandwidth -15 %', { throughput: 0.85 }, {}, 'regression', THROUGHPUT_METRICS],
    ['latency +15 % (inside 20 %)', { latency: 1.15 }, {}, 'pass', []],
    ['latency +25 %', { latency: 1.25 }, {}, 'regression', LATENCY_METRICS],
    [
      'the degraded volume: -30 % IOPS and bandwidth, +60 % latency',
      { throughput: 0.7, latency: 1.6 },
      {},
      'regression',
      [...THROUGHPUT_METRICS, ...LATENCY_METRICS],
    ],
    // minmax: the limit is the baseline minimum (0.975) less the threshold.
    ['minmax 10 %: -8 % is above 0.975 × 0.9', { throughput: 0.92 }, { method: 'minmax' }, 'pass', []],
    [
      'minmax 5 %: -8 % is below 0.975 × 0.95',
      { throughput: 0.92 },
      { method: 'minmax', thresholds: { iops: 5, throughput: 5 } },
      'regression',
      THROUGHPUT_METRICS,
    ],
    // sigma: σ of the noise is 2.26 %, so 3σ = 6.8 % and 6σ = 13.6 %.
    [
      'sigma k=3: -12 % is beyond 3σ and 10 %',
      { throughput: 0.88 },
      { method: 'sigma' },
      'regression',
      THROUGHPUT_METRICS,
    ],
    ['sigma k=6: -12 % is inside 6σ', { throughput: 0.88 }, { method: 'sigma', sigmaK: 6 }, 'pass', []],
    [
      'sigma k=3 with thresholds 0 (pure 3σ): -8 % flags',
      { throughput: 0.92 },
      { method: 'sigma', thresholds: { iops: 0, throughput: 0, latency: 0 } },
      'regression',
      THROUGHPUT_METRICS,
    ],
  ] as const)('%s → %s', (_, factors, cfg, verdict, metrics) => {
    const report = checkRegression(feature(scaled(mixed, factors)), mainRuns(), config(cfg));
    expect(report.verdict, report.message).toBe(verdict);
    expect(flagged(report)).toEqual(metrics);
    expect(report.baseBranch).toBe('main');
    expect(report.baselineRunIds).toEqual(['main-0', 'main-1', 'main-2', 'main-3', 'main-4']);
    expect(report.metrics).toHaveLength(10);
  });

  it('explains a flagged metric with the baseline, the delta and the limit', () => {
    const report = checkRegression(
      feature(scaled(mixed, { throughput: 0.7, latency: 1.6 })),
      mainRuns(),
      defaultSeriesConfig(),
    );
    const readIops = report.metrics.find((m) => m.metric === 'read.iops')!;
    expect(readIops.baseline).toMatchObject({
      n: 5,
      min: mixed.readIops * 0.975,
      max: mixed.readIops * 1.025,
    });
    expect(readIops.baseline!.mean).toBeCloseTo(mixed.readIops, 6);
    expect(readIops.baseline!.stddev / mixed.readIops).toBeCloseTo(0.02264, 4);
    expect(readIops.deltaPct).toBeCloseTo(-30, 6);
    expect(readIops.limit).toBeCloseTo(mixed.readIops * 0.9, 6);
    expect(readIops.reason).toBe(
      '-30.0% vs the mean of 5 baseline runs: below 9,240 IOPS (10% from the mean)',
    );
    const p99 = report.metrics.find((m) => m.metric === 'write.clat.p99')!;
    expect(p99).toMatchObject({ verdict: 'regression', unit: 'ms', direction: 'lower-is-better' });
    expect(p99.deltaPct).toBeCloseTo(60, 6);
    expect(report.message).toBe(
      'regression: read IOPS -30.0%, write IOPS -30.0%, read throughput -30.0%, write throughput -30.0%, +6 more (10 of 10 metrics) vs the last 5 runs on main.',
    );
  });

  it('a faster run is an improvement, not a failure', () => {
    const report = checkRegression(
      feature(scaled(mixed, { throughput: 1.3 })),
      mainRuns(),
      defaultSeriesConfig(),
    );
    expect(report.verdict).toBe('pass');
    expect(flagged(report, 'improvement')).toEqual(THROUGHPUT_METRICS);
    expect(report.message).toMatch(
      /^pass: 10 metrics within the thresholds of the last 5 runs on main; better: read IOPS \+30\.0%/,
    );
  });

  it('a run on main is compared with the main runs before it (the caller passes them; itself is dropped)', () => {
    const runs = mainRuns();
    const latest = { ...runs[0]!, id: 'main-new', headline: scaled(mixed, { throughput: 0.7 }) };
    const report = checkRegression(latest, [latest, ...runs], defaultSeriesConfig());
    expect(report.baselineRunIds).not.toContain('main-new');
    expect(report.verdict).toBe('regression');
  });
});

describe('never a false alarm', () => {
  it.each([0, 1, 2])('%d baseline runs (3 needed): insufficient history, even for a collapse', (n) => {
    const report = checkRegression(
      feature(scaled(mixed, { throughput: 0.3, latency: 5 })),
      mainRuns().slice(0, n),
      defaultSeriesConfig(),
    );
    expect(report.verdict).toBe('insufficient-history');
    expect(report.metrics.every((m) => m.verdict === 'skipped')).toBe(true);
    expect(report.metrics.every((m) => (n === 0 ? m.baseline === null : m.baseline?.n === n))).toBe(true);
    expect(report.message).toMatch(
      new RegExp(`^insufficient history: ${n} earlier runs? on main, 3 needed\\. Nothing is judged`),
    );
  });

  it('no branch and no explicit base: no-base, nothing compared', () => {
    const run = { ...feature(mixed), labels: { series: 'pg-data' } };
    const report = checkRegression(run, mainRuns(), defaultSeriesConfig());
    expect(report).toMatchObject({ verdict: 'no-base', baseBranch: null, metrics: [], baselineRunIds: [] });
    expect(report.message).toMatch(/^cannot pick a base branch: the run has no branch label/);
  });

  it('no branch but an explicit base branch: judged against it', () => {
    const run = { ...feature(scaled(mixed, { throughput: 0.7 })), labels: { baseBranch: 'main' } };
    expect(checkRegression(run, mainRuns(), defaultSeriesConfig()).verdict).toBe('regression');
  });

  it('a direction the run did not exercise is skipped with the reason, and the job change is noted', () => {
    // A 4 KiB random-read job against a randrw baseline: the write side is gone, not collapsed.
    const randread = headline('generated/c_randread_4k_libaio_qd32_timebased5s.json');
    const report = checkRegression(feature(randread), mainRuns(), defaultSeriesConfig());
    const writes = report.metrics.filter((m) => m.io === 'write');
    expect(writes).toHaveLength(5);
    for (const m of writes) {
      expect(m.verdict).toBe('skipped');
      expect(m.reason).toBe('this run did no writes (the baseline did: did the fio job change?)');
    }
    expect(report.notes[0]).toBe(
      'read block size 4.0 KiB vs 9.8 KiB in the baseline: the fio job changed, so IOPS and throughput are not like for like',
    );
  });

  it('approximate percentiles (per-job upper bounds) are not compared with exact ones', () => {
    const approx = { ...scaled(mixed, { latency: 1.5 }), clatApproximate: true };
    const report = checkRegression(feature(approx), mainRuns(), defaultSeriesConfig());
    expect(report.verdict).toBe('pass');
    const latency = report.metrics.filter((m) => m.family === 'latency');
    expect(latency.every((m) => m.verdict === 'skipped' && m.approximate)).toBe(true);
    expect(latency[0]!.reason).toBe(
      'only 0 baseline runs measured read percentiles the same way (per-job upper bounds); 3 needed',
    );
    expect(report.notes).toContain(
      'latency percentiles are per-job upper bounds (several jobs without group_reporting or json+): compared only with runs measured the same way',
    );
  });

  it('a metric only some baseline runs report needs the minimum of runs by itself', () => {
    const runs = mainRuns().map((r, i) =>
      i < 3 ? { ...r, headline: { ...r.headline, readClatMs: { '50': 1.5, '99': 19 } } } : r,
    );
    const report = checkRegression(feature(scaled(mixed, { latency: 3 })), runs, defaultSeriesConfig());
    expect(report.metrics.find((m) => m.metric === 'read.clat.p99.9')).toMatchObject({
      verdict: 'skipped',
      reason: 'only 2 of 5 baseline runs report it; 3 needed',
    });
    expect(report.metrics.find((m) => m.metric === 'read.clat.p99')!.verdict).toBe('regression');
  });

  it('ignored metrics are left out and named in the notes', () => {
    const report = checkRegression(
      feature(scaled(mixed, { latency: 1.6 })),
      mainRuns(),
      config({ ignoreMetrics: ['read.clat.p99.9', 'write.clat.p99.9'] }),
    );
    expect(report.metrics.map((m) => m.metric)).not.toContain('read.clat.p99.9');
    expect(report.metrics).toHaveLength(8);
    expect(report.notes).toContain('not judged (series settings): read.clat.p99.9, write.clat.p99.9');
  });
});
