import {
  rateCapsOfOptions,
  rateCapText,
  withRateCaps,
  type RunJobSettings,
} from '../compare/compare-jobs.ts';
import type { FioReport } from '../fio/fio-report.schema.ts';
import type { IoProfile } from '../profile/io-profile.schema.ts';
import { stepText } from './format.ts';

/**
 * Demand and capacity are different evidence (docs/domain.md §14, "Demand or capacity"). Demand is
 * what a workload asks of its storage: production metrics, peaks typed in from a dashboard, or a fio
 * run that replays the load at a set rate. Capacity is what a storage configuration delivered: a fio
 * run at saturation (no rate set: fio issues I/O as fast as the device completes it), a sysbench run.
 * Sizing (the answer's "Needs …") reads demand only; capacity evidence is compared, never sized on.
 */

export type EvidenceRole = 'demand' | 'capacity';

/** What a session input is, as far as its role goes. */
type EvidenceKind = 'metrics' | 'typed' | 'fio' | 'sysbench';

/** A fio rate cap that turns a run into a replay of demand: the option and its value per direction. */
export type FioRateCap = { setting: 'rate' | 'rate_iops'; text: string };

export type RoleVerdict = { role: EvidenceRole; why: string };

/**
 * The `rate` / `rate_iops` caps of a run's jobs (HOWTO `rate`: bytes/s per direction, `rate_iops`:
 * I/O per second per direction; 0 or absent: no cap). `rate_min` is a floor fio aborts below, not a
 * cap: a run with it alone still runs at saturation. A value fio would not take is no cap.
 */
export function fioRateCaps(report: FioReport): FioRateCap[] {
  const caps: FioRateCap[] = [];
  const seen = new Set<string>();
  for (const job of report.jobs) {
    // The same numbers a comparison keeps with the run (rateCapsOfOptions), so both agree.
    const numbers = rateCapsOfOptions(job.options, job.settings.kbBase);
    for (const setting of ['rate', 'rate_iops'] as const) {
      if ((setting === 'rate' ? numbers.bytesPerSec : numbers.iops) === null) continue;
      const text = job.options[setting]!;
      const key = `${setting}=${text}`;
      if (seen.has(key)) continue;
      seen.add(key);
      caps.push({ setting, text });
    }
  }
  return caps;
}

/**
 * Whether a fio run is demand (it replays a load at a set rate, or the user says it replays theirs)
 * or capacity (it ran at saturation: what the storage delivered).
 */
export function roleOfFioRun(report: FioReport, { replaysLoad }: { replaysLoad: boolean }): RoleVerdict {
  if (replaysLoad) return { role: 'demand', why: 'marked as replaying the workload’s load' };
  return roleOfRateCaps(fioRateCaps(report).map((c) => `${c.setting}=${c.text}`));
}

/** A run's role from its rate caps ("rate_iops=500"): any cap replays a load, none is saturation. */
function roleOfRateCaps(caps: readonly string[]): RoleVerdict {
  if (caps.length > 0) return { role: 'demand', why: `rate-limited (${caps.join(', ')}): it replays a load` };
  return {
    role: 'capacity',
    why: 'no rate set: fio ran at saturation, so it measured what the storage delivered',
  };
}

/**
 * The role of a stored run (a share link's) from the rate caps kept with its job settings, as
 * numbers (`rateCaps`: read from the same fio options fioRateCaps reads; a comparison frozen before
 * they were kept has them derived from its settings' text, withRateCaps, here as on the server). A
 * run stored without either (a comparison older than option settings) has no known cap: a fio benchmark runs at saturation unless
 * told otherwise, so it is capacity evidence — never sized on as a workload's need.
 */
export function roleOfJobSettings(settings: RunJobSettings | undefined): RoleVerdict {
  const caps = new Set<string>();
  let known = false;
  for (const job of settings ?? []) {
    // A reader can be handed JSON written before rate caps were kept (a browser's cached copy of a
    // comparison): derive them from the settings' text here too, not only where the server reads.
    const rateCaps = job.rateCaps ?? withRateCaps(job).rateCaps;
    if (!rateCaps) continue;
    known = true;
    const { bytesPerSec, iops } = rateCaps;
    if (bytesPerSec) caps.add(`rate=${rateCapText(bytesPerSec, 'bytes')}`);
    if (iops) caps.add(`rate_iops=${rateCapText(iops, 'iops')}`);
  }
  if (!known)
    return {
      role: 'capacity',
      why: 'its fio options were not kept with this link, so no rate cap is known: fio runs at saturation unless one is set',
    };
  return roleOfRateCaps([...caps]);
}

