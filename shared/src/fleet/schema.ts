import type { Audience } from '../audience.ts';
import { z } from 'zod';
import type { InstanceSpec } from '../aws/instance-spec.ts';
import type { RegionRateCard } from '../aws/rate-card.ts';

/** A volume as the planner sees it, from describe-volumes (normalized once, at the edge). */
export const FleetVolumeSchema = z.object({
  volumeId: z.string(),
  /** As AWS names it; `standard` (magnetic) is listed but not right-sized. */
  type: z.string(),
  sizeGib: z.number().int().positive(),
  /** Provisioned IOPS (gp3, io1, io2); gp2's baseline is derived from its size; null when none. */
  iops: z.number().nullable(),
  /** gp3 only, MiB/s; null otherwise. */
  throughputMibps: z.number().nullable(),
  state: z.string(),
  availabilityZone: z.string().nullable(),
  /** The attached instance (the first attachment; multi-attach io volumes list the rest in `alsoAttachedTo`). */
  instanceId: z.string().nullable(),
  alsoAttachedTo: z.array(z.string()),
  name: z.string().nullable(),
});
export type FleetVolume = z.infer<typeof FleetVolumeSchema>;

export const FleetInstanceSchema = z.object({
  instanceId: z.string(),
  instanceType: z.string(),
  state: z.string(),
});
export type FleetInstance = z.infer<typeof FleetInstanceSchema>;

/** The Sum metrics every volume is queried for (per-period totals: rate = Sum ÷ period). */
export const SUM_METRIC_NAMES = [
  'VolumeReadOps',
  'VolumeWriteOps',
  'VolumeReadBytes',
  'VolumeWriteBytes',
] as const;
/**
 * The per-minute averages EBS publishes for volumes on Nitro instances, queried with Stat Maximum:
 * the busiest minute of each period, read + write together, already per second (docs/domain.md
 * "Demand" cites AWS). Queried with their Unit, so a unit other than the one assumed returns no
 * data instead of a wrong number.
 */
export const MINUTE_METRIC_NAMES = ['VolumeAvgIOPS', 'VolumeAvgThroughput'] as const;
export const MINUTE_METRIC_UNITS = {
  VolumeAvgIOPS: 'Count/Second',
  VolumeAvgThroughput: 'Bytes/Second',
} as const;
export const METRIC_NAMES = [...SUM_METRIC_NAMES, ...MINUTE_METRIC_NAMES] as const;
export type MetricName = (typeof METRIC_NAMES)[number];
/**
 * AWS's own evidence of throttling, latency and burst credits (issue 28; docs/metrics-inputs.md
 * cites each): per volume in AWS/EBS, per attached instance in AWS/EC2. Read beside the Sums, never
 * into the sizing statistics (fleet/evidence.ts).
 */
export const VOLUME_EVIDENCE_METRICS = [
  'VolumeIOPSExceededCheck',
  'VolumeThroughputExceededCheck',
  'VolumeStalledIOCheck',
  'VolumeAvgReadLatency',
  'VolumeAvgWriteLatency',
  'BurstBalance',
] as const;
export const INSTANCE_EVIDENCE_METRICS = [
  'InstanceEBSIOPSExceededCheck',
  'InstanceEBSThroughputExceededCheck',
  'EBSIOBalance%',
  'EBSByteBalance%',
] as const;
export type EvidenceMetricName =
  (typeof VOLUME_EVIDENCE_METRICS)[number] | (typeof INSTANCE_EVIDENCE_METRICS)[number];
/** `none`: the six sizing metrics only; `checks`: + the 0/1 exceeded and stalled checks; `all`: + latency and balances. */
export const EvidenceLevelSchema = z.enum(['none', 'checks', 'all']);
export type EvidenceLevel = z.infer<typeof EvidenceLevelSchema>;
export const FleetStatisticSchema = z.enum(['max', 'p99', 'p95']);
export type FleetStatistic = z.infer<typeof FleetStatisticSchema>;

/**
 * The planning options' defaults, one place for the CLI, the HTTP API and the web page: 25 %
 * headroom over the peak, the maximum (as AWS Compute Optimizer), and us-east-1's prices (the
 * catalog's DEFAULT_REGION; a test keeps the two equal without importing the catalog here).
 */
export const FLEET_DEFAULTS = {
  headroom: 0.25,
  statistic: 'max',
  region: 'us-east-1',
} as const satisfies { headroom: number; statistic: FleetStatistic; region: string };

