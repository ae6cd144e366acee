import {
  Gp3GenerationSchema,
  VOLUME_TYPES,
  VolumeTypeSchema,
  applyRateOverrides,
  missingComponents,
  pricedRateCard,
  provisionableGp3ThroughputMiBps,
  type Gp3Generation,
  type RateCard,
  type RegionRateCard,
  type VolumeType,
} from '@blockwise/shared/aws';
import { type Problem } from '@blockwise/shared/problem';
import {
  bytesPerSecToMiBps,
  formatDecimal,
  isBinaryThroughputUnit,
  parseGiB,
  parseSeconds,
  parseThroughput,
  parseThroughputAndUnit,
} from '@blockwise/shared/units';
import { listPriceRegions, regionRateCardFor } from '@blockwise/shared/catalog';
import { UsageError, type CliIo } from './io.ts';

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

/**
 * Provisioned gp3 throughput in whole MiB/s (the EC2 API's unit and granularity). A bare number is
 * MiB/s; KiB/s, MiB/s and GiB/s are accepted, and a fraction of a MiB/s is rounded up, with a note
 * on `io.stderr` when given. Decimal units (125MB/s, 1000Mbps) never land on a whole MiB/s, so they
 * are refused with the conversion and a whole value to give instead.
 */
export function parseThroughputMiBps(text: string, flag: string, io?: Pick<CliIo, 'stderr'>): number {
  const r = parseThroughputAndUnit(text, 'MiB/s');
  if (!r.ok) throw new UsageError(`${flag}: expected ${r.expected}, got "${text}"`, flag);
  const miBps = bytesPerSecToMiBps(r.value.bytesPerSec);
  const whole = provisionableGp3ThroughputMiBps(miBps);
  if (!isBinaryThroughputUnit(r.value.unit)) {
    throw new UsageError(
      `${flag}: gp3 throughput is provisioned in MiB/s (${r.value.amount}${r.value.unit} = ${formatDecimal(miBps, 1)} MiB/s): give e.g. ${whole}MiB/s`,
      flag,
    );
  }
  if (whole !== miBps) {
    io?.stderr(
      `note: ${flag} ${formatDecimal(miBps, 3)} MiB/s rounded up to ${whole} MiB/s (gp3 throughput is provisioned in whole MiB/s)\n`,
    );
  }
  return whole;
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

/**
 * How long a volume lives, for `cost --hours`: a bare number is hours (0.2 = 12 minutes); a
 * duration with its unit (720s, 12m, 2h) is taken as written. Returns seconds.
 */
export function parseHoursFlag(text: string, flag: string): number {
  const bare = /^\s*\d+(?:\.\d+)?\s*$/.test(text);
  const r = bare ? { ok: true as const, value: Number(text) * 3600 } : parseSeconds(text);
  if (!r.ok || !(r.value > 0))
    throw new UsageError(
      `${flag}: expected hours (0.2) or a duration such as 720s, 12m or 2h, above 0; got "${text}"`,
      flag,
    );
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

/**
 * The prices of --region (default us-east-1) with --rates overrides applied, null where the
 * catalog has none (sa-east-1 has no io2 price): the other types can still be costed. Refused only
 * when the region is unknown or priced for no type at all.
 */
export function resolveRegionRateCard(
  region: string | undefined,
  rates: string | undefined,
  type?: VolumeType,
): RegionRateCard {
  const code = region ?? 'us-east-1';
  const card = regionRateCardFor(code);
  if (!card) {
    const known = listPriceRegions()
      .filter((r) => r.complete && r.zoneType === 'region')
      .map((r) => r.code);
    throw new UsageError(
      `--region: no EBS price table for "${code}"; regions with every price: ${known.join(', ')}`,
      '--region',
    );
  }
  if (rates === undefined) return card;
  const r = applyRateOverrides(card, rates, type);
  if (!r.ok) throw new UsageError(`--rates: ${r.error.message}`, '--rates');
  return r.value;
}

/** The card narrowed to `type`; exit 2 naming the region and the missing price, with how to supply it. */
function requirePriced(card: RegionRateCard, type: VolumeType): RateCard {
  const priced = pricedRateCard(card, type);
  if (priced.ok) return priced.value;
  const keys = missingComponents(card, type);
  throw new UsageError(
    `--region: ${priced.error.message}; give it with --rates ${keys.map((k) => `${type}.${k}=…`).join(',')}, or choose another region`,
    '--region',
  );
}

/** The card for costing one volume of `type`: refused (exit 2) when the region has no price for it. */
export function resolveRateCardFor(
  region: string | undefined,
  rates: string | undefined,
  type: VolumeType,
): RateCard {
  return requirePriced(resolveRegionRateCard(region, rates, type), type);
}

/**
 * The card for planning (`blockwise plan`): every type the region prices is costed, and the
 * planner marks a type it has no price for as unpriced (right-sizing checks each type with
 * `priceAvailable`). The measured volume's own `type`, when given, must be priced: its cost is
 * reported as is.
 */
export function resolveRateCard(
  region: string | undefined,
  rates: string | undefined,
  type?: VolumeType,
): RegionRateCard {
  const card = resolveRegionRateCard(region, rates, type);
  if (type !== undefined) requirePriced(card, type);
  return card;
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
