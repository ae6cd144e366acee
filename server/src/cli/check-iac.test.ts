import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IAC_COMMENT_MARKER, IacReportSchema } from '@blockwise/shared/iac';
import { rescaleFio } from '../testing/noisy-fio.ts';
import { REPO_ROOT, runCli } from '../testing/run-cli.ts';
import { MANY_UPLOADS, fixture, makeTestApp, type TestApp } from '../testing/test-app.ts';

/**
 * `blockwise check-iac` end to end: the fixtures of fixtures/iac, demand from a CI series on the
 * real app listening on an ephemeral port, a fio file or a metrics export, and the exit statuses
 * a CI job sees.
 */

const PLAN = join(REPO_ROOT, 'fixtures/iac/over-provisioned-gp3.plan.json');
const RULES = join(REPO_ROOT, 'fixtures/iac/rules.plan.json');
const MANIFESTS = join(REPO_ROOT, 'fixtures/iac/ebs-csi.yaml');
/** A real fio-3.33 randread 4 KiB run (77,896 IOPS), re-measured at a 12,000 IOPS peak. */
const RANDREAD = fixture('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json');
const FIO_12K = rescaleFio(RANDREAD, { throughput: 12_000 / 77_896.220756 });

let dir: string;
let t: TestApp;
let server: Server;
let url: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bw-iac-'));
  writeFileSync(join(dir, 'fio-12k.json'), FIO_12K);
  t = await makeTestApp({ rateLimits: MANY_UPLOADS });
  server = createServer(t.app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const up = await runCli(
    ['upload', 'fio-12k.json', '--server', url, '--series', 'pg-ci', '--branch', 'main'],
    {
      cwd: dir,
    },
  );
  expect(up.code, up.stderr).toBe(0);
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[]) => runCli(['check-iac', ...args], { cwd: dir });
const json = (stdout: string) => IacReportSchema.parse(JSON.parse(stdout));

