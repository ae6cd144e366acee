import { cleanup, type render as rtlRender } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { TestQueryProvider } from './query-client.tsx';

// Testing Library unmounts between tests only when it can find a global afterEach; say it explicitly.
afterEach(() => cleanup());
// The planning session keeps the address at `/#session=…`: each test starts from a plain address.
// (Files run in the node environment, such as the lint-boundary test, have no window.)
afterEach(() => {
  if (typeof window !== 'undefined') window.history.replaceState(null, '', '/');
});

// Pages read server data through TanStack Query (lib/query.ts), which needs a QueryClientProvider
// above them; the app puts one in App.tsx. Tests render pages on their own: every `render` gets
// a fresh provider (test/query-client.tsx) unless the test passes its own `wrapper`.
vi.mock('@testing-library/react', async (importOriginal) => {
  const rtl = await importOriginal<{ render: typeof rtlRender }>();
  const render = ((ui: Parameters<typeof rtlRender>[0], options?: object) =>
    rtl.render(ui, { wrapper: TestQueryProvider, ...options })) as typeof rtlRender;
  return { ...rtl, render };
});

// The catalog loader asks the server which catalog it plans with (GET /api/catalog). Tests have
// no server: answer 404 (the built-in catalog is used), never a real connection. Tests that stub
// fetch themselves replace this.
const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (/\/api\/catalog(\/data)?$/.test(new URL(url, 'http://localhost').pathname))
    return Promise.resolve(new Response(null, { status: 404 }));
  return realFetch(input, init);
};
