import type { SeriesSettingsResponse } from '@blockwise/shared/api';
import type { RegressionRun } from '@blockwise/shared/history';
import type { RunMeta, SeriesSettings } from '../store/run-store.ts';
import { effectiveConfig } from '../services/regression-gate.ts';
import { toListItem } from './run.ts';

/** A series' settings as GET|PUT /api/series/:series/settings answer them: the defaults when none are stored. */
export function toSeriesSettings(series: string, stored: SeriesSettings | null): SeriesSettingsResponse {
  return {
    series,
    config: effectiveConfig(stored).config,
    stored: stored !== null,
    updatedAt: stored ? new Date(stored.updatedAt).toISOString() : null,
  };
}

/** A run as the regression check names it: its id, labels and headline. */
export const toRegressionRun = (base: string, meta: RunMeta): RegressionRun => {
  const item = toListItem(base, meta);
  return { id: item.id, labels: item.labels, headline: item.headline };
};