/** The role of each kind of input (a fio run by its settings, see roleOfFioRun). */
export function roleOfEvidence(
  evidence: { kind: Exclude<EvidenceKind, 'fio'> } | { kind: 'fio'; report: FioReport; replaysLoad: boolean },
): RoleVerdict {
  switch (evidence.kind) {
    case 'metrics':
      return { role: 'demand', why: 'production metrics: what the workload asked' };
    case 'typed':
      return { role: 'demand', why: 'peaks typed in from a dashboard' };
    case 'sysbench':
      return { role: 'capacity', why: 'sysbench fileio runs at saturation: what the storage delivered' };
    case 'fio':
      return roleOfFioRun(evidence.report, evidence);
  }
}

/** One input of a session as a possible demand source, in the order the inputs arrived. */
export type EvidenceEntry = { ref: string; role: EvidenceRole };

export type DemandChoice = {
  /** The demand source sized on; null: the session holds capacity evidence only. */
  ref: string | null;
  /** `chosen`: the user picked it; `newest`: the latest demand source to arrive (the default). */
  basis: 'chosen' | 'newest' | 'none';
  /** A demand source that arrived after the one the user chose: offered, not switched to. */
  waiting: string | null;
};

/**
 * Which demand source the plan sizes on. The user's choice while it is a demand source; otherwise
 * the newest demand source — a source just brought (peaks typed in, a metrics import) is what the
 * user wants planned, without another click. When the user chose one and a newer one arrived
 * since, the newer one waits to be offered ("Plan for this"), never switched to behind their back.
 * Capacity evidence is never chosen, whatever ref names it.
 */
export function chooseDemandSource(
  entries: readonly EvidenceEntry[],
  chosenRef: string | null,
): DemandChoice {
  const demand = entries.filter((e) => e.role === 'demand');
  const newest = demand.at(-1)?.ref ?? null;
  const chosen = chosenRef === null ? -1 : demand.findIndex((e) => e.ref === chosenRef);
  if (chosen < 0) return { ref: newest, basis: newest === null ? 'none' : 'newest', waiting: null };
  return {
    ref: chosenRef,
    basis: 'chosen',
    waiting: chosen < demand.length - 1 ? newest : null,
  };
}

/** Where a demand number comes from: the source's name, the statistic taken, the data's resolution. */
export type DemandSourceFacts =
  | { kind: 'metrics'; name: string; statistic: 'max' | 'p99' | 'p95'; resolutionSec: number }
  | { kind: 'typed'; name: string }
  | { kind: 'fio'; name: string; runtimeSec: number | null };

const STATISTIC_TEXT = { max: 'maximum', p99: 'p99', p95: 'p95' } as const;

/**
 * The source, statistic and resolution of a demand number, as the answer names them:
 * "production metrics db.csv: maximum of 1-minute points".
 */
export function describeDemandSource(facts: DemandSourceFacts): string {
  switch (facts.kind) {
    case 'metrics':
      return `production metrics ${facts.name}: ${STATISTIC_TEXT[facts.statistic]} of ${stepText(facts.resolutionSec)} points`;
    case 'typed':
      return `peaks typed in (${facts.name}): as read from the dashboard, at its resolution`;
    case 'fio':
      return `fio replay ${facts.name}: the mean rate over the ${facts.runtimeSec === null ? 'run' : `${facts.runtimeSec}-second run`}`;
  }
}

/** What one storage configuration delivered: read + write, as the run measured them. */
export type Delivered = { iops: number; bytesPerSec: number };

export function deliveredOf(profile: IoProfile): Delivered {
  return {
    iops: profile.read.iops + profile.write.iops,
    bytesPerSec: profile.read.bytesPerSec + profile.write.bytesPerSec,
  };
}

/**
 * Two deliveries compared: how many times the first's IOPS and throughput the second delivered
 * (null when the first delivered none).
 */
export function deliveredRatio(
  a: Delivered,
  b: Delivered,
): { iops: number | null; bytesPerSec: number | null } {
  return {
    iops: a.iops > 0 ? b.iops / a.iops : null,
    bytesPerSec: a.bytesPerSec > 0 ? b.bytesPerSec / a.bytesPerSec : null,
  };
}
