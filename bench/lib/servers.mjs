// Starts and stops the servers under test as child processes (each its own pid, so CPU time and
// RSS are read per server from /proc), on loopback ports, each on its own fresh database.
import { fork } from 'node:child_process';
import http from 'node:http';
import { join } from 'node:path';
import { BENCH, freshDir, rm, sleep } from './common.mjs';
import { APP_SERVER } from './bundle.mjs';

/**
 * Forks a server script; resolves once it reports its port. `execArgv` adds Node flags
 * (e.g. --expose-gc). stdout (request logs) goes to /dev/null; stderr is kept for errors.
 */
function start(script, { env = {}, execArgv = [], name = script, timeoutMs = 30_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = fork(script, [], {
      env: { ...process.env, BLOCKWISE_LOG_LEVEL: 'info', ...env },
      execArgv,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start within ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited during start-up (${code ?? signal}): ${stderr}`));
    });
    child.on('message', (message) => {
      if (message?.type !== 'listening') return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve(handle(child, message.port, name, () => stderr));
    });
  });
}

function handle(child, port, name, stderr) {
  let exited = child.exitCode !== null || child.signalCode !== null;
  child.once('exit', () => {
    exited = true;
  });
  return {
    name,
    child,
    pid: child.pid,
    port,
    url: `http://127.0.0.1:${port}`,
    stderr,
    get alive() {
      return !exited;
    },
    /** process.memoryUsage() after a forced GC (needs --expose-gc). */
    memory() {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${name}: no memory answer`)), 10_000);
        const onMessage = (message) => {
          if (message?.type !== 'mem') return;
          clearTimeout(timer);
          child.off('message', onMessage);
          resolve(message);
        };
        child.on('message', onMessage);
        child.send({ type: 'mem' });
      });
    },
    async stop(signal = 'SIGTERM') {
      if (exited) return;
      const done = new Promise((resolve) => child.once('exit', resolve));
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await done;
      clearTimeout(timer);
    },
  };
}

/**
 * The real app on a fresh SQLite file (or `db` if given, e.g. a postgres:// URL). Returns the
 * server handle plus `cleanup()` that stops it and deletes its database directory.
 */
export async function startApp({ db, env = {}, execArgv = [], name = 'app' } = {}) {
  const dir = db ? null : freshDir('db');
  const server = await start(APP_SERVER, {
    env: { BENCH_DB: db ?? `sqlite:${join(dir, 'blockwise.db')}`, ...env },
    execArgv,
    name,
  });
  return Object.assign(server, {
    dir,
    async cleanup() {
      await server.stop();
      if (dir) rm(dir);
    },
  });
}

export async function startReference({ execArgv = [], name = 'express' } = {}) {
  const server = await start(join(BENCH, 'servers', 'reference.mjs'), { execArgv, name });
  return Object.assign(server, { cleanup: () => server.stop() });
}

// ── A small HTTP client (no keep-alive unless an agent is given) ─────────────────────────────

/** One request; resolves with {status, headers, body (Buffer), ms}; network errors resolve too. */
export function request(url, { method = 'GET', headers = {}, body, agent, timeoutMs = 120_000 } = {}) {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.request(url, { method, headers, agent: agent ?? false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode,
          headers: res.headers,
          body: Buffer.concat(chunks),
          ms: performance.now() - started,
        }),
      );
      res.on('error', (error) =>
        resolve({ status: 0, error: error.code ?? error.message, ms: performance.now() - started }),
      );
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error('client timeout')));
    req.on('error', (error) =>
      resolve({ status: 0, error: error.code ?? error.message, ms: performance.now() - started }),
    );
    req.end(body);
  });
}

export async function postJson(url, body, headers = {}) {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': bytes.length, ...headers },
    body: bytes,
  });
  return { ...res, json: res.body?.length ? safeJson(res.body) : null };
}

function safeJson(buffer) {
  try {
    return JSON.parse(buffer.toString('utf8'));
  } catch {
    return null;
  }
}

export async function waitUntil(predicate, { timeoutMs = 10_000, everyMs = 50 } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await predicate()) return true;
    await sleep(everyMs);
  }
  return false;
}
