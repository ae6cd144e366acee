import { AnalysisSection } from './plan/AnalysisSection.tsx';
import { AnswerSummary } from './plan/AnswerSummary.tsx';
import { BringDataSection } from './plan/BringDataSection.tsx';
import { FioJobSection } from './plan/FioJobSection.tsx';
import { PlanHeader } from './plan/PlanHeader.tsx';
import { SeriesSections } from './plan/SeriesSections.tsx';
import { ShareSection } from './plan/ShareSection.tsx';
import { usePlanSession } from './plan/use-plan-session.ts';
import { usePageTitle } from './use-page-title.ts';

/**
 * The planning session: bring data, see the profile and what binds, right-size, compare, share.
 * The state and what is derived from it live in `usePlanSession`; each section is its own component.
 */
export default function PlanPage() {
  usePageTitle('Planning session');
  const session = usePlanSession();
  return (
    <div className="page page--plan">
      <PlanHeader session={session} />
      <AnswerSummary session={session} />
      <BringDataSection session={session} />
      <SeriesSections session={session} />
      <AnalysisSection session={session} />
      <FioJobSection session={session} />
      <ShareSection session={session} />
    </div>
  );
}
