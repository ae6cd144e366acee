import type { Audience } from '../audience.ts';
import type { ComparisonResult } from '../records/comparison.ts';
import type { RunLabels, RunSummary } from '../records/run.ts';
import type { PlanSession } from '../records/session.ts';
import { capacityToHold } from '../plan/configuration-checks.ts';
import { applyRateOverrides, type RateCard } from '../aws/rate-card.ts';
import { nvmePremium, upgradePool } from '../aws/instances.ts';
import type { FioReport } from '../fio/fio-report.schema.ts';
import { jobSettingsOf, type RunJobSettings } from '../compare/compare-jobs.ts';
import { compareRunPair, type RunPairComparison } from '../compare/compare-runs.ts';
import { planStorage, type PlanResult } from '../plan/plan.ts';
import { describeVolume, validateVolume, type VolumeConfig } from '../plan/volume.ts';
import type { Result } from '../problem.ts';
import { fail, ok } from '../problem.ts';
import type { IoProfile } from '../profile/io-profile.schema.ts';
import { profileFromObserved } from '../profile/observed.ts';
import { profileFromFio } from '../profile/from-fio.ts';
import { chooseDemandSource, roleOfFioRun, type EvidenceRole } from '../demand/evidence-role.ts';
import { resolveInstance, resolveRateCard } from './summarize-run.ts';

/**
 * Comparisons: what a share link shows. Computed once, when the link is created, from the runs'
 * stored summaries and the planning session's inputs; the result is frozen with the price table's
 * date and the analysis version, so later uploads, price or code changes never alter it.
 */

export type ComparisonRun = { id: string; labels: RunLabels; report: FioReport; summary: RunSummary };

/**
 * What a comparison without a session reads of a run: of its report only the fio version and the
 * job settings. The regression gate keeps runs in this form for the next upload's comparison
 * (server RecentRuns): the parsed report is not kept alive for it.
 */
export type ComparedRun = {
  id: string;
  labels: RunLabels;
  fioVersion: string | null;
  jobSettings: RunJobSettings;
  summary: RunSummary;
};

/** The part of a run the comparison reads (the job settings read once per report: jobSettingsOf). */
export const comparedRunOf = ({ id, labels, report, summary }: ComparisonRun): ComparedRun => ({
  id,
  labels,
  fioVersion: report.fioVersion,
  jobSettings: jobSettingsOf(report),
  summary,
});

/** A profile a session can plan on, with its role: only demand is sized on unless the user chose. */
type SessionProfile = { profile: IoProfile; role: EvidenceRole };

/**
 * Profiles a session can refer to: `run:<id>` for archived runs, `observed:<id>` for typed-in
 * numbers. A run is demand when its jobs are rate-capped or the user marked it as replaying the
 * load (`replaysLoad`), else capacity (issue 27); a typed-in entry is demand unless the session marks it capacity (a sysbench run's numbers).
 */
function sessionProfiles(
  session: PlanSession | null,
  runs: readonly ComparisonRun[],
): Result<Map<string, SessionProfile>> {
  const profiles = new Map<string, SessionProfile>();
  const replays = new Set(session?.replaysLoad ?? []);
  for (const run of runs) {
    const p = profileFromFio(run.report, { label: run.labels.name ?? null });
    const ref = `run:${run.id}`;
    if (p.ok)
      profiles.set(ref, {
        profile: p.value,
        role: roleOfFioRun(run.report, { replaysLoad: replays.has(ref) }).role,
      });
  }
  for (const [i, observed] of (session?.observed ?? []).entries()) {
    const p = profileFromObserved(observed);
    if (!p.ok)
      return fail(
        'body_invalid',
        `plan.observed.${i}: ${p.error.message}`,
        `plan.observed.${i}.${p.error.path ?? ''}`,
      );
    profiles.set(`observed:${observed.id}`, { profile: p.value, role: observed.role ?? 'demand' });
  }
  return ok(profiles);
}

export function sessionRateCard(session: PlanSession): Result<RateCard> {
  const { rateCard } = resolveRateCard(session.region);
  if (!session.rateOverrides) return ok(rateCard);
  const r = applyRateOverrides(rateCard, session.rateOverrides);
  return r.ok
    ? ok(r.value)
    : fail('body_invalid', `plan.rateOverrides: ${r.error.message}`, 'plan.rateOverrides');
}

const describe = (v: VolumeConfig) => describeVolume(v, { performance: true });

/**
 * One plan per candidate configuration of the session (plus local NVMe when the instance has a
 * store). The profile planned on: the one the session names (`profileRef`, the user's choice),
 * else its newest demand source (chooseDemandSource, as the planning page chooses). A session with capacity evidence only (fio runs at saturation,
 * sysbench) has no demand to size on: no plan (an empty list, not an error) — its answer says
 * what each storage delivered and asks for the workload's peaks (storedCapacityAnswer).
 */
