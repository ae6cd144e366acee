import { execFile, spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../testing/run-cli.ts';
import { sarifSchemaErrors } from '../testing/sarif-schema.ts';

/**
 * The npm package users install (packages/blockwise, assembled by `pnpm build`: docs/install.md),
 * as a user gets it: `npm pack`, installed from the tarball into an empty folder (its
 * dependencies from the npm registry or npm's cache; no native build — better-sqlite3 is only an
 * optional peer), then its `blockwise` run under the Node that runs this test, on repo fixtures.
 * On a Node without `node:sqlite` (before 22.13, outside `engines`), `serve` must refuse with a
 * message naming the Node it needs; on 22.13+ and 24 it serves the app on node:sqlite.
 *
 * npm test's `package` stage (after `build`); slow (an install), so its own stage and not the
 * unit stage's. The timeouts are hang guards, not timings.
 */

const run = promisify(execFile);
const PACKAGE_DIR = join(REPO_ROOT, 'packages', 'blockwise');
const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
  name: string;
  bin: Record<string, string>;
};
const FIO = join(REPO_ROOT, 'fixtures/fio/public/arau_fio-3.12_randrw50_32k.json');
const IAC_PLAN = join(REPO_ROOT, 'fixtures/iac/over-provisioned-gp3.plan.json');

/** Node 22.13+ and 24 have node:sqlite unflagged (the package's engines). */
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const hasNodeSqlite = major > 22 || (major === 22 && minor >= 13);

const work = mkdtempSync(join(tmpdir(), 'blockwise-package-'));
const home = join(work, 'home');
let cli = '';
const servers: ChildProcess[] = [];

afterAll(() => {
  for (const server of servers) server.kill();
  rmSync(work, { recursive: true, force: true });
});

/** npm as a user runs it (CI puts its Node's own bin, npm included, first on PATH). */
const npmEnv = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' };

beforeAll(async () => {
  if (!existsSync(join(PACKAGE_DIR, 'dist', 'blockwise.mjs')))
    throw new Error('packages/blockwise/dist is missing: run `pnpm build` first');
  const packs = join(work, 'packs');
  mkdirSync(packs);
  await run('npm', ['pack', '--silent', '--pack-destination', packs], { cwd: PACKAGE_DIR, env: npmEnv });
  const [tarball] = readdirSync(packs).filter((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error('npm pack wrote no tarball');
  const app = join(work, 'app');
  writeFileSync(join(work, 'package.json'), '{ "private": true }\n');
  await run(
    'npm',
    ['install', '--prefix', app, '--no-audit', '--prefer-offline', '--loglevel=error', join(packs, tarball)],
    { cwd: work, env: npmEnv },
  );
  cli = join(app, 'node_modules', manifest.name, manifest.bin.blockwise!);
}, 300_000);

/** The installed CLI under this test's Node, from an empty folder (no repo around it). */
function blockwise(args: string[]) {
  return run(process.execPath, [cli, ...args], {
    cwd: work,
    env: { ...process.env, HOME: home, BLOCKWISE_SQLITE_DRIVER: '' },
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** `blockwise serve` on a free port of its choosing; resolves with its URL once it listens. */
function serve(): Promise<{ url: string } | { exitCode: number | null; output: string }> {
  const server = spawn(
    process.execPath,
    [cli, 'serve', '--port', '0', '--db', `sqlite:${join(work, 'archive.db')}`],
    {
      cwd: work,
      env: { ...process.env, HOME: home, BLOCKWISE_SQLITE_DRIVER: '' },
    },
  );
  servers.push(server);
  let output = '';
  return new Promise((resolve) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = output.match(/listening on (http:\/\/\S+)/)?.[1];
      if (url) resolve({ url });
    };
    server.stdout.on('data', read);
    server.stderr.on('data', read);
    server.on('exit', (exitCode) => resolve({ exitCode, output }));
  });
}

describe(`the ${manifest.name} package, installed from its tarball (Node ${process.version})`, () => {
  it('installs no native addon: better-sqlite3 is an optional peer, not installed', () => {
    expect(existsSync(join(work, 'app', 'node_modules', 'better-sqlite3'))).toBe(false);
    expect(existsSync(join(work, 'app', 'node_modules', manifest.name, 'web', 'dist', 'index.html'))).toBe(
      true,
    );
  });

  it('plan: a fio fixture on a gp3 volume, as JSON', async () => {
    const { stdout } = await blockwise([
      'plan',
      '--instance',
      'm5.xlarge',
      '--type',
      'gp3',
      '--size',
      '500GiB',
      '--fio',
      FIO,
      '--json',
    ]);
    const plan = JSON.parse(stdout) as { profile: { source: string; read: { iops: number } } };
    expect(plan.profile.source).toBe('fio');
    // fixtures/fio/public/arau_…json: 225.89 read IOPS (its oracle file).
    expect(plan.profile.read.iops).toBeCloseTo(225.893944, 3);
  }, 120_000);

  it('check-iac --format sarif: a valid SARIF 2.1.0 log with the over-provisioned finding', async () => {
    const result = await blockwise(['check-iac', IAC_PLAN, '--fio', FIO, '--format', 'sarif']).catch(
      // Findings make check-iac exit 1; its report is on stdout either way.
      (error: { stdout: string; code: number }) => error,
    );
    const log = JSON.parse(result.stdout) as { version: string; runs: { results: { ruleId: string }[] }[] };
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(log.version).toBe('2.1.0');
    // gp3 1,000 GiB at 80,000 IOPS against a run of ~450 IOPS (fixtures/iac/README.md).
    expect(log.runs[0]!.results.map((r) => r.ruleId)).toContain('over_provisioned');
  }, 120_000);

  describe.runIf(hasNodeSqlite)('serve on node:sqlite', () => {
    let url = '';
    beforeAll(async () => {
      const started = await serve();
      if (!('url' in started)) throw new Error(`serve exited (${started.exitCode}): ${started.output}`);
      url = started.url;
    }, 120_000);

    it('answers / with the web app and /healthz with ok', async () => {
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      expect(await page.text()).toMatch(/<div id="root">/);
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok' });
    }, 60_000);

    it('upload: the fixture is stored and read back', async () => {
      const { stdout } = await blockwise(['upload', FIO, '--server', url, '--json']);
      const { runs } = JSON.parse(stdout) as {
        runs: { ok: boolean; run: { id: string; created: boolean } }[];
      };
      expect(runs).toMatchObject([{ ok: true, run: { created: true } }]);
      const stored = await fetch(`${url}/api/runs/${runs[0]!.run.id}`);
      expect(stored.status).toBe(200);
      expect(await stored.json()).toMatchObject({ id: runs[0]!.run.id });
    }, 120_000);
  });

  it.runIf(!hasNodeSqlite)(
    'serve refuses on a Node without node:sqlite, naming the Node it needs',
    async () => {
      const started = await serve();
      expect(started).toMatchObject({ exitCode: expect.any(Number) });
      expect('output' in started ? started.output : '').toMatch(/Node 22\.13\+ or 24/);
    },
    120_000,
  );
});
