import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGRESSION_COMMENT_MARKER } from '@blockwise/shared/history';
import { DEGRADED, MAIN_NOISE, rescaleFio } from '../testing/noisy-fio.ts';
import { MANY_UPLOADS, fixture, makeTestApp, type TestApp } from '../testing/test-app.ts';
import { runCli } from '../testing/run-cli.ts';
import { sarifSchemaErrors } from '../testing/sarif-schema.ts';
import { XMLParser, XMLValidator } from 'fast-xml-parser';

/**
 * `blockwise upload --series … [--fail-on-regression] [--format …]` against the real app on a real
 * listening server: the exit status a CI job sees, and what it prints where.
 */

const job = fixture('fio/generated/a_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_grouped.json');
let dir: string;
let t: TestApp;
const servers: Server[] = [];
let url: string;

async function listen(handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bw-gate-'));
  for (const [i, noise] of MAIN_NOISE.entries())
    writeFileSync(join(dir, `main-${i}.json`), rescaleFio(job, noise));
  writeFileSync(join(dir, 'healthy.json'), rescaleFio(job, { throughput: 1.01, latency: 0.99 }));
  writeFileSync(join(dir, 'degraded.json'), rescaleFio(job, DEGRADED));
  t = await makeTestApp({ rateLimits: MANY_UPLOADS });
  url = await listen(t.app);
});
afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[], server = url) =>
  runCli(['upload', ...args, '--server', server], { cwd: dir, env: { BLOCKWISE_RETRY_BASE_MS: '5' } });

const SERIES = ['--series', 'gate-cli'];