/** Headroom accepted: 0 (the peak itself) to 10 (11 × the peak), as a fraction. */
export const FLEET_HEADROOM_BOUNDS = { min: 0, max: 10 } as const;
export const FleetHeadroomSchema = z.number().min(FLEET_HEADROOM_BOUNDS.min).max(FLEET_HEADROOM_BOUNDS.max);

/** One --metric-data-queries entry (CloudWatch MetricDataQuery). */
export const MetricDataQuerySchema = z.object({
  Id: z.string(),
  Label: z.string(),
  MetricStat: z.object({
    Metric: z.object({
      Namespace: z.enum(['AWS/EBS', 'AWS/EC2']),
      MetricName: z.enum([...METRIC_NAMES, ...VOLUME_EVIDENCE_METRICS, ...INSTANCE_EVIDENCE_METRICS]),
      Dimensions: z.array(z.object({ Name: z.enum(['VolumeId', 'InstanceId']), Value: z.string() })),
    }),
    Period: z.number().int().positive(),
    Stat: z.enum(['Sum', 'Maximum', 'Minimum']),
    Unit: z.enum(['Count/Second', 'Bytes/Second']).optional(),
  }),
  ReturnData: z.literal(true),
});
export type MetricDataQuery = z.infer<typeof MetricDataQuerySchema>;

export type MetricQueryBatch = {
  /** 1-based. */
  index: number;
  /** The --metric-data-queries JSON (at most 500 entries: AWS's limit per request). */
  queries: MetricDataQuery[];
  /** File name the CLI writes the batch to with --out, and the command refers to. */
  fileName: string;
  /** The exact aws cli line for this batch. */
  command: string;
};

/** A configuration (current or recommended) of one volume. */
export const FleetConfigSchema = z.object({
  type: z.string(),
  sizeGib: z.number(),
  /** Provisioned IOPS, or what the type delivers at that size (gp2: 3/GiB baseline); null when not applicable. */
  iops: z.number().nullable(),
  throughputMibps: z.number().nullable(),
  /** null when the rate card has no price for the type. */
  usdPerMonth: z.number().nullable(),
});
export type FleetConfig = z.infer<typeof FleetConfigSchema>;

export const FleetObservedSchema = z.object({
  /** Per-second rates: Sum per period ÷ period seconds, then the statistic over the points. */
  readIops: z.number(),
  writeIops: z.number(),
  readMibps: z.number(),
  writeMibps: z.number(),
  /** Points of the metric with the most points. */
  points: z.number().int(),
  /**
   * The Period of this volume's points, seconds, taken from the spacing of their timestamps (or the
   * Period given, or the fleet's most common): the rates are Sum ÷ this.
   */
  periodSeconds: z.number().int().positive(),
  /** History covered: (last − first timestamp + period) in days. */
  days: z.number(),
  /** false when a percentile could only be bounded from above (see docs/fleet.md). */
  exact: z.boolean(),
  /**
   * Read + write at the finest evidence (demand model): the busiest minute from VolumeAvgIOPS /
   * VolumeAvgThroughput Maximum where the volume has them, else the Sums' readIops + writeIops.
   * Recurring peaks the statistic would drop are kept (unless --ignore-recurring). Optional:
   * plans stored before the demand model (2026-11) have only the four rates.
   */
  peakIops: z.number().optional(),
  peakMibps: z.number().optional(),
  /** Seconds each point of that evidence covers: 60 for the per-minute metrics, else the period. */
  resolutionSeconds: z.number().int().positive().optional(),
  /** Which CloudWatch data the peak is from, in words. */
  source: z.string().optional(),
});
export type FleetObserved = z.infer<typeof FleetObservedSchema>;

export const FleetVolumeStatusSchema = z.enum([
  'over',
  'under',
  'ok',
  'no_data',
  'too_little_history',
  'unattached',
  'stopped_instance',
]);
export type FleetVolumeStatus = z.infer<typeof FleetVolumeStatusSchema>;

export const FleetBindingSchema = z.object({
  /** volume-iops | volume-throughput | instance-iops | instance-throughput | none */
  id: z.enum(['volume-iops', 'volume-throughput', 'instance-iops', 'instance-throughput', 'none']),
  explanation: z.string(),
});
export type FleetBinding = z.infer<typeof FleetBindingSchema>;

