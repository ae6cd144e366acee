import type { AnswerSection } from './plan/AnswerLines.tsx';

/**
 * Which sections a stored answer's lines link down to. The answer itself (storedAnswerPlan,
 * storedRunAnswerOf) is worded in @blockwise/shared/answer, where the server paints it too.
 */

/** The sections a share link with plans shows (ComparisonView's regions). */
export const SHARE_SECTIONS: ReadonlySet<AnswerSection> = new Set([
  'profile',
  'limits',
  'right-size',
  'compare',
  'rates',
]);

/** The sections of an archived run's page (and of a share link without plans). */
export const RUN_SECTIONS: ReadonlySet<AnswerSection> = new Set(['profile', 'limits']);
