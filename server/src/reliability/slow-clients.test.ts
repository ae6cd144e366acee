import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from './testing/serve-process.ts';

/**
 * R13: a client that sends its body at 4 bytes/s, or dribbles its headers, is answered 408 and
 * disconnected — against the real `blockwise serve` with BLOCKWISE_REQUEST_TIMEOUT_MS=2000. The
 * 408 is the request timeout firing (Node's idle-socket timeout closes without an answer), so
 * that is what is asserted, not how long it took: on a busy machine the server's check runs late.
 * How often the server checks (Node's default, 30 s, let both sockets live ~30 s) is asserted on
 * the server object itself in http/http-server.test.ts; the cut-off latency is bench R13.
 */
const TIMEOUT_MS = 2000;
/** Only so a server that never answers fails this test with a message instead of hanging it. */
const GIVE_UP_MS = 60_000;

let dir: string;
let serve: ServeProcess;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bw-slow-'));
  serve = await startServe(['--port', '0', '--db', `sqlite:${join(dir, 'blockwise.db')}`], {
    BLOCKWISE_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS),
  });
}, 60_000);
afterAll(async () => {
  await serve?.kill();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Sends `start`, then `drip` every 250 ms for the first half of the timeout, then waits; resolves
 * with the first line of the answer when the server closes the socket (`givenUp` if it never did).
 *
 * The drip stops well before the deadline because a drip written after the server closed is what
 * lost the 408 on a busy machine: bytes the busy server had not read yet turn its close into a TCP
 * reset, the client's next write fails with ECONNRESET, and Node destroys the socket with the 408
 * still unread. The server's deadline counts from when it parsed the first byte, after `started`
 * on the same monotonic clock, so a drip sent before `started + TIMEOUT_MS / 2` cannot reach a
 * closed connection however late either process runs (short of a 1 s stall between the check and
 * the write).
 */
function slowClient(
  port: number,
  start: string,
  drip: string,
): Promise<{ answer: string; givenUp: boolean }> {
  return new Promise((resolve) => {
    const started = performance.now();
    let answer = '';
    let givenUp = false;
    const socket = net.connect(port, '127.0.0.1', () => socket.write(start));
    const timer = setInterval(() => {
      if (performance.now() - started >= TIMEOUT_MS / 2) clearInterval(timer);
      else if (!socket.destroyed) socket.write(drip);
    }, 250);
    const giveUp = setTimeout(() => {
      givenUp = true;
      socket.destroy();
    }, GIVE_UP_MS);
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ answer: answer.split('\r\n')[0] ?? '', givenUp });
    });
  });
}

describe('slow clients are cut off (R13)', () => {
  it(
    'a 4 bytes/s upload body and a header dribbler: the request timeout answers 408 and closes',
    async () => {
      const [body, headers] = await Promise.all([
        slowClient(
          serve.port,
          'POST /api/runs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{',
          ' ',
        ),
        slowClient(serve.port, 'POST /api/runs HTTP/1.1\r\nHost: x\r\nX-Slow: ', 'a'),
      ]);
      for (const r of [body, headers])
        expect(r).toEqual({ answer: 'HTTP/1.1 408 Request Timeout', givenUp: false });
    },
    GIVE_UP_MS + 30_000,
  );
});
