import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEGRADED, MAIN_NOISE, rescaleFio } from '../testing/noisy-fio.ts';
import { REPO_ROOT, runCli } from '../testing/run-cli.ts';
import { MANY_UPLOADS, fixture, makeTestApp, type TestApp } from '../testing/test-app.ts';

/**
 * The GitHub Action (action.yml at the repository root) run as the runner would run it: its
 * `run` steps executed by bash with `${{ … }}` expressions substituted, GITHUB_STEP_SUMMARY and
 * GITHUB_OUTPUT pointed at temporary files, and the CLI pointed at this checkout's source (tsx;
 * server/dist is built after the unit stage). The gate uploads to the real app on a real
 * listening server. What is checked is what a workflow sees: the annotations in the log, the job
 * summary, the action's outputs and the step's exit status.
 */

type Step = {
  id?: string;
  if?: string;
  uses?: string;
  shell?: string;
  env?: Record<string, string>;
  run?: string;
};
type ActionYml = {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
};

const action = parse(readFileSync(join(REPO_ROOT, 'action.yml'), 'utf8')) as ActionYml;
/** This checkout's CLI, from source: what `cli` replaces `npx --yes @blockwise/cli@<version>` with. */
const CLI = `${join(REPO_ROOT, 'node_modules/.bin/tsx')} ${join(REPO_ROOT, 'server/src/cli/main.ts')}`;

/** The `github` context of a pull request from feature/slow into main. */
const PULL_REQUEST = {
  head_ref: 'feature/slow',
  ref_name: '17/merge',
  base_ref: 'main',
  sha: 'ffff0000merge',
  event: { pull_request: { head: { sha: 'bbbb0001' } }, repository: { default_branch: 'main' } },
};

function lookup(path: string, context: Record<string, unknown>): unknown {
  return path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], context);
}

/**
 * `${{ a || b }}` with a and b context paths (inputs.x, github.x.y, steps.s.outputs.o): the only
 * expressions action.yml uses. Anything else throws, so a new kind of expression needs this first.
 */
function substitute(text: string, context: Record<string, unknown>): string {
  return text.replace(/\$\{\{(.*?)\}\}/g, (_, expr: string) => {
    for (const term of expr.split('||').map((t) => t.trim())) {
      if (!/^(inputs|github|steps)(\.[\w-]+)+$/.test(term))
        throw new Error(`unsupported expression: ${expr}`);
      const value = lookup(term, context);
      if (value) return String(value);
    }
    return '';
  });
}

/** The GITHUB_OUTPUT file: `name<<DELIMITER`, the value's lines, the delimiter. */
function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const m = /^([^<]+)<<(.+)$/.exec(lines[i]!);
    if (!m) continue;
    const end = lines.indexOf(m[2]!, i + 1);
    expect(end, `output ${m[1]} is closed`).toBeGreaterThan(i);
    outputs[m[1]!] = lines.slice(i + 1, end).join('\n');
    i = end;
  }
  return outputs;
}

type ActionRun = {
  code: number;
  log: string;
  stderr: string;
  /** The workflow commands the runner would read from the log: every line starting with `::`. */
  commands: string[];
  summary: string;
  outputs: Record<string, string>;
};

// How the runner runs `shell: bash`: `bash --noprofile --norc -eo pipefail {0}`.
const BASH = ['bash', '--noprofile', '--norc', '-eo', 'pipefail'];

