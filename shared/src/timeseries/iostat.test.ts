import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importMetrics } from './import-metrics.ts';
import { parseIostat } from './iostat.ts';
import type { SeriesImportResult } from './series.schema.ts';

/** iostat behaviours and bad input, on the real captures (fixtures/metrics) edited where needed. */

const DIR = new URL('../../../fixtures/metrics/', import.meta.url);
const text = (name: string) => readFileSync(new URL(name, DIR), 'utf8');
const C = text('iostat_12.6.1_x_t_C.txt');
const lines = C.split('\n');
const errorOf = (r: SeriesImportResult) => {
  if (r.ok) throw new Error('expected a failure');
  return r.error;
};
/** The first n lines (whole reports) of the C-locale capture. */
const head = (n: number) => `${lines.slice(0, n).join('\n')}\n`;
const deviceHeaderLines = lines.flatMap((l, i) => (l.startsWith('Device') ? [i] : []));

describe('iostat -x: choosing the device', () => {
  it('the busiest by operations, stated with each device’s share; --device picks another', () => {
    const busiest = parseIostat(C);
    if (!busiest.ok) throw new Error(busiest.error.message);
    const w = busiest.value.warnings.find((x) => x.code === 'device_chosen')!;
    expect(w.message).toMatch(/vda \d+(\.\d)?%, loop1 \d+(\.\d)?%\): vda is read, the busiest/);
    const loop = parseIostat(C, { device: 'loop1' });
    if (!loop.ok) throw new Error(loop.error.message);
    expect(loop.value.device).toMatchObject({ name: 'loop1', chosenBy: 'asked' });
    expect(loop.value.warnings.map((x) => x.code)).not.toContain('device_chosen');
    // loop1 first had I/O in the 5th report: the 3 kept reports before lack it — missing, not zero.
    expect(loop.value.warnings.find((x) => x.code === 'device_absent')?.message).toMatch(
      /^loop1 is missing from 3 of the 79 reports \(first under line 15\): counted as missing points, not zeros/,
    );
    expect(loop.value.quality.missingPoints).toBe(3);
    expect(new Date(loop.value.timeMs[0]!).toISOString()).toBe('2026-11-24T13:46:03.000Z');
  });

  it('an unknown device is an error naming the devices there are', () => {
    expect(errorOf(parseIostat(C, { device: 'nvme9n1' }))).toMatchObject({
      code: 'device_not_found',
      message: 'no device "nvme9n1" in the file; it has vda, loop1',
      path: '--device',
    });
  });
});

describe('iostat -x: the first report and the interval', () => {
  it('the first report (since boot) is left out and the user is told where it was', () => {
    const r = parseIostat(head(deviceHeaderLines[3]! - 3));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.quality.inputPoints).toBe(2);
    expect(r.value.warnings.find((w) => w.code === 'since_boot_excluded')?.message).toMatch(
      /^The first report \(line 7\) averages everything since boot: left out\. 2 reports read\./,
    );
  });

  it('a file with only the since-boot report is refused, saying how to run iostat', () => {
    expect(errorOf(parseIostat(head(deviceHeaderLines[1]! - 3)))).toMatchObject({
      code: 'only_since_boot',
      message: expect.stringContaining('iostat -x -t 60 1440'),
    });
  });

  it('two runs concatenated: each run’s first report is left out', () => {
    const one = head(deviceHeaderLines[4]! - 3);
    const r = parseIostat(`${one}\n${one}`);
    // Two identical runs: the same times twice (duplicates), each run's since-boot report dropped.
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.quality.inputPoints).toBe(6);
    expect(r.value.quality.duplicates).toBe(3);
    expect(r.value.warnings.find((w) => w.code === 'since_boot_excluded')?.message).toContain(
      'of each of the 2 runs',
    );
  });

  it('without -t: choice_required for --period; a --period is then the spacing', () => {
    const noT = text('iostat_12.6.1_xk_2s_no_t.txt');
    const r = parseIostat(noT);
    expect(r).toMatchObject({
      ok: false,
      choices: [{ option: 'periodSec', candidates: ['1', '5', '10', '60'] }],
    });
    const s = parseIostat(noT, { periodSec: 2 });
    if (!s.ok) throw new Error(s.error.message);
    expect(s.value.timeMs[1]! - s.value.timeMs[0]!).toBe(2000);
  });
});