describe('blockwise upload: the regression gate', () => {
  beforeAll(async () => {
    // Five main builds (the series' history); each is checked against the ones before it.
    for (let i = 0; i < 5; i += 1) {
      const r = await run([
        `main-${i}.json`,
        ...SERIES,
        '--branch',
        'main',
        '--commit',
        `aaaa00${i}`,
        '--fail-on-regression',
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(
        i < 3 ? 'storage regression check: PASS (insufficient history)' : 'storage regression check: PASS\n',
      );
    }
  });

  it('a degraded run with --fail-on-regression: exit 1, the table on stderr, stdout still the URL', async () => {
    const r = await run([
      'degraded.json',
      ...SERIES,
      '--branch',
      'feature/slow',
      '--commit',
      'bbbb001',
      '--base-branch',
      'main',
      '--fail-on-regression',
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`^degraded\\.json: ${url}/runs/[A-Za-z0-9_-]{22}\\n$`));
    expect(r.stderr).toContain('storage regression check: REGRESSION\n');
    expect(r.stderr).toContain('series gate-cli · feature/slow @ bbbb001 vs the last 5 runs on main');
    // Baseline: main runs 0–4, whose throughput factors average exactly 1.
    expect(r.stderr).toContain('\nread IOPS                   10,267   7,187  -30.0%  REGRESSION\n');
    expect(r.stderr).toContain('\nwrite clat p99 (ms)           19.5    31.2  +60.0%  REGRESSION\n');
    expect(r.stderr).toMatch(
      new RegExp(`\\ncomparison: ${url}/c/pair/[A-Za-z0-9_-]{22}/[A-Za-z0-9_-]{22}\\n`),
    );
  });

  it('the same regression without the flag: reported, exit 0, with a hint', async () => {
    const r = await run(['degraded.json', ...SERIES, '--branch', 'feature/slow', '--commit', 'bbbb002']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('storage regression check: REGRESSION');
    expect(r.stderr).toContain(
      '1 run(s) regressed; not failing (add --fail-on-regression to fail the build)',
    );
  });

  it('--format markdown: stdout is the PR comment, the URL goes to stderr', async () => {
    const r = await run([
      'healthy.json',
      ...SERIES,
      '--branch',
      'feature/fast',
      '--commit',
      'cccc001',
      '--format',
      'markdown',
      '--fail-on-regression',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').slice(0, 2)).toEqual([
      REGRESSION_COMMENT_MARKER,
      '### ✅ Storage check passed: `gate-cli`',
    ]);
    expect(r.stdout).toMatch(/\n\| read IOPS \| 10,\d{3} \| 10,\d{3} \| \+[01]\.\d% \| ✅ ok \|\n/);
    expect(r.stdout).toMatch(
      new RegExp(
        `\\[Comparison with the latest baseline run\\]\\(${url}/c/pair/[A-Za-z0-9_-]{22}/[A-Za-z0-9_-]{22}\\) · \\[This run\\]\\(${url}/runs/`,
      ),
    );
    expect(r.stderr).toMatch(/^healthy\.json: http:\/\//);
  });

  it('--format json carries the report; the exit status follows it', async () => {
    const r = await run([
      'degraded.json',
      ...SERIES,
      '--branch',
      'feature/slow',
      '--commit',
      'bbbb003',
      '--format',
      'json',
      '--fail-on-regression',
    ]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as {
      runs: { ok: boolean; regression: { ok: boolean; report: { verdict: string } } }[];
    };
    expect(out.runs[0]!.regression).toMatchObject({ ok: true, report: { verdict: 'regression' } });
    expect(r.stderr).toBe('');
  });

  it('too little history passes (exit 0) even with --fail-on-regression', async () => {
    const r = await run([
      'degraded.json',
      '--series',
      'brand-new',
      '--branch',
      'feature/x',
      '--fail-on-regression',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('storage regression check: PASS (insufficient history)');
    expect(r.stderr).toContain('insufficient history: 0 earlier runs on main, 3 needed.');
  });

  it('no --branch: the gate says it cannot pick a base (exit 0)', async () => {
    const r = await run(['degraded.json', ...SERIES, '--commit', 'dddd001', '--fail-on-regression']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('storage regression check: NOT CHECKED (no base branch)');
    expect(r.stderr).toContain('cannot pick a base branch: the run has no branch label');
  });

  it('a server without the gate (404 on /regression): exit 1 with the flag, a warning without', async () => {
    const old = await listen((req, res) => {
      if (req.url?.includes('/regression')) {
        res.writeHead(404, { 'Content-Type': 'application/json' });
        res.end(
          JSON.stringify({
            error: { code: 'not_found', message: 'no API route GET /api/runs/x/regression' },
          }),
        );
        return;
      }
      t.app(req, res);
    });
    const args = ['healthy.json', ...SERIES, '--branch', 'feature/old', '--commit', 'eeee001'];
    const strict = await run([...args, '--fail-on-regression'], old);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/healthy\.json: regression check failed: 404 not_found: no API route/);
    const lenient = await run(args, old);
    expect(lenient.code).toBe(0);
    expect(lenient.stderr).toContain('regression check failed: 404 not_found');
  });

  it('uploads without --series print no report (the upload output is unchanged)', async () => {
    const r = await run(['healthy.json', '--label', 'name=plain']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^healthy\.json: http:\/\/\S+\n$/);
    expect(r.stderr).toBe('');
  });

  describe('--format sarif and junit: the documents CI tools read, the exit status unchanged', () => {
    const degraded = ['degraded.json', ...SERIES, '--branch', 'feature/slow', '--base-branch', 'main'];
    type Result = { ruleId: string; level: string; message: { text: string }; locations: unknown[] };
    const sarif = (stdout: string) => {
      const log = JSON.parse(stdout) as {
        runs: { results: Result[]; tool: { driver: { rules: { id: string }[] } } }[];
      };
      expect(sarifSchemaErrors(log)).toEqual([]);
      return log.runs[0]!;
    };
    const junit = (xml: string) => {
      expect(XMLValidator.validate(xml)).toBe(true);
      return new XMLParser({
        ignoreAttributes: false,
        attributeNamePrefix: '',
        isArray: (name) => name === 'testsuite' || name === 'testcase' || name === 'property',
      }).parse(xml) as {
        testsuites: {
          failures: string;
          errors: string;
          testsuite: {
            name: string;
            failures: string;
            errors: string;
            properties: { property: { name: string; value: string }[] };
            testcase: { name: string; failure?: { type: string; '#text': string }; error?: object }[];
          }[];
        };
      };
    };

    it('sarif: a schema-valid error per regressed metric on the uploaded file; stdout is the document', async () => {
      const r = await run([...degraded, '--commit', 'abab001', '--format', 'sarif', '--fail-on-regression']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^degraded\\.json: ${url}/runs/`));
      const results = sarif(r.stdout).results;
      expect(results.length).toBeGreaterThan(0);
      expect(results.every((x) => x.ruleId === 'metric_regression' && x.level === 'error')).toBe(true);
      expect(results.map((x) => x.message.text)).toContainEqual(
        expect.stringMatching(
          /^series gate-cli · feature\/slow @ abab001 vs main: read IOPS: 7,187 vs a baseline mean of 10,267 \(-30\.0%, limit /,
        ),
      );
      expect(results[0]!.locations).toEqual([
        {
          physicalLocation: { artifactLocation: { uri: 'degraded.json' } },
          logicalLocations: [
            { fullyQualifiedName: 'series gate-cli · feature/slow @ abab001 / read IOPS', kind: 'object' },
          ],
        },
      ]);
      // Same run without the flag: same document, exit 0.
      const lenient = await run([...degraded, '--commit', 'abab001', '--format', 'sarif']);
      expect(lenient.code).toBe(0);
      expect(sarif(lenient.stdout).results).toEqual(results);
    });

    it('junit: a suite per file, a case per metric, failures only with --fail-on-regression', async () => {
      const args = [...degraded, 'healthy.json', '--commit', 'abab002', '--format', 'junit'];
      const lenient = junit((await run(args)).stdout);
      expect(lenient.testsuites.failures).toBe('0');
      const r = await run([...args, '--fail-on-regression']);
      expect(r.code).toBe(1);
      const doc = junit(r.stdout);
      const [bad, good] = doc.testsuites.testsuite;
      expect([bad!.name, good!.name]).toEqual(['degraded.json', 'healthy.json']);
      expect(bad!.testcase.map((c) => c.name)).toContain('read IOPS');
      expect(bad!.testcase.find((c) => c.name === 'read IOPS')!.failure!.type).toBe('metric_regression');
      expect(Number(bad!.failures)).toBe(bad!.testcase.filter((c) => c.failure).length);
      expect(Number(bad!.failures)).toBeGreaterThan(0);
      expect(good!.failures).toBe('0');
      expect(bad!.properties.property).toContainEqual({ name: 'verdict', value: 'regression' });
      expect(good!.properties.property).toContainEqual({ name: 'verdict', value: 'pass' });
      expect(doc.testsuites.failures).toBe(bad!.failures);
    });

    it('a gate that cannot run: an error case and a SARIF error with the flag', async () => {
      const old = await listen((req, res) => {
        if (req.url?.includes('/regression')) {
          res.writeHead(503, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ error: { code: 'store_unavailable', message: 'down <now> & "later"' } }));
          return;
        }
        t.app(req, res);
      });
      const args = [
        'healthy.json',
        ...SERIES,
        '--branch',
        'feature/old',
        '--commit',
        'abab003',
        '--fail-on-regression',
      ];
      const x = await run([...args, '--format', 'junit'], old);
      expect(x.code).toBe(1);
      const suite = junit(x.stdout).testsuites.testsuite[0]!;
      expect(suite).toMatchObject({
        errors: '1',
        testcase: [
          { name: 'regression check', error: { type: 'store_unavailable', message: 'down <now> & "later"' } },
        ],
      });
      const s = await run([...args, '--format', 'sarif'], old);
      expect(s.code).toBe(1);
      expect(sarif(s.stdout).results.map((r) => [r.ruleId, r.level])).toEqual([
        ['regression_check_failed', 'error'],
      ]);
    });
  });

  describe('hostile labels and file names cannot forge a CI log line or a comment row', () => {
    const BRANCH = 'main\n::error::pwned\u001b[2J';
    const FILE = 'x\n::error::file\u001b[31m.json';
    const ESC = '\u001b';
    /** Lines the GitHub runner would run as workflow commands (`::x::` after white space, `##[`). */
    const commandLines = (out: string) =>
      out.split('\n').filter((l) => /^\s*::/u.test(l) || l.includes('##['));
    beforeAll(() => writeFileSync(join(dir, FILE), rescaleFio(job, DEGRADED)));

    it('text: each label on its own line, its control characters shown as \\uXXXX', async () => {
      const r = await run([
        FILE,
        ...SERIES,
        '--branch',
        BRANCH,
        '--commit',
        'ffff001',
        '--base-branch',
        'main',
      ]);
      expect(r.code, r.stderr).toBe(0);
      for (const out of [r.stdout, r.stderr]) {
        expect(out).not.toContain(ESC);
        expect(commandLines(out)).toEqual([]);
      }
      expect(r.stdout).toMatch(/^x\\u000a::error::file\\u001b\[31m\.json: \S+\n$/);
      expect(r.stderr).toContain(
        'series gate-cli · main\\u000a::error::pwned\\u001b[2J @ ffff001 vs the last 5 runs on main',
      );
    });

    it('markdown: the branch stays inside its code span, no row or command forged', async () => {
      const r = await run([
        FILE,
        ...SERIES,
        '--branch',
        `${BRANCH}|x|\n| forged | row |`,
        '--commit',
        'ffff002',
        '--base-branch',
        'main',
        '--format',
        'markdown',
      ]);
      expect(r.code, r.stderr).toBe(0);
      for (const out of [r.stdout, r.stderr]) {
        expect(out).not.toContain(ESC);
        expect(commandLines(out)).toEqual([]);
      }
      expect(r.stdout).toContain(
        '`main\\u000a::error::pwned\\u001b[2J¦x¦\\u000a¦ forged ¦ row ¦` @ `ffff002` vs the last 5 runs on `main`',
      );
      expect(r.stdout).not.toMatch(/^\| forged/m);
      expect(r.stderr).toMatch(/^x\\u000a::error::file\\u001b\[31m\.json: \S+\n/);
    });
  });

  it.each([
    [
      ['x.json', '--format', 'xml'],
      /--format: expected text, markdown, json, sarif, junit or github, got "xml"/,
    ],
    [['x.json', '--fail-on-regression'], /--fail-on-regression needs --series/],
    [
      ['x.json', '--format', 'markdown'],
      /--format markdown prints the regression report, which needs --series/,
    ],
    [['x.json', '--format', 'sarif'], /--format sarif prints the regression report, which needs --series/],
    [['x.json', '--format', 'junit'], /--format junit prints the regression report, which needs --series/],
    [['x.json', '--format', 'github'], /--format github prints the regression report, which needs --series/],
    [
      ['x.json', '--series', 's', '--json', '--format', 'markdown'],
      /--json and --format markdown contradict/,
    ],
  ])('usage error %j → exit 2', async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
