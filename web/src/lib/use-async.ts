import { useEffect, useState } from 'react';
import { describeApiError } from './api-client.ts';

export type AsyncState<T> =
  | { status: 'loading'; data: null; error: null }
  | { status: 'ready'; data: T; error: null }
  | { status: 'error'; data: null; error: string; code: string | null };

/**
 * Runs `load` when `key` changes (aborting the previous request) and exposes loading / ready /
 * error states for the page to design. `reload()` runs it again.
 */
export function useAsync<T>(
  key: string,
  load: (signal: AbortSignal) => Promise<T>,
): AsyncState<T> & { reload: () => void } {
  const [state, setState] = useState<{ key: string; attempt: number; value: AsyncState<T> }>({
    key,
    attempt: 0,
    value: { status: 'loading', data: null, error: null },
  });
  const [attempt, setAttempt] = useState(0);
  if (state.key !== key || state.attempt !== attempt) {
    setState({ key, attempt, value: { status: 'loading', data: null, error: null } });
  }
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted)
          setState({ key, attempt, value: { status: 'ready', data, error: null } });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const code =
          typeof error === 'object' && error && 'code' in error
            ? String((error as { code: unknown }).code)
            : null;
        setState({
          key,
          attempt,
          value: { status: 'error', data: null, error: describeApiError(error), code },
        });
      },
    );
    return () => controller.abort();
    // `load` is a fresh closure each render; `key` and `attempt` say when to run it again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, attempt]);
  return { ...state.value, reload: () => setAttempt((a) => a + 1) };
}
