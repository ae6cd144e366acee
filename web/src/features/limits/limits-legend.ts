import { COLORS } from '../../lib/palette.ts';
import type { LegendEntry } from '../../lib/png-export.ts';
import type { LimitRow, LimitStatus } from './limits-rows.ts';

/**
 * How the "What binds" chart draws each bar, and the legend that names those looks: the chart and
 * its exported PNG read the same table, so a colour on the slide always means what the legend says.
 */

const STATUS_COLOR: Record<LimitStatus, string> = {
  over: COLORS.concern,
  saturated: COLORS.concern,
  ok: COLORS.neutral,
};

/** Burst ceilings hold only while credits last: drawn faded. */
export const BURST_OPACITY = 0.45;

/** The 100% line's dash pattern, on the chart and in its legend. */
export const HUNDRED_PERCENT_DASH = '4 3';

export type LimitBarStyle = { fill: string; opacity: number; outline: string | null };

/** The bottleneck red and framed, the sustained fallback amber, the rest by status; bursts faded. */
export function limitBarStyle(row: LimitRow): LimitBarStyle {
  const fill = row.isBottleneck
    ? COLORS.concern
    : row.isSustainedFallback
      ? COLORS.watch
      : STATUS_COLOR[row.status];
  return {
    fill,
    opacity: row.sustained ? 1 : BURST_OPACITY,
    outline: row.isBottleneck ? COLORS.text : null,
  };
}

/** One entry for each look the rows actually use, then the 100% line (always drawn). */
export function limitsLegend(rows: readonly LimitRow[]): LegendEntry[] {
  const others = rows.filter((r) => !r.isBottleneck && !r.isSustainedFallback);
  const candidates: [boolean, LegendEntry][] = [
    [
      rows.some((r) => r.isBottleneck),
      { label: 'bottleneck (the ceiling that binds)', color: COLORS.concern, outline: COLORS.text },
    ],
    [
      rows.some((r) => r.isSustainedFallback),
      { label: 'sustained ceiling after the burst', color: COLORS.watch },
    ],
    [others.some((r) => r.status !== 'ok'), { label: 'at or over its ceiling', color: COLORS.concern }],
    [others.some((r) => r.status === 'ok'), { label: 'headroom', color: COLORS.neutral }],
    [
      rows.some((r) => !r.sustained),
      { label: 'faded: burst ceiling (temporary)', color: COLORS.neutral, opacity: BURST_OPACITY },
    ],
    [true, { label: '100% = demand at the ceiling', color: COLORS.text, dashed: HUNDRED_PERCENT_DASH }],
  ];
  return candidates.filter(([shown]) => shown).map(([, entry]) => entry);
}
