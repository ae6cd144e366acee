import { lazy, Suspense } from 'react';
import { Disclosure } from '../../../components/Disclosure.tsx';
import { Region } from '../../../components/Region.tsx';
import { LoadingState } from '../../../components/States.tsx';
import type { PlanSessionView } from './use-plan-session.ts';

// Loaded when needed: the fio job generator.
const FioJobPanel = lazy(() => import('../../../features/fio-job/components/FioJobPanel.tsx'));

/** "Reproduce with fio": the job file, command and upload line for a profile on a candidate. */
export function FioJobSection({ session }: { session: PlanSessionView }) {
  const { jobProfiles, plannedRef, eff, plannedInput } = session;
  if (jobProfiles.length === 0) return null;
  return (
    <Region
      title="Reproduce with fio"
      id="fio-job"
      description="The fio job that reproduces a profile on a candidate volume — every option with its reason — the command that runs it, and the upload line that sends the result back with this session's labels."
    >
      <Disclosure
        className="input-card__details"
        summary="Generate the fio job"
        label="Generate the fio job: job file, command line and upload line"
      >
        <Suspense fallback={<LoadingState label="Loading the fio job generator…" />}>
          <FioJobPanel
            profiles={jobProfiles}
            initialKey={plannedRef}
            target={{
              instanceType: eff.instanceType,
              region: eff.region,
              candidates: eff.candidates,
              kind: plannedInput?.kind === 'fio' ? (plannedInput.labels.kind ?? null) : null,
            }}
          />
        </Suspense>
      </Disclosure>
    </Region>
  );
}
