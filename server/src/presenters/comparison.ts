import type { Comparison } from '@blockwise/shared/api';
import { comparisonUrl } from '../context.ts';
import { comparisonRecordOf } from '../store/records.ts';
import type { Comparison as StoredComparison } from '../store/run-store.ts';

/** A stored (frozen) comparison as GET /api/comparisons/:id and the share page answer it. */
export function toComparison(base: string, stored: StoredComparison): Comparison {
  const c = comparisonRecordOf(stored);
  return {
    id: c.id,
    url: comparisonUrl(base, c.id),
    createdAt: new Date(c.createdAt).toISOString(),
    title: c.title,
    runIds: c.runIds,
    plan: c.plan,
    result: c.result,
    priceTableDate: c.priceTableDate,
    analysisVersion: c.analysisVersion,
  };
}