/**
 * A cheaper volume type that also meets the target, listed beside the recommendation with what it
 * gives up (plan/alternatives.ts): io1/io2 → gp3.
 */
export const FleetAlternativeSchema = z.object({
  config: FleetConfigSchema,
  /** current − this, USD per month. */
  savingUsdPerMonth: z.number().nullable(),
  /** What the move gives up, in plain words, with the durability and latency AWS publishes. */
  trade: z.string(),
  modify: z.string(),
});
export type FleetAlternative = z.infer<typeof FleetAlternativeSchema>;

/** An instance whose caps bind a volume's target (item: never below what is delivered, silently). */
export const FleetInstanceFlagSchema = z.object({
  instanceType: z.string(),
  /** Why: the observed peak rode the instance's burst above its baseline, or the target exceeds it. */
  reason: z.string(),
  /** The cheapest instance whose baseline carries the target; null when none is found. */
  sustainedBy: z.string().nullable(),
  /** What capping at the instance baseline instead would give up. */
  cappingGivesUp: z.string(),
});
export type FleetInstanceFlag = z.infer<typeof FleetInstanceFlagSchema>;

/** Minutes a 0/1 check fired (Sum of its per-minute points): null when CloudWatch returned none ("no data", never 0). */
const MinutesSchema = z.number().nonnegative().nullable();

/** Per UTC day, minutes a check fired (the larger of the IOPS and throughput checks that day). */
const DayMinutesSchema = z.object({ date: z.string(), minutes: z.number().nonnegative() });

/** Measured average latency of one direction (VolumeAvgRead/WriteLatency, Stat Maximum per period, minutes without I/O left out). */
const LatencySchema = z.object({
  /** Mean of the per-period maxima of the per-minute averages, over the periods with I/O, ms. */
  typicalMs: z.number(),
  /** The worst minute's average, ms. */
  maxMs: z.number(),
  /** Periods with I/O (a 0 is a minute without I/O: left out). */
  points: z.number().int(),
});

/** AWS's own evidence for one volume (fleet/evidence.ts; absent when no evidence metric was read). */
export const FleetVolumeEvidenceSchema = z.object({
  iopsExceededMinutes: MinutesSchema,
  throughputExceededMinutes: MinutesSchema,
  stalledMinutes: MinutesSchema,
  /** The larger of the two exceeded checks' minutes (a lower bound of the minutes either fired when both did); null: no data. */
  throttledMinutes: MinutesSchema,
  /** Per UTC day with a throttled minute; null when the points' times could not be placed. */
  throttledDays: z.array(DayMinutesSchema).nullable(),
  /** The attached instance's InstanceEBS{IOPS,Throughput}ExceededCheck minutes (larger of the two); null: no data. */
  instanceThrottledMinutes: MinutesSchema,
  readLatency: LatencySchema.nullable(),
  writeLatency: LatencySchema.nullable(),
  /** What the volume type promises (aws/volume-types descriptors), and its bound in ms (null: AWS states none). */
  latencyPromise: z.object({ text: z.string(), maxMs: z.number().nullable() }).nullable(),
  /** BurstBalance (gp2/st1/sc1), percent: the lowest point, and the UTC days it reached 0; null: no data. */
  burstBalanceMinPct: z.number().nullable(),
  burstEmptyDays: z.number().int().nullable(),
  /** `confirmed` / `contradicted`: what the checks say of the model's binding limit; `none`: no check fired; `no-data`. */
  bindingCheck: z.enum(['confirmed', 'contradicted', 'none', 'no-data']),
  /** The model's binding limit before the checks overrode it (only when contradicted). */
  modelBinding: z.string().nullable(),
  /** The evidence in plain words, one line each. */
  findings: z.array(z.string()),
});
export type FleetVolumeEvidence = z.infer<typeof FleetVolumeEvidenceSchema>;

/** AWS's own evidence for one instance (AWS/EC2). */
export const FleetInstanceEvidenceSchema = z.object({
  iopsExceededMinutes: MinutesSchema,
  throughputExceededMinutes: MinutesSchema,
  throttledDays: z.array(DayMinutesSchema).nullable(),
  /** EBSIOBalance% / EBSByteBalance% minimum, percent; null: no data (instances that do not burst have none). */
  ioBalanceMinPct: z.number().nullable(),
  byteBalanceMinPct: z.number().nullable(),
  /** UTC days either balance reached 0. */
  balanceEmptyDays: z.number().int().nullable(),
  findings: z.array(z.string()),
});
export type FleetInstanceEvidence = z.infer<typeof FleetInstanceEvidenceSchema>;

