import type { z } from 'zod';
import { bottleneckStateOf } from '../plan/limits.ts';
import type { PlanResult } from '../plan/plan.ts';
import type { Recommendation } from '../plan/right-size.ts';
import { provisionedFieldsOf } from '../plan/volume.ts';
import { fail, ok, type Result } from '../problem.ts';
import { ASSUMED_RANDOM } from '../profile/io-profile.schema.ts';
import { HOURS_PER_MONTH, roundCents } from '../units.ts';
import { withRateCaps } from '../compare/compare-jobs.ts';
import { ComparisonResultSchema, type ComparisonResult } from './comparison.ts';
import { RunSummarySchema, type RunSummary } from './run.ts';

/**
 * Versioned readers for what the archive stored: a run's summary and a frozen comparison are
 * kept as they were computed, under the analysis version of that day (runs are append-only), and
 * read back here into today's shape. Each analysis version whose shape differs from today's has an
 * upcaster that fills what it lacks the way today's readers assume it (never a number it cannot
 * know): the web app, the CLI and the gate then see one shape.
 *
 * 2026.11.1 → 2026.11.2 (`git show 2660e74`: access patterns, burst-bound bottlenecks, striped
 * recommendations, instance alternatives): every 2026.11.1 field is still in today's schema, and
 * the new ones are optional there — so a 2026.11.1 document parses, and the upcaster adds
 *   - `plan.profile.access`: random for both directions, `origin: 'assumed'` (what `accessOf`
 *     assumes: 2026.11.1 had no access pattern);
 *   - `plan.bottleneck.state` from `bottleneckStateOf` and `sustained: null` (no burst model then);
 *   - each sized recommendation's `volumeCount: 1` and `perVolume` = its totals (2026.11.1 sized
 *     one volume; what `volumeOfRecommendation` assumes), with only the settings its type takes;
 *   - `instanceAdvice.alternatives: []` (none were looked for) and the upgrade's
 *     `usdPerMonthUsEast1` = hourly price × 730 h, rounded to cents, as right-size.ts computes it.
 * It leaves absent what it cannot know: `instanceStore` (needs the catalog), and `iopsUnmerged` /
 * `demandUnmerged` (only present when I/O merging changed a number; 2026.11.1 did not merge).
 *
 * 2026.11.2 → 2026.11.3 (gp2 throughput = baseline IOPS × 256 KiB, io2 on Xen instances planned at
 * 32,000 IOPS / 500 MiB/s with `io2_not_nitro`, more fio settings compared, right-sizing reasons
 * for stripes, gp3 beside io2 and throttled peaks; demand at the native resolution with recurring
 * peaks): the numbers changed, the shape did not — so the upcaster is the identity, and the
 * document keeps the numbers of its day (`analysisVersion` says which). What it cannot know stays
 * absent, as today's readers take it: a frozen comparison's `jobSettings[].optionSettings` (rate
 * caps, think time, fsync…: read from the fio options, which the comparison did not keep — absent,
 * its runs cannot be shown to differ in them), and the new reasons and warnings (strings in arrays
 * that were already there). Warning codes are free text (`WarningSchema`), so one this version no
 * longer emits (`aggregated_to_5_minutes`, `coarse_period`) still parses and is kept as stored.
 */

/** Which analysis version the reader found and whether it upgraded the document. */
export type StoredRead<T> = { value: T; upgradedFrom: string | null };

type Upcaster = { summary: (s: RunSummary) => RunSummary; plan: (p: PlanResult) => PlanResult };

function recommendationFrom2026_11_1(rec: Recommendation): Recommendation {
  const takes = provisionedFieldsOf(rec.type);
  const sized = rec.status !== 'not-viable';
  return {
    ...rec,
    volumeCount: rec.volumeCount ?? 1,
    ...(rec.perVolume === undefined && sized
      ? {
          perVolume: {
            sizeGiB: rec.sizeGiB,
            iops: takes.iops ? rec.iops : null,
            throughputMiBps: takes.throughputMiBps ? rec.throughputMiBps : null,
          },
        }
      : {}),
  };
}

