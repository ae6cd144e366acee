import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { UploadCase } from './upload-arbitraries.ts';

/** The app listening on an ephemeral loopback port: real HTTP, real sockets. */
export async function listen(app: Express): Promise<{ port: number; close: () => Promise<void> }> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Reply = {
  status: number;
  body: string;
  bytes: Buffer;
  headers: http.IncomingHttpHeaders;
  ms: number;
};

const failed = (started: number): Reply => ({
  status: 0,
  body: '',
  bytes: Buffer.alloc(0),
  headers: {},
  ms: performance.now() - started,
});

/** One request; `status` 0 when the connection failed or was reset without an answer. */
export function send(
  port: number,
  options: {
    method?: string;
    path: string;
    headers?: http.OutgoingHttpHeaders;
    body?: Buffer;
    agent?: http.Agent;
  },
): Promise<Reply> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'POST',
        path: options.path,
        headers: options.headers,
        agent: options.agent ?? false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            bytes: Buffer.concat(chunks),
            body: Buffer.concat(chunks).toString('utf8'),
            headers: res.headers,
            ms: performance.now() - started,
          }),
        );
        res.on('error', () => resolve(failed(started)));
      },
    );
    req.on('error', () => resolve(failed(started)));
    req.end(options.body);
  });
}

/** POST /api/runs with a fuzz case. */
export function sendUpload(port: number, c: UploadCase, agent?: http.Agent): Promise<Reply> {
  return send(port, {
    path: `/api/runs${c.query ? `?${c.query}` : ''}`,
    headers: {
      'content-type': c.contentType,
      'content-length': c.body.length,
      ...(c.encoding === 'gzip' ? { 'content-encoding': 'gzip' } : {}),
    },
    body: c.body,
    ...(agent ? { agent } : {}),
  });
}

const unlimited = (name: string) => ({ name, limit: Number.MAX_SAFE_INTEGER, windowMs: 60_000 });

/** Rate limits out of the way: these tests send thousands of requests from one address. */
export const NO_RATE_LIMITS = {
  writesAnonymous: unlimited('uploads without a token'),
  writesToken: unlimited('uploads per CI token'),
  reads: unlimited('reads'),
  notFound: unlimited('unknown ids'),
};
