import { queryOptions } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, getComparison } from './api-client.ts';
import { MAX_RETRIES, shouldRetry, useApiQuery } from './query.ts';

afterEach(() => vi.unstubAllGlobals());

describe('shouldRetry: only failures a second attempt can mend', () => {
  it.each([
    ['network (no answer)', new ApiError(0, 'network', 'unreachable'), 0, true],
    ['503 store_unavailable', new ApiError(503, 'store_unavailable', 'database down'), 0, true],
    ['500 after two retries', new ApiError(500, 'internal', 'boom'), MAX_RETRIES, false],
    ['404 comparison_not_found', new ApiError(404, 'comparison_not_found', 'gone'), 0, false],
    ['429 rate_limited', new ApiError(429, 'rate_limited', 'slow down'), 0, false],
    ['200 breaking the contract', new ApiError(200, 'bad_response', 'shape'), 0, false],
    ['a bug (TypeError)', new TypeError('x is undefined'), 0, false],
  ])('%s', (_what, error, failures, expected) => {
    expect(shouldRetry(failures, error)).toBe(expected);
  });
});

const ID = 'A'.repeat(22);
function Comparison({ id }: { id: string }) {
  const state = useApiQuery(
    queryOptions({ queryKey: ['comparison', id], queryFn: ({ signal }) => getComparison(id, signal) }),
  );
  if (state.status === 'loading') return <p>loading</p>;
  if (state.status === 'error')
    return (
      <p>
        error {state.code} <button onClick={state.reload}>again</button>
      </p>
    );
  return <p>ready {state.data.id}</p>;
}

const answer = (status: number, code: string) =>
  new Response(JSON.stringify({ error: { code, message: code } }), { status });

describe('useApiQuery', () => {
  it('two components asking for the same key share one request; a 404 is not retried', async () => {
    const fetch = vi.fn(async () => answer(404, 'comparison_not_found'));
    vi.stubGlobal('fetch', fetch);
    render(
      <>
        <Comparison id={ID} />
        <Comparison id={ID} />
      </>,
    );
    expect(await screen.findAllByText('error comparison_not_found')).toHaveLength(2);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('a 503 is retried twice, then shown; reload asks again', async () => {
    const fetch = vi.fn(async () => answer(503, 'store_unavailable'));
    vi.stubGlobal('fetch', fetch);
    render(<Comparison id={ID} />);
    await screen.findByText('error store_unavailable');
    expect(fetch).toHaveBeenCalledTimes(1 + MAX_RETRIES);
    await userEvent.setup().click(screen.getByRole('button', { name: 'again' }));
    await screen.findByText('error store_unavailable');
    expect(fetch).toHaveBeenCalledTimes(2 * (1 + MAX_RETRIES));
  });
});