describe('iostat -x: bad input names the line and what was expected', () => {
  it('a truncated device row', () => {
    const cut = lines.slice();
    const row = deviceHeaderLines[2]! + 1;
    cut[row] = cut[row]!.slice(0, 60);
    expect(errorOf(parseIostat(cut.join('\n')))).toMatchObject({
      code: 'truncated_report',
      path: `line ${row + 1}`,
      message: expect.stringMatching(
        new RegExp(
          `^line ${row + 1}: expected 22 values for vda under the header of line ${deviceHeaderLines[2]! + 1} \\(r/s rkB/s`,
        ),
      ),
    });
  });

  it('mixed units: a -m report after -k reports', () => {
    const m = text('iostat_12.6.1_xdm_t.txt').split('\n');
    const mixed = [...lines.slice(0, deviceHeaderLines[3]! - 3), ...m.slice(2, 9)].join('\n');
    const e = errorOf(parseIostat(mixed));
    expect(e.code).toBe('mixed_iostat_columns');
    expect(e.message).toMatch(
      /^line \d+: the header differs from line 7's \(rMB\/s wMB\/s dMB\/s instead of rkB\/s wkB\/s dkB\/s\)/,
    );
  });

  it('mixed decimal separators (two locales concatenated)', () => {
    const de = text('iostat_12.6.1_x_t_de_DE.txt').split('\n');
    const mixed = [
      ...lines.slice(0, deviceHeaderLines[3]! - 3),
      ...de.slice(deviceHeaderLines[3]! - 3, deviceHeaderLines[4]! - 3),
    ].join('\n');
    expect(errorOf(parseIostat(mixed))).toMatchObject({
      code: 'mixed_decimal_separators',
      message: expect.stringContaining('LC_NUMERIC'),
    });
  });

  it('a number that is not a number', () => {
    const bad = lines.slice();
    const row = deviceHeaderLines[1]! + 1;
    bad[row] = bad[row]!.replace(/^(vda\s+)\S+/, '$1n/a');
    expect(errorOf(parseIostat(bad.join('\n')))).toMatchObject({
      code: 'bad_value',
      message: `line ${row + 1}, column 2 (r/s): expected a number for r/s, got "n/a"`,
    });
  });

  it('iostat without -x: no per-direction counts', () => {
    const basic = `Linux 6.8.0 (db) \t11/24/26 \t_x86_64_\t(2 CPU)\n\nDevice             tps    kB_read/s    kB_wrtn/s    kB_dscd/s    kB_read    kB_wrtn    kB_dscd\nvda              39.11       383.57       661.16         0.00    1597749     410544          0\n`;
    expect(errorOf(importMetrics(basic))).toMatchObject({
      code: 'not_iostat_x',
      message: expect.stringContaining('this is iostat without -x (or with -s)'),
      path: 'line 3',
    });
  });

  it('iostat -h (human-readable): refused', () => {
    const human = `Device:\n      r/s     rkB/s   %util Device\n     1.00      4.0k   0.0% vda\n`;
    expect(errorOf(parseIostat(human.replace('Device:\n', '')))).toMatchObject({
      code: 'unsupported_iostat',
      path: 'line 1',
    });
  });

  it('iostat -h is recognized by its header (device last) and refused; sysstat JSON is refused', () => {
    const human = `Linux 6.8.0 (db) \t11/24/26 \t_x86_64_\t(2 CPU)\n\n      r/s     rkB/s   %util Device\n     1.00      4.0k   0.0% vda\n`;
    expect(errorOf(importMetrics(human))).toMatchObject({ code: 'unsupported_iostat', path: 'line 3' });
    expect(errorOf(importMetrics('{"sysstat": {"hosts": []}}'))).toMatchObject({
      code: 'unsupported_format',
      message: expect.stringContaining('give the text output instead'),
    });
  });

  it('a report with no devices at all', () => {
    const empty = lines.filter((l) => !l.startsWith('vda') && !l.startsWith('loop1')).join('\n');
    expect(errorOf(parseIostat(empty))).toMatchObject({ code: 'no_devices', path: 'line 7' });
  });

  it('another tool’s output after a sysstat banner (mpstat)', () => {
    const mpstat = `Linux 6.8.0 (db) \t11/24/26 \t_x86_64_\t(2 CPU)\n\n13:44:08     CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle\n13:44:09     all    1.00    0.00    0.50    0.00    0.00    0.00    0.00    0.00    0.00   98.50\n`;
    expect(errorOf(importMetrics(mpstat))).toMatchObject({
      code: 'unsupported_sysstat_report',
      path: 'line 1',
    });
  });

  it('a stray line inside the file', () => {
    const stray = lines.slice();
    stray.splice(2, 0, 'hello from a shell prompt');
    expect(errorOf(parseIostat(stray.join('\n')))).toMatchObject({
      code: 'bad_iostat',
      path: 'line 3',
      message: expect.stringContaining('got "hello from a shell prompt"'),
    });
  });
});

describe('iostat -x: dates', () => {
  it('slash dates with both parts ≤ 12 are read month-first, with a warning', () => {
    const ambiguous = C.replaceAll('11/24/26', '05/11/26');
    const r = parseIostat(ambiguous);
    if (!r.ok) throw new Error(r.error.message);
    expect(new Date(r.value.timeMs[0]!).toISOString()).toBe('2026-05-11T13:46:00.000Z');
    expect(r.value.warnings.map((w) => w.code)).toContain('date_order_assumed');
  });

  it('a day above 12 makes the order day-first (en_GB, fr_FR)', () => {
    const r = parseIostat(C.replaceAll('11/24/26', '24/11/26'));
    if (!r.ok) throw new Error(r.error.message);
    expect(new Date(r.value.timeMs[0]!).toISOString()).toBe('2026-11-24T13:46:00.000Z');
    expect(r.value.warnings.map((w) => w.code)).not.toContain('date_order_assumed');
  });

  it('times are read in --timezone when given (iostat writes local time without an offset)', () => {
    const r = parseIostat(C, { timeZone: 'Europe/Berlin' });
    if (!r.ok) throw new Error(r.error.message);
    expect(new Date(r.value.timeMs[0]!).toISOString()).toBe('2026-11-24T12:46:00.000Z');
    expect(r.value.quality.naiveTimesAs).toBe('Europe/Berlin');
  });
});
