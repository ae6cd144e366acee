import { settingHint, type Audience } from '../audience.ts';
import { z } from 'zod';
import type { InstanceSpec } from '../aws/instance-spec.ts';
import { RateCardSchema, priceAvailable, type RateCard, type RegionRateCard } from '../aws/rate-card.ts';
import { Gp3GenerationSchema, type Gp3Generation } from '../aws/volume-types.ts';
import { WarningSchema, type Warning } from '../problem.ts';
import { AccessSchema, accessOf, type DirectionLoad, type IoProfile } from '../profile/io-profile.schema.ts';
import { classifyBlockSize } from '../profile/size-class.ts';
import { checkBenchmark } from './benchmark-checks.ts';
import { capacityToHold, checkConfiguration } from './configuration-checks.ts';
import { DatasetCapacitySchema, datasetCapacityOf, type DatasetGrowth } from './dataset-growth.ts';
import { findOverruns } from './sustainability.ts';
import { describeVolume, includedSettingsOf, volumeWithSettings } from './volume.ts';
import {
  CostBreakdownSchema,
  clusterMonthlyCost,
  costPerCapability,
  monthlyCost,
  nvmeCostPerCapability,
} from './cost.ts';
import { demandOf, readShare } from './demand.ts';
import { CliffSchema, LatencyVerdictSchema, detectCliffs, judgeLatency, type LoadLevel } from './latency.ts';
import { BottleneckSchema, LimitSchema, computeLimits, findBottleneck, type LimitTarget } from './limits.ts';
import { RightSizeResultSchema, rightSize } from './right-size.ts';
import { ResidencySchema, ViabilitySchema, assessViability, type Residency } from './viability.ts';

/**
 * Bumped whenever a rule or formula changes what an analysis says. Stored with every archived run
 * and comparison: a share link shows the version (and price date) it was computed with.
 */
export const ANALYSIS_VERSION = '2026.11.3';

export type PlanInput = {
  profile: IoProfile;
  /** The configuration measured or considered: an EBS volume (stripe set) or local NVMe. */
  target: LimitTarget | null;
  instance: InstanceSpec | null;
  /** A region's prices (a type it lacks is sized, marked `unpriced`, never costed at $0). */
  rateCard: RegionRateCard;
  headroom?: number;
  gp3Generation?: Gp3Generation;
  nodes?: number;
  /** Synchronous-commit workload (every write waits on fsync): latency thresholds halve. */
  syncCommits?: boolean;
  residency?: Residency;
  datasetGiB?: number | null;
  /** How the dataset grows: every capacity check uses today's size grown over the horizon. */
  datasetGrowth?: DatasetGrowth | null;
  /** Who reads the warnings: a setting is named by its flag (CLI) or its control (web). */
  audience?: Audience;
  /**
   * Storage the data needs (GiB, over all volumes). Defaults to the larger of the dataset and the
   * measured configuration's capacity (size × count): a recommendation always holds the data.
   */
  minSizeGiB?: number;
  /** Instances to look through for one that sustains the demand (catalog `upgradePool`). */
  instanceCandidates?: readonly InstanceSpec[];
  /** `d`-variant premium of the instance (USD/hour) when the target is local NVMe. */
  nvmePremiumUsdPerHour?: number | null;
};

const DirectionSummarySchema = z.object({
  iops: z.number(),
  bytesPerSec: z.number(),
  blockSizeBytes: z.number().nullable(),
  sizeClass: z.enum(['small', 'medium', 'large']).nullable(),
  likelyBound: z.enum(['iops', 'either', 'throughput']).nullable(),
});

