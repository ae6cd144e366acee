import { describe, expect, it } from 'vitest';
import { createHttpServer } from './http-server.ts';

/**
 * R13's mechanism, on the server object `blockwise serve` listens with: the deadlines, and how
 * often Node looks for requests past them. With Node's default check interval (30 s) a slow client
 * outlived a 2 s timeout by ~28 s; reliability/slow-clients.test.ts shows the 408 on a real
 * server, and bench R13 measures how late it comes.
 */
describe('createHttpServer', () => {
  it.each([
    [2000, 2000, 500],
    [60_000, 60_000, 1000],
    [300_000, 60_000, 1000],
    [200, 200, 100],
  ])(
    'requestTimeout %i ms → headersTimeout %i ms, checked every %i ms',
    (requestTimeoutMs, headersMs, checkMs) => {
      const server = createHttpServer(() => {}, { requestTimeoutMs });
      expect(server.requestTimeout).toBe(requestTimeoutMs);
      expect(server.headersTimeout).toBe(headersMs);
      // Not in @types/node, but set by Node's http.Server from the option (default 30 000).
      expect((server as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval).toBe(
        checkMs,
      );
    },
  );
});
