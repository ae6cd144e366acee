import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importMetrics } from './import-metrics.ts';
import { parseSadf, parseSar } from './sar.ts';
import type { SeriesImportResult } from './series.schema.ts';

/** sar -d / sadf -d behaviours and bad input, on the real captures (fixtures/metrics) edited where needed. */

const DIR = new URL('../../../fixtures/metrics/', import.meta.url);
const text = (name: string) => readFileSync(new URL(name, DIR), 'utf8');
const SAR = text('sar_12.6.1_d_C.txt');
const SADF = text('sadf_12.6.1_d.csv');
const errorOf = (r: SeriesImportResult) => {
  if (r.ok) throw new Error('expected a failure');
  return r.error;
};

describe('sar -d', () => {
  it('is told apart from iostat and sadf by its content', () => {
    expect(importMetrics(SAR)).toMatchObject({ ok: true, value: { format: 'sar' } });
    expect(importMetrics(SADF)).toMatchObject({ ok: true, value: { format: 'sadf' } });
  });

  it('splits tps between reads and writes by bytes: the split adds up to tps, and the warning says what was assumed', () => {
    const r = parseSar(SAR);
    if (!r.ok) throw new Error(r.error.message);
    const s = r.value;
    s.timeMs.forEach((_, i) => {
      const q = s.device!.queue!;
      // Reads + writes ≤ tps: the rest are discards (dkB/s), split off by their bytes too.
      expect(s.readIops[i]! + s.writeIops[i]!).toBeLessThanOrEqual(q.requestsPerSec[i]! + 1e-9);
    });
    expect(s.warnings.find((w) => w.code === 'iops_split_by_bytes')?.message).toContain(
      'the split is an estimate',
    );
  });

  it('--device reads another device; an unknown one names those there are', () => {
    const loop = parseSar(SAR, { device: 'loop1' });
    expect(loop).toMatchObject({ ok: true, value: { device: { name: 'loop1', chosenBy: 'asked' } } });
    expect(errorOf(parseSar(SAR, { device: 'sdz' })).message).toBe(
      'no device "sdz" in the file; it has vda, loop1',
    );
  });

  it('two days from two files concatenated: each banner starts its own date', () => {
    const day1 = SAR.split('\n')
      .filter((l) => !/^(Average|Durchschn)/.test(l))
      .join('\n');
    const day2 = day1.replace('11/24/26', '11/25/26');
    const r = parseSar(`${day1}\n${day2}`);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.timeMs).toHaveLength(2 * 79);
    expect(r.value.timeMs[79]! - r.value.timeMs[0]!).toBe(86_400_000);
    expect(r.value.quality.gaps).toBe(1);
  });

  it('a LINUX RESTART line is skipped with a warning', () => {
    const lines = SAR.split('\n');
    lines.splice(40, 0, '13:46:30     LINUX RESTART\t(2 CPU)');
    const r = parseSar(lines.join('\n'));
    expect(r.ok && r.value.warnings.map((w) => w.code)).toContain('restarts');
  });

  it('bad input names the line: a truncated row, a changed header, a missing banner, another activity only', () => {
    const lines = SAR.split('\n');
    const cut = lines.slice();
    cut[10] = cut[10]!.slice(0, 40);
    expect(errorOf(parseSar(cut.join('\n')))).toMatchObject({ code: 'truncated_report', path: 'line 11' });
    const old = text('sar_12.0.6_d.txt').split('\n');
    const mixed = [...lines.slice(0, 20), '', ...old.slice(2, 6)].join('\n');
    expect(errorOf(parseSar(mixed))).toMatchObject({ code: 'mixed_sar_columns', path: 'line 22' });
    expect(errorOf(parseSar(lines.slice(2).join('\n')))).toMatchObject({
      code: 'bad_sar',
      path: 'line 1',
      message: expect.stringContaining('before any banner'),
    });
    const cpu = `Linux 6.8.0 (db) \t11/24/26 \t_x86_64_\t(2 CPU)\n\n13:44:08     CPU     %user     %nice   %system   %iowait    %steal     %idle\n13:44:09     all      1.00      0.00      0.50      0.00      0.00     98.50\n`;
    expect(errorOf(parseSar(cpu))).toMatchObject({ code: 'not_sar_d' });
  });
});

describe('sadf -d', () => {
  it('uses the interval field and full UTC timestamps: points start one interval before the time printed', () => {
    const r = parseSadf(SADF);
    if (!r.ok) throw new Error(r.error.message);
    expect(new Date(r.value.timeMs[0]!).toISOString()).toBe('2026-11-24T13:46:00.000Z'); // printed 13:46:01 UTC
  });

  it('epoch seconds (sadf -U) read the same', () => {
    const epoch = SADF.replace(
      /;(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) UTC;/g,
      (_, t: string) => `;${Date.parse(`${t.replace(' ', 'T')}Z`) / 1000};`,
    );
    const a = parseSadf(SADF);
    const b = parseSadf(epoch);
    expect(a.ok && b.ok && b.value.timeMs).toEqual(a.ok && a.value.timeMs);
  });

  it('bad input names the line and field', () => {
    const lines = SADF.split('\n');
    const bad = lines.slice();
    bad[2] = bad[2]!.replace(/;\d+\.\d+;/, ';x;');
    expect(errorOf(parseSadf(bad.join('\n')))).toMatchObject({
      code: 'bad_value',
      message: expect.stringMatching(/^line 3, field 5 \(tps\): expected a number/),
    });
    const short = lines.slice();
    short[4] = short[4]!.split(';').slice(0, 6).join(';');
    expect(errorOf(parseSadf(short.join('\n')))).toMatchObject({ code: 'truncated_report', path: 'line 5' });
    const time = lines.slice();
    time[3] = time[3]!.replace(/2026-11-24 (\d\d:\d\d:\d\d) UTC/, '24/11/2026 $1');
    expect(errorOf(parseSadf(time.join('\n')))).toMatchObject({ code: 'bad_timestamp', path: 'line 4' });
  });
});