/**
 * One instance: its volumes' rates summed point by point (concurrent.ts, instances.ts) against its
 * EBS caps (DescribeInstanceTypes EbsOptimizedInfo: baseline sustained, maximum 30 minutes a day).
 */
export const FleetInstanceRowSchema = z.object({
  instanceId: z.string(),
  instanceType: z.string().nullable(),
  volumeIds: z.array(z.string()),
  /** Multi-Attach volumes counted in full here (CloudWatch reports the volume's total, not this attachment's). */
  multiAttachVolumeIds: z.array(z.string()),
  /**
   * `time-aligned`: summed point by point; `single-volume`: the volume's own statistic;
   * `summed-peaks`: some volume's points could not be placed in time, its peak was added (an upper bound).
   */
  method: z.enum(['time-aligned', 'single-volume', 'summed-peaks']),
  /** Per-second, both directions, the busiest point of the sum. */
  peakIops: z.number(),
  peakMibps: z.number(),
  /** ISO 8601, UTC; null when not time-aligned. */
  peakAt: z.string().nullable(),
  periodSeconds: z.number().nullable(),
  baselineIops: z.number().nullable(),
  baselineMibps: z.number().nullable(),
  maximumIops: z.number().nullable(),
  maximumMibps: z.number().nullable(),
  /** The worst UTC day's minutes above the baseline (IOPS or MiB/s), whole periods; null when unknown. */
  minutesAboveBaselinePerDay: z.number().nullable(),
  /** Days with any minute above the baseline, of `days` covered. */
  daysAboveBaseline: z.number().nullable(),
  days: z.number().nullable(),
  /** `not-needed`: within the baseline; `carried`: above it ≤ 30 min a day and within the maximum; `exceeds`; `unknown`. */
  burst: z.enum(['not-needed', 'carried', 'exceeds', 'unknown']),
  /** (baseline − peak) ÷ baseline, %: negative when the peak is above the baseline. */
  headroomPct: z.object({ iops: z.number(), mibps: z.number() }).nullable(),
  /** peak × (1 + headroom). */
  target: z.object({ iops: z.number(), throughputMibps: z.number() }),
  /** The cheapest instance whose baseline carries the target (null: this one does, or none found). */
  sustainedBy: z
    .object({
      instanceType: z.string(),
      baselineIops: z.number(),
      baselineMibps: z.number(),
      usdPerMonthUsEast1: z.number().nullable(),
    })
    .nullable(),
  verdict: z.string(),
  /** AWS/EC2's exceeded checks and EBS balances for this instance (absent when none was read). */
  evidence: FleetInstanceEvidenceSchema.optional(),
});
export type FleetInstanceRow = z.infer<typeof FleetInstanceRowSchema>;

export const FleetVolumePlanSchema = z.object({
  volumeId: z.string(),
  name: z.string().nullable(),
  instanceId: z.string().nullable(),
  instanceType: z.string().nullable(),
  status: FleetVolumeStatusSchema,
  current: FleetConfigSchema,
  observed: FleetObservedSchema.nullable(),
  /** peak × (1 + headroom), per second, both directions together. */
  target: z.object({ iops: z.number(), throughputMibps: z.number() }).nullable(),
  binding: FleetBindingSchema.nullable(),
  recommended: FleetConfigSchema.nullable(),
  /** current − recommended, USD per month (negative: the fix costs more). */
  savingUsdPerMonth: z.number(),
  /** Under-provisioned: by how much the target exceeds what the volume (and instance) deliver. */
  risk: z.string().nullable(),
  commands: z.object({
    modify: z.array(z.string()),
    rollback: z.array(z.string()),
    terraform: z.string(),
  }),
  notes: z.array(z.string()),
  /** Cheaper types that also meet the target, with their trade (absent in plans stored before 2026-11-28). */
  alternatives: z.array(FleetAlternativeSchema).optional(),
  /** The instance binds the target: keep the volume at it and change the instance, or cap and throttle. */
  instanceFlag: FleetInstanceFlagSchema.nullable().optional(),
  /** Demand pinned at the volume's limit (demand/censoring.ts): at least the limit, unknown above. */
  censored: z.boolean().optional(),
  /** The volume's data is incomplete (a page left out, PartialData): the plan for it is too. */
  incomplete: z.boolean().optional(),
  /** AWS's exceeded checks, latency and burst balance (absent when none was read; plans before issue 28). */
  evidence: FleetVolumeEvidenceSchema.optional(),
});
export type FleetVolumePlan = z.infer<typeof FleetVolumePlanSchema>;