export const PlanResultSchema = z.object({
  analysisVersion: z.string(),
  profile: z.object({
    source: z.string(),
    label: z.string().nullable(),
    read: DirectionSummarySchema,
    write: DirectionSummarySchema,
    readShare: z.number().nullable(),
    /** read + write as EBS counts them (I/Os > 256 KiB split), and MiB/s. */
    demand: z.object({ iops: z.number(), throughputMiBps: z.number() }),
    durationSec: z.number().nullable(),
    /** Random or sequential per direction, and who said so (absent before 2026.11.2). */
    access: AccessSchema.optional(),
  }),
  target: z.object({ kind: z.enum(['ebs', 'nvme']), description: z.string() }).nullable(),
  instanceType: z.string().nullable(),
  limits: z.array(LimitSchema),
  bottleneck: BottleneckSchema.nullable(),
  /** Against this volume: which of its two ceilings is closer (null without an EBS target). */
  volumeBound: z.enum(['iops', 'throughput']).nullable(),
  rightSizing: RightSizeResultSchema,
  cost: z.object({
    current: z
      .object({
        monthlyUsd: CostBreakdownSchema,
        clusterMonthlyUsd: CostBreakdownSchema,
        nodes: z.number(),
        usdPerIops: z.number(),
        usdPerMiBps: z.number(),
      })
      .nullable(),
    nvme: z
      .object({
        monthlyPremiumUsd: z.number(),
        usdPerReadIops: z.number().nullable(),
        usdPerWriteIops: z.number().nullable(),
        usdPerMiBps: z.number().nullable(),
      })
      .nullable(),
  }),
  latency: z.object({
    load: z.enum(['saturated', 'light']),
    syncCommits: z.boolean(),
    read: z
      .object({
        verdicts: z.array(LatencyVerdictSchema),
        cliffs: z.array(CliffSchema),
        approximate: z.boolean(),
      })
      .nullable(),
    write: z
      .object({
        verdicts: z.array(LatencyVerdictSchema),
        cliffs: z.array(CliffSchema),
        approximate: z.boolean(),
      })
      .nullable(),
  }),
  viability: ViabilitySchema,
  warnings: z.array(WarningSchema),
  rates: RateCardSchema.pick({ region: true, location: true, source: true, date: true }),
  headroom: z.number(),
  gp3Generation: Gp3GenerationSchema,
  residency: ResidencySchema,
  /** The dataset today and what was provisioned for it (absent in analyses stored before growth). */
  dataset: DatasetCapacitySchema.nullable().optional(),
});
export type PlanResult = z.infer<typeof PlanResultSchema>;

function summarizeDirection(d: DirectionLoad) {
  const cls = d.blockSizeBytes !== null ? classifyBlockSize(d.blockSizeBytes) : null;
  return {
    iops: d.iops,
    bytesPerSec: d.bytesPerSec,
    blockSizeBytes: d.blockSizeBytes,
    sizeClass: cls?.sizeClass ?? null,
    likelyBound: cls?.likelyBound ?? null,
  };
}

/** Saturated = many I/Os in flight, or pinned against a ceiling; otherwise the light-load rule applies. */
function loadLevel(profile: IoProfile, bottleneckSaturated: boolean): LoadLevel {
  const outstanding = profile.benchmark?.outstandingIos ?? null;
  if (bottleneckSaturated) return 'saturated';
  if (outstanding !== null) return outstanding >= 16 ? 'saturated' : 'light';
  return 'saturated';
}

/** gp3 is named with the 3,000 IOPS and 125 MiB/s it gets when none are provisioned. */
function describeTarget(target: LimitTarget): string {
  if (target.kind === 'nvme') return 'local NVMe instance store';
  const v = target.volume;
  const included = includedSettingsOf(v.type);
  const shown = volumeWithSettings({
    ...v,
    iops: v.iops ?? included.iops,
    throughputMiBps: v.throughputMiBps ?? included.throughputMiBps,
  });
  return describeVolume(shown, { performance: true });
}

/**
 * The whole analysis of one profile on one configuration: limits and bottleneck, right-sizing,
 * cost, latency verdicts, benchmark trust checks and viability. Pure: every input is passed in
 * (catalog lookups happen in the caller), so it runs the same in the browser, the server and the CLI.
 */
