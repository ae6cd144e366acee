import { Region } from '../../../components/Region.tsx';
import { ShareActions } from '../../../features/share/components/ShareActions.tsx';
import { navigate, paths } from '../../router.tsx';
import { analyzeSession } from '../../session/analysis.ts';
import { saveBlockers, saveSession } from '../../session/save-session.ts';
import { linkCarriesAll, linkPlanOf } from '../../session/session-state.ts';
import type { PlanSessionView } from './use-plan-session.ts';

/** "Share & export": save the session as a link (its fio files uploaded), or a link without upload. */
export function ShareSection({ session }: { session: PlanSessionView }) {
  const { state, analysis, catalog, dispatch, fioInputs } = session;
  // The link holds all of it (no file left behind, no setting left out): the address bar's text.
  const whole =
    linkCarriesAll(state) &&
    analysis.candidateProblems.every((p) => p.length === 0) &&
    analysis.rateProblem === null;
  const wholeSession = whole ? linkPlanOf(state) : null;
  return (
    <Region
      title="Share & export"
      description="A link a reviewer can open: results frozen with their price date and analysis version."
      id="share"
    >
      <ShareActions
        blockers={saveBlockers(state, analysis)}
        onSave={(title, progress) =>
          // Saved from the current state, not the deferred one the page may still be catching up to.
          saveSession(state, analyzeSession(state, catalog.catalog), dispatch, title, progress).then(
            (saved) => {
              dispatch({ type: 'session-saved' });
              return saved;
            },
          )
        }
        linkSession={
          wholeSession ??
          (analysis.effective.observed.length > 0
            ? {
                ...analysis.effective,
                // The answer's demand source (never a what-if run: a link carries no fio file).
                profileRef: analysis.demand.ref?.startsWith('run:') ? null : analysis.demand.ref,
              }
            : null)
        }
        fileCount={fioInputs.length}
        onOpenShared={(id) => navigate(paths.share(id))}
        // A link that holds the whole session shares it: no longer unsaved work.
        onLinkMade={() => {
          if (wholeSession) dispatch({ type: 'session-saved' });
        }}
        version={JSON.stringify([analysis.effective, fioInputs.map((i) => [i.id, i.labels])])}
      />
    </Region>
  );
}
