import type { Comparison } from '../api/contract.ts';
import { deliveredOf, deliveredRatio, roleOfJobSettings, type Delivered } from '../demand/evidence-role.ts';
import type { IoProfile } from '../profile/io-profile.schema.ts';
import { profileFromObserved } from '../profile/observed.ts';
import type { RunLabels } from '../records/run.ts';
import { formatDecimal, formatInt, MiB } from '../units.ts';

/**
 * The answer when there is no demand, only capacity evidence (issue 27): what each storage
 * delivered and how they compare, and the workload's peaks asked for — never "Needs …", since a
 * benchmark at saturation says what the storage can do, not what the workload asks. The planning
 * page (web CapacityAnswer) and a share link saved from such a session (its page and its HTML)
 * say it in these words.
 */

/** One storage configuration's measured delivery: read + write, and its p99 latency when measured. */
export type CapacityEvidence = {
  title: string;
  /** What measured it: "fio · EBS", "sysbench". */
  kindLabel: string;
  delivered: Delivered;
  p99Ms: number | null;
  /** The p99 is an upper bound (fio per-job percentiles merged: the largest job's), not the value. */
  p99Approximate: boolean;
};

/**
 * What a measured profile (a benchmark's) delivered, and its p99 latency as CapacityEvidence
 * carries them: the planning page's capacity answer and a share link's word them alike.
 */
export function profileEvidence(
  profile: IoProfile,
): Pick<CapacityEvidence, 'delivered' | 'p99Ms' | 'p99Approximate'> {
  return { delivered: deliveredOf(profile), ...profileP99(profile) };
}

/** A profile's p99 latency, writes first, and whether it is an upper bound (see CapacityEvidence). */
function profileP99(profile: IoProfile): Pick<CapacityEvidence, 'p99Ms' | 'p99Approximate'> {
  const latency =
    profile.write.latency?.percentiles['99'] !== undefined ? profile.write.latency : profile.read.latency;
  const p99Ms = latency?.percentiles['99'] ?? null;
  return { p99Ms, p99Approximate: p99Ms !== null && latency!.approximate };
}

const KIND_WORD = { ebs: 'EBS', nvme: 'NVMe' } as const;

/**
 * How a stored run is named where the planning page named it by its file (a comparison keeps no
 * file name): its name label, else what it ran on — "EBS run", "NVMe run 2" when several unnamed
 * runs of a kind — never its 22-character id.
 */
export function storedRunTitle(
  run: { id: string; labels: RunLabels },
  runs: readonly { id: string; labels: RunLabels }[],
): string {
  if (run.labels.name) return run.labels.name;
  const kind = run.labels.kind ?? null;
  const same = runs.filter((r) => !r.labels.name && (r.labels.kind ?? null) === kind);
  const word = `${kind ? KIND_WORD[kind] : 'fio'} run`;
  return same.length > 1 ? `${word} ${same.findIndex((r) => r.id === run.id) + 1}` : word;
}

/**
 * The planning page's ask for the workload's peaks (its answer box, where "import its production
 * metrics" is a link, and its CSV export): one wording, in parts.
 */
export const SESSION_ASK = {
  question: 'What does the workload ask at its peak?',
  enter: 'Enter its peaks from a dashboard and the data it holds, or',
  importMetrics: 'import its production metrics',
  then: ', and the answer sizes on them.',
} as const;

/** The answer box's note (and an export's subject) when there is no demand at all. */
export const NO_DEMAND_NOTE = 'No demand: what each storage delivered';

export const CAPACITY_LEAD =
  'These runs went as fast as the storage allowed: they say what each storage delivered, not what your workload needs.';

/** "fio · EBS" for a run labelled EBS, "fio" for one without a kind. */
export function fioKindLabel(kind: 'ebs' | 'nvme' | null | undefined): string {
  return kind === 'nvme' ? 'fio · NVMe' : kind === 'ebs' ? 'fio · EBS' : 'fio';
}

/** "22,130 IOPS and 86 MiB/s (read + write), p99 latency 1.20 ms" ("≤ 1.20 ms": an upper bound). */
export function deliveredText(e: Pick<CapacityEvidence, 'delivered' | 'p99Ms' | 'p99Approximate'>): string {
  const { iops, bytesPerSec } = e.delivered;
  const p99 =
    e.p99Ms !== null ? `, p99 latency ${e.p99Approximate ? '≤ ' : ''}${formatDecimal(e.p99Ms, 2)} ms` : '';
  return `${formatInt(iops)} IOPS and ${formatDecimal(bytesPerSec / MiB, 0)} MiB/s (read + write)${p99}`;
}

