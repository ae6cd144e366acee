// Native modules built for the Node that runs them. A checkout installed under one Node and
// started under another (nvm use 24 after installing with 20) keeps better-sqlite3 compiled for the
// first one's ABI, and `pnpm install` rebuilds nothing since the lockfile has not changed: the
// server then dies at start-up with "NODE_MODULE_VERSION 115 … requires 137". `npm start` and
// `npm test` check each native module under the Node that runs them, after installing, and
// rebuild the ones that do not load.
//
// `node scripts/native-modules.mjs` runs the check (and the rebuild) on its own.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pnpm, repoRoot } from './pnpm.mjs';

/**
 * The workspace's native modules: the package that depends on each (it is resolved from there,
 * as the server resolves it) and code that loads its binary (better-sqlite3 loads it when the
 * first database opens, not on require).
 */
export const NATIVE_MODULES = [
  {
    name: 'better-sqlite3',
    workspace: 'server',
    probe: "new (require('better-sqlite3'))(':memory:').close()",
  },
];

/**
 * Whether `mod` loads under the Node binary `node`, tried in a child process (a binary that
 * loaded cannot be unloaded, and the one to test may not be this process's Node):
 * `{ ok: true }`, or `{ ok: false, reason, message }` with `reason` one of
 * - `abi`: built for another Node (`builtAbi`, `runningAbi`: NODE_MODULE_VERSION numbers);
 * - `missing`: installed without its compiled binary (an install whose build step failed);
 * - `not_installed`: the package itself is absent (run the install first);
 * - `error`: anything else (the message says what).
 */
export function probeNativeModule(mod, { node = process.execPath, root = repoRoot } = {}) {
  const script = `try { ${mod.probe}; } catch (e) {
    process.stdout.write(JSON.stringify({ code: e.code ?? null, message: String(e.message) }));
    process.exit(1);
  }`;
  // Resolved from the workspace as the server resolves it: not through the NODE_PATH pnpm's
  // scripts run with (node_modules/.pnpm/node_modules, which holds every package).
  const env = { ...process.env };
  delete env.NODE_PATH;
  const run = spawnSync(node, ['-e', script], { cwd: join(root, mod.workspace), encoding: 'utf8', env });
  if (run.error) return { ok: false, reason: 'error', message: `cannot run ${node}: ${run.error.message}` };
  if (run.status === 0) return { ok: true };
  let failure;
  try {
    failure = JSON.parse(run.stdout);
  } catch {
    return { ok: false, reason: 'error', message: (run.stderr || run.stdout).trim() };
  }
  const abi = failure.message.match(/NODE_MODULE_VERSION (\d+)\.[\s\S]*NODE_MODULE_VERSION (\d+)/);
  if (abi) {
    return {
      ok: false,
      reason: 'abi',
      builtAbi: Number(abi[1]),
      runningAbi: Number(abi[2]),
      message: failure.message,
    };
  }
  if (/Could not locate the bindings file/.test(failure.message))
    return { ok: false, reason: 'missing', message: failure.message };
  if (failure.code === 'MODULE_NOT_FOUND' && failure.message.includes(`'${mod.name}'`))
    return { ok: false, reason: 'not_installed', message: failure.message };
  return { ok: false, reason: 'error', message: failure.message };
}

/** One line saying why a module needs a rebuild. */
export function describeProblem(mod, problem, nodeVersion = process.version) {
  if (problem.reason === 'abi')
    return (
      `${mod.name} was built for another Node (NODE_MODULE_VERSION ${problem.builtAbi}); ` +
      `Node ${nodeVersion} needs ${problem.runningAbi}`
    );
  if (problem.reason === 'missing') return `${mod.name} is installed without its compiled binary`;
  return `${mod.name} does not load: ${problem.message.split('\n')[0]}`;
}

const rebuildable = new Set(['abi', 'missing']);

/**
 * Checks every native module under this process's Node and rebuilds (`pnpm rebuild`, compiling
 * against the running Node's headers: see installEnv) each one built for another Node or missing
 * its binary, then checks it again. Returns the names rebuilt; exits 1 with the reason when a
 * module still does not load.
 */
export function ensureNativeModules({
  root = repoRoot,
  node = process.execPath,
  nodeVersion = process.version,
  rebuild = (mod) => pnpm(['--filter', `./${mod.workspace}`, 'rebuild', mod.name], { allowFailure: true }),
  log = (line) => console.log(line),
  fail = (line) => {
    console.error(line);
    process.exit(1);
  },
} = {}) {
  const rebuilt = [];
  for (const mod of NATIVE_MODULES) {
    const problem = probeNativeModule(mod, { node, root });
    if (problem.ok) continue;
    if (!rebuildable.has(problem.reason)) {
      fail(`✗ ${describeProblem(mod, problem, nodeVersion)}`);
      continue;
    }
    log(`• ${describeProblem(mod, problem, nodeVersion)}: rebuilding it (pnpm rebuild ${mod.name})`);
    rebuild(mod);
    const after = probeNativeModule(mod, { node, root });
    if (!after.ok) {
      fail(
        `✗ ${mod.name} still does not load after the rebuild: ${describeProblem(mod, after, nodeVersion)}. ` +
          `It compiles from source with node-gyp: it needs a C++ toolchain (Debian: apt-get install -y build-essential python3) ` +
          `and this Node's headers (set npm_config_nodedir to a folder holding include/node).`,
      );
      continue;
    }
    rebuilt.push(mod.name);
    log(`✓ ${mod.name} rebuilt for Node ${nodeVersion}`);
  }
  return rebuilt;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureNativeModules();