describe('blockwise check-iac: gp3 at 80,000 IOPS where the CI series peaks at 12,000', () => {
  // us-east-1, 2022-02-10: $500.00 provisioned (80 + 77,000 × 0.005 + 875 × 0.04) vs $140.00 for
  // gp3 1,000 GiB / 15,000 IOPS / 125 MiB/s (80 + 12,000 × 0.005): $360.00 a month (the shared test spells it out).
  it('--fail-on over: exit 1, the finding with its monthly waste', async () => {
    const r = await run([PLAN, '--series', 'pg-ci', '--server', url, '--fail-on', 'over']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('over-provisioned [over_provisioned] aws_ebs_volume.pg_data');
    expect(r.stdout).toContain('$360.00/month wasted');
    expect(r.stdout).toMatch(
      /Demand \(series pg-ci, run [\w-]+ of \d{4}-\d{2}-\d{2}: http:\/\/127\.0\.0\.1:\d+\/runs\/[\w-]+\): peak 12,000 IOPS/,
    );
    expect(r.stderr).toContain('1 finding(s) fail the build (--fail-on over)');
  });

  it('--fail-on under: exit 0 (nothing is under-provisioned)', async () => {
    const r = await run([PLAN, '--series', 'pg-ci', '--server', url, '--fail-on', 'under']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('$360.00/month wasted');
  });

  it('--format markdown: a pull-request comment', async () => {
    const r = await run([
      PLAN,
      '--series',
      'pg-ci',
      '--server',
      url,
      '--branch',
      'main',
      '--format',
      'markdown',
    ]);
    expect(r.code).toBe(0);
    expect(
      r.stdout.startsWith(`${IAC_COMMENT_MARKER}\n### Blockwise infrastructure check: 1 over-provisioned`),
    ).toBe(true);
    expect(r.stdout).toContain('| aws\\_ebs\\_volume.pg\\_data |');
    expect(r.stdout).toContain('**$360.00/month** of over-provisioning');
  });

  it('--format json: the report, and the same verdict from a fio file', async () => {
    const r = await run([PLAN, '--fio', 'fio-12k.json', '--format', 'json', '--fail-on', 'any']);
    expect(r.code).toBe(1);
    const report = json(r.stdout);
    expect(report.findings.find((f) => f.kind === 'over')?.wasteUsdPerMonth).toBe(360);
    expect(report.demand).toMatchObject({ peakIops: 12_000, targetIops: 15_000 });
  });
});

describe('blockwise check-iac: the fixtures', () => {
  it('rules.plan.json: every rule that needs no demand', async () => {
    const r = await run([RULES, '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const by = json(r.stdout).findings.map((f) => `${f.subject}: ${f.code}`);
    expect(by.sort()).toEqual([
      'aws_ebs_volume.logs: volume_invalid',
      'aws_instance.legacy_db ebs_block_device /dev/sdf: instance_cap_below_volume',
      'aws_instance.legacy_db ebs_block_device /dev/sdf: requires_nitro',
      'module.workers.aws_launch_template.node block_device_mappings /dev/xvda: instance_cap_below_volume',
      'module.workers.module.scratch.aws_ebs_volume.hot: volume_invalid',
      'module.workers.module.scratch.aws_ebs_volume.io1_ratio: volume_invalid',
      'module.workers.module.scratch.aws_ebs_volume.io2_small[0]: volume_invalid',
    ]);
  });

  it('ebs-csi.yaml: the driver rules, and the claims resolved through their classes', async () => {
    const r = await run([MANIFESTS, '--format', 'json', '--fail-on', 'any']);
    expect(r.code).toBe(1);
    const report = json(r.stdout);
    expect(report.findings.map((f) => `${f.subject}: ${f.code}`).sort()).toEqual([
      'PersistentVolumeClaim prod/cache: iops_capped',
      'StorageClass gp3-both: iops_and_iops_per_gb',
      'StorageClass gp3-per-gb: unknown_parameter',
      'StorageClass io2-fast: throughput_not_gp3',
    ]);
    expect(report.volumes.map((v) => [v.subject, v.volume])).toEqual([
      [
        'PersistentVolumeClaim prod/pg-data',
        { type: 'gp3', sizeGiB: 500, iops: 16_000, throughputMiBps: 1000 },
      ],
      ['PersistentVolumeClaim prod/cache', { type: 'gp3', sizeGiB: 20, iops: 10_000 }],
      ['PersistentVolumeClaim prod/ledger', { type: 'io2', sizeGiB: 1024, iops: 20_000 }],
    ]);
  });

  it('--volume limits the demand to the volumes it names', async () => {
    const r = await run([RULES, '--fio', 'fio-12k.json', '--volume', 'ebs_block_device', '--format', 'json']);
    const under = json(r.stdout).findings.filter((f) => f.kind === 'under' || f.kind === 'over');
    expect(under.length).toBeGreaterThan(0);
    expect(under.every((f) => f.subject.includes('ebs_block_device'))).toBe(true);
  });

  it('a metrics export as the demand', async () => {
    const metrics = join(REPO_ROOT, 'fixtures/cloudwatch/get_metric_data_volume_5min.json');
    // The export does not say which statistic it holds: without --stat the command asks (exit 2).
    const ask = await run([PLAN, '--metrics', metrics]);
    expect(ask.code).toBe(2);
    expect(ask.stderr).toContain('--stat Sum or Average');
    const r = await run([PLAN, '--metrics', metrics, '--stat', 'Sum']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /Demand \(max of metrics .*get_metric_data_volume_5min\.json\): peak [\d,]+ IOPS/,
    );
  });
});

describe('blockwise check-iac --metrics: the EBS NVMe sources', () => {
  // Both hold the same log page (fixtures/nvme-amzn, fixtures/ebs-csi): 3,000 read + 1,000 write IOPS,
  // 46.875 + 62.5 = 109.4 MiB/s over one 60-second interval.
  it.each(['fixtures/nvme-amzn/stats_v2.16_normal.txt', 'fixtures/ebs-csi/query_range_counters.json'])(
    '%s is a demand',
    async (file) => {
      const r = await run([PLAN, '--metrics', join(REPO_ROOT, file)]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('peak 4,000 IOPS / 109.4 MiB/s');
    },
  );
});

describe('blockwise check-iac: usage and bad input exit 2', () => {
  it.each([
    { name: 'no file', args: [], says: 'give at least one plan or manifest file' },
    {
      name: 'a bad --fail-on',
      args: [PLAN, '--fail-on', 'some'],
      says: '--fail-on: expected over, under, incomplete, any or none',
    },
    { name: 'two demands', args: [PLAN, '--fio', 'a', '--metrics', 'b'], says: 'give one demand' },
    { name: '--series without --server', args: [PLAN, '--series', 's'], says: '--series needs --server' },
    { name: 'a file that is neither', args: ['notes.txt'], says: 'no Kubernetes object' },
    { name: 'JSON that is neither', args: ['other.json'], says: 'neither `terraform show -json` output' },
    { name: 'broken YAML', args: ['broken.yaml'], says: 'not valid YAML' },
    { name: 'a YAML alias bomb', args: ['bomb.yaml'], says: 'cannot read the YAML' },
    { name: 'an unreadable fio file', args: [PLAN, '--fio', 'notes.txt'], says: 'notes.txt' },
  ])('$name', async ({ args, says }) => {
    writeFileSync(join(dir, 'notes.txt'), 'just some text\n');
    writeFileSync(join(dir, 'other.json'), '{"hello": 1}');
    writeFileSync(join(dir, 'broken.yaml'), 'kind: StorageClass\n  bad: : indent\n');
    const lol = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++)
      lol.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    writeFileSync(join(dir, 'bomb.yaml'), `${lol.join('\n')}\nkind: List\n`);
    const r = await run(args);
    expect(r.code, r.stdout).toBe(2);
    expect(r.stderr).toContain(says);
  });

  it.each([
    ['a 50 MB one-line YAML', 'wide.yaml', 'over the 8388608-byte limit for manifests', 'input_too_large'],
    ['YAML nested 100,000 brackets deep', 'deep.yaml', 'nested deeper than 256 levels', 'input_too_deep'],
    [
      'a plan nested 100,000 modules deep',
      'deep.plan.json',
      'nested deeper than 256 levels',
      'input_too_deep',
    ],
    ['a List nested 30,000 Lists deep', 'deep-list.json', 'nested deeper than 256 levels', 'input_too_deep'],
  ])('%s: exit 2 with a clear message, never a stack overflow', async (_, file, says, code) => {
    const n = 100_000;
    const texts: Record<string, () => string> = {
      'wide.yaml': () => `kind: List\nitems: [${'a,'.repeat(25_000_000)}b]\n`,
      'deep.yaml': () => `kind: List\nitems: ${'['.repeat(n)}${']'.repeat(n)}\n`,
      'deep.plan.json': () =>
        `{"format_version":"1.2","planned_values":{"root_module":${'{"child_modules":['.repeat(n)}{}${']}'.repeat(n)}}}`,
      'deep-list.json': () =>
        `{"kind":"List","items":${'[{"kind":"List","items":'.repeat(30_000)}[]${'}]'.repeat(30_000)}}`,
    };
    writeFileSync(join(dir, file), texts[file]!());
    const r = await run([file]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`check-iac: ${file}: `);
    expect(r.stderr).toContain(says);
    expect(r.stderr).toContain(`[${code}]`);
    expect(r.stderr).not.toMatch(/Maximum call stack|internal error/);
    rmSync(join(dir, file));
  });

  it("a server's error body is printed on one line, escaped", async () => {
    // A proxy or a hostile server answers with text made to forge log lines and clear the screen.
    const hostile = createServer((_, res) => {
      res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end('bad gateway\nforged: all checks passed\u001b[2J');
    });
    await new Promise<void>((r) => hostile.listen(0, '127.0.0.1', r));
    try {
      const at = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
      const r = await run([PLAN, '--series', 'pg-ci', '--server', at]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('answered 502: bad gateway\\u000aforged: all checks passed\\u001b[2J');
      expect(r.stderr).not.toMatch(/^forged/m);
      expect(r.stderr).not.toContain('\u001b');
    } finally {
      await new Promise((r) => hostile.close(r));
    }
  });

  it('a series with no runs, and a server that does not answer', async () => {
    const empty = await run([PLAN, '--series', 'nobody', '--server', url]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('series "nobody" has no runs');
    const down = await run([PLAN, '--series', 'pg-ci', '--server', 'http://127.0.0.1:9']);
    expect(down.code).toBe(2);
    expect(down.stderr).toContain('cannot reach http://127.0.0.1:9');
  });
});

describe('blockwise check-iac: Multi-Attach, gp2 → gp3 and the CSI driver version', () => {
  const MULTI_PLAN = join(REPO_ROOT, 'fixtures/iac/multi-attach-gp2.plan.json');
  const MULTI_K8S = join(REPO_ROOT, 'fixtures/iac/ebs-csi-multi-attach.yaml');

  it('multi_attach_enabled on gp3 fails --fail-on any; the gp2 → gp3 hint ($15.00 a month) does not', async () => {
    const r = await run([MULTI_PLAN]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('invalid [multi_attach_not_supported] aws_ebs_volume.cluster_shared');
    expect(r.stdout).toContain('hint [gp2_to_gp3] aws_ebs_volume.legacy_data');
    expect(r.stdout).toContain('for $85.00/month: $15.00/month saved at equal performance');
    expect(r.stdout).toContain('Equal performance for less (hints): $15.00/month in total');
    const any = await run([MULTI_PLAN, '--fail-on', 'any', '--format', 'json']);
    expect(any.code).toBe(1);
    const report = json(any.stdout);
    expect(report.findings.map((f) => [f.kind, f.code])).toEqual([
      ['invalid', 'multi_attach_not_supported'],
      ['hint', 'gp2_to_gp3'],
    ]);
    expect(report.volumes.map((v) => v.multiAttach ?? null)).toEqual(['multi_attach_enabled', null]);
  });

  it('a ReadWriteMany Block claim on gp3; iopsPerGB 3001 on 1 GiB refused by v1.66, capped to 3,000 after', async () => {
    const v166 = await run([MULTI_K8S, '--format', 'json']);
    expect(v166.code, v166.stderr).toBe(0);
    const before = json(v166.stdout);
    expect(before.findings.map((f) => f.code)).toEqual([
      'iops_above_size_ratio',
      'multi_attach_not_supported',
    ]);
    expect(before.volumes.map((v) => v.subject)).toEqual(['PersistentVolumeClaim cluster/fencing-disk']);
    const v167 = await run([MULTI_K8S, '--format', 'json', '--csi-driver-version', 'v1.67.0']);
    const after = json(v167.stdout);
    expect(after.findings.map((f) => f.code)).toEqual(['iops_capped', 'multi_attach_not_supported']);
    expect(after.volumes.find((v) => v.subject.endsWith('tiny'))!.volume).toEqual({
      type: 'gp3',
      sizeGiB: 1,
      iops: 3000,
    });
  });

  it('--csi-driver-version that is not a version: exit 2, naming the flag', async () => {
    const r = await run([MULTI_K8S, '--csi-driver-version', 'latest']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--csi-driver-version: expected an EBS CSI driver version such as 1.66');
  });
});

describe('blockwise check-iac: demand at its own resolution (issue 25)', () => {
  const demandFixture = (name: string) => join(REPO_ROOT, 'fixtures/demand', name);
  it('iostat every 10 s with a 40-second checkpoint burst of 10,500 IOPS: a 12,000-IOPS gp3 is not over-provisioned (--fail-on over exits 0)', async () => {
    const r = await run([
      demandFixture('gp3-12000-iops.plan.json'),
      '--metrics',
      demandFixture('iostat_10s_checkpoint_burst.txt'),
      '--fail-on',
      'over',
      '--format',
      'json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const report = json(r.stdout);
    expect(report.demand?.targetIops).toBeGreaterThanOrEqual(10_500 * 1.25);
    expect(report.findings.filter((f) => f.kind === 'over')).toEqual([]);
    expect(report.findings.map((f) => f.code)).toContain('under_provisioned');
  });

  it('a first page with a NextToken: --fail-on incomplete exits 1 and names the volume', async () => {
    const r = await run([
      demandFixture('gp3-12000-iops.plan.json'),
      '--metrics',
      demandFixture('gmd_nightly_batch_first_page.json'),
      '--fail-on',
      'incomplete',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('vol-0e1d2c3b4a5968778: ');
    expect(r.stderr).toContain('incomplete demand data fails the build');
  });

  it('p99 keeps the nightly 8,200-IOPS batch and says so; --ignore-recurring states the risk', async () => {
    const args = [
      demandFixture('gp3-12000-iops.plan.json'),
      '--metrics',
      demandFixture('gmd_nightly_batch_14d.json'),
      '--statistic',
      'p99',
    ];
    const kept = await run([...args, '--format', 'json']);
    expect(json(kept.stdout).demand?.targetIops).toBeGreaterThanOrEqual(8_200 * 1.25);
    const text = await run(args);
    expect(text.stdout).toMatch(
      /demand: \[recurring_peak\] Recurring peak: max 8,200 IOPS at 01:30–01:40 UTC on 14 of 14 days/,
    );
    const ignored = await run([...args, '--ignore-recurring']);
    expect(ignored.stdout).toContain('[recurring_peak_ignored]');
  });

  it("iostat flat at a gp3's 3,000 IOPS: that volume is censored (--fail-on under exits 1), never over; under a 16,000-IOPS gp3 the same file is not", async () => {
    // One metrics file against three volumes, each judged under its own limits: pg_data gp3
    // 3,000 IOPS and pg_legacy io1 3,000 IOPS are pinned (720 of 720 10-second points at
    // 2,950–3,000); pg_next gp3 16,000 IOPS is not, and is over-provisioned for 3,000 × 1.25.
    const args = [
      demandFixture('pinned-3000-and-16000-iops.plan.json'),
      '--metrics',
      demandFixture('iostat_10s_pinned_3000.txt'),
    ];
    const j = await run([...args, '--format', 'json', '--fail-on', 'under']);
    expect(j.code, j.stderr).toBe(1);
    const report = json(j.stdout);
    const censored = report.findings.filter((f) => f.code === 'demand_censored');
    expect(censored.map((f) => [f.kind, f.subject])).toEqual([
      ['under', 'aws_ebs_volume.pg_data'],
      ['under', 'aws_ebs_volume.pg_legacy'],
    ]);
    expect(report.findings.filter((f) => f.kind === 'over').map((f) => f.subject)).toEqual([
      'aws_ebs_volume.pg_next',
    ]);
    expect(report.volumes.map((v) => [v.subject, v.rightSized === null])).toEqual([
      ['aws_ebs_volume.pg_data', true],
      ['aws_ebs_volume.pg_next', false],
      ['aws_ebs_volume.pg_legacy', true],
    ]);
    // --headroom 0, the case that called the pinned io1 over-provisioned: --fail-on over now fails only pg_next.
    const over = await run([...args, '--headroom', '0', '--fail-on', 'over', '--format', 'json']);
    expect(
      json(over.stdout)
        .findings.filter((f) => f.kind === 'over')
        .map((f) => f.subject),
    ).toEqual(['aws_ebs_volume.pg_next']);
    const text = await run(args);
    expect(text.stdout).toContain(
      'under-provisioned [demand_censored] aws_ebs_volume.pg_data (' +
        demandFixture('pinned-3000-and-16000-iops.plan.json') +
        '): gp3 500 GiB, 3,000 IOPS, 125 MiB/s: pinned at the limit 100.0 % of the time; demand unknown above 3,000 IOPS (720 of 720 points of 10 s within 5 % of the limit): raise the limit and measure again',
    );
    const md = await run([...args, '--format', 'markdown']);
    expect(md.stdout).toMatch(
      /\| \*\*under-provisioned\*\* `demand_censored` \| aws\\_ebs\\_volume\.pg\\_legacy \| io1 500 GiB, 3,000 IOPS: pinned at the limit 100\.0 % of the time/,
    );
  });

  it("a plan that raises the pinned gp3 to 16,000 IOPS: censored under today's 3,000 (the plan's before), a note, never over: --fail-on over and under exit 0", async () => {
    const args = [
      demandFixture('pinned-3000-raised-to-16000.plan.json'),
      '--metrics',
      demandFixture('iostat_10s_pinned_3000.txt'),
      '--format',
      'json',
    ];
    for (const failOn of ['over', 'under']) {
      const r = await run([...args, '--fail-on', failOn]);
      expect(r.code, r.stderr).toBe(0);
      const report = json(r.stdout);
      expect(report.volumes[0]).toMatchObject({
        volume: { iops: 16_000 },
        current: { iops: 3_000 },
        rightSized: null,
      });
      const [f] = report.findings.filter((x) => x.code === 'demand_censored');
      expect(f!.kind).toBe('note');
      expect(f!.message).toContain(
        'measured as gp3 500 GiB, 3,000 IOPS, 125 MiB/s (this plan makes it gp3 500 GiB, 16,000 IOPS, 250 MiB/s): pinned at the limit 100.0 % of the time; demand unknown above 3,000 IOPS',
      );
      expect(f!.message).toContain('this plan raises the limit: measure again once it is applied');
    }
  });
});