/**
 * With two or more, the best (by IOPS) against each other: "b delivered 2.1× the IOPS of a and
 * 1.9× its throughput. What each delivered is …". null with fewer than two.
 */
export function deliveredComparison(evidence: readonly CapacityEvidence[]): string | null {
  if (evidence.length < 2) return null;
  const best = evidence.reduce((a, b) => (b.delivered.iops > a.delivered.iops ? b : a));
  const text = evidence
    .filter((m) => m !== best)
    .map((m) => {
      const r = deliveredRatio(m.delivered, best.delivered);
      return `${best.title} delivered ${r.iops === null ? 'IOPS where' : `${formatDecimal(r.iops, 1)}× the IOPS of`} ${m.title}${r.bytesPerSec === null ? '' : ` and ${formatDecimal(r.bytesPerSec, 1)}× its throughput`}`;
    })
    .join('; ');
  return `${text}. What each delivered is what that storage can do under that job, not what your workload needs.`;
}

/** A share link's capacity answer: the lines the page and its HTML show, and the export's text. */
export type StoredCapacityAnswer = {
  /** One line per storage: "EBS a (fio · EBS) delivered 22,130 IOPS and 86 MiB/s (read + write)." */
  lines: string[];
  /** The same, per storage as parts (an export's row per storage): its title, what measured it, what it delivered. */
  delivered: { title: string; kindLabel: string; text: string }[];
  comparison: string | null;
  /**
   * The demand a link saved before replay marks were kept holds but was not sized on (its plans
   * are on the run at saturation it named first): typed-in peaks or production metrics, a
   * rate-limited run, a run marked as replaying the load. Empty when it holds none.
   */
  unsizedDemand: string[];
  /** The answer's first line, bold part then the rest: "No demand yet." or the unsized demand (capacityLead). */
  lead: { strong: string; text: string };
  /** The answer box's note (and the export's subject): no demand, or demand held but not sized on. */
  note: string;
  /** What the reader does next: the workload's peaks, in a planning session. */
  ask: string;
  /**
   * Above the plans a link saved before replay marks were kept still shows (sized on the run at
   * saturation it named): "What-if on run 1 (a benchmark at saturation), not the workload's need."
   * null when it stored no plan.
   */
  plansNote: string | null;
};

/**
 * The capacity answer's first line. Without demand: "No demand yet." With demand the link holds
 * but was not sized on (unsizedDemand), it says so instead of asking for what it already has.
 */
function capacityLead(unsizedDemand: readonly string[]): StoredCapacityAnswer['lead'] {
  if (unsizedDemand.length === 0) return { strong: 'No demand yet.', text: CAPACITY_LEAD };
  return {
    strong: 'Not sized on the workload’s demand.',
    text: `This link was sized on a benchmark run, not on ${listOf(unsizedDemand)}: open it as a planning session to size on them. ${CAPACITY_LEAD}`,
  };
}

/** "a", "a and b", "a, b and c". */
function listOf(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
}

/** The demand sources a stored session holds besides its profile's run (see unsizedDemand). */
function demandSourcesOf({ plan, result }: Pick<Comparison, 'plan' | 'result'>): string[] {
  if (!plan) return [];
  const marked = plan.replaysLoad ?? [];
  const runs = result.runs
    .filter((r) => roleOfJobSettings(r.jobSettings).role !== 'capacity' || marked.includes(`run:${r.id}`))
    .map(
      (r) =>
        `${storedRunTitle(r, result.runs)} (${marked.includes(`run:${r.id}`) ? 'a run marked as replaying the load' : 'a rate-limited run'})`,
    );
  const observed = plan.observed
    .filter((o) => o.role !== 'capacity')
    .map((o) => `the workload’s peaks “${o.label ?? o.id}”`);
  return [...observed, ...runs];
}

const STORED_ASK =
  'What does the workload ask at its peak? Open this as a new planning session and enter its peaks from a dashboard and the data it holds, or import its production metrics: the answer then sizes on them.';

/** A link holding demand it was not sized on (unsizedDemand): the lead says how to size on it. */
const UNSIZED_ASK =
  'Open this as a new planning session: the answer then sizes on the workload’s demand, not on a benchmark.';

/** A link saved before replay marks were kept: a run that replayed the load can still be marked. */
const LEGACY_ASK = `${STORED_ASK} If one of these runs replays the workload’s load, mark it there (“This run replays our load”) to size on it.`;

/**
 * Whether a stored comparison answers with what each storage delivered instead of a plan. Saved
 * from a session without demand: no plan was stored. Or saved by the web before the user's replay
 * marks were kept (no `replaysLoad`): it named the first run as the profile whatever its role, so
 * a profileRef naming a run at saturation (roleOfJobSettings) is no demand source, and the plans
 * stored on it size on what a storage delivered, not on what a workload asks.
 */
