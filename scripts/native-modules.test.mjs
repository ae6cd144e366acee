import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureNativeModules, NATIVE_MODULES, probeNativeModule } from './native-modules.mjs';

const [sqlite] = NATIVE_MODULES;
const runningAbi = Number(process.versions.modules);
// Node 20 is ABI 115, 22 is 127, 24 is 137: a module "built" for another of them.
const otherAbi = runningAbi === 115 ? 137 : 115;

describe('the real better-sqlite3 of this checkout', () => {
  it('loads under the Node running the tests (npm test rebuilt it if it was built for another)', () => {
    expect(probeNativeModule(sqlite)).toEqual({ ok: true });
  });

  // A second Node on the machine (CI's Node 22 and 24 stages run beside the machine's Node 20):
  // this checkout's binary, built for the running Node, must be reported as built for another ABI.
  const otherNode = ['/usr/bin/node', '/usr/local/bin/node']
    .filter((path) => existsSync(path) && realpathSync(path) !== realpathSync(process.execPath))
    .map((path) => ({
      path,
      abi: Number(spawnSync(path, ['-p', 'process.versions.modules'], { encoding: 'utf8' }).stdout.trim()),
    }))
    .find((node) => node.abi > 0 && node.abi !== runningAbi);

  it.skipIf(!otherNode)(
    `is reported as built for another Node under ${otherNode?.path ?? 'a second Node'}`,
    () => {
      const problem = probeNativeModule(sqlite, { node: otherNode.path });
      expect(problem).toMatchObject({
        ok: false,
        reason: 'abi',
        builtAbi: runningAbi,
        runningAbi: otherNode.abi,
      });
      expect(problem.message).toMatch(/better_sqlite3\.node/);
    },
  );
});

/**
 * A checkout whose better-sqlite3 stands in for the real one: its binary "built for" the ABI
 * written in build/abi fails to open a database under any other Node with the error Node gives
 * (the message as Node 24 prints it for a module built under Node 20); "rebuilding" it writes the
 * running Node's ABI, as node-gyp compiling against the running Node's headers does.
 */
const roots = [];
afterAll(() => roots.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function checkoutBuiltFor(abi) {
  const root = mkdtempSync(join(tmpdir(), 'native-modules-'));
  roots.push(root);
  const pkg = join(root, 'server', 'node_modules', 'better-sqlite3');
  mkdirSync(join(pkg, 'build'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'better-sqlite3', main: 'index.js' }));
  writeFileSync(
    join(pkg, 'index.js'),
    `const { existsSync, readFileSync } = require('node:fs');
const abiFile = require('node:path').join(__dirname, 'build', 'abi');
module.exports = class Database {
  constructor() {
    const binary = __dirname + '/build/Release/better_sqlite3.node';
    if (!existsSync(abiFile)) throw new Error('Could not locate the bindings file. Tried:\\n → ' + binary);
    const built = readFileSync(abiFile, 'utf8').trim();
    if (built !== process.versions.modules) {
      const e = new Error("The module '" + binary + "'\\nwas compiled against a different Node.js version using\\nNODE_MODULE_VERSION " + built + ". This version of Node.js requires\\nNODE_MODULE_VERSION " + process.versions.modules + ". Please try re-compiling or re-installing\\nthe module (for instance, using \`npm rebuild\` or \`npm install\`).");
      e.code = 'ERR_DLOPEN_FAILED';
      throw e;
    }
  }
  close() {}
};
`,
  );
  if (abi !== null) writeFileSync(join(pkg, 'build', 'abi'), String(abi));
  return { root, abiFile: join(pkg, 'build', 'abi') };
}

function run(root, rebuild) {
  const log = [];
  const failures = [];
  const rebuilt = ensureNativeModules({
    root,
    rebuild,
    log: (line) => log.push(line),
    fail: (line) => failures.push(line),
  });
  return { rebuilt, log, failures };
}

describe('ensureNativeModules', () => {
  it('rebuilds a module built for another Node, says why, and then it loads', () => {
    const { root, abiFile } = checkoutBuiltFor(otherAbi);
    expect(probeNativeModule(sqlite, { root })).toMatchObject({
      reason: 'abi',
      builtAbi: otherAbi,
      runningAbi,
    });
    const calls = [];
    const { rebuilt, log, failures } = run(root, (mod) => {
      calls.push(mod.name);
      writeFileSync(abiFile, String(runningAbi));
    });
    expect({ rebuilt, calls, failures }).toEqual({
      rebuilt: ['better-sqlite3'],
      calls: ['better-sqlite3'],
      failures: [],
    });
    expect(log[0]).toBe(
      `• better-sqlite3 was built for another Node (NODE_MODULE_VERSION ${otherAbi}); Node ${process.version} needs ${runningAbi}: rebuilding it (pnpm rebuild better-sqlite3)`,
    );
    expect(probeNativeModule(sqlite, { root })).toEqual({ ok: true });
    // Started again under the same Node: nothing to rebuild.
    expect(run(root, () => calls.push('again'))).toEqual({ rebuilt: [], log: [], failures: [] });
    expect(calls).toEqual(['better-sqlite3']);
  });

  it('rebuilds a module installed without its binary (a failed build step)', () => {
    const { root, abiFile } = checkoutBuiltFor(null);
    expect(probeNativeModule(sqlite, { root })).toMatchObject({ ok: false, reason: 'missing' });
    const { rebuilt, failures } = run(root, () => writeFileSync(abiFile, String(runningAbi)));
    expect({ rebuilt, failures }).toEqual({ rebuilt: ['better-sqlite3'], failures: [] });
  });

  it('stops with what a rebuild needs when the rebuild did not help', () => {
    const { root, abiFile } = checkoutBuiltFor(otherAbi);
    const { rebuilt, failures } = run(root, () => {});
    expect(rebuilt).toEqual([]);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(
      /^✗ better-sqlite3 still does not load after the rebuild: .*NODE_MODULE_VERSION/,
    );
    expect(failures[0]).toMatch(/build-essential/);
    expect(readFileSync(abiFile, 'utf8')).toBe(String(otherAbi));
  });

  it('does not try to rebuild a module that is not installed at all', () => {
    const root = mkdtempSync(join(tmpdir(), 'native-modules-'));
    roots.push(root);
    mkdirSync(join(root, 'server'));
    const calls = [];
    const { failures } = run(root, () => calls.push('rebuild'));
    expect(calls).toEqual([]);
    expect(failures).toEqual([
      expect.stringMatching(/^✗ better-sqlite3 does not load: Cannot find module 'better-sqlite3'/),
    ]);
  });
});
