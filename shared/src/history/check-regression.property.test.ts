import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarizeRun } from '../analysis/summarize-run.ts';
import type { RunHeadline } from '../api/contract.ts';
import { parseFio } from '../fio/parse-fio.ts';
import { checkRegression, type RegressionRun } from './check-regression.ts';
import { extractMetrics } from './metrics.ts';
import { REGRESSION_METHODS, SeriesConfigSchema, type SeriesConfig } from './series-config.ts';

/**
 * Properties of the gate over every real fio fixture that did I/O: a run never regresses against
 * copies of itself, a drop past the threshold always flags, and noise inside the baseline's own
 * range never flags under `minmax`. Fixed seed, bounded runs.
 */

const FIXTURES = resolve(import.meta.dirname, '../../../fixtures/fio');
const headlines: { name: string; headline: RunHeadline }[] = ['generated', 'public'].flatMap((dir) =>
  readdirSync(join(FIXTURES, dir))
    .filter((f) => /\.(json|txt)$/.test(f) && !f.endsWith('.oracle.json'))
    .flatMap((f) => {
      const parsed = parseFio(new Uint8Array(readFileSync(join(FIXTURES, dir, f))));
      if (!parsed.ok) return [];
      const headline = summarizeRun(parsed.report, {}).headline;
      return Object.keys(extractMetrics(headline)).length > 0 ? [{ name: `${dir}/${f}`, headline }] : [];
    }),
);

const SETTINGS = { seed: 20261204, numRuns: 200 } as const;

const configArb: fc.Arbitrary<SeriesConfig> = fc
  .record({
    method: fc.constantFrom(...REGRESSION_METHODS),
    sigmaK: fc.double({ min: 0.5, max: 6, noNaN: true }),
    thresholds: fc.record({
      iops: fc.double({ min: 0, max: 50, noNaN: true }),
      throughput: fc.double({ min: 0, max: 50, noNaN: true }),
      latency: fc.double({ min: 0, max: 100, noNaN: true }),
    }),
    baselineRuns: fc.integer({ min: 1, max: 10 }),
  })
  .chain((c) =>
    fc
      .integer({ min: 1, max: c.baselineRuns })
      .map((minBaselineRuns) => SeriesConfigSchema.parse({ ...c, minBaselineRuns })),
  );

/** Scales every throughput number by `t` and every latency percentile by `l` (per direction). */
function scaled(
  h: RunHeadline,
  f: { readT: number; writeT: number; readL: number; writeL: number },
): RunHeadline {
  const clat = (c: Record<string, number> | null, l: number) =>
    c ? Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v * l])) : null;
  return {
    ...h,
    readIops: h.readIops * f.readT,
    writeIops: h.writeIops * f.writeT,
    readBytesPerSec: h.readBytesPerSec * f.readT,
    writeBytesPerSec: h.writeBytesPerSec * f.writeT,
    readClatMs: clat(h.readClatMs, f.readL),
    writeClatMs: clat(h.writeClatMs, f.writeL),
  };
}

const run = (id: string, headline: RunHeadline, branch = 'main'): RegressionRun => ({
  id,
  labels: { series: 'prop', branch },
  headline,
});

