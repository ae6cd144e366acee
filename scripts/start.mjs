// `npm start` (or `pnpm start`): install, build the web app and the server, then serve both on
// one port with the embedded SQLite archive (./data/blockwise.db). Extra arguments go to
// `blockwise serve`, e.g. `npm start -- --port 9000`. A native module built for another Node
// (the checkout installed under another version) is rebuilt first (native-modules.mjs).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ensureNativeModules } from './native-modules.mjs';
import { pnpm, repoRoot } from './pnpm.mjs';

pnpm(['install', '--frozen-lockfile']);
// An install made under another Node leaves better-sqlite3 built for that Node's ABI (and the
// install above rebuilds nothing when the lockfile is unchanged): rebuild it for this one.
ensureNativeModules();
pnpm(['build']);

const cli = join(repoRoot, 'server', 'dist', 'blockwise.mjs');
if (!existsSync(cli)) {
  console.error(`✗ build did not produce ${cli}`);
  process.exit(1);
}
const child = spawn(process.execPath, [cli, 'serve', ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: repoRoot,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