const TotalsRowSchema = z.object({
  volumes: z.number().int(),
  currentUsdPerMonth: z.number(),
  recommendedUsdPerMonth: z.number(),
  savingUsdPerMonth: z.number(),
  riskCount: z.number().int(),
  /** Volumes without a price (current or recommended): counted in `volumes`, left out of the USD sums. */
  unpricedCount: z.number().int(),
});
export const FleetTotalsSchema = z.object({
  byVolumeType: z.array(TotalsRowSchema.extend({ type: z.string() })),
  byInstance: z.array(
    TotalsRowSchema.extend({ instanceId: z.string().nullable(), instanceType: z.string().nullable() }),
  ),
  fleet: TotalsRowSchema.extend({
    /** Deleting the unattached volumes and those of stopped instances after a snapshot (see `unused`), USD per month. */
    unusedSavingUsdPerMonth: z.number(),
  }),
});
export type FleetTotals = z.infer<typeof FleetTotalsSchema>;

export const FleetUnusedSchema = z.object({
  volumeId: z.string(),
  reason: z.enum(['unattached', 'stopped_instance']),
  instanceId: z.string().nullable(),
  sizeGib: z.number(),
  usdPerMonth: z.number().nullable(),
  /** Snapshot storage, assumed full size (the first snapshot of a volume is a full copy of its written blocks). null: no snapshot price. */
  snapshotUsdPerMonth: z.number().nullable(),
  /** Deleting after a snapshot: volume cost − snapshot cost. */
  savingUsdPerMonth: z.number().nullable(),
  commands: z.array(z.string()),
});
export type FleetUnused = z.infer<typeof FleetUnusedSchema>;

export const FleetPlanSchema = z.object({
  region: z.string().nullable(),
  statistic: FleetStatisticSchema,
  headroom: z.number(),
  /** The Period given, or else the most common Period of the volumes' points (each volume's is observed.periodSeconds). */
  periodSeconds: z.number(),
  minHistoryDays: z.number(),
  priceDate: z.string(),
  priceSource: z.string(),
  /** USD per GiB-month of standard snapshot storage, null when the catalog has none. */
  snapshotUsdPerGibMonth: z.number().nullable(),
  volumes: z.array(FleetVolumePlanSchema),
  totals: FleetTotalsSchema,
  unused: z.array(FleetUnusedSchema),
  noData: z.array(z.object({ volumeId: z.string(), status: FleetVolumeStatusSchema, reason: z.string() })),
  /** Per instance, the volumes' rates summed point by point against its caps (absent in plans stored before 2026-11-28). */
  instances: z.array(FleetInstanceRowSchema).optional(),
  /** The modification rule and its source, shown under every list of commands. */
  modificationRule: z.string(),
  notes: z.array(z.string()),
  /** false when some volume's data is incomplete (`incomplete` names each); the plan is then partial. */
  complete: z.boolean().optional(),
  incomplete: z.array(z.object({ volumeId: z.string(), reason: z.string() })).optional(),
  /** Recurring peaks the statistic would drop were ignored as asked (--ignore-recurring). */
  ignoreRecurring: z.boolean().optional(),
});
export type FleetPlan = z.infer<typeof FleetPlanSchema>;

/**
 * What the planner needs from the catalog, passed in (the catalog is a separate, lazily loaded
 * entry: `@blockwise/shared/catalog`). Build it with `regionRateCardFor(region)`,
 * `findInstanceType`, and `activeCatalog().ebs[region].snapshot.standard`.
 */
export type FleetCatalog = {
  rateCard: RegionRateCard;
  findInstance: (instanceType: string) => InstanceSpec | undefined;
  snapshotUsdPerGibMonth: number | null;
  /**
   * Where to look for an instance whose baseline carries a target its current one cannot (the
   * catalog's `upgradePool`); without it no replacement instance is named.
   */
  instancePool?: (spec: InstanceSpec) => readonly InstanceSpec[];
};

