import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Testing Library unmounts between tests only when it can find a global afterEach; say it explicitly.
afterEach(() => cleanup());

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
