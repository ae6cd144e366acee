// Runs the pnpm this repository pins (package.json "packageManager"), installing nothing globally:
// the machine's own pnpm when its major version matches, otherwise `npx pnpm@<pinned>`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const pinned = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).pnpmVersion;

function localPnpmMatches() {
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8', shell: process.platform === 'win32' });
  return probe.status === 0 && probe.stdout.trim().split('.')[0] === pinned.split('.')[0];
}

/** Environment for installs: node-gyp must build better-sqlite3 against local headers when present
 * (machines without internet access cannot download them). */
export function installEnv() {
  const env = { ...process.env };
  const header = '/usr/include/node/node_version.h';
  if (!env.npm_config_nodedir && existsSync(header)) {
    const text = readFileSync(header, 'utf8');
    const v = (name) => text.match(new RegExp(`#define ${name} (\\d+)`))?.[1];
    const headerVersion = `v${v('NODE_MAJOR_VERSION')}.${v('NODE_MINOR_VERSION')}.${v('NODE_PATCH_VERSION')}`;
    if (headerVersion === process.version) env.npm_config_nodedir = '/usr';
  }
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
