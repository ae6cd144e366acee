// R13: slow clients are cut off. Against the real server with BLOCKWISE_REQUEST_TIMEOUT_MS=2000:
// a client sending an upload body at 4 bytes/s and one dribbling its headers must each see their
// socket closed within the timeout + 5 s (the goal's margin), and no such socket may be open
// after that deadline.
import net from 'node:net';
import { goal, log, main, round } from '../lib/common.mjs';
import { startApp } from '../lib/servers.mjs';

const TIMEOUT_MS = 2000;
const DEADLINE_MS = TIMEOUT_MS + 5000;

/** Opens a socket, sends `start`, then one byte every 250 ms; resolves when the server closes it. */
function slowClient(port, start, drip) {
  return new Promise((resolve) => {
    const started = performance.now();
    let answer = '';
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(start);
      const timer = setInterval(() => {
        if (!socket.destroyed) socket.write(drip);
      }, 250);
      const giveUp = setTimeout(() => socket.destroy(), DEADLINE_MS + 3000);
      socket.on('close', () => {
        clearInterval(timer);
        clearTimeout(giveUp);
        resolve({ closedAfterMs: performance.now() - started, answer: answer.split('\r\n')[0] });
      });
    });
    socket.on('data', (d) => (answer += d.toString()));
    socket.on('error', () => {});
  });
}

main('R13', async () => {
  const app = await startApp({ env: { BLOCKWISE_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) }, name: 'slow' });
  try {
    log('R13', `requestTimeout ${TIMEOUT_MS} ms: a slow body and a header dribbler, concurrently`);
    const [body, headers] = await Promise.all([
      slowClient(
        app.port,
        'POST /api/runs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{',
        ' ',
      ),
      slowClient(app.port, 'POST /api/runs HTTP/1.1\r\nHost: x\r\nX-Slow: ', 'a'),
    ]);
    const late = [body, headers].filter((r) => r.closedAfterMs > DEADLINE_MS).length;
    return [
      goal({
        id: 'R13',
        title: `slow body / header dribbler sockets still open ${DEADLINE_MS / 1000} s after connecting (timeout ${TIMEOUT_MS / 1000} s)`,
        value: late,
        op: '==',
        target: 0,
        digits: 0,
        details: { body, headers },
        note: `closed after ${round(body.closedAfterMs / 1000, 1)} s (${body.answer || 'no answer'}) and ${round(headers.closedAfterMs / 1000, 1)} s (${headers.answer || 'no answer'})`,
      }),
    ];
  } finally {
    await app.cleanup();
  }
});