function bash(script: string, cwd: string, env: Record<string, string>, shell = BASH) {
  // Asynchronous: the server the CLI uploads to answers from this process's event loop.
  return new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    execFile(shell[0]!, [...shell.slice(1), script], { cwd, env }, (error, stdout, stderr) =>
      done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Runs the action's steps in `cwd` (the workspace); the step files go to a temporary folder of their own. */
async function runAction(
  inputs: Record<string, string>,
  cwd: string,
  github: object = PULL_REQUEST,
): Promise<ActionRun> {
  const runner = mkdtempSync(join(tmpdir(), 'bw-runner-'));
  try {
    return await runSteps(inputs, cwd, github, runner);
  } finally {
    rmSync(runner, { recursive: true, force: true });
  }
}

async function runSteps(
  inputs: Record<string, string>,
  cwd: string,
  github: object,
  runner: string,
): Promise<ActionRun> {
  for (const name of Object.keys(inputs)) expect(action.inputs, `input ${name}`).toHaveProperty(name);
  const values: Record<string, string> = {
    ...Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default ?? ''])),
    cli: CLI,
    ...inputs,
  };
  const summaryFile = join(runner, 'step-summary');
  const outputFile = join(runner, 'output.txt');
  writeFileSync(summaryFile, '');
  writeFileSync(outputFile, '');
  const steps: Record<string, { outputs: Record<string, string> }> = {};
  let last = { code: 0, stdout: '', stderr: '' };
  for (const step of action.runs.steps) {
    if (step.uses) {
      // The one `uses` step sets up Node when asked; the test runs on this machine's Node.
      expect(step).toMatchObject({ uses: 'actions/setup-node@v4', if: "inputs.node-version != ''" });
      expect(values['node-version']).toBe('');
      continue;
    }
    const context = { inputs: values, github, steps };
    const env = Object.fromEntries(
      Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v), context)]),
    );
    const script = join(runner, `step-${step.id}.sh`);
    writeFileSync(script, step.run!);
    last = await bash(script, cwd, {
      PATH: process.env.PATH!,
      HOME: process.env.HOME ?? cwd,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_OUTPUT: outputFile,
      GITHUB_WORKSPACE: cwd,
      BLOCKWISE_RETRY_BASE_MS: '5',
      ...env,
    });
    steps[step.id!] = { outputs: parseOutputs(readFileSync(outputFile, 'utf8')) };
    if (last.code !== 0) break;
  }
  const outputs = Object.fromEntries(
    Object.entries(action.outputs).map(([k, v]) => [k, substitute(v.value, { steps })]),
  );
  return {
    code: last.code,
    log: last.stdout,
    stderr: last.stderr,
    commands: last.stdout.split('\n').filter((l) => l.startsWith('::')),
    summary: readFileSync(summaryFile, 'utf8'),
    outputs,
  };
}

describe('action.yml', () => {
  it('splices no expression into a script: inputs reach bash through env', () => {
    for (const step of action.runs.steps) {
      if (step.run) {
        expect(step.run).not.toContain('${{');
        expect(step.shell).toBe('bash');
      }
    }
    expect(action.runs.using).toBe('composite');
  });

  it('runs the blockwise package of this version by default', () => {
    const version = (
      JSON.parse(readFileSync(join(REPO_ROOT, 'server/package.json'), 'utf8')) as { version: string }
    ).version;
    expect(action.inputs.version!.default).toBe(version);
    expect(action.runs.steps.find((s) => s.run)!.run).toContain('npx --yes @blockwise/cli@$BW_VERSION');
  });

  it('every output is one the CLI writes', () => {
    for (const [name, o] of Object.entries(action.outputs))
      expect(o.value, name).toBe(`\${{ steps.blockwise.outputs.${name} }}`);
  });
});

