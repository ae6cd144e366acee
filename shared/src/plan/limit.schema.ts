import { z } from 'zod';
import type { VolumeConfig } from './volume.ts';

/**
 * The record of one ceiling (its own module so that limits.ts and sustainability.ts, which judge
 * each other's results, both import it instead of each other).
 */
export const LIMIT_IDS = [
  'volume-iops',
  'volume-throughput',
  'instance-iops',
  'instance-bandwidth',
  'volume-iops-burst',
  'volume-throughput-burst',
  'instance-iops-burst',
  'instance-bandwidth-burst',
  'nvme-read-iops',
  'nvme-write-iops',
] as const;
export const LimitIdSchema = z.enum(LIMIT_IDS);
export type LimitId = z.infer<typeof LimitIdSchema>;

export const LimitSchema = z.object({
  id: LimitIdSchema,
  label: z.string(),
  scope: z.enum(['volume', 'instance', 'instance-store']),
  /** Sustained ceilings can bind indefinitely; burst ceilings only while credits or the daily window last. */
  sustained: z.boolean(),
  /** Throughput limits are all in MiB/s so they compare; `native` keeps the unit AWS quotes. */
  unit: z.enum(['IOPS', 'MiB/s']),
  capacity: z.number(),
  demand: z.number(),
  /** demand ÷ capacity (1 = 100%). */
  utilization: z.number(),
  native: z.object({ capacity: z.number(), unit: z.string() }).nullable(),
  explanation: z.string(),
  /**
   * IOPS limits only: the demand with every I/O counted on its own, when merging contiguous I/O
   * made `demand` smaller (merging is best effort: this is the worst case). Absent otherwise.
   */
  demandUnmerged: z.number().optional(),
});
export type Limit = z.infer<typeof LimitSchema>;

export type LimitTarget = { kind: 'ebs'; volume: VolumeConfig } | { kind: 'nvme' };