function planFrom2026_11_1(plan: PlanResult): PlanResult {
  const { bottleneck, rightSizing } = plan;
  const advice = rightSizing.instanceAdvice;
  const upgrade = advice?.upgrade ?? null;
  return {
    ...plan,
    profile: { ...plan.profile, access: plan.profile.access ?? ASSUMED_RANDOM },
    bottleneck: bottleneck && {
      ...bottleneck,
      state: bottleneckStateOf(bottleneck),
      sustained: bottleneck.sustained ?? null,
    },
    rightSizing: {
      ...rightSizing,
      recommendations: rightSizing.recommendations.map(recommendationFrom2026_11_1),
      instanceAdvice: advice && {
        ...advice,
        upgrade: upgrade && {
          ...upgrade,
          usdPerMonthUsEast1:
            upgrade.usdPerMonthUsEast1 !== undefined
              ? upgrade.usdPerMonthUsEast1
              : upgrade.usdPerHourUsEast1 === null
                ? null
                : roundCents(upgrade.usdPerHourUsEast1 * HOURS_PER_MONTH),
        },
        alternatives: advice.alternatives ?? [],
      },
    },
  };
}

/** Earlier analysis versions → what turns their documents into today's shape. */
const UPCASTERS: Readonly<Record<string, Upcaster>> = {
  '2026.11.1': {
    plan: planFrom2026_11_1,
    summary: (s) => ({ ...s, plan: s.plan && planFrom2026_11_1(s.plan) }),
  },
  '2026.11.2': { plan: (p) => p, summary: (s) => s },
};

/** Stored JSON text (SQLite) or the value a driver decoded (node-postgres `json`), as a value. */
export function decodeStoredJson(json: unknown, what: string): Result<unknown> {
  if (typeof json !== 'string') return ok(json);
  try {
    return ok(JSON.parse(json));
  } catch (error) {
    return fail('stored_record_invalid', `${what}: not JSON (${(error as Error).message})`);
  }
}

/** A stored value through its schema; the problem names the field (`what.path`). */
export function parseStoredWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
): Result<z.infer<S>> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  return fail(
    'stored_record_invalid',
    `${what}${path ? `.${path}` : ''}: ${issue?.message ?? 'does not validate'}`,
    path || undefined,
  );
}

/**
 * A run's stored summary (JSON text, or the value a driver decoded) in today's shape. Its
 * `analysisVersion` stays the one it was computed with: the numbers are that version's. A version
 * this build does not know (a newer replica wrote it) is read with today's schema as it is.
 */
export function readStoredSummary(json: unknown, analysisVersion: string): Result<StoredRead<RunSummary>> {
  const decoded = decodeStoredJson(json, 'summary');
  if (!decoded.ok) return decoded;
  const parsed = parseStoredWith(RunSummarySchema, decoded.value, 'summary');
  if (!parsed.ok) return parsed;
  const upcaster = UPCASTERS[analysisVersion];
  return ok(
    upcaster
      ? { value: upcaster.summary(parsed.value), upgradedFrom: analysisVersion }
      : { value: parsed.value, upgradedFrom: null },
  );
}

/**
 * A frozen comparison's result in today's shape: each run summary and each plan upgraded from the
 * analysis version it carries (a comparison made today may hold a run summarized by an earlier
 * version). Its numbers stay the ones frozen at creation (a share link never changes meaning);
 * only missing fields are filled in.
 */
export function readStoredComparisonResult(json: unknown): Result<ComparisonResult> {
  const decoded = decodeStoredJson(json, 'result');
  if (!decoded.ok) return decoded;
  const parsed = parseStoredWith(ComparisonResultSchema, decoded.value, 'result');
  if (!parsed.ok) return parsed;
  const result = parsed.value;
  return ok({
    ...result,
    runs: result.runs.map((run) => {
      const upcaster = UPCASTERS[run.summary.analysisVersion];
      // Rate caps as numbers, from the option settings' text of a comparison frozen before they
      // were kept (whether a run replays a load is read from them, never from the text).
      const jobs = run.jobSettings?.map(withRateCaps);
      return {
        ...run,
        ...(jobs ? { jobSettings: jobs } : {}),
        ...(upcaster ? { summary: upcaster.summary(run.summary) } : {}),
      };
    }),
    plans: result.plans.map((p) => {
      const upcaster = UPCASTERS[p.plan.analysisVersion];
      return upcaster ? { ...p, plan: upcaster.plan(p.plan) } : p;
    }),
  });
}
