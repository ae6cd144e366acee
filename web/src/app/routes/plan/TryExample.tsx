import { useState } from 'react';
import { parseFioFile } from '../../../features/ingest/parse-client.ts';
import type { PlanSessionView } from './use-plan-session.ts';

/**
 * "Try an example": a first visit gets a realistic session in one click. The example (and the two
 * fio files it carries) is a separate chunk, fetched on the click.
 */
export function TryExample({ session }: { session: PlanSessionView }) {
  const { dispatch } = session;
  const [loading, setLoading] = useState(false);
  const load = async () => {
    setLoading(true);
    try {
      const { exampleSession } = await import('../../session/example-session.ts');
      dispatch({ type: 'session-loaded', state: await exampleSession(parseFioFile) });
    } catch (error) {
      dispatch({
        type: 'session-loaded',
        state: {
          ...session.state,
          notice: {
            tone: 'error',
            text: `The example could not be loaded (${error instanceof Error ? error.message : String(error)}); reload the page and try again.`,
          },
        },
      });
    } finally {
      setLoading(false);
    }
  };
  return (
    <button type="button" className="btn btn--primary" disabled={loading} onClick={() => void load()}>
      {loading ? 'Loading the example…' : 'Try an example'}
    </button>
  );
}
