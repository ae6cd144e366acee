import { fioKindLabel } from '@blockwise/shared/answer';
import type { SeriesInput, SessionInput, SysbenchInput } from '../../session/session-state.ts';

/** How an input is named on its card, in the plan's headings and in the fio job panel. */
export function inputTitle(input: SessionInput): string {
  if (input.kind === 'fio') return input.labels.name ?? input.fileName;
  if (input.kind === 'observed') return input.metrics.label ?? `typed-in metrics ${input.id.slice(0, 4)}`;
  return input.fileName;
}

const KIND_LABEL = { series: 'metrics', sysbench: 'sysbench', observed: 'typed in' } as const;

export function kindLabelOf(input: SessionInput): string {
  // A benchmark's numbers read back from a saved session (sysbench): as a share link names them.
  if (input.kind === 'observed' && input.capacity) return input.benchmark ?? 'benchmark';
  if (input.kind !== 'fio') return KIND_LABEL[input.kind];
  return fioKindLabel(input.labels.kind);
}

/** A metrics export or sysbench run's card status in the shared card's terms. */
export const cardStatus = (input: SeriesInput | SysbenchInput) =>
  input.status === 'reading' || input.status === 'parsing'
    ? ('parsing' as const)
    : input.status === 'error'
      ? ('error' as const)
      : ('ready' as const);
