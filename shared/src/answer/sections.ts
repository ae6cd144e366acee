/**
 * Which sections of a page an answer's lines link down to ("Profile", "What binds", …). A page
 * without a section drops the link, not the line. The web pages render the lines and the server
 * paints a share link's lines into its HTML before any script: both ask here, so the links the
 * server paints are the links React renders over them.
 */

/** The sections an answer line can link down to (the ids of the page's regions). */
export type AnswerSection = 'profile' | 'limits' | 'instance' | 'right-size' | 'compare' | 'rates';

/** The pages that show an answer; a share link's sections depend on whether it holds plans. */
export type AnswerPage =
  { kind: 'planning' } | { kind: 'run' } | { kind: 'fleet' } | { kind: 'share'; plans: number };

/** The planning page: every section, the instance picker included. */
const PLANNING_SECTIONS: ReadonlySet<AnswerSection> = new Set([
  'profile',
  'limits',
  'instance',
  'right-size',
  'compare',
  'rates',
]);

/** A share link with plans (ComparisonView's regions): no instance picker to pick one in. */
const SHARE_SECTIONS: ReadonlySet<AnswerSection> = new Set([
  'profile',
  'limits',
  'right-size',
  'compare',
  'rates',
]);

/** An archived run's page, and a share link made of runs without plans. */
const RUN_SECTIONS: ReadonlySet<AnswerSection> = new Set(['profile', 'limits']);

/** The fleet page shows the answer alone: its lines link nowhere. */
const NO_SECTIONS: ReadonlySet<AnswerSection> = new Set();

/** The sections `page` shows, which its answer lines link down to. */
export function sectionsOf(page: AnswerPage): ReadonlySet<AnswerSection> {
  switch (page.kind) {
    case 'planning':
      return PLANNING_SECTIONS;
    case 'share':
      return page.plans > 0 ? SHARE_SECTIONS : RUN_SECTIONS;
    case 'run':
      return RUN_SECTIONS;
    case 'fleet':
      return NO_SECTIONS;
  }
}