// Each step starts the CLI from source through tsx: seconds per run on a busy CI machine.
describe('the action, run locally', { timeout: 120_000 }, () => {
  const job = fixture('fio/generated/a_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_grouped.json');
  let dir: string;
  let t: TestApp;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bw-action-'));
    for (const [i, noise] of MAIN_NOISE.entries())
      writeFileSync(join(dir, `main-${i}.json`), rescaleFio(job, noise));
    writeFileSync(join(dir, 'healthy.json'), rescaleFio(job, { throughput: 1.01, latency: 0.99 }));
    writeFileSync(join(dir, 'degraded.json'), rescaleFio(job, DEGRADED));
    t = await makeTestApp({ rateLimits: MANY_UPLOADS });
    server = createServer(t.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // The series' history: five main builds, each checked against the ones before it.
    for (let i = 0; i < 5; i += 1) {
      const r = await runCli(
        [
          'upload',
          `main-${i}.json`,
          '--server',
          url,
          '--series',
          'action',
          '--branch',
          'main',
          '--commit',
          `aaaa00${i}`,
        ],
        { cwd: dir },
      );
      expect(r.code, r.stderr).toBe(0);
    }
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a passing gate: exit 0, no error annotation, PASS in the summary, the run URL as output', async () => {
    const r = await runAction(
      { server: url, files: 'healthy.json', series: 'action', labels: 'kind=ebs\n  volumeType=gp3\n' },
      dir,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.commands).toEqual([]);
    expect(r.outputs).toMatchObject({ verdict: 'pass', 'regressed-metrics': '0', 'iac-verdict': '' });
    expect(r.outputs['run-url']).toMatch(new RegExp(`^${url}/runs/[\\w-]+$`));
    expect(r.outputs['comparison-url']).toMatch(new RegExp(`^${url}/c/pair/[\\w-]+/[\\w-]+$`));
    expect(r.summary).toMatch(/^\*\*storage regression gate: PASS\*\*/);
    // The pull request's head branch and head commit, against its base (github context defaults).
    expect(r.summary).toContain('`feature/slow` @ `bbbb0001` vs the last 5 runs on `main`');
    expect(r.summary).toContain('| read IOPS |');
  });

  it('a failing gate: exit 1, an error annotation per regressed metric on the result file, the verdict as output', async () => {
    const r = await runAction(
      {
        server: url,
        files: 'degraded.json',
        series: 'action',
        // A label cannot add a workflow command: its line break is encoded in the annotation.
        branch: 'feature/slow\n::error::injected',
        commit: 'bbbb0002',
      },
      dir,
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.outputs.verdict).toBe('regression');
    expect(Number(r.outputs['regressed-metrics'])).toBe(r.commands.length);
    expect(r.commands.length).toBeGreaterThan(0);
    for (const line of r.commands)
      expect(line).toMatch(
        /^::error file=degraded\.json,title=blockwise gate%3A metric_regression::series action/,
      );
    expect(r.commands.some((l) => l.startsWith('::error::injected'))).toBe(false);
    expect(r.commands[0]).toContain('feature/slow%0A::error::injected @ bbbb0002 vs main');
    expect(r.log).not.toMatch(/^::error::injected/m);
    expect(r.commands.join('\n')).toMatch(
      /read IOPS: [\d,]+ vs a baseline mean of [\d,]+ \(-\d+\.\d%25, limit [\d,]+\)/,
    );
    expect(r.summary).toMatch(
      /^\*\*storage regression gate: REGRESSION\*\* — fails the build · \d+ metric\(s\) regressed/,
    );
    // In the summary the branch is inert markdown (the line break shown as an escape).
    expect(r.summary).toContain('\\u000a');
  });

  it('fail-on-regression false: the same regression is reported as warnings and the step passes', async () => {
    const r = await runAction(
      {
        server: url,
        files: 'degraded.json',
        series: 'action',
        'fail-on-regression': 'false',
        commit: 'bbbb0003',
      },
      dir,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.outputs.verdict).toBe('regression');
    expect(r.commands.length).toBeGreaterThan(0);
    for (const line of r.commands) expect(line).toMatch(/^::warning file=degraded\.json,/);
    expect(r.summary).toContain('not failing (fail-on-regression is off)');
  });

  // fixtures/iac: the plan's gp3 at 80,000 IOPS and the manifests' claims against a fio run
  // re-measured at a 12,000 IOPS peak (us-east-1 prices of 2022-02-10; check-iac.test.ts spells
  // the plan's $360.00 out).
  it('an over-provisioned check-iac finding: an error on the manifest line, the waste in USD/month as output', async () => {
    writeFileSync(
      join(dir, 'fio-12k.json'),
      rescaleFio(fixture('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json'), {
        throughput: 12_000 / 77_896.220756,
      }),
    );
    // The workspace is the repository root, as on a runner after actions/checkout.
    const r = await runAction(
      {
        'iac-files': 'fixtures/iac/ebs-csi.yaml fixtures/iac/over-*.plan.json',
        'iac-fio': join(dir, 'fio-12k.json'),
        'iac-fail-on': 'over',
      },
      REPO_ROOT,
    );
    expect(r.code, r.stderr).toBe(1);
    const over = r.commands.filter((l) => l.includes('over_provisioned'));
    expect(over).toHaveLength(3);
    // A YAML claim: its file relative to the workspace and the line its object starts on.
    expect(over).toContainEqual(
      expect.stringMatching(
        /^::error file=fixtures\/iac\/ebs-csi\.yaml,line=61,title=blockwise check-iac%3A over_provisioned::PersistentVolumeClaim prod\/pg-data: .*\$40\.00\/month wasted/,
      ),
    );
    // A Terraform plan has no source lines: the file only, the resource address in the message.
    expect(over).toContainEqual(
      expect.stringMatching(
        /^::error file=fixtures\/iac\/over-provisioned-gp3\.plan\.json,title=[^:]*::aws_ebs_volume\.pg_data: .*waste USD 360\.00 per month/,
      ),
    );
    // Without --fail-on under, the under-provisioned claim is still an error (SARIF's level); notes are not annotated.
    expect(r.commands.filter((l) => l.includes('under_provisioned'))).toHaveLength(1);
    expect(r.commands.some((l) => l.includes('instance_not_in_code'))).toBe(false);
    expect(r.outputs).toMatchObject({
      'iac-verdict': 'fail',
      'failing-findings': '3',
      'waste-usd-per-month': '1686.08',
      verdict: '',
    });
    expect(r.summary).toMatch(
      /^\*\*check-iac: FAIL\*\* — 3 finding\(s\) fail the build \(`--fail-on over`\)\. Over-provisioning: \*\*\$1,686\.08\/month\*\*\./,
    );
    expect(r.summary).toContain('| PersistentVolumeClaim prod/pg-data |');
  });

  /**
   * A job of docs/ci/gitlab/blockwise.gitlab-ci.yml run as a runner would: the hidden job's
   * variables (its `extends:` first) under the job's own and GitLab's predefined ones, its script
   * lines in a POSIX shell with errexit (dash, where the image's shell is not bash).
   */
  async function runGitlabJob(job: string, variables: Record<string, string>, cwd: string) {
    const jobs = parse(
      readFileSync(join(REPO_ROOT, 'docs/ci/gitlab/blockwise.gitlab-ci.yml'), 'utf8'),
    ) as Record<string, { extends?: string; variables?: Record<string, string>; script: string[] }>;
    const chain = [jobs[job]!];
    while (chain[0]!.extends) chain.unshift(jobs[chain[0]!.extends]!);
    const script = join(cwd, `${job.slice(1)}.sh`);
    writeFileSync(script, jobs[job]!.script.join('\n'));
    return bash(
      script,
      cwd,
      {
        PATH: process.env.PATH!,
        HOME: process.env.HOME ?? cwd,
        BLOCKWISE_RETRY_BASE_MS: '5',
        ...Object.assign({}, ...chain.map((j) => j.variables ?? {})),
        BLOCKWISE_CLI: CLI,
        ...variables,
      },
      ['sh', '-e'],
    );
  }

  it('GitLab template, gate: a regression fails the job and is a <failure> per metric in the JUnit report', async () => {
    const r = await runGitlabJob(
      '.blockwise-gate',
      {
        BLOCKWISE_URL: url,
        BLOCKWISE_FILES: 'degraded.json',
        BLOCKWISE_SERIES: 'action',
        BLOCKWISE_LABELS: 'kind=ebs\n  volumeType=gp3\n',
        // A merge request from feature/slow into main.
        CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature/slow',
        CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: 'cccc0001',
        CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
      },
      dir,
    );
    expect(r.code, r.stderr).toBe(1);
    const xml = readFileSync(join(dir, 'blockwise-gate.xml'), 'utf8');
    expect(xml).toContain('<property name="branch" value="feature/slow"/>');
    expect(xml).toContain('<property name="commit" value="cccc0001"/>');
    expect(xml).toMatch(/<failure message="regression: read IOPS -\d+\.\d%" type="metric_regression">/);
  });

  it('GitLab template, check-iac: Code Quality issues on the manifest line and a JUnit report; over fails the job', async () => {
    const work = join(dir, 'gitlab-iac');
    mkdirSync(join(work, 'infra'), { recursive: true });
    for (const f of ['ebs-csi.yaml', 'over-provisioned-gp3.plan.json'])
      copyFileSync(join(REPO_ROOT, 'fixtures/iac', f), join(work, 'infra', f));
    writeFileSync(
      join(work, 'fio-12k.json'),
      rescaleFio(fixture('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json'), {
        throughput: 12_000 / 77_896.220756,
      }),
    );
    const r = await runGitlabJob(
      '.blockwise-check-iac',
      { BLOCKWISE_IAC_FILES: 'infra/*', BLOCKWISE_IAC_FIO: 'fio-12k.json', BLOCKWISE_IAC_FAIL_ON: 'over' },
      work,
    );
    expect(r.code, r.stderr).toBe(1);
    const issues = JSON.parse(readFileSync(join(work, 'blockwise-check-iac.codequality.json'), 'utf8')) as {
      check_name: string;
      severity: string;
      location: { path: string; lines: { begin: number } };
    }[];
    expect(issues).toContainEqual(
      expect.objectContaining({
        check_name: 'blockwise/over_provisioned',
        severity: 'critical',
        location: { path: 'infra/ebs-csi.yaml', lines: { begin: 61 } },
      }),
    );
    const xml = readFileSync(join(work, 'blockwise-check-iac.xml'), 'utf8');
    expect(xml).toContain('<testsuite name="infra/ebs-csi.yaml"');
    expect(xml).toMatch(/<failure [^>]*>[^<]*over_provisioned/);
  });

  it('neither files nor iac-files: an error annotation and exit 2', async () => {
    const r = await runAction({}, dir);
    expect(r.code).toBe(2);
    expect(r.commands).toEqual([expect.stringMatching(/^::error title=blockwise::give files/)]);
  });
});
