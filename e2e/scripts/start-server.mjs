// Starts the built server (server/dist/blockwise.mjs) on a fresh SQLite file for one e2e run.
//
// It trusts X-Forwarded-For from loopback, as a server behind a local reverse proxy would
// (BLOCKWISE_TRUST_PROXY=loopback): specs that seed the archive through the API send their own
// client address, so seeding 50+ runs does not eat the browser's budget of 30 anonymous uploads
// per minute (docs/performance.md R8). The browser's own requests carry no such header and are
// limited as 127.0.0.1, exactly as in production.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const port = process.argv[2] ?? '18080';
const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(root, 'server', 'dist', 'blockwise.mjs');
if (!existsSync(cli) || !existsSync(join(root, 'web', 'dist', 'index.html'))) {
  console.error('e2e: build first (pnpm build): server/dist/blockwise.mjs and web/dist are needed');
  process.exit(1);
}
const dir = mkdtempSync(join(tmpdir(), 'bw-e2e-'));
const child = spawn(
  process.execPath,
  [cli, 'serve', '--port', port, '--host', '127.0.0.1', '--db', `sqlite:${join(dir, 'e2e.db')}`],
  {
    stdio: 'inherit',
    env: { ...process.env, BLOCKWISE_LOG_LEVEL: 'warn', BLOCKWISE_TRUST_PROXY: 'loopback' },
  },
);
const stop = () => {
  child.kill('SIGTERM');
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
child.on('exit', (code) => {
  rmSync(dir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
