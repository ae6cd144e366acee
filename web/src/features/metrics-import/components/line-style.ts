import { COLORS } from '../../../lib/palette.ts';
import type { LimitLine } from '../series-view.ts';

/** How each kind of ceiling and each direction is drawn (hex: exported PNGs have no stylesheet). */
export const LINE_STYLE: Record<LimitLine['kind'], { stroke: string; dash: string; short: string }> = {
  volume: { stroke: COLORS.concern, dash: '6 3', short: 'volume' },
  'volume-burst': { stroke: COLORS.watch, dash: '6 3', short: 'volume burst' },
  'instance-baseline': { stroke: COLORS.text, dash: '4 3', short: 'instance baseline' },
  'instance-burst': { stroke: COLORS.neutral, dash: '2 3', short: 'instance burst' },
};

export const SERIES_COLORS = { read: COLORS.ebs, write: COLORS.iops } as const;
