import {
  Gp3GenerationSchema,
  VOLUME_TYPES,
  VolumeTypeSchema,
  applyRateOverrides,
  parseGiB,
  parseSeconds,
  parseThroughput,
  type Gp3Generation,
  type Problem,
  type RateCard,
  type VolumeType,
} from '@blockwise/shared';
import { listPriceRegions, rateCardFor } from '@blockwise/shared/catalog';
import { UsageError } from './io.ts';

/** Flag values arrive as strings; these turn them into numbers with units, or a UsageError naming the flag. */

export function requireFlag<T>(value: T | undefined, flag: string, expected: string): T {
  if (value === undefined) throw new UsageError(`${flag} is required (${expected})`, flag);
  return value;
}

/** A count such as 16000, 16,000 or 16k (k = 1,000: IOPS are decimal). */
export function parseCount(
  text: string,
  flag: string,
  { min = 0, max = Number.MAX_SAFE_INTEGER } = {},
): number {
  const m = /^\s*(\d+(?:[.,]\d+)*)\s*(k)?\s*$/i.exec(text);
  const value = m ? Number(m[1]!.replace(/,(?=\d{3}\b)/g, '')) * (m[2] ? 1000 : 1) : NaN;
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new UsageError(
      `${flag}: expected a number${min > 0 || max < Number.MAX_SAFE_INTEGER ? ` from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}` : ''}, got "${text}"`,
      flag,
    );
  }
  return value;
}

export function parseFraction(text: string, flag: string, { min = 0, max = 10 } = {}): number {
  const pct = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(text);
  const value = pct ? Number(pct[1]) / 100 : Number(text);
  if (!/^\s*\d+(\.\d+)?\s*%?\s*$/.test(text) || !Number.isFinite(value) || value < min || value > max) {
    throw new UsageError(
      `${flag}: expected a fraction from ${min} to ${max} (0.25 or 25%), got "${text}"`,
      flag,
    );
  }
  return value;
}

export function parseSizeFlag(text: string, flag = '--size'): number {
  const r = parseGiB(text);
  if (!r.ok || r.value <= 0)
    throw new UsageError(`${flag}: expected ${r.ok ? 'a size above 0' : r.expected}, got "${text}"`, flag);
  return r.value;
}

/** Volume throughput: bare numbers are MiB/s (the EBS unit); any unit accepted (500MiB/s, 4000Mbps). */
export function parseThroughputMiBps(text: string, flag: string): number {
  const r = parseThroughput(text, 'MiB/s');
  if (!r.ok) throw new UsageError(`${flag}: expected ${r.expected}, got "${text}"`, flag);
  return r.value / (1024 * 1024);
}

/** Observed rates: bare numbers are rejected (bytes? MB? Mbps?) — the unit must be said. */
export function parseRateBytesPerSec(text: string, flag: string): number {
  const r = parseThroughput(text);
  if (!r.ok) throw new UsageError(`${flag}: expected ${r.expected}, got "${text}"`, flag);
  return r.value;
}

export function parseDurationFlag(text: string, flag: string): number {
  const r = parseSeconds(text);
  if (!r.ok) throw new UsageError(`${flag}: expected ${r.expected}, got "${text}"`, flag);
  return r.value;
}

export function parseVolumeType(text: string, flag = '--type'): VolumeType {
  const r = VolumeTypeSchema.safeParse(text.trim().toLowerCase());
  if (!r.success)
    throw new UsageError(`${flag}: expected one of ${VOLUME_TYPES.join(', ')}, got "${text}"`, flag);
  return r.data;
}

export function parseGp3Generation(text: string | undefined): Gp3Generation {
  if (text === undefined) return 'current';
  const r = Gp3GenerationSchema.safeParse(text);
  if (!r.success)
    throw new UsageError(`--gp3-limits: expected current or before-2025, got "${text}"`, '--gp3-limits');
  return r.data;
}

/** The rate card from --region (default us-east-1) with --rates overrides applied. */
export function resolveRateCard(
  region: string | undefined,
  rates: string | undefined,
  type?: VolumeType,
): RateCard {
  const code = region ?? 'us-east-1';
  const card = rateCardFor(code);
  if (!card) {
    const known = listPriceRegions()
      .filter((r) => r.complete && r.zoneType === 'region')
      .map((r) => r.code);
    throw new UsageError(
      `--region: no complete EBS price table for "${code}"; regions with one: ${known.join(', ')}`,
      '--region',
    );
  }
  if (rates === undefined) return card;
  const r = applyRateOverrides(card, rates, type);
  if (!r.ok) throw new UsageError(`--rates: ${r.error.message}`, '--rates');
  return r.value;
}

const VOLUME_FIELD_FLAGS: Record<string, string> = {
  sizeGiB: '--size',
  iops: '--iops',
  throughputMiBps: '--throughput',
  count: '--count',
};

/** Volume validation problems, phrased for the command line (flag names instead of field names). */
export function volumeUsageError(problems: Problem[]): UsageError {
  const lines = problems.map((p) => `${VOLUME_FIELD_FLAGS[p.path ?? ''] ?? p.path}: ${p.message}`);
  return new UsageError(lines.join('\n'), VOLUME_FIELD_FLAGS[problems[0]?.path ?? '']);
}
