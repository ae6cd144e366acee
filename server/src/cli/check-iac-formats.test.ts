import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { BLOCKWISE_REPOSITORY_URL } from '@blockwise/shared/iac';
import { rescaleFio } from '../testing/noisy-fio.ts';
import { REPO_ROOT, runCli } from '../testing/run-cli.ts';
import { sarifSchemaErrors } from '../testing/sarif-schema.ts';
import { fixture } from '../testing/test-app.ts';

/**
 * `check-iac --format sarif` validated against the published SARIF 2.1.0 JSON schema (vendored in
 * fixtures/sarif, see its README.md) and `--format junit` read back by a real XML parser, both fed with the
 * fixtures of fixtures/iac (run from the repository root, so URIs are `fixtures/iac/…`).
 */

type SarifResult = {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: {
    physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } };
    logicalLocations: { fullyQualifiedName: string; kind: string }[];
  }[];
};
type SarifLog = {
  version: string;
  runs: {
    tool: {
      driver: {
        name: string;
        version: string;
        rules: { id: string; shortDescription: { text: string }; help: { text: string } }[];
      };
    };
    results: SarifResult[];
  }[];
};

const MANIFESTS = 'fixtures/iac/ebs-csi.yaml';
const MULTI_ATTACH = 'fixtures/iac/ebs-csi-multi-attach.yaml';
const RULES = 'fixtures/iac/rules.plan.json';
const PLAN = 'fixtures/iac/over-provisioned-gp3.plan.json';
const ALL = [MANIFESTS, MULTI_ATTACH, RULES, PLAN];
/** A real fio-3.33 randread 4 KiB run (77,896 IOPS), re-measured at a 12,000 IOPS peak. */
const FIO_12K = rescaleFio(fixture('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json'), {
  throughput: 12_000 / 77_896.220756,
});

const iac = (args: string[], cwd = REPO_ROOT) => runCli(['check-iac', ...args], { cwd });

function sarifOf(stdout: string): SarifLog {
  const log: unknown = JSON.parse(stdout);
  expect(sarifSchemaErrors(log)).toEqual([]);
  return log as SarifLog;
}

const where = (r: SarifResult) => ({
  rule: r.ruleId,
  level: r.level,
  uri: r.locations[0]!.physicalLocation.artifactLocation.uri,
  line: r.locations[0]!.physicalLocation.region?.startLine,
  name: r.locations[0]!.logicalLocations[0]!.fullyQualifiedName,
});

