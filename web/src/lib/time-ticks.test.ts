import { describe, expect, it } from 'vitest';
import { formatTimeTick, timeTickPrecision } from './time-ticks.ts';

const at = (iso: string) => Date.parse(iso);

describe('timeTickPrecision', () => {
  it.each([
    // A nightly series: days apart, minutes are plenty.
    ['nightly runs', ['2026-02-08T02:00:05Z', '2026-02-09T02:00:41Z', '2026-02-10T02:01:12Z'], 'minute'],
    // A CI matrix: four uploads within 40 seconds; minute ticks would all read 14:03.
    [
      'a CI matrix in one minute',
      ['2026-02-10T14:03:02Z', '2026-02-10T14:03:14Z', '2026-02-10T14:03:29Z', '2026-02-10T14:03:41Z'],
      'second',
    ],
    // Hours apart overall, but a retry landed in the same minute as its first attempt.
    [
      'a retry in the same minute',
      ['2026-02-10T09:00:10Z', '2026-02-10T09:00:50Z', '2026-02-10T15:30:00Z'],
      'second',
    ],
    // Three minutes over five ticks: neighbouring ticks 45 s apart would repeat a minute.
    ['three minutes in all', ['2026-02-10T14:00:00Z', '2026-02-10T14:03:00Z'], 'second'],
    ['one run', ['2026-02-10T14:03:02Z'], 'minute'],
  ] as const)('%s → %s', (_what, times, expected) => {
    expect(timeTickPrecision(times.map(at))).toBe(expected);
  });

  it('distinct tick labels at the chosen precision for runs in one minute', () => {
    const times = ['2026-02-10T14:03:02Z', '2026-02-10T14:03:29Z', '2026-02-10T14:03:41Z'].map(at);
    const labels = times.map((t) => formatTimeTick(t, timeTickPrecision(times)));
    expect(new Set(labels).size).toBe(3);
    expect(labels[0]).toContain('14:03:02');
  });
});
