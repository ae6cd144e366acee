import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { createQueryClient } from '../lib/query.ts';

/** The app's query policy (no retry on 4xx, two on 5xx) without the waits between retries. */
export const createTestQueryClient = () => createQueryClient({ queries: { retryDelay: 0 } });

/**
 * A fresh cache per rendered tree: one test's responses never answer the next test's requests.
 * setup.ts wraps every `render` in it; a test that needs to see the client passes its own wrapper.
 */
export function TestQueryProvider({ children }: { children: ReactNode }) {
  const [client] = useState(createTestQueryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
