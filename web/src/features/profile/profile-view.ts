import { LIMIT_IDS, type PlanResult, type Warning } from '@blockwise/shared';

/**
 * Shapes a plan's profile summary into table rows, and places each warning next to the number it
 * is about (warnings carry a `subject`: `read.bytesPerSec`, `runtime`, `blockSize`, a limit id…).
 * No arithmetic: every number is the domain's.
 */

export type WarningSlot =
  'read' | 'write' | 'blockSize' | 'runtime' | 'latency' | 'demand' | 'limits' | 'labels' | 'general';

const LIMIT_SET = new Set<string>(LIMIT_IDS);

export function slotOf(subject: string | undefined): WarningSlot {
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
    general: [],
  };
  const seen = new Set<string>();
  for (const w of warnings) {
    const key = `${w.code}|${w.subject ?? ''}|${w.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out[slotOf(w.subject)].push(w);
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
