import { FleetPlanSchema, type FleetPlan } from '../fleet/schema.ts';
import { ANALYSIS_VERSION } from '../plan/plan.ts';
import { fail, ok, type Result } from '../problem.ts';
import { decodeStoredJson, parseStoredWith, type StoredRead } from './stored-summary.ts';

/**
 * The versioned reader of a stored fleet plan (table fleet_plans): the one place a plan stored
 * under an earlier analysis version is turned into today's FleetPlan. Share links of fleet plans
 * are served with a one-year immutable cache, so a plan is never recomputed: when FleetPlanSchema
 * gains a required field, the version that adds it bumps ANALYSIS_VERSION and registers the
 * previous version here with an upcaster that fills the field (or leaves the plan as it is, when
 * its shape did not change). The fixture test (fixtures/stored/fleet-plan-<version>.json) fails
 * on a version bump until that is done.
 *
 * Unlike a run summary (which the server re-analyses from the raw bytes it kept), a fleet plan has
 * nothing to recompute from: a version this build cannot read — newer than this build, or an older
 * one without an upcaster — is a problem value, never a guess at today's schema.
 */

type FleetPlanUpcaster = (plan: unknown) => unknown;

/**
 * Earlier analysis versions → what turns their stored plan into today's shape (before parsing
 * with FleetPlanSchema). Fleet plans were first stored under 2026.11.2.
 *
 * 2026.11.2 → 2026.11.3: the identity. What 2026.11.3 added to a plan is optional in
 * FleetPlanSchema and absent means "not looked for", which is what a 2026.11.2 plan is and how
 * every reader takes it (`?? []`, `complete === false`): per volume `alternatives`, `instanceFlag`,
 * `censored`, `incomplete` and `observed.peakIops` / `peakMibps` / `resolutionSeconds` / `source`;
 * per plan `instances`, `complete`, `incomplete`, `ignoreRecurring`. Filling them would claim a
 * check the plan never made (`complete: true`, no cheaper type, no instance bound).
 */
const FLEET_PLAN_UPCASTERS: Readonly<Record<string, FleetPlanUpcaster>> = {
  '2026.11.2': (plan) => plan,
};

/** The analysis versions whose stored fleet plans this build reads. */
export const READABLE_FLEET_PLAN_VERSIONS: readonly string[] = [
  ...Object.keys(FLEET_PLAN_UPCASTERS),
  ANALYSIS_VERSION,
];

/** Dotted numeric versions (2026.11.3) in order; a non-numeric part compares as 0. */
function compareVersions(a: string, b: string): number {
  const as = a.split('.').map(Number);
  const bs = b.split('.').map(Number);
  for (let i = 0; i < Math.max(as.length, bs.length); i += 1) {
    const d = (Number.isFinite(as[i]) ? as[i]! : 0) - (Number.isFinite(bs[i]) ? bs[i]! : 0);
    if (d !== 0) return d;
  }
  return 0;
}

function unreadableVersion(analysisVersion: string): ReturnType<typeof fail> {
  const why =
    compareVersions(analysisVersion, ANALYSIS_VERSION) > 0
      ? `newer than this build's ${ANALYSIS_VERSION} (serve it with that release or later)`
      : `not one this build reads (${READABLE_FLEET_PLAN_VERSIONS.join(', ')})`;
  return fail(
    'stored_record_invalid',
    `analysisVersion: the plan was stored by analysis version "${analysisVersion}", ${why}`,
    'analysisVersion',
  );
}

/**
 * A stored fleet plan (JSON text, or the value a driver decoded) in today's shape, or a
 * `stored_record_invalid` problem naming the field: not JSON, not a FleetPlan, or stored by an
 * analysis version this build cannot read.
 */
export function readStoredFleetPlan(json: unknown, analysisVersion: string): Result<StoredRead<FleetPlan>> {
  const upcaster = FLEET_PLAN_UPCASTERS[analysisVersion];
  if (!upcaster && analysisVersion !== ANALYSIS_VERSION) return unreadableVersion(analysisVersion);
  const decoded = decodeStoredJson(json, 'body');
  if (!decoded.ok) return decoded;
  const parsed = parseStoredWith(FleetPlanSchema, upcaster ? upcaster(decoded.value) : decoded.value, 'body');
  if (!parsed.ok) return parsed;
  return ok({ value: parsed.value, upgradedFrom: upcaster ? analysisVersion : null });
}