export type PlanFleetInput = {
  volumes: readonly FleetVolume[];
  metrics: FleetMetrics;
  instances?: readonly FleetInstance[];
  catalog: FleetCatalog;
  /** 0.25 = 25 %. */
  headroom: number;
  statistic: FleetStatistic;
  region?: string | null;
  /** Less history than this is `too_little_history` (default 1 day). */
  minHistoryDays?: number;
  /** Fewer points than this is `too_little_history` (default 12: one hour of 5-minute points). */
  minPoints?: number;
  /**
   * The Period of the queries, seconds, when the user gave it (the readers refuse files spaced
   * otherwise). Without it each volume's Period is taken from its timestamps (300 when none can be).
   */
  periodSeconds?: number;
  /** Size p99/p95 on the percentile even where a peak recurs (the risk is stated per volume). */
  ignoreRecurring?: boolean;
  /** Who reads the notes: the web names its option, the CLI its flag (default 'cli'; audience.ts). */
  audience?: Audience;
};

/** Per series, only what the statistics need (see metrics.ts). */
export type FleetSeriesSummary = {
  count: number;
  max: number;
  /** Min-heap of the largest values (≥ 5 % of the points + 1): enough for p95 and p99. */
  top: number[];
  /** When each of `top` was (UTC ms, NaN when not known): recurring peaks are found among them. */
  topAt: number[];
  /** The largest value ever dropped from `top` (-Infinity when none). */
  droppedMax: number;
  firstMs: number;
  lastMs: number;
  /** The gcd of the sampled gaps between timestamps and of each result's span, ms: a multiple of the Period (0: unknown). */
  spacingMs: number;
};

/* Per-instance concurrency (concurrent.ts): the volumes of one instance summed point by point while reading. */
/** Sums of operations and bytes over all the instance's volumes, per timestamp (a cell per step). */
export type ConcurrencyGrid = {
  /** Milliseconds between cells: the gcd of the spacings seen (a multiple of the queries' Period). */
  stepMs: number;
  /** Timestamp of cell 0, ms. */
  originMs: number;
  /** Cells in use. */
  length: number;
  ops: Float64Array;
  bytes: Float64Array;
};

export type ConcurrencyStore = {
  grids: Map<string, ConcurrencyGrid>;
  /**
   * Volumes some of whose points could not be placed in time (a scanned result with gaps: only its
   * ends are parsed); their peaks are added to the instance's instead — an upper bound.
   */
  unaligned: Set<string>;
  /**
   * Instances whose grid would pass the bounds (concurrent.ts MAX_GRID_SPAN_MS, MAX_TOTAL_CELLS):
   * their grid is dropped and their volumes' peaks added instead — an upper bound.
   */
  overflow: Set<string>;
  /** Cells in use over all grids (bounded by MAX_TOTAL_CELLS). */
  cells: number;
};

/** Volume id → the instances it counts toward: the attached one and, for Multi-Attach, each other. */
export type ConcurrencyGroups = ReadonlyMap<string, readonly string[]>;

/** Merged GetMetricData responses, per volume id and metric. */
export type FleetMetrics = {
  series: Map<string, Partial<Record<MetricName, FleetSeriesSummary>>>;
  /** Responses merged, results read, and results with a status other than Complete. */
  files: number;
  results: number;
  warnings: string[];
  /** Per-instance sums, when the reader was given the groups (MetricDataOptions.concurrency). */
  concurrency?: ConcurrencyStore;
  /** AWS's evidence metrics (exceeded checks, latency, balances) per volume or instance id (fleet/evidence.ts). */
  evidence?: Map<string, Partial<Record<EvidenceMetricName, EvidenceSeries>>>;
  /**
   * Per file read, in order: whether it carried a NextToken (more pages exist) and the volumes it
   * held, and the volumes whose results said StatusCode PartialData. planFleet marks a volume
   * incomplete when a page with a NextToken is not followed by another file holding it.
   */
  pages: { file: string; nextToken: boolean; volumeIds: string[]; partialVolumeIds: string[] }[];
};

/** One evidence metric of one volume or instance, folded (fleet/evidence.ts): bounded, whatever the window. */
export type EvidenceSeries = {
  count: number;
  sum: number;
  min: number;
  max: number;
  /** Points above 0 and their sum (latency: 0 is a minute without I/O, not "fast"). */
  positive: number;
  positiveSum: number;
  /** Per UTC day (epoch day number): the Sum and the minimum of its points. */
  days: Map<number, { sum: number; min: number }>;
  /** false when some point's time could not be placed (a scanned result with gaps). */
  daysKnown: boolean;
};
