import type { PlanSession } from '@blockwise/shared/records';
import { createComparison, describeApiError, uploadRun } from '../../lib/api-client.ts';
import type { SessionAnalysis } from './analysis.ts';
import type { FioInput, SessionAction, SessionState } from './session-state.ts';

/**
 * "Save & share": upload each fio file not yet on the server (with its labels; the server dedupes
 * identical bytes + labels, so a retry after a failure reuses what was uploaded), then store the
 * comparison with the PlanSession — its `run:` references rewritten to the server's run ids.
 * Metrics exports and sysbench runs are not uploaded (the archive takes fio only): they travel
 * in the PlanSession as observed entries (see toPlanSession).
 */

export class SaveError extends Error {
  readonly fileName: string | undefined;
  constructor(message: string, fileName?: string) {
    super(message);
    this.name = 'SaveError';
    this.fileName = fileName;
  }
}

/** Why the session cannot be saved yet (empty when it can). */
export function saveBlockers(state: SessionState, analysis: SessionAnalysis): string[] {
  const out: string[] = [];
  if (
    state.inputs.some(
      (i) =>
        ((i.kind === 'fio' || i.kind === 'sysbench') && i.status === 'parsing') ||
        (i.kind === 'series' && i.status === 'reading'),
    )
  )
    out.push('Wait until every file is read.');
  for (const i of state.inputs)
    if (i.kind === 'series' && i.status === 'choice')
      out.push(`Answer the questions about ${i.fileName}, or remove it.`);
  if (!analysis.hasProfiles) out.push('Add a fio file or typed-in metrics first.');
  analysis.candidateProblems.forEach((p, i) => {
    if (p.length > 0) out.push(`Candidate ${i + 1} needs a fix: ${p[0]!.message}`);
  });
  if (analysis.rateProblem) out.push(`The custom rates need a fix: ${analysis.rateProblem.message}`);
  if (analysis.result && !analysis.result.ok) out.push(analysis.result.error.message);
  return out;
}

/** A session's `run:` references (its profile, its replay marks) as the server's run ids. */
export function remapSession(session: PlanSession, ids: ReadonlyMap<string, string>): PlanSession {
  const remap = (ref: string): string | null => {
    if (!ref.startsWith('run:')) return ref;
    const serverId = ids.get(ref.slice(4));
    return serverId ? `run:${serverId}` : null;
  };
  const profileRef = session.profileRef === null ? null : remap(session.profileRef);
  if (session.replaysLoad === undefined) return { ...session, profileRef };
  const replaysLoad = session.replaysLoad.flatMap((ref) => remap(ref) ?? []);
  return { ...session, profileRef, replaysLoad };
}

export async function saveSession(
  state: SessionState,
  analysis: SessionAnalysis,
  dispatch: (a: SessionAction) => void,
  title: string,
  progress: (p: { step: string }) => void,
): Promise<{ id: string; url: string }> {
  const files = state.inputs.filter((i): i is FioInput => i.kind === 'fio' && i.status === 'ready');
  const ids = new Map<string, string>();
  for (const [n, input] of files.entries()) {
    if (input.serverRunId) {
      ids.set(input.id, input.serverRunId);
      continue;
    }
    if (!input.blob)
      throw new SaveError('the original file is no longer available; add it again', input.fileName);
    progress({ step: `Uploading ${input.fileName} (${n + 1} of ${files.length})…` });
    try {
      const run = await uploadRun(input.blob, input.fileName, input.labels);
      dispatch({ type: 'uploaded', id: input.id, serverRunId: run.id });
      ids.set(input.id, run.id);
    } catch (error) {
      throw new SaveError(`upload failed: ${describeApiError(error)}`, input.fileName);
    }
  }
  progress({ step: 'Creating the share link…' });
  try {
    return await createComparison({
      ...(title ? { title } : {}),
      runIds: [...ids.values()],
      // The profile planned on is the answer's demand source, never the run the sections fall back
      // to as a what-if when the session holds capacity evidence only: that link has no plan and
      // answers, as the planning page does, with what each storage delivered (issue 27).
      plan: remapSession({ ...analysis.effective, profileRef: analysis.demand.ref }, ids),
    });
  } catch (error) {
    throw new SaveError(`the comparison could not be stored: ${describeApiError(error)}`);
  }
}
