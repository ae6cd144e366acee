import { CONFIGURATION_CHECK_CODES, LIMIT_IDS, type PlanResult } from '@blockwise/shared/plan';
import { type Warning } from '@blockwise/shared/problem';
import { ASSUMED_RANDOM, type Access, type AccessPattern } from '@blockwise/shared/profile';
import { fmtNum } from '../../lib/format.ts';

/**
 * Shapes a plan's profile summary into table rows, and places each warning next to the number it
 * is about (warnings carry a `subject`: `read.bytesPerSec`, `runtime`, `blockSize`, a limit id…).
 * No arithmetic: every number is the domain's.
 */

export type WarningSlot =
  | 'read'
  | 'write'
  | 'blockSize'
  | 'runtime'
  | 'latency'
  | 'demand'
  | 'limits'
  | 'labels'
  | 'access'
  | 'configuration'
  | 'general';

const LIMIT_SET = new Set<string>(LIMIT_IDS);

/**
 * Checks of the configuration rather than the benchmark (the domain's CONFIGURATION_CHECK_CODES,
 * and the missing dataset size): they sit together, whatever field they name.
 */
const CONFIGURATION_CODES = new Set<string>([...CONFIGURATION_CHECK_CODES, 'capacity_unknown']);

export function slotOf(subject: string | undefined, code?: string): WarningSlot {
  if (subject === 'access' || code === 'access_assumed_random') return 'access';
  if (code !== undefined && CONFIGURATION_CODES.has(code)) return 'configuration';
  if (!subject) return 'general';
  if (LIMIT_SET.has(subject)) return 'limits';
  if (subject.startsWith('labels.')) return 'labels';
  const parts = subject.split('.');
  if (parts.includes('clatMs') || subject === 'latency' || subject === 'syncs') return 'latency';
  if (parts.includes('read')) return 'read';
  if (parts.includes('write')) return 'write';
  if (subject === 'blockSize') return 'blockSize';
  if (subject === 'runtime') return 'runtime';
  if (subject === 'iops' || subject === 'throughput') return 'demand';
  return 'general';
}

/** Warnings by slot, de-duplicated (the same check can reach a plan twice via profile and run). */
export function placeWarnings(warnings: readonly Warning[]): Record<WarningSlot, Warning[]> {
  const out: Record<WarningSlot, Warning[]> = {
    read: [],
    write: [],
    blockSize: [],
    runtime: [],
    latency: [],
    demand: [],
    limits: [],
    labels: [],
    access: [],
    configuration: [],
    general: [],
  };
  const seen = new Set<string>();
  for (const w of warnings) {
    const key = `${w.code}|${w.subject ?? ''}|${w.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out[slotOf(w.subject, w.code)].push(w);
  }
  return out;
}

export type ProfileRow = {
  direction: 'read' | 'write';
  iops: number;
  bytesPerSec: number;
  blockSizeBytes: number | null;
  sizeClass: 'small' | 'medium' | 'large' | null;
  likelyBound: 'iops' | 'either' | 'throughput' | null;
  warnings: Warning[];
};

export const SIZE_CLASS_TEXT = {
  small: 'small (< 32 KiB)',
  medium: 'medium (32–128 KiB)',
  large: 'large (≥ 128 KiB)',
} as const;

export const BOUND_TEXT = {
  iops: 'IOPS-bound',
  either: 'IOPS or throughput',
  throughput: 'throughput-bound',
} as const;

export function profileRows(plan: PlanResult): { rows: ProfileRow[]; slots: Record<WarningSlot, Warning[]> } {
  const slots = placeWarnings(plan.warnings);
  const rows = (['read', 'write'] as const).map((direction) => {
    const d = plan.profile[direction];
    return {
      direction,
      iops: d.iops,
      bytesPerSec: d.bytesPerSec,
      blockSizeBytes: d.blockSizeBytes,
      sizeClass: d.sizeClass,
      likelyBound: d.likelyBound,
      warnings: slots[direction],
    };
  });
  return { rows, slots };
}

export const ACCESS_ORIGIN_TEXT: Record<Access['origin'], string> = {
  fio: 'from fio rw=',
  sysbench: 'from the sysbench test mode',
  stated: 'as stated with the numbers',
  assumed: 'assumed — nobody said',
};

export const ACCESS_PATTERN_TEXT: Record<AccessPattern, string> = {
  random: 'random',
  sequential: 'sequential',
  mixed: 'mixed (random and sequential)',
};

/**
 * How the profile's I/O lands on the device, in words: "sequential (from fio rw=)",
 * "random (assumed — nobody said)", "reads random, writes sequential (from fio rw=)". Without the
 * profile (a share view), a plan that warns `access_assumed_random` is known to assume random;
 * otherwise nothing is said (null).
 */
export function accessText(access: Access | null, plan: PlanResult): string | null {
  const a = access ?? (plan.warnings.some((w) => w.code === 'access_assumed_random') ? ASSUMED_RANDOM : null);
  if (!a) return null;
  // A direction without I/O has no pattern worth naming.
  const reads = plan.profile.read.iops > 0;
  const writes = plan.profile.write.iops > 0;
  const pattern =
    a.read === a.write || !(reads && writes)
      ? ACCESS_PATTERN_TEXT[reads || !writes ? a.read : a.write]
      : `reads ${ACCESS_PATTERN_TEXT[a.read]}, writes ${ACCESS_PATTERN_TEXT[a.write]}`;
  return `${pattern} (${ACCESS_ORIGIN_TEXT[a.origin]})`;
}

/**
 * Where an observed profile's peaks came from, when the page knows: an import (a metrics export
 * or sysbench run, labelled with its file and statistic by the session) or numbers typed into the
 * form. A share view does not know (a stored session keeps only the label).
 */
export type ObservedOrigin = 'imported' | 'typed' | 'unknown';

/**
 * "Measured for": the run's duration, or for peak values where they came from. Only an import
 * claims a source ("peak values from CloudWatch volume-queue.csv, max of 5-minute points"); a
 * typed-in entry the user named is "typed in: <name>", and a label of unknown origin is shown as
 * a label, never as a source.
 */
export function measuredForText(
  profile: Pick<PlanResult['profile'], 'durationSec' | 'label' | 'source'>,
  origin: ObservedOrigin = 'unknown',
): string {
  if (profile.durationSec !== null) return `${fmtNum(profile.durationSec, 1)} s`;
  if (profile.source !== 'observed' || !profile.label) return 'peak values (typed in)';
  if (origin === 'imported') return `peak values from ${profile.label}`;
  if (origin === 'typed') return `typed in: ${profile.label}`;
  return `peak values, labelled “${profile.label}”`;
}
