import { z } from 'zod';
import type { Result } from '../problem.ts';
import { fail, ok } from '../problem.ts';
import {
  formatBytes,
  THROUGHPUT_UNIT_NAMES,
  averageBlockSize,
  bytesPerSec,
  iops,
  toBytesPerSec,
  type ThroughputUnit,
} from '../units.ts';
import { AccessPatternSchema, type DirectionLoad, type IoProfile } from './io-profile.schema.ts';

/**
 * Numbers typed in from a monitoring dashboard (CloudWatch, Grafana, Datadog): peak read/write
 * IOPS and throughput in any unit, optionally latency percentiles. Peak, not average: provision
 * for the peak plus headroom (docs/domain.md §2).
 */
const ThroughputUnitSchema = z.enum(THROUGHPUT_UNIT_NAMES as [ThroughputUnit, ...ThroughputUnit[]]);

const PercentileKeySchema = z
  .string()
  .regex(/^(100|[1-9]?\d(\.\d+)?)$/, 'a percentile such as 50, 99 or 99.9');
const LatencyInputSchema = z
  .record(PercentileKeySchema, z.number().nonnegative().finite().max(3_600_000))
  .refine((r) => Object.keys(r).length <= 20, 'at most 20 percentiles');

const DirectionInputSchema = z.object({
  iops: z.number().nonnegative().finite().max(1e8),
  throughput: z.number().nonnegative().finite().max(1e15),
  throughputUnit: ThroughputUnitSchema,
  /** Optional latency percentiles in ms. */
  latencyMs: LatencyInputSchema.optional(),
});

export const ObservedMetricsSchema = z.object({
  label: z.string().max(200).optional(),
  read: DirectionInputSchema,
  write: DirectionInputSchema,
  /** How the I/O lands on the device, if the user knows; absent = random assumed (and said). */
  access: AccessPatternSchema.optional(),
});
export type ObservedMetrics = z.infer<typeof ObservedMetricsSchema>;

function toDirection(input: z.infer<typeof DirectionInputSchema>): DirectionLoad {
  const rate = toBytesPerSec(input.throughput, input.throughputUnit);
  const ops = iops(input.iops);
  const percentiles = input.latencyMs ? normalizePercentileKeys(input.latencyMs) : null;
  return {
    iops: ops,
    bytesPerSec: rate,
    blockSizeBytes: averageBlockSize(bytesPerSec(rate), ops),
    latency:
      percentiles && Object.keys(percentiles).length > 0
        ? { percentiles, approximate: false, meanMs: null }
        : null,
  };
}

/** "99.90" → "99.9", "50.0" → "50": the same keys fio-derived profiles use. */
function normalizePercentileKeys(input: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(input)) out[String(Number(key))] = value;
  return out;
}

/**
 * Validates typed-in metrics (unknown input: a form, a URL, a CLI) and turns them into a profile.
 * Errors name the field: `read.throughputUnit: expected one of B/s, KiB/s, …`.
 */
export function profileFromObserved(input: unknown): Result<IoProfile> {
  const parsed = ObservedMetricsSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.join('.');
    return fail('metrics_invalid', `${path || 'input'}: ${issue.message}`, path || undefined);
  }
  const { label, read, write, access } = parsed.data;
  const profile: IoProfile = {
    source: 'observed',
    label: label ?? null,
    read: toDirection(read),
    write: toDirection(write),
    durationSec: null,
    benchmark: null,
    warnings: [],
    ...(access ? { access: { read: access, write: access, origin: 'stated' as const } } : {}),
  };
  for (const [name, d] of [
    ['read', profile.read],
    ['write', profile.write],
  ] as const) {
    if (d.iops === 0 && d.bytesPerSec > 0) {
      return fail(
        'metrics_invalid',
        `${name}.iops: throughput without any IOPS cannot be right (expected IOPS > 0)`,
        `${name}.iops`,
      );
    }
    if (d.blockSizeBytes !== null && d.blockSizeBytes > 16 * 1024 * 1024) {
      profile.warnings.push({
        code: 'implausible_block_size',
        message: `${name}: ${formatBytes(d.blockSizeBytes)} per I/O is implausible — check the throughput unit (MB/s vs Mbps) and that IOPS are per second, not per period`,
        subject: `${name}.throughput`,
      });
    }
  }
  return ok(profile);
}
