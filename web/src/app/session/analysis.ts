import { applyRateOverrides, type RateCard } from '@blockwise/shared/aws';
import {
  chooseDemandSource,
  roleOfEvidence,
  type DemandChoice,
  type EvidenceRole,
} from '@blockwise/shared/demand';
import { validateVolume } from '@blockwise/shared/plan';
import { type Problem, type Result } from '@blockwise/shared/problem';
import { profileFromFio, profileFromObserved, type IoProfile } from '@blockwise/shared/profile';
import { type ComparisonResult, type PlanSession, type RunSummary } from '@blockwise/shared/records';
import type { PlanContext } from '../../features/metrics-import/series-view.ts';
import type { Catalog } from '../../lib/catalog.ts';
import {
  importedProfile,
  observedOf,
  refOf,
  toPlanSession,
  type Candidate,
  type SessionInput,
  type SessionState,
} from './session-state.ts';

/**
 * Everything the planning page shows, computed by @blockwise/shared from the session: per input
 * its profile (no catalog needed; for a metrics export, the chosen sizing statistic's) and
 * stored-style summary, and for the session the very
 * ComparisonResult "Save & share" will freeze (`buildComparison`, the server's own function).
 * Settings the user is still typing (an invalid candidate, a malformed rate override) are left
 * out of the computation and reported next to their inputs instead of blanking the page.
 */

export type InputAnalysis = {
  profile: Result<IoProfile> | null;
  summary: RunSummary | null;
};

export type NvmePremium = ReturnType<Catalog['nvmePremium']>;

export type SessionAnalysis = {
  inputs: Map<string, InputAnalysis>;
  /** null until the catalog is loaded or when there is nothing to plan. */
  result: Result<ComparisonResult> | null;
  /** The PlanSession actually computed (valid candidates and rates only). */
  effective: PlanSession;
  /** Per candidate index: what is wrong with it (empty = valid, included). */
  candidateProblems: Problem[][];
  /** Index in `effective.candidates` → index in the session's candidates. */
  candidateIndex: number[];
  rateProblem: Problem | null;
  rateCard: RateCard | null;
  nvmePremiums: Record<string, NvmePremium>;
  hasProfiles: boolean;
  /** Per input id: demand (what the workload asks) or capacity (what a storage delivered), and why. */
  roles: Map<string, { role: EvidenceRole; why: string }>;
  /** The demand source sized on (null ref: capacity evidence only), and one waiting to be offered. */
  demand: DemandChoice;
};

/** Summaries are cached per input object (inputs are immutable: a label edit makes a new one). */
const summaryCache = new WeakMap<SessionInput, RunSummary>();
const profileCache = new WeakMap<SessionInput, Result<IoProfile>>();

function profileOf(input: SessionInput): Result<IoProfile> | null {
  const cached = profileCache.get(input);
  if (cached) return cached;
  let result: Result<IoProfile> | null = null;
  if (input.kind === 'observed') result = profileFromObserved(input.metrics);
  else if (input.kind === 'fio') {
    if (input.report) result = profileFromFio(input.report, { label: input.labels.name ?? null });
  } else {
    // A metrics export or a sysbench run: its own profile (shown on its card), planned as the
    // observed entry the session stores — so one the API would refuse is reported here.
    const entry = observedOf(input);
    result = entry && !entry.ok ? entry : importedProfile(input);
  }
  if (result) profileCache.set(input, result);
  return result;
}

/** Demand or capacity (@blockwise/shared/demand roleOfEvidence); null for a fio file not read yet. */
function roleOf(input: SessionInput): { role: EvidenceRole; why: string } | null {
  switch (input.kind) {
    case 'fio':
      return input.report
        ? roleOfEvidence({ kind: 'fio', report: input.report, replaysLoad: input.replaysLoad === true })
        : null;
    case 'observed':
      return roleOfEvidence({ kind: input.capacity ? 'sysbench' : 'typed' });
    case 'series':
      return roleOfEvidence({ kind: 'metrics' });
    case 'sysbench':
      return roleOfEvidence({ kind: 'sysbench' });
  }
}

