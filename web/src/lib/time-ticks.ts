/**
 * Labels for a UTC time axis. Minutes are enough for runs hours apart, but CI often uploads
 * several runs within one minute (a matrix of jobs, a retry): every tick then read "10 Feb 14:03".
 * The precision is chosen from the timestamps: seconds as soon as two runs, or two neighbouring
 * ticks, would share a minute.
 */

export type TimeTickPrecision = 'minute' | 'second';

const MINUTE_MS = 60_000;

/** The coarsest precision at which no two runs and no two of ~`tickCount` evenly spaced ticks print alike. */
export function timeTickPrecision(timesMs: readonly number[], tickCount = 5): TimeTickPrecision {
  const times = [...new Set(timesMs.filter(Number.isFinite))].sort((a, b) => a - b);
  if (times.length < 2) return 'minute';
  const span = times[times.length - 1]! - times[0]!;
  if (span / Math.max(1, tickCount - 1) < MINUTE_MS) return 'second';
  for (let i = 1; i < times.length; i++) {
    if (Math.floor(times[i]! / MINUTE_MS) === Math.floor(times[i - 1]! / MINUTE_MS)) return 'second';
  }
  return 'minute';
}

const FORMATS: Record<TimeTickPrecision, Intl.DateTimeFormat> = {
  minute: new Intl.DateTimeFormat('en-GB', {
    timeZone: 'UTC',
    day: '2-digit',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  }),
  second: new Intl.DateTimeFormat('en-GB', {
    timeZone: 'UTC',
    day: '2-digit',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }),
};

/** A tick label at the given precision, UTC: "10 Feb, 14:03" or "10 Feb, 14:03:27". */
export function formatTimeTick(t: number, precision: TimeTickPrecision): string {
  return FORMATS[precision].format(t);
}
