import type { RunHeadline, RunLabels, RunSummary } from '../records/run.ts';
import { defaultRateCard, rateCardFor } from '../aws/ebs-prices.ts';
import { findInstanceType, nvmePremium, suggestInstanceTypes, upgradePool } from '../aws/instances.ts';
import type { InstanceSpec } from '../aws/instance-spec.ts';
import type { RateCard } from '../aws/rate-card.ts';
import type { DirectionStats, FioReport } from '../fio/fio-report.schema.ts';
import { checkBenchmark } from '../plan/benchmark-checks.ts';
import type { LimitTarget } from '../plan/limits.ts';
import { ANALYSIS_VERSION, planStorage, type PlanResult } from '../plan/plan.ts';
import { validateVolume, volumeFromLabels } from '../plan/volume.ts';
import type { Warning } from '../problem.ts';
import type { IoProfile } from '../profile/io-profile.schema.ts';
import { profileFromFio } from '../profile/from-fio.ts';

/**
 * The analysis stored with an archived run: headline numbers, and — when the labels describe a
 * configuration (an instance type, an EBS volume, or `kind=nvme`) — the full plan for it.
 * Catalog-aware (instance types, prices), so it lives beside the catalog entry point.
 */

/** The configuration a run's labels describe, or null with the reason when they describe an invalid one. */
export function targetFromLabels(labels: RunLabels): { target: LimitTarget | null; warnings: Warning[] } {
  if (labels.kind === 'nvme') return { target: { kind: 'nvme' }, warnings: [] };
  if (labels.volumeType === undefined) return { target: null, warnings: [] };
  const volume = volumeFromLabels(labels);
  // The type is named, so only the size can be missing.
  if (volume === null) {
    return {
      target: null,
      warnings: [
        {
          code: 'labels_incomplete',
          message: `volumeType=${labels.volumeType} without volumeSizeGiB: the volume's limits cannot be computed`,
          subject: 'labels.volumeSizeGiB',
        },
      ],
    };
  }
  const problems = validateVolume(volume);
  if (problems.length > 0) {
    return {
      target: null,
      warnings: problems.map((p) => ({
        code: 'labels_volume_invalid',
        message: `volume labels: ${p.message}`,
        subject: `labels.${p.path}`,
      })),
    };
  }
  return { target: { kind: 'ebs', volume }, warnings: [] };
}

export function resolveInstance(instanceType: string | undefined | null): {
  instance: InstanceSpec | null;
  warnings: Warning[];
} {
  if (!instanceType) return { instance: null, warnings: [] };
  const instance = findInstanceType(instanceType) ?? null;
  if (instance) return { instance, warnings: [] };
  const near = suggestInstanceTypes(instanceType);
  return {
    instance: null,
    warnings: [
      {
        code: 'unknown_instance_type',
        message: `"${instanceType}" is not in the catalog of 1,390 instance types${near.length ? ` (did you mean ${near.slice(0, 3).join(', ')}?)` : ''}; its limits are not checked`,
        subject: 'labels.instanceType',
      },
    ],
  };
}

export function resolveRateCard(region: string | undefined | null): {
  rateCard: RateCard;
  warnings: Warning[];
} {
  if (!region) return { rateCard: defaultRateCard(), warnings: [] };
  const card = rateCardFor(region);
  if (card) return { rateCard: card, warnings: [] };
  return {
    rateCard: defaultRateCard(),
    warnings: [
      {
        code: 'no_price_table',
        message: `no complete EBS price table for "${region}": costs use us-east-1 prices`,
        subject: 'labels.region',
      },
    ],
  };
}

/** The clat percentiles to show for a direction: exact, or the per-job upper bounds when approximate. */
function clatOf(d: DirectionStats): Record<string, number> | null {
  if (d.iops <= 0) return null;
  if (d.clatMs.percentiles) return d.clatMs.percentiles;
  if (d.clatMs.range) return Object.fromEntries(Object.entries(d.clatMs.range).map(([k, r]) => [k, r.max]));
  return null;
}

export function headlineOf(report: FioReport, profile: IoProfile | null): RunHeadline {
  const t = report.total;
  return {
    readIops: profile?.read.iops ?? t.read.iops,
    writeIops: profile?.write.iops ?? t.write.iops,
    readBytesPerSec: profile?.read.bytesPerSec ?? t.read.bytesPerSec,
    writeBytesPerSec: profile?.write.bytesPerSec ?? t.write.bytesPerSec,
    readBlockSizeBytes: profile?.read.blockSizeBytes ?? t.read.blockSizeBytes,
    writeBlockSizeBytes: profile?.write.blockSizeBytes ?? t.write.blockSizeBytes,
    readClatMs: profile?.read.latency?.percentiles ?? clatOf(t.read),
    writeClatMs: profile?.write.latency?.percentiles ?? clatOf(t.write),
    clatApproximate: Boolean(profile?.read.latency?.approximate || profile?.write.latency?.approximate),
    runtimeSec: profile?.durationSec ?? null,
  };
}

/** The plan for a profile on the configuration a set of labels describes (null when they describe none). */
export function planForLabels(
  profile: IoProfile,
  labels: RunLabels,
): { plan: PlanResult | null; warnings: Warning[] } {
  const t = targetFromLabels(labels);
  const i = resolveInstance(labels.instanceType);
  const r = resolveRateCard(labels.region);
  const warnings = [...t.warnings, ...i.warnings, ...r.warnings];
  if (!t.target && !i.instance) return { plan: null, warnings };
  const premium = t.target?.kind === 'nvme' && i.instance ? nvmePremium(i.instance.instanceType) : null;
  const plan = planStorage({
    profile,
    target: t.target,
    instance: i.instance,
    rateCard: r.rateCard,
    instanceCandidates: i.instance ? upgradePool(i.instance) : [],
    nvmePremiumUsdPerHour: premium?.usdPerHour ?? null,
  });
  return { plan: { ...plan, warnings: [...warnings, ...plan.warnings] }, warnings };
}

export function summarizeRun(report: FioReport, labels: RunLabels): RunSummary {
  const p = profileFromFio(report, { label: labels.name ?? null });
  const profile = p.ok ? p.value : null;
  const planned = profile ? planForLabels(profile, labels) : { plan: null, warnings: [] };
  // Without a configuration the trust checks still run (block size, direct, runtime, errors…).
  const warnings = planned.plan
    ? planned.plan.warnings
    : [
        ...(profile?.warnings ?? report.warnings),
        ...planned.warnings,
        ...(profile ? checkBenchmark({ profile, target: null, instance: null, limits: [] }) : []),
      ];
  if (!p.ok) warnings.push({ code: p.error.code, message: p.error.message });
  return {
    analysisVersion: ANALYSIS_VERSION,
    fioVersion: report.fioVersion,
    jobCount: report.jobs.length,
    groupCount: report.groups.length,
    headline: headlineOf(report, profile),
    plan: planned.plan,
    warnings,
  };
}