describe('check-iac --format sarif', () => {
  it('the schema check can fail: a wrong level and a missing version are refused', async () => {
    const log = JSON.parse((await iac([MANIFESTS, '--format', 'sarif'])).stdout) as SarifLog;
    log.runs[0]!.results[0]!.level = 'fatal';
    expect(sarifSchemaErrors(log)).not.toEqual([]);
    expect(sarifSchemaErrors({ runs: [] })).not.toEqual([]);
  });

  it('is valid SARIF 2.1.0 for every fixture, rules = the finding codes present, each described', async () => {
    const r = await iac([...ALL, '--format', 'sarif']);
    expect(r.code, r.stderr).toBe(0);
    const log = sarifOf(r.stdout);
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    const { driver } = log.runs[0]!.tool;
    expect(driver).toMatchObject({ name: 'blockwise', version: '0.1.0' });
    const codes = [...new Set(log.runs[0]!.results.map((x) => x.ruleId))].sort();
    expect(driver.rules.map((x) => x.id)).toEqual(codes);
    for (const rule of driver.rules) {
      // A code without its own line would read "A check-iac finding of kind …".
      expect(rule.shortDescription.text, rule.id).not.toMatch(/^A check-iac finding/);
      expect(rule.help.text).toMatch(/docs\/iac\.md#/);
    }
    for (const [i, result] of log.runs[0]!.results.entries())
      expect(driver.rules[result.ruleIndex]!.id, `result ${i}`).toBe(result.ruleId);
  });

  // Lines of the objects in the fixtures (their `apiVersion:`), counted by hand.
  it.each([
    { rule: 'throughput_not_gp3', level: 'error', uri: MANIFESTS, line: 17, name: 'StorageClass io2-fast' },
    { rule: 'iops_and_iops_per_gb', level: 'error', uri: MANIFESTS, line: 28, name: 'StorageClass gp3-both' },
    { rule: 'unknown_parameter', level: 'error', uri: MANIFESTS, line: 40, name: 'StorageClass gp3-per-gb' },
    {
      rule: 'iops_capped',
      level: 'warning',
      uri: MANIFESTS,
      line: 73,
      name: 'PersistentVolumeClaim prod/cache',
    },
    {
      rule: 'multi_attach_not_supported',
      level: 'error',
      uri: MULTI_ATTACH,
      line: 20,
      name: 'PersistentVolumeClaim cluster/fencing-disk',
    },
    {
      rule: 'iops_above_size_ratio',
      level: 'error',
      uri: MULTI_ATTACH,
      line: 35,
      name: 'PersistentVolumeClaim cluster/tiny',
    },
  ])('Kubernetes: $rule at $uri line $line ($level)', async (expected) => {
    const r = await iac([MANIFESTS, MULTI_ATTACH, '--format', 'sarif']);
    const results = sarifOf(r.stdout).runs[0]!.results.map(where);
    expect(results).toContainEqual(expected);
  });

  it.each([
    { rule: 'volume_invalid', level: 'error', name: 'aws_ebs_volume.logs' },
    { rule: 'requires_nitro', level: 'error', name: 'aws_instance.legacy_db' },
    { rule: 'instance_cap_below_volume', level: 'warning', name: 'aws_instance.legacy_db' },
    {
      rule: 'instance_cap_below_volume',
      level: 'warning',
      name: 'module.workers.aws_launch_template.node',
    },
    {
      rule: 'volume_invalid',
      level: 'error',
      name: 'module.workers.module.scratch.aws_ebs_volume.io2_small[0]',
    },
  ])('Terraform: $rule on $name, no line', async (expected) => {
    const r = await iac([RULES, '--format', 'sarif']);
    const results = sarifOf(r.stdout).runs[0]!.results.map(where);
    expect(results).toContainEqual({ ...expected, uri: RULES, line: undefined });
  });

  // The plan's gp3 at 80,000 IOPS against a fio run re-measured at a 12,000 IOPS peak: $360.00 a
  // month of waste at us-east-1's 2022-02-10 prices (check-iac.test.ts spells the sum out).
  it('over-provisioning against measured demand is a warning that carries its waste; --fail-on over exits 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bw-sarif-over-'));
    try {
      writeFileSync(join(dir, 'fio-12k.json'), FIO_12K);
      const args = [join(REPO_ROOT, PLAN), '--fio', 'fio-12k.json', '--format', 'sarif'];
      const r = await iac([...args, '--fail-on', 'over'], dir);
      expect(r.code, r.stderr).toBe(1);
      const over = sarifOf(r.stdout).runs[0]!.results.find((x) => x.ruleId === 'over_provisioned')!;
      const { uri, ...rest } = where(over);
      expect(rest).toEqual({
        rule: 'over_provisioned',
        level: 'warning',
        line: undefined,
        name: 'aws_ebs_volume.pg_data',
      });
      // Relative to the working directory (the temporary folder), as SARIF wants: it leads back to
      // the fixture from there, wherever the checkout and the temporary folder are.
      expect(uri.startsWith('../')).toBe(true);
      expect(resolve(dir, decodeURIComponent(uri))).toBe(join(REPO_ROOT, PLAN));
      expect(over.message.text).toContain('waste USD 360.00 per month');
      expect((over as unknown as { properties: object }).properties).toMatchObject({ wasteUsdPerMonth: 360 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('URIs are relative to the working directory, percent-encoded; a List item and a JSON object keep their lines', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bw-sarif-'));
    try {
      const list = [
        'apiVersion: v1',
        'kind: List',
        'items:',
        '  - apiVersion: storage.k8s.io/v1',
        '    kind: StorageClass',
        '    metadata: { name: slow }',
        '    provisioner: ebs.csi.aws.com',
        '    parameters: { type: io2, throughput: "500" }',
        '',
      ].join('\n');
      writeFileSync(join(dir, 'my list.yaml'), list);
      const json = { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'j' } };
      writeFileSync(
        join(dir, 'sc.json'),
        `\n\n${JSON.stringify({ ...json, provisioner: 'ebs.csi.aws.com', parameters: { type: 'gp2', iops: '100' } })}`,
      );
      const r = await iac(['my list.yaml', join(dir, 'sc.json'), '--format', 'sarif'], dir);
      const results = sarifOf(r.stdout).runs[0]!.results.map(where);
      expect(results).toContainEqual({
        rule: 'throughput_not_gp3',
        level: 'error',
        uri: 'my%20list.yaml',
        line: 4,
        name: 'StorageClass slow',
      });
      expect(results).toContainEqual({
        rule: 'iops_not_supported',
        level: 'error',
        uri: 'sc.json',
        line: 3,
        name: 'StorageClass j',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the help base agrees with the root package.json repository (none today: help text, no helpUri)', () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      repository?: string | { url?: string };
    };
    const url = typeof pkg.repository === 'string' ? pkg.repository : (pkg.repository?.url ?? null);
    expect(BLOCKWISE_REPOSITORY_URL).toBe(url ? url.replace(/^git\+/, '').replace(/\.git$/, '') : null);
  });
});

type JUnitCase = {
  name: string;
  classname: string;
  failure?: { message: string; type: string; '#text': string };
  skipped?: { message: string };
  'system-out'?: string;
};
type JUnitSuite = {
  name: string;
  tests: string;
  failures: string;
  errors: string;
  skipped: string;
  testcase?: JUnitCase[];
};

function junitOf(xml: string): { suites: JUnitSuite[]; root: Record<string, string> } {
  expect(XMLValidator.validate(xml)).toBe(true);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => name === 'testsuite' || name === 'testcase',
  });
  const doc = parser.parse(xml) as { testsuites: Record<string, string> & { testsuite?: JUnitSuite[] } };
  return { suites: doc.testsuites.testsuite ?? [], root: doc.testsuites };
}

describe('check-iac --format junit', () => {
  it('one suite per input file, one case per volume or object, failures only per --fail-on', async () => {
    const none = await iac([MANIFESTS, RULES, '--format', 'junit']);
    expect(none.code).toBe(0);
    const passing = junitOf(none.stdout);
    expect(passing.suites.map((s) => s.name)).toEqual([MANIFESTS, RULES]);
    expect(passing.suites.map((s) => s.failures)).toEqual(['0', '0']);
    // Findings that do not fail the build are still in the report, as the case's output.
    const cache = passing.suites[0]!.testcase!.find((c) => c.name === 'PersistentVolumeClaim prod/cache')!;
    expect(cache['system-out']).toContain('[iops_capped]');

    const any = await iac([MANIFESTS, RULES, '--format', 'junit', '--fail-on', 'any']);
    expect(any.code).toBe(1);
    const { suites, root } = junitOf(any.stdout);
    const [k8s, tf] = suites;
    // The 3 claims and the 3 classes with findings; the 6 volumes of the plan and its io1_ratio.
    expect(k8s!.testcase!.map((c) => c.name)).toEqual([
      'PersistentVolumeClaim prod/pg-data',
      'PersistentVolumeClaim prod/cache',
      'PersistentVolumeClaim prod/ledger',
      'StorageClass io2-fast',
      'StorageClass gp3-both',
      'StorageClass gp3-per-gb',
    ]);
    expect(k8s).toMatchObject({ tests: '6', failures: '4', errors: '0', skipped: '0' });
    const legacy = tf!.testcase!.find((c) => c.name === 'aws_instance.legacy_db ebs_block_device /dev/sdf')!;
    expect(legacy.classname).toBe(RULES);
    expect(legacy.failure).toMatchObject({ type: 'requires_nitro' });
    expect(legacy.failure!['#text']).toContain('[instance_cap_below_volume]');
    expect(Number(root.tests)).toBe(suites.reduce((n, s) => n + s.testcase!.length, 0));
    expect(Number(root.failures)).toBe(
      suites.reduce((n, s) => n + s.testcase!.filter((c) => c.failure).length, 0),
    );
  });

  it('a claim that cannot be checked is skipped; names from the files are escaped and read back intact', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bw-junit-'));
    try {
      const name = `a<b>&"c'\u0007`;
      writeFileSync(
        join(dir, 'claims.yaml'),
        [
          'apiVersion: v1',
          'kind: PersistentVolumeClaim',
          `metadata: { name: ${JSON.stringify(name)}, namespace: x }`,
          'spec: { storageClassName: missing, resources: { requests: { storage: 10Gi } } }',
          '',
        ].join('\n'),
      );
      writeFileSync(join(dir, 'empty.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: c }\n');
      const r = await iac(['claims.yaml', 'empty.yaml', '--format', 'junit', '--fail-on', 'any'], dir);
      expect(r.code).toBe(0);
      const { suites } = junitOf(r.stdout);
      expect(suites.map((s) => [s.name, s.tests, s.skipped])).toEqual([
        ['claims.yaml', '1', '1'],
        ['empty.yaml', '0', '0'],
      ]);
      const claim = suites[0]!.testcase![0]!;
      expect(claim.name).toBe(`PersistentVolumeClaim x/a<b>&"c'\ufffd`);
      expect(claim.skipped!.message).toMatch(/not checked|not among/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

type CodeQualityIssue = {
  check_name: string;
  severity: string;
  fingerprint: string;
  description: string;
  location: { path: string; lines: { begin: number } };
};

describe('check-iac --format codequality (GitLab Code Quality)', () => {
  // The fixtures against a fio run re-measured at a 12,000 IOPS peak, from the repository root.
  async function codeQuality(): Promise<CodeQualityIssue[]> {
    const dir = mkdtempSync(join(tmpdir(), 'bw-cq-'));
    try {
      writeFileSync(join(dir, 'fio-12k.json'), FIO_12K);
      const r = await iac([
        MANIFESTS,
        PLAN,
        '--fio',
        join(dir, 'fio-12k.json'),
        '--fail-on',
        'over',
        '--format',
        'codequality',
      ]);
      expect(r.code, r.stderr).toBe(1);
      return JSON.parse(r.stdout) as CodeQualityIssue[];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('an issue per finding on its file and line; what fails the build is critical; notes are left out', async () => {
    const issues = await codeQuality();
    const brief = issues.map((i) => ({ check: i.check_name, severity: i.severity, ...i.location }));
    expect(brief).toContainEqual({
      check: 'blockwise/over_provisioned',
      severity: 'critical',
      path: MANIFESTS,
      lines: { begin: 61 },
    });
    // A plan has no lines of the .tf source: line 1 of the plan stands for it.
    expect(brief).toContainEqual({
      check: 'blockwise/over_provisioned',
      severity: 'critical',
      path: PLAN,
      lines: { begin: 1 },
    });
    expect(brief).toContainEqual({
      check: 'blockwise/throughput_not_gp3',
      severity: 'major',
      path: MANIFESTS,
      lines: { begin: 17 },
    });
    expect(brief).toContainEqual({
      check: 'blockwise/iops_capped',
      severity: 'minor',
      path: MANIFESTS,
      lines: { begin: 73 },
    });
    expect(brief.some((i) => i.check === 'blockwise/instance_not_in_code')).toBe(false);
    expect(issues.find((i) => i.location.path === PLAN)!.description).toContain('waste USD 360.00 per month');
  });

  it('fingerprints are unique and the same on the next run (GitLab matches issues by them)', async () => {
    const first = (await codeQuality()).map((i) => i.fingerprint);
    expect(new Set(first).size).toBe(first.length);
    expect(first.every((f) => /^[0-9a-f]{32}$/.test(f))).toBe(true);
    expect((await codeQuality()).map((i) => i.fingerprint)).toEqual(first);
  });
});

describe('the format never changes the exit status', () => {
  it.each(['text', 'markdown', 'json', 'sarif', 'junit', 'codequality', 'github'])(
    '%s: 1 with --fail-on any, 0 without',
    async (format) => {
      expect((await iac([MANIFESTS, RULES, '--format', format, '--fail-on', 'any'])).code).toBe(1);
      expect((await iac([MANIFESTS, RULES, '--format', format])).code).toBe(0);
    },
  );

  it('an unknown format is a usage error naming the seven', async () => {
    const r = await iac([MANIFESTS, '--format', 'xml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('expected text, markdown, json, sarif, junit, codequality or github');
  });
});
