import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SERVER_DIR = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN = fileURLToPath(new URL('../../cli/main.ts', import.meta.url));

export type ServeProcess = {
  port: number;
  child: ChildProcess;
  kill: (signal?: NodeJS.Signals) => Promise<void>;
};

/**
 * `blockwise serve` as CI and operators run it, in a child process (from source through tsx), on
 * loopback. Resolves once it prints its address; rejects with its stderr if it does not start.
 */
export function startServe(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 30_000,
): Promise<ServeProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', MAIN, 'serve', '--host', '127.0.0.1', ...args],
      {
        cwd: SERVER_DIR,
        env: { ...process.env, BLOCKWISE_LOG_LEVEL: 'warn', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start in ${timeoutMs} ms: ${err}`));
    }, timeoutMs);
    child.stderr!.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-4000)));
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      resolve({
        port: Number(m[1]),
        child,
        kill: async (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          await exited;
        },
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}) before listening: ${err}`));
    });
  });
}