export function analyzeSession(state: SessionState, catalog: Catalog | null): SessionAnalysis {
  const inputs = new Map<string, InputAnalysis>();
  for (const input of state.inputs) {
    let summary: RunSummary | null = null;
    if (catalog && input.kind === 'fio' && input.report) {
      summary = summaryCache.get(input) ?? catalog.summarizeRun(input.report, input.labels);
      summaryCache.set(input, summary);
    }
    inputs.set(input.id, { profile: profileOf(input), summary });
  }

  const { settings } = state;
  const candidateProblems = settings.candidates.map((c) => validateVolume(c, settings.gp3Generation));
  const valid: Candidate[] = [];
  const candidateIndex: number[] = [];
  settings.candidates.forEach((c, i) => {
    if (candidateProblems[i]!.length === 0) {
      valid.push(c);
      candidateIndex.push(i);
    }
  });

  let rateProblem: Problem | null = null;
  let rateOverrides = settings.rateOverrides;
  let rateCard: RateCard | null = null;
  if (catalog) {
    const base = catalog.rateCardFor(settings.region) ?? catalog.defaultRateCard();
    rateCard = base;
    if (rateOverrides) {
      const applied = applyRateOverrides(base, rateOverrides);
      if (applied.ok) rateCard = applied.value;
      else {
        rateProblem = applied.error;
        rateOverrides = null;
      }
    }
  }

  // The profile planned for: a demand source — the user's choice, else the newest (chooseDemandSource).
  // With capacity evidence only, the sections below still plan on a run (the chosen one, else the
  // first) as a what-if; the answer says no demand is known (AnswerSummary).
  const roles = new Map<string, { role: EvidenceRole; why: string }>();
  for (const input of state.inputs) {
    const role = roleOf(input);
    if (role) roles.set(input.id, role);
  }
  const usableInputs = state.inputs.filter((i) => profileOf(i)?.ok === true);
  const usable = usableInputs.map(refOf);
  const demand = chooseDemandSource(
    usableInputs.map((i) => ({ ref: refOf(i), role: roles.get(i.id)?.role ?? 'capacity' })),
    settings.profileRef,
  );
  const profileRef =
    demand.ref ??
    (settings.profileRef && usable.includes(settings.profileRef) ? settings.profileRef : (usable[0] ?? null));
  const effective = toPlanSession(state, { ...settings, candidates: valid, rateOverrides, profileRef });
  const hasProfiles = usable.length > 0;

  const nvmePremiums: Record<string, NvmePremium> = {};
  let result: SessionAnalysis['result'] = null;
  if (catalog && hasProfiles) {
    const runs = state.inputs.flatMap((input) => {
      const summary = inputs.get(input.id)?.summary;
      return input.kind === 'fio' && input.report && summary
        ? [{ id: input.id, labels: input.labels, report: input.report, summary }]
        : [];
    });
    result = catalog.buildComparison(runs, effective, { audience: 'web' });
    const types = new Set<string>();
    if (settings.instanceType) types.add(settings.instanceType);
    for (const r of runs)
      if (r.labels.kind === 'nvme' && r.labels.instanceType) types.add(r.labels.instanceType);
    for (const t of types) nvmePremiums[t] = catalog.nvmePremium(t);
  }

  return {
    inputs,
    result,
    effective,
    candidateProblems,
    candidateIndex,
    rateProblem,
    rateCard,
    nvmePremiums,
    hasProfiles,
    roles,
    demand,
  };
}

/** The settings an imported metrics series' per-statistic plans take from the session. */
export type SeriesPlanSettings = Pick<
  PlanSession,
  | 'instanceType'
  | 'headroom'
  | 'gp3Generation'
  | 'nodes'
  | 'syncCommits'
  | 'residency'
  | 'datasetGiB'
  | 'datasetGrowth'
> & { candidate: Candidate | null };

export function seriesPlanSettings(session: PlanSession): SeriesPlanSettings {
  return {
    instanceType: session.instanceType,
    headroom: session.headroom,
    gp3Generation: session.gp3Generation,
    nodes: session.nodes,
    syncCommits: session.syncCommits,
    residency: session.residency,
    datasetGiB: session.datasetGiB,
    datasetGrowth: session.datasetGrowth ?? null,
    candidate: session.candidates[0] ?? null,
  };
}

/**
 * The session's planning settings as an imported metrics series' per-statistic plans take them:
 * the same instance, rates, headroom and first candidate the session's own plan uses. null until
 * the catalog is loaded.
 */
export function planContextOf(
  settings: SeriesPlanSettings,
  rateCard: RateCard | null,
  catalog: Catalog | null,
): PlanContext | null {
  if (!catalog || !rateCard) return null;
  const { instance } = catalog.resolveInstance(settings.instanceType);
  return {
    ...settings,
    instance,
    instanceCandidates: instance ? catalog.upgradePool(instance) : [],
    rateCard,
  };
}
