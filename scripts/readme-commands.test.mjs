import { execFile, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands as cliCommands } from '../server/src/cli/commands.ts';
import { repoRoot } from './pnpm.mjs';

/**
 * Every command block of the README, run as a newcomer runs it: from the repository with npm and
 * Node only (the README says pnpm is not needed, so pnpm is not on PATH here), on the repository's
 * fixtures, against a real `blockwise serve` on a fresh SQLite file where a block names the
 * server `npm start` runs (http://localhost:8080).
 *
 * Each ```sh block is preceded by an HTML comment saying what it must do, which a reader of the
 * rendered page does not see:
 *   <!-- readme-test exit=0 expect="phrase" [expect="…"] [server] -->  every command of the block
 *       exits so, and their output together holds every phrase;
 *   <!-- readme-test skip="why" -->  not run here, for the reason given (the whole suite itself,
 *       the published npm package).
 * A block without such a comment fails the suite.
 */
const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const run = promisify(execFile);
const SERVER_IN_README = 'http://localhost:8080';

/** The README's ```sh blocks, each with the readme-test comment before it (null if none). */
function readmeBlocks(text) {
  return [...text.matchAll(/(?:<!-- readme-test ([^\n]*?) -->\n\n)?```sh\n([\s\S]*?)```/g)].map((m) => {
    const spec = m[1] ?? null;
    const attr = (name) =>
      [...(spec ?? '').matchAll(new RegExp(`\\b${name}="([^"]*)"`, 'g'))].map((a) => a[1]);
    return {
      code: m[2],
      annotated: spec !== null,
      skip: attr('skip')[0] ?? null,
      exit: Number(/\bexit=(\d+)/.exec(spec ?? '')?.[1] ?? Number.NaN),
      expect: attr('expect'),
      server: /(^|\s)server(\s|$)/.test(spec ?? ''),
    };
  });
}

/** Commands of a block: continuation lines joined, comments dropped. */
function commandsOf(code) {
  return code
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line && !line.startsWith('#'));
}

const blocks = readmeBlocks(readme);
const runnable = blocks.filter((b) => !b.skip);
const lines = blocks.flatMap((b) => commandsOf(b.code));

// A PATH holding node, npm, sh and curl only: no pnpm (the machine may have one).
const bin = mkdtempSync(join(tmpdir(), 'readme-bin-'));
const work = mkdtempSync(join(tmpdir(), 'readme-work-'));
afterAll(() => [bin, work].forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const which = (name) => spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
symlinkSync(process.execPath, join(bin, 'node'));
for (const name of ['npm', 'sh', 'curl']) symlinkSync(which(name), join(bin, name));
const env = { ...process.env, PATH: bin, NODE_PATH: '' };
delete env.npm_config_user_agent;
delete env.BLOCKWISE_TOKEN;

/** Runs a README command line with sh in the repository, with the PATH above. */
function sh(line) {
  return run('sh', ['-c', line], { cwd: repoRoot, env, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e) => ({ code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? '' }),
  );
}

/** `blockwise serve` on a fresh SQLite file and a free port, started with npm as the README does. */
let serverUrl;
let server;
beforeAll(async () => {
  if (!runnable.some((b) => b.server)) return;
  server = spawn(
    'npm',
    [
      'run',
      '-s',
      'blockwise',
      '--',
      'serve',
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--db',
      `sqlite:${join(work, 'bw.db')}`,
    ],
    { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let out = '';
  serverUrl = await new Promise((resolve, reject) => {
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      if (m) resolve(m[1]);
    });
    server.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
}, 120_000);
afterAll(() => {
  // npm, sh, tsx and the server: the whole group this file started.
  if (server?.pid) process.kill(-server.pid, 'SIGTERM');
});

describe('the README', () => {
  it('says what every command block must do, or why it is not run here', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    for (const b of blocks) {
      expect(b.annotated, b.code).toBe(true);
      if (b.skip) expect(b.skip.length, b.code).toBeGreaterThan(10);
      else {
        expect(Number.isInteger(b.exit), b.code).toBe(true);
        expect(b.expect.length, b.code).toBeGreaterThan(0);
      }
    }
  });

  it('skips only the set-up commands and the published package', () => {
    expect(blocks.filter((b) => b.skip).map((b) => commandsOf(b.code))).toEqual([
      ['npm start', 'npm test'],
      ['npx @blockwise/cli --help'],
    ]);
  });

  it('lists exactly the commands the CLI has', () => {
    const table = [...readme.matchAll(/^\| `([a-z-]+)` +\|/gm)].map((m) => m[1]);
    expect(table.toSorted()).toEqual(Object.keys(cliCommands).toSorted());
  });

  it('shows a runnable example of the six tasks, each through `npm run -s blockwise --`', () => {
    const used = lines.map((l) => /^npm run -s blockwise -- ([a-z-]+(?: (?:plan|query))?)/.exec(l)?.[1]);
    expect(used.filter(Boolean)).toEqual(
      expect.arrayContaining(['plan', 'compare', 'metrics', 'check-iac', 'fleet plan', 'upload']),
    );
    for (const l of lines.filter((l) => /\bblockwise\b/.test(l) && !l.startsWith('npx ')))
      expect(l).toMatch(/^npm run -s blockwise -- /);
    expect(readme).not.toMatch(/pnpm blockwise/);
  });

  it('has no pnpm on the PATH the examples run with', async () => {
    expect((await sh('command -v pnpm')).code).not.toBe(0);
  });
});

/** What each block's commands printed, for the block's phrases. */
const outputs = new Map();

describe.each(runnable.map((b) => [commandsOf(b.code)[0], b]))('README block `%s`', (_, block) => {
  it.each(commandsOf(block.code))(
    '%s',
    async (line) => {
      const r = await sh(block.server ? line.replaceAll(SERVER_IN_README, serverUrl) : line);
      expect(r.stderr).not.toMatch(/command not found|Missing script|internal error/);
      expect(r.code, r.stderr).toBe(block.exit);
      // Each command prints something of its own; the block's phrases are checked below on all of it.
      expect((r.stdout + r.stderr).trim(), r.stderr).not.toBe('');
      outputs.set(block, (outputs.get(block) ?? '') + r.stdout + r.stderr);
    },
    120_000,
  );
  it(`prints ${block.expect.map((e) => JSON.stringify(e)).join(', ')}`, () => {
    for (const phrase of block.expect) expect(outputs.get(block)).toContain(phrase);
  });
});

describe("the README's curl upload", () => {
  const curl = lines.find((l) => l.startsWith('curl '));

  it('sends JSON, and the server archives the run with its labels', async () => {
    expect(curl).toMatch(
      /^curl -H 'Content-Type: application\/json' --data-binary @\S+\.json "http:\/\/localhost:8080\/api\/runs\?/,
    );
    const r = await sh(curl.replace(SERVER_IN_README, serverUrl));
    expect(r.code, r.stderr).toBe(0);
    const created = JSON.parse(r.stdout);
    expect(created).toMatchObject({ id: expect.any(String), url: `/runs/${created.id}` });
    const stored = await (await fetch(`${serverUrl}/api/runs/${created.id}`)).json();
    expect(stored.labels).toMatchObject({ kind: 'ebs', instanceType: 'r6i.4xlarge' });
  });

  it('is refused 415 without its content type (what a newcomer got)', async () => {
    const bare = curl.replace(" -H 'Content-Type: application/json'", '');
    const r = await sh(bare.replace(SERVER_IN_README, serverUrl));
    expect(JSON.parse(r.stdout).error.code).toBe('unsupported_media_type');
  });
});
