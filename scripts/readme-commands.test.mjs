import { execFile, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './pnpm.mjs';

/**
 * The README's CLI examples and its curl upload, run as a newcomer runs them: from the repository
 * with npm and Node only (the README says pnpm is not needed, so pnpm is not on PATH here), against
 * a real `blockwise serve` on a fresh SQLite file.
 */
const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const run = promisify(execFile);

/** The README's ```sh blocks between the heading `from` and the next heading of that level. */
function shBlocks(from) {
  const start = readme.indexOf(`\n${from}\n`);
  const level = from.split(' ')[0];
  const end = readme.indexOf(`\n${level} `, start + from.length + 2);
  const section = readme.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** Commands of a block: continuation lines joined, comments dropped. */
function commands(block) {
  return block
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line && !line.startsWith('#'));
}

const cliCommands = shBlocks('## The CLI').flatMap(commands);
// `blockwise <command>` as a newcomer types it (not the one-file CLI a server hands out, blockwise.mjs).
const blockwiseCommands = cliCommands.filter((c) => /\bblockwise (-- )?[a-z]/.test(c));

// A PATH holding node, npm, sh and curl only: no pnpm (the machine may have one).
const bin = mkdtempSync(join(tmpdir(), 'readme-bin-'));
const work = mkdtempSync(join(tmpdir(), 'readme-work-'));
afterAll(() => [bin, work].forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const which = (name) => spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
symlinkSync(process.execPath, join(bin, 'node'));
for (const name of ['npm', 'sh', 'curl']) symlinkSync(which(name), join(bin, name));
const env = { ...process.env, PATH: bin, NODE_PATH: '' };
delete env.npm_config_user_agent;

/** Runs a README command line with sh in the repository, with the PATH above. */
function sh(line, { cwd = repoRoot } = {}) {
  return run('sh', ['-c', line], { cwd, env, encoding: 'utf8' }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

describe('the README runs without pnpm', () => {
  it('has no pnpm on the PATH the examples run with', async () => {
    expect((await sh('command -v pnpm')).code).not.toBe(0);
  });

  it('gives every CLI example as `npm run blockwise -- …`', () => {
    expect(readme).not.toMatch(/pnpm blockwise/);
    expect(blockwiseCommands.length).toBeGreaterThan(20);
    for (const c of blockwiseCommands) expect(c).toMatch(/(^|= ?\S+ )npm run blockwise -- [a-z]/);
  });

  // The examples that need no file of the reader's and no running server: as written.
  const standalone = blockwiseCommands.filter(
    (c) => !/[[…|<>]|\.(json|txt|csv)\b|\b(serve|token|catalog update)\b/.test(c),
  );
  it.each(standalone)(
    '%s',
    async (line) => {
      const r = await sh(line);
      expect(r.stderr).not.toMatch(/command not found|Missing script/);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/\$[\d,]+\.\d\d/);
    },
    60_000,
  );

  it('runs some of them: the plan and cost examples', () => {
    expect(standalone.map((c) => c.split(' ')[4])).toEqual(['plan', 'plan', 'cost', 'cost', 'cost']);
  });
});

describe("the README's curl upload", () => {
  const curl = readme.match(/`(curl [^`]*--data-binary @result\.json[^`]*)`/)?.[1];
  let server;
  let url;
  beforeAll(async () => {
    copyFileSync(
      join(repoRoot, 'fixtures/fio/generated/c_randread_4k_libaio_qd32_timebased5s.json'),
      join(work, 'result.json'),
    );
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
    url = await new Promise((resolve, reject) => {
      server.stdout.on('data', (chunk) => {
        out += chunk;
        const m = out.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
        if (m) resolve(m[1]);
      });
      server.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
    });
  }, 60_000);
  afterAll(() => {
    // npm, sh, tsx and the server: the whole group this test started.
    if (server?.pid) process.kill(-server.pid, 'SIGTERM');
  });

  it('sends JSON and the server archives the run with its labels', async () => {
    expect(curl).toMatch(
      /^curl -H 'Content-Type: application\/json' --data-binary @result\.json "https:\/\/blockwise\.example\/api\/runs\?/,
    );
    const r = await sh(curl.replace('https://blockwise.example', url), { cwd: work });
    expect(r.code, r.stderr).toBe(0);
    const created = JSON.parse(r.stdout);
    expect(created).toMatchObject({ id: expect.any(String), url: `/runs/${created.id}` });
    const stored = await (await fetch(`${url}/api/runs/${created.id}`)).json();
    expect(stored.labels).toMatchObject({ kind: 'ebs', instanceType: 'r6i.4xlarge' });
  });

  it('is refused 415 without its content type (what a newcomer got)', async () => {
    const bare = curl.replace(" -H 'Content-Type: application/json'", '');
    const r = await sh(bare.replace('https://blockwise.example', url), { cwd: work });
    expect(JSON.parse(r.stdout).error.code).toBe('unsupported_media_type');
  });
});
