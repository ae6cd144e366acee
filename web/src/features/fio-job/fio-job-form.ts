import {
  DEFAULT_FIO_RAMP_SEC,
  DEFAULT_FIO_RUNTIME_SEC,
  type FioEngine,
  type FioJobOptions,
} from '@blockwise/shared/fio-job';
import { volumeToLabels, type VolumeConfig } from '@blockwise/shared/plan';
import { parseBytes, parseSeconds } from '@blockwise/shared/units';
import { slug } from '../../lib/format.ts';

/**
 * The fio job generator's options as a form: engine, runtime (at least 30 minutes, so the run
 * outlasts the instance's burst window and gp2 credits), ramp, the target device or file, pacing,
 * and the labels the upload command carries — taken from the session (instance type, candidate
 * volume, kind). Text in, `FioJobOptions` for `generateFioJob` out, with an error per field.
 */

export type FioJobDraft = {
  engine: FioEngine;
  runtime: string;
  ramp: string;
  target: string;
  size: string;
  pace: boolean;
  kind: 'ebs' | 'nvme';
  /** Index into the session's candidates; -1: no volume labels; 'first': the first candidate, when there is one (follows the session). */
  volume: number | 'first';
};

export type FioJobField = 'runtime' | 'ramp' | 'target' | 'size';

/** What the session knows about where the job will run. */
export type SessionTarget = {
  instanceType: string | null;
  region: string | null;
  candidates: readonly VolumeConfig[];
  /** The kind of the profile's own run (a fio run labelled NVMe), if any. */
  kind: 'ebs' | 'nvme' | null;
};

export const ENGINES: readonly { value: FioEngine; label: string; hint: string }[] = [
  { value: 'libaio', label: 'libaio', hint: 'Linux native asynchronous I/O: what most databases use' },
  { value: 'io_uring', label: 'io_uring', hint: 'Linux 5.1 or later: fewer system calls per I/O' },
];

export function defaultDraft(ctx: SessionTarget): FioJobDraft {
  return {
    engine: 'libaio',
    runtime: '30m', // DEFAULT_FIO_RUNTIME_SEC, as a person writes it
    ramp: `${DEFAULT_FIO_RAMP_SEC}s`,
    target: '',
    size: '',
    pace: true,
    kind: ctx.kind ?? 'ebs',
    volume: 'first',
  };
}

/** The candidate the labels describe (-1: none). */
export function volumeIndexOf(draft: FioJobDraft, ctx: SessionTarget): number {
  if (draft.volume === 'first') return ctx.candidates.length > 0 ? 0 : -1;
  return draft.volume < ctx.candidates.length ? draft.volume : -1;
}

export const isDevice = (target: string) => target.trim().startsWith('/dev/');

/** The labels `blockwise upload` sends with the result: the planner compares runs by them. */
export function uploadLabels(draft: FioJobDraft, ctx: SessionTarget): Record<string, string> {
  const labels: Record<string, string> = { kind: draft.kind };
  if (ctx.instanceType) labels.instanceType = ctx.instanceType;
  const index = volumeIndexOf(draft, ctx);
  const v = draft.kind === 'ebs' && index >= 0 ? ctx.candidates[index] : undefined;
  if (v) {
    for (const [key, value] of Object.entries(volumeToLabels(v))) labels[key] = String(value);
  }
  if (ctx.region) labels.region = ctx.region;
  return labels;
}

export function jobFileNameFor(title: string): string {
  return `${slug(`blockwise ${title}`)}.fio`;
}

export function readFioJobDraft(
  draft: FioJobDraft,
  ctx: SessionTarget,
  title: string,
): { ok: true; options: FioJobOptions } | { ok: false; errors: Partial<Record<FioJobField, string>> } {
  const errors: Partial<Record<FioJobField, string>> = {};
  const runtime = parseSeconds(draft.runtime);
  if (!runtime.ok) errors.runtime = `Runtime: expected ${runtime.expected}.`;
  else if (runtime.value < DEFAULT_FIO_RUNTIME_SEC)
    errors.runtime =
      'Runtime: at least 30 minutes (30m). Shorter runs measure gp2 burst credits and the instance’s 30-minute burst window, not what the volume sustains.';
  const ramp = parseSeconds(draft.ramp);
  if (!ramp.ok) errors.ramp = `Ramp: expected ${ramp.expected}.`;
  const target = draft.target.trim();
  if (/[\r\n\0]/.test(draft.target) || /\s/.test(target))
    errors.target = 'Target: a device such as /dev/nvme1n1 or a file path, without spaces or line breaks.';
  let sizeBytes: number | null = null;
  if (target !== '' && !isDevice(target) && draft.size.trim() !== '') {
    const size = parseBytes(draft.size);
    if (!size.ok) errors.size = `Test file size: expected ${size.expected}.`;
    else if (size.value < 4096)
      errors.size = 'Test file size: at least 4 KiB (and at least the working set).';
    else sizeBytes = size.value;
  }
  if (Object.keys(errors).length > 0 || !runtime.ok || !ramp.ok) return { ok: false, errors };
  return {
    ok: true,
    options: {
      engine: draft.engine,
      runtimeSec: runtime.value,
      rampTimeSec: ramp.value,
      target: target === '' ? null : target,
      sizeBytes,
      pace: draft.pace,
      labels: uploadLabels(draft, ctx),
      jobFileName: jobFileNameFor(title),
    },
  };
}
