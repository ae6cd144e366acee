import { z } from 'zod';
import type { RunHeadline } from '../records/run.ts';
import { compareRates } from '../plan/compare-rates.ts';
import { compareLatency, LatencyComparisonSchema } from '../plan/latency.ts';
import { WarningSchema, type Warning } from '../problem.ts';
import type { LatencySummary } from '../profile/io-profile.schema.ts';
import {
  compareJobSettings,
  hasRecordedSettings,
  JobSettingDifferenceSchema,
  jobsDifferWarning,
  type RunJobSettings,
} from './compare-jobs.ts';

/**
 * Two runs side by side: a reference (local NVMe, a baseline, the first file) and a candidate
 * judged against it (EBS, the second file). The raw numbers are always given; the verdicts — the
 * rate deltas and the latency findings, reads and writes — only when both ran the same fio job.
 */

const RATE_METRICS = ['read-throughput', 'write-throughput', 'read-iops', 'write-iops'] as const;

export const PairRateSchema = z.object({
  metric: z.enum(RATE_METRICS),
  /** MiB/s for throughput rows, IOPS for IOPS rows. */
  unit: z.enum(['MiB/s', 'IOPS']),
  reference: z.number(),
  candidate: z.number(),
});

export const PairVerdictSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('given'),
    rates: z.array(
      z.object({
        metric: z.enum(RATE_METRICS),
        /** (candidate − reference) ÷ reference: +0.16 = the candidate delivered 16 % more; null when the reference measured nothing. */
        delta: z.number().nullable(),
        /** Which side delivered more (`equal` within 0.5 %). */
        faster: z.enum(['reference', 'candidate', 'equal']),
      }),
    ),
    /** Per direction (`compareLatency`, candidate in the EBS role): null without percentiles on both sides. */
    latency: z.object({
      read: LatencyComparisonSchema.nullable(),
      write: LatencyComparisonSchema.nullable(),
    }),
  }),
  z.object({ status: z.literal('withheld'), reason: z.literal('jobs_differ') }),
]);
export type PairVerdict = z.infer<typeof PairVerdictSchema>;

const PairRunSchema = z.object({ id: z.string(), name: z.string() });

export const RunPairComparisonSchema = z.object({
  reference: PairRunSchema,
  candidate: PairRunSchema,
  /** true: the runs ran different fio jobs (verdict withheld); null: a run's settings are not recorded, so it cannot be told. */
  jobsDiffer: z.boolean().nullable(),
  differences: z.array(JobSettingDifferenceSchema),
  rates: z.array(PairRateSchema),
  verdict: PairVerdictSchema,
  /** `jobs_differ` when the jobs differ. */
  warnings: z.array(WarningSchema),
});
export type RunPairComparison = z.infer<typeof RunPairComparisonSchema>;

/** What a comparison needs of a run: the stored headline numbers and its jobs' settings (null: unknown). */
export type PairSide = {
  id: string;
  name: string;
  headline: RunHeadline;
  jobSettings: RunJobSettings | null;
};

function latencyOf(headline: RunHeadline, direction: 'read' | 'write'): LatencySummary | null {
  const percentiles = direction === 'read' ? headline.readClatMs : headline.writeClatMs;
  if (!percentiles || Object.keys(percentiles).length === 0) return null;
  return { percentiles, approximate: headline.clatApproximate, meanMs: null };
}

function compareLatencyOf(reference: RunHeadline, candidate: RunHeadline, direction: 'read' | 'write') {
  const r = latencyOf(reference, direction);
  const c = latencyOf(candidate, direction);
  return r && c ? compareLatency(c, r) : null;
}

/** Compares two runs; the verdict is withheld (`jobs_differ`) when their fio jobs differ. */
export function compareRunPair(reference: PairSide, candidate: PairSide): RunPairComparison {
  const known =
    reference.jobSettings !== null &&
    candidate.jobSettings !== null &&
    hasRecordedSettings(reference.jobSettings) &&
    hasRecordedSettings(candidate.jobSettings);
  const differences = known ? compareJobSettings(reference.jobSettings!, candidate.jobSettings!) : [];
  const warning = jobsDifferWarning(differences, { reference: reference.name, candidate: candidate.name });
  const warnings: Warning[] = warning ? [warning] : [];
  // compareRates and compareLatency name their sides after the guide's case: EBS is the candidate.
  const rows = compareRates(candidate.headline, reference.headline);
  const verdict: PairVerdict = warning
    ? { status: 'withheld', reason: 'jobs_differ' }
    : {
        status: 'given',
        rates: rows.map((r) => ({
          metric: r.metric,
          delta: r.delta,
          faster: r.faster === 'ebs' ? 'candidate' : r.faster === 'nvme' ? 'reference' : 'equal',
        })),
        latency: {
          read: compareLatencyOf(reference.headline, candidate.headline, 'read'),
          write: compareLatencyOf(reference.headline, candidate.headline, 'write'),
        },
      };
  return {
    reference: { id: reference.id, name: reference.name },
    candidate: { id: candidate.id, name: candidate.name },
    jobsDiffer: known ? differences.length > 0 : null,
    differences,
    rates: rows.map((r) => ({ metric: r.metric, unit: r.unit, reference: r.nvme, candidate: r.ebs })),
    verdict,
    warnings,
  };
}