describe('checkRegression properties on real fixtures', () => {
  it(`reads ${headlines.length} fixtures that did I/O`, () => {
    expect(headlines.length).toBeGreaterThan(20);
  });

  it('a run identical to every baseline run never regresses, whatever the method and thresholds', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...headlines),
        configArb,
        fc.integer({ min: 0, max: 10 }),
        ({ headline }, config, n) => {
          const baseline = Array.from({ length: n }, (_, i) => run(`b${i}`, headline));
          const report = checkRegression(run('new', headline, 'feature'), baseline, config);
          expect(report.verdict).not.toBe('regression');
          expect(report.verdict).toBe(n >= config.minBaselineRuns ? 'pass' : 'insufficient-history');
          expect(report.metrics.every((m) => m.verdict === 'ok' || m.verdict === 'skipped')).toBe(true);
        },
      ),
      SETTINGS,
    );
  });

  it('IOPS scaled down by more than the threshold always flag (noisy baseline, percent method)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...headlines),
        fc.double({ min: 1, max: 40, noNaN: true }),
        fc.double({ min: 0.5, max: 30, noNaN: true }),
        fc.array(fc.double({ min: 0.97, max: 1.03, noNaN: true }), { minLength: 3, maxLength: 8 }),
        ({ headline }, threshold, beyondPct, noise) => {
          const config = SeriesConfigSchema.parse({
            thresholds: { iops: threshold },
            baselineRuns: noise.length,
            minBaselineRuns: 3,
          });
          const baseline = noise.map((t, i) =>
            run(`b${i}`, scaled(headline, { readT: t, writeT: t, readL: 1, writeL: 1 })),
          );
          const meanNoise = noise.reduce((s, v) => s + v, 0) / noise.length;
          // Below the baseline mean by threshold + beyondPct percent.
          const factor = meanNoise * (1 - (threshold + beyondPct) / 100);
          const slower = scaled(headline, { readT: factor, writeT: factor, readL: 1, writeL: 1 });
          const report = checkRegression(run('new', slower, 'feature'), baseline, config);
          expect(report.verdict).toBe('regression');
          const iops = report.metrics.filter((m) => m.family === 'iops');
          expect(iops.length).toBeGreaterThan(0);
          for (const m of iops) expect(m.verdict, `${m.metric}: ${m.reason}`).toBe('regression');
        },
      ),
      SETTINGS,
    );
  });

  it('the same drop flags under every method when the baseline does not vary', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...headlines),
        configArb,
        fc.double({ min: 0.5, max: 30, noNaN: true }),
        ({ headline }, config, beyondPct) => {
          const baseline = Array.from({ length: config.minBaselineRuns }, (_, i) => run(`b${i}`, headline));
          const factor = 1 - Math.min(99, config.thresholds.iops + beyondPct) / 100;
          const slower = scaled(headline, { readT: factor, writeT: factor, readL: 1, writeL: 1 });
          const report = checkRegression(run('new', slower, 'feature'), baseline, config);
          const iops = report.metrics.filter((m) => m.family === 'iops');
          for (const m of iops) expect(m.verdict, `${config.method}: ${m.reason}`).toBe('regression');
        },
      ),
      SETTINGS,
    );
  });

  it('under minmax, a run whose every number lies inside the baseline range never flags', () => {
    const noise = fc.double({ min: 0.9, max: 1.1, noNaN: true });
    const factors = fc.record({ readT: noise, writeT: noise, readL: noise, writeL: noise });
    fc.assert(
      fc.property(
        fc.constantFrom(...headlines),
        fc.array(factors, { minLength: 3, maxLength: 8 }),
        fc.record({
          readT: fc.double({ min: 0, max: 1, noNaN: true }),
          writeT: fc.double({ min: 0, max: 1, noNaN: true }),
          readL: fc.double({ min: 0, max: 1, noNaN: true }),
          writeL: fc.double({ min: 0, max: 1, noNaN: true }),
        }),
        fc.double({ min: 0, max: 30, noNaN: true }),
        ({ headline }, baselineFactors, position, threshold) => {
          const config = SeriesConfigSchema.parse({
            method: 'minmax',
            baselineRuns: baselineFactors.length,
            thresholds: { iops: threshold, throughput: threshold, latency: threshold },
          });
          const baseline = baselineFactors.map((f, i) => run(`b${i}`, scaled(headline, f)));
          // Each factor of the new run somewhere between the smallest and largest baseline factor.
          const inside = (key: keyof typeof position) => {
            const values = baselineFactors.map((f) => f[key]);
            const lo = Math.min(...values);
            const hi = Math.max(...values);
            return lo + (hi - lo) * position[key];
          };
          const candidate = scaled(headline, {
            readT: inside('readT'),
            writeT: inside('writeT'),
            readL: inside('readL'),
            writeL: inside('writeL'),
          });
          const report = checkRegression(run('new', candidate, 'feature'), baseline, config);
          expect(report.verdict).toBe('pass');
          for (const m of report.metrics) expect(['ok', 'skipped']).toContain(m.verdict);
        },
      ),
      SETTINGS,
    );
  });
});