export function planStorage(input: PlanInput): PlanResult {
  const headroom = input.headroom ?? 0.25;
  const gp3Generation = input.gp3Generation ?? 'current';
  const nodes = input.nodes ?? 1;
  const residency = input.residency ?? 'unknown';
  const syncCommits = input.syncCommits ?? input.profile.benchmark?.syncs ?? false;
  const { profile, target, instance } = input;

  const limits = computeLimits(profile, target, instance);
  const overruns = findOverruns({ profile, target, limits });
  const bottleneck = findBottleneck(limits, overruns);
  const vIops = limits.find((l) => l.id === 'volume-iops');
  const vTp = limits.find((l) => l.id === 'volume-throughput');
  const volumeBound = vIops && vTp ? (vIops.utilization >= vTp.utilization ? 'iops' : 'throughput') : null;

  // Every capacity check holds the dataset as it will be at the horizon, not as it is today.
  const dataset = datasetCapacityOf(input.datasetGiB ?? null, input.datasetGrowth);
  const capacity = capacityToHold(target, dataset?.provisionGiB ?? null);
  const minSizeGiB = input.minSizeGiB ?? capacity.gib;
  const rightSizing = rightSize({
    profile,
    headroom,
    minSizeGiB,
    instance,
    rateCard: input.rateCard,
    gp3Generation,
    nodes,
    instanceCandidates: input.instanceCandidates ?? [],
  });

  const demand = demandOf(profile);
  let current: PlanResult['cost']['current'] = null;
  if (target?.kind === 'ebs' && priceAvailable(input.rateCard, target.volume.type)) {
    const card = input.rateCard as RateCard;
    const per = costPerCapability(target.volume, card);
    current = {
      monthlyUsd: monthlyCost(target.volume, card),
      clusterMonthlyUsd: clusterMonthlyCost(target.volume, card, nodes),
      nodes,
      usdPerIops: per.usdPerIops,
      usdPerMiBps: per.usdPerMiBps,
    };
  }
  let nvme: PlanResult['cost']['nvme'] = null;
  if (target?.kind === 'nvme' && instance?.instanceStore && input.nvmePremiumUsdPerHour != null) {
    const c = nvmeCostPerCapability(
      input.nvmePremiumUsdPerHour,
      instance.instanceStore,
      demand.throughputMiBps,
    );
    nvme = {
      monthlyPremiumUsd: c.monthly,
      usdPerReadIops: c.usdPerReadIops,
      usdPerWriteIops: c.usdPerWriteIops,
      usdPerMiBps: c.usdPerMiBps,
    };
  }

  const load = loadLevel(profile, bottleneck?.saturated ?? false);
  const judge = (d: DirectionLoad) =>
    d.latency && d.iops > 0
      ? {
          verdicts: judgeLatency(d.latency.percentiles, { load, syncCommits }),
          cliffs: detectCliffs(d.latency.percentiles),
          approximate: d.latency.approximate,
        }
      : null;

  const warnings: Warning[] = [
    ...profile.warnings,
    ...checkBenchmark({ profile, target, instance, limits }),
    ...checkConfiguration({ profile, target, instance }),
  ];
  if (input.minSizeGiB === undefined && capacity.unknown)
    warnings.push({
      code: 'capacity_unknown',
      message: `How much data must the EBS volume hold? Without a dataset size the recommendations are sized for performance only; give ${settingHint('dataset', input.audience)} so they hold the data.`,
      subject: 'datasetGiB',
    });
  // The CLI refuses --growth without --dataset; the web and the API can hold a growth alone.
  if (input.datasetGrowth && !dataset)
    warnings.push({
      code: 'growth_without_dataset',
      message: `A dataset growth is given without the dataset size, so it changes nothing: give ${settingHint('dataset', input.audience)} for the recommendations to hold the data as it grows.`,
      subject: 'datasetGiB',
    });
  if (target?.kind === 'ebs' && !instance)
    warnings.push({
      code: 'no_instance',
      message:
        'No instance type given: only the volume limits are checked. The instance’s own EBS bandwidth and IOPS caps often bind first.',
    });
  if (input.rateCard.region === null || input.rateCard.source.startsWith('custom'))
    warnings.push({
      code: 'custom_rates',
      message: `Costs use a custom rate card: ${input.rateCard.source}`,
    });

  return {
    analysisVersion: ANALYSIS_VERSION,
    profile: {
      source: profile.source,
      label: profile.label,
      read: summarizeDirection(profile.read),
      write: summarizeDirection(profile.write),
      readShare: readShare(profile),
      demand: { iops: demand.iops, throughputMiBps: demand.throughputMiBps },
      durationSec: profile.durationSec,
      access: accessOf(profile),
    },
    target: target ? { kind: target.kind, description: describeTarget(target) } : null,
    instanceType: instance?.instanceType ?? null,
    limits,
    bottleneck,
    volumeBound,
    rightSizing,
    cost: { current, nvme },
    latency: { load, syncCommits, read: judge(profile.read), write: judge(profile.write) },
    viability: assessViability({ profile, instance, residency, datasetGiB: dataset?.provisionGiB ?? null }),
    warnings,
    rates: {
      region: input.rateCard.region,
      location: input.rateCard.location,
      source: input.rateCard.source,
      date: input.rateCard.date,
    },
    headroom,
    gp3Generation,
    residency,
    // Only when a dataset size is given: plans without one keep the shape stored before growth.
    ...(dataset ? { dataset } : {}),
  };
}
