import { createServer, type RequestListener, type Server } from 'node:http';

/**
 * The node:http server `blockwise serve` listens with, and its timeouts (R13: slow clients).
 *
 * - requestTimeout: the whole request (headers and body) must arrive within it, or the client
 *   gets 408 and the socket is closed — a client sending 1 byte/s cannot hold a connection (and
 *   an upload slot) for Node's default 300 s.
 * - headersTimeout: the same for the headers alone (a header dribbler), at most 60 s.
 * - connectionsCheckingInterval: how often Node looks for requests past those deadlines. Its
 *   default, 30 s, made both timeouts late by up to 30 s: measured with requestTimeout = 2 s, a
 *   slow body and a header dribbler were cut off after 30.0 s, not 2 s (bench R13). Checking
 *   every min(1 s, timeout / 4) keeps the cut-off within a second of the deadline; the check is
 *   a walk over open connections, cheap at this rate.
 */
export function createHttpServer(app: RequestListener, options: { requestTimeoutMs: number }): Server {
  const requestTimeout = options.requestTimeoutMs;
  const headersTimeout = Math.min(60_000, requestTimeout);
  const server = createServer(
    { connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(headersTimeout / 4))) },
    app,
  );
  server.requestTimeout = requestTimeout;
  server.headersTimeout = headersTimeout;
  return server;
}