function answersWithCapacity({ plan, result }: Pick<Comparison, 'plan' | 'result'>): boolean {
  if (plan === null) return false;
  if (result.plans.length === 0) return true;
  return savedBeforeReplayMarks({ plan, result });
}

/**
 * The run a link saved before replay marks were kept was sized on: its profileRef, or — none named
 * (an API client) — the first run, which the server then took whatever its role (runs came first
 * among the profiles). null when the link keeps its marks or was sized on no run.
 */
function legacyProfileRun({ plan, result }: Pick<Comparison, 'plan' | 'result'>) {
  if (!plan || plan.replaysLoad !== undefined) return null;
  const ref = plan.profileRef ?? (result.runs[0] ? `run:${result.runs[0].id}` : null);
  return result.runs.find((r) => `run:${r.id}` === ref) ?? null;
}

/** A session stored without replay marks, sized on a run at saturation (see above). */
function savedBeforeReplayMarks(comparison: Pick<Comparison, 'plan' | 'result'>): boolean {
  const run = legacyProfileRun(comparison);
  return run !== null && roleOfJobSettings(run.jobSettings).role === 'capacity';
}

/** Whether a stored comparison's plans are its answer (see answersWithCapacity). */
export function answersWithPlans(comparison: Pick<Comparison, 'plan' | 'result'>): boolean {
  return comparison.plan !== null && !answersWithCapacity(comparison);
}

/**
 * The answer of a comparison saved from a planning session that held capacity evidence only (no
 * plan was stored, planFromSession; or a link saved before replay marks were kept whose plans are
 * on a run at saturation, answersWithCapacity): the runs' stored headlines (read + write, as the planning
 * page's profiles measured them) and the session's benchmark entries. null when the comparison
 * holds a plan, or was made from runs alone (storedAnswerPlan answers those).
 */
export function storedCapacityAnswer(
  comparison: Pick<Comparison, 'plan' | 'result'>,
): StoredCapacityAnswer | null {
  const { plan, result } = comparison;
  if (plan === null || !answersWithCapacity(comparison)) return null;
  // Only runs at saturation are capacity evidence: a rate-capped run, or one the user marked as
  // replaying the load (a legacy link may hold one after its first run), delivered what it was asked.
  const capacityRuns = result.runs.filter(
    (r) =>
      roleOfJobSettings(r.jobSettings).role === 'capacity' &&
      !(plan.replaysLoad ?? []).includes(`run:${r.id}`),
  );
  const evidence: CapacityEvidence[] = capacityRuns.map((r) => {
    const h = r.summary.headline;
    const p99Ms = h.writeClatMs?.['99'] ?? h.readClatMs?.['99'] ?? null;
    return {
      title: storedRunTitle(r, result.runs),
      kindLabel: fioKindLabel(r.labels.kind),
      delivered: {
        iops: h.readIops + h.writeIops,
        bytesPerSec: h.readBytesPerSec + h.writeBytesPerSec,
      },
      p99Ms,
      p99Approximate: p99Ms !== null && h.clatApproximate,
    };
  });
  for (const o of plan.observed) {
    if (o.role !== 'capacity') continue;
    const p = profileFromObserved(o);
    if (!p.ok) continue;
    evidence.push({
      title: o.label ?? o.id,
      // What measured it, as the planning page names it (kept since; before: a benchmark).
      kindLabel: o.kind ?? 'benchmark',
      ...profileEvidence(p.value),
    });
  }
  // Only a link sized on a run at saturation holds demand it did not size on (one without plans
  // had none: planFromSession sizes on any).
  const unsizedDemand = demandSourcesOf(comparison);
  const profileRun = result.plans.length > 0 ? legacyProfileRun(comparison) : null;
  const delivered = evidence.map((e) => ({ title: e.title, kindLabel: e.kindLabel, text: deliveredText(e) }));
  return {
    lines: delivered.map((e) => `${e.title} (${e.kindLabel}) delivered ${e.text}.`),
    delivered,
    comparison: deliveredComparison(evidence),
    unsizedDemand,
    lead: capacityLead(unsizedDemand),
    note: unsizedDemand.length > 0 ? 'Not sized on its demand: what each storage delivered' : NO_DEMAND_NOTE,
    plansNote: profileRun
      ? `What-if on ${storedRunTitle(profileRun, result.runs)} (a benchmark at saturation), not the workload’s need.`
      : null,
    ask:
      unsizedDemand.length > 0 ? UNSIZED_ASK : savedBeforeReplayMarks(comparison) ? LEGACY_ASK : STORED_ASK,
  };
}