function planFromSession(
  session: PlanSession,
  profiles: ReadonlyMap<string, SessionProfile>,
  audience: Audience,
): Result<{ title: string; plan: PlanResult }[]> {
  if (profiles.size === 0)
    return fail(
      'body_invalid',
      'plan: the session has no profile (no run and no typed-in numbers)',
      'plan.profileRef',
    );
  // No profile named: the demand source the planning page would plan on (the newest), so an API
  // or CLI client gets the plan the page shows for the same inputs (runs first, then entries).
  const ref =
    session.profileRef ??
    chooseDemandSource(
      [...profiles].map(([key, p]) => ({ ref: key, role: p.role })),
      null,
    ).ref;
  if (ref === null) return ok([]);
  const profile = profiles.get(ref)?.profile;
  if (!profile) {
    return fail(
      'body_invalid',
      `plan.profileRef: "${ref}" is neither an uploaded run of this comparison nor a typed-in profile`,
      'plan.profileRef',
    );
  }
  const card = sessionRateCard(session);
  if (!card.ok) return card;
  for (const [i, v] of session.candidates.entries()) {
    const problems = validateVolume(v, session.gp3Generation);
    if (problems.length > 0)
      return fail(
        'body_invalid',
        `plan.candidates.${i}.${problems[0]!.path}: ${problems[0]!.message}`,
        `plan.candidates.${i}.${problems[0]!.path}`,
      );
  }
  const { instance } = resolveInstance(session.instanceType);
  const common = {
    profile,
    instance,
    rateCard: card.value,
    headroom: session.headroom,
    gp3Generation: session.gp3Generation,
    nodes: session.nodes,
    syncCommits: session.syncCommits,
    residency: session.residency,
    datasetGiB: session.datasetGiB,
    datasetGrowth: session.datasetGrowth ?? null,
    instanceCandidates: instance ? upgradePool(instance) : [],
    audience,
  };
  const plans = session.candidates.map((volume) => ({
    title: describe(volume),
    // Capacity: the dataset or the candidate's whole stripe, whichever is larger (planStorage decides).
    plan: planStorage({ ...common, target: { kind: 'ebs', volume } }),
  }));
  if (instance?.instanceStore?.randomReadIops) {
    plans.push({
      title: `local NVMe (${instance.instanceType} instance store)`,
      plan: planStorage({
        ...common,
        target: { kind: 'nvme' },
        nvmePremiumUsdPerHour: nvmePremium(instance.instanceType)?.usdPerHour ?? null,
        // EBS instead of the store must hold what the EBS candidates hold (or the dataset).
        ...(session.candidates[0] && session.datasetGiB === null
          ? { minSizeGiB: capacityToHold({ kind: 'ebs', volume: session.candidates[0] }, null).gib }
          : {}),
      }),
    });
  }
  if (plans.length === 0)
    plans.push({
      title: instance ? `${instance.instanceType}, no volume chosen` : 'right-sizing',
      plan: planStorage({ ...common, target: null }),
    });
  return ok(plans);
}

/**
 * The first NVMe run (reference) against the first EBS run (candidate), when the comparison holds
 * one of each: same fio job? then the rate and latency verdicts (reads and writes), else
 * `jobs_differ` and no verdict.
 */
export function compareKinds(
  runs: readonly Pick<ComparisonRun, 'id' | 'labels' | 'summary'>[],
  jobSettings: readonly RunJobSettings[],
): RunPairComparison | null {
  const side = (kind: 'ebs' | 'nvme') => {
    const i = runs.findIndex((r) => r.labels.kind === kind);
    if (i < 0) return null;
    const run = runs[i]!;
    // Unnamed runs are told apart by their kind alone (an id means nothing to a reader).
    const role = kind === 'ebs' ? 'EBS run' : 'NVMe run';
    const name = run.labels.name ? `${role} "${run.labels.name}"` : role;
    return { id: run.id, name, headline: run.summary.headline, jobSettings: jobSettings[i] ?? null };
  };
  const ebs = side('ebs');
  const nvme = side('nvme');
  return ebs && nvme ? compareRunPair(nvme, ebs) : null;
}

export function buildComparison(
  runs: readonly ComparisonRun[],
  session: PlanSession | null,
  /** Who reads it: a share link and the planning page are read in the web app (settingHint). */
  { audience = 'cli' }: { audience?: Audience } = {},
): Result<ComparisonResult> {
  if (!session) return buildStoredPlansComparison(runs.map(comparedRunOf));
  // The profiles feed only a session's plans: without one, the runs' stored plans are shown, and
  // profiling both reports again (the regression gate after every CI upload) would be wasted.
  const profiles = sessionProfiles(session, runs);
  if (!profiles.ok) return profiles;
  const p = planFromSession(session, profiles.value, audience);
  if (!p.ok) return p;
  const card = sessionRateCard(session);
  if (!card.ok) return card;
  const rates = { region: card.value.region, source: card.value.source, date: card.value.date };
  return ok(comparisonOf(runs.map(comparedRunOf), p.value, rates));
}

/**
 * The comparison without a session (the regression gate's): the runs' stored plans, priced as the
 * first of them was. Reads only what ComparedRun holds.
 */
export function buildStoredPlansComparison(runs: readonly ComparedRun[]): Result<ComparisonResult> {
  const plans = runs.flatMap((r) =>
    r.summary.plan ? [{ title: r.labels.name ?? r.id, plan: r.summary.plan }] : [],
  );
  const first = plans[0]?.plan.rates ?? resolveRateCard(null).rateCard;
  return ok(comparisonOf(runs, plans, { region: first.region, source: first.source, date: first.date }));
}

function comparisonOf(
  runs: readonly ComparedRun[],
  plans: ComparisonResult['plans'],
  rates: ComparisonResult['rates'],
): ComparisonResult {
  const jobSettings = runs.map((r) => r.jobSettings);
  const nvmeVsEbs = compareKinds(runs, jobSettings);
  const verdict = nvmeVsEbs?.verdict;
  return {
    runs: runs.map((r) => ({
      id: r.id,
      labels: r.labels,
      fioVersion: r.fioVersion,
      summary: r.summary,
      jobSettings: r.jobSettings,
    })),
    plans,
    latency: verdict?.status === 'given' ? (verdict.latency.read ?? verdict.latency.write) : null,
    nvmeVsEbs,
    warnings: nvmeVsEbs?.warnings ?? [],
    rates,
  };
}
