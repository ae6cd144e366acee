import type { RunListItem } from '@blockwise/shared/api';
import { runUrl } from '../context.ts';
import { runRecordOf } from '../store/records.ts';
import type { RunMeta, RunPage } from '../store/run-store.ts';

/** A stored run as the run lists show it (GET /api/runs, a series' history): its headline, no report. */
export function toListItem(base: string, meta: RunMeta): RunListItem {
  const { summary } = runRecordOf(meta);
  return {
    id: meta.id,
    createdAt: new Date(meta.createdAt).toISOString(),
    url: runUrl(base, meta.id),
    labels: meta.labels,
    fioVersion: meta.fioVersion,
    headline: summary.headline,
  };
}

/** A page of runs as the list routes answer it. */
export function toListPage(base: string, page: RunPage): { items: RunListItem[]; nextCursor: string | null } {
  return { items: page.items.map((m) => toListItem(base, m)), nextCursor: page.nextCursor };
}
