import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FleetPlanSchema } from '@blockwise/shared/fleet';
import { REPO_ROOT, runCli } from '../testing/run-cli.ts';

// fixtures/fleet/ is written by fixtures/fleet/generate.mjs (10 volumes with known peaks; docs/fleet.md).
const F = 'fixtures/fleet';
const PLAN = [
  'fleet',
  'plan',
  '--volumes',
  `${F}/volumes.json`,
  '--metrics',
  `${F}/metrics-1.json`,
  '--metrics',
  `${F}/metrics-2.json`,
  '--instances',
  `${F}/instances.json`,
];

describe('blockwise fleet query', () => {
  it('prints the queries and the exact command per batch, with the NextToken note', async () => {
    const r = await runCli([
      'fleet',
      'query',
      '--volumes',
      `${F}/volumes.json`,
      '--end',
      '2026-11-24T00:00:00Z',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      '10 volumes × 6 sizing metrics = 60 queries, + 42 evidence queries (--evidence checks), in 1 batch(es) of at most 500; 4032 points per query over 14 days',
    );
    expect(r.stdout).toContain(
      'aws cloudwatch get-metric-data --start-time 2026-11-10T00:00:00Z --end-time 2026-11-24T00:00:00Z --metric-data-queries file://batch-1.json --output json > metrics-1.json',
    );
    expect(r.stdout).toContain('"Label": "vol-0over VolumeReadOps"');
    expect(r.stdout).toContain('100,800 points and continues with NextToken');
  });

  it('--out writes batch files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fleet-'));
    const r = await runCli([
      'fleet',
      'query',
      '--volumes',
      `${F}/volumes.json`,
      '--out',
      dir,
      '--days',
      '7',
      '--period',
      '3600',
      '--evidence',
      'none',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const batch = JSON.parse(readFileSync(join(dir, 'batch-1.json'), 'utf8'));
    expect(batch).toHaveLength(60);
    expect(batch[0].MetricStat.Period).toBe(3600);
  });

  it.each([
    {
      args: ['--days', '30', '--period', '60'],
      text: '--period: CloudWatch keeps points under 5 minutes for 15 days only',
    },
    { args: ['--period', '90'], text: '--period: expected a whole number of minutes' },
    { args: ['--end', 'yesterday'], text: '--end: expected an ISO 8601 date' },
    { args: ['--evidence', 'some'], text: '--evidence: expected none, checks or all, got "some"' },
  ])('usage: $text (exit 2)', async ({ args, text }) => {
    const r = await runCli(['fleet', 'query', '--volumes', `${F}/volumes.json`, ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(text);
  });
});

describe('blockwise fleet plan', () => {
  it('the table: statuses, savings, totals, commands, unused volumes and the rule', async () => {
    const r = await runCli(PLAN);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /vol-0over\s+i-0app1 m5\.xlarge\s+over\s+gp3 500 GiB 16,000 IOPS 250 MiB\/s\s+\$110\.00\s+2,000 IOPS, 40 MiB\/s\s+gp3 500 GiB 3,000 IOPS 125 MiB\/s\s+\$40\.00\s+\$70\.00/,
    );
    expect(r.stdout).toMatch(/vol-0under\s+.*under.*\$15\.50\s+-\$7\.50/);
    expect(r.stdout).toContain(
      'Fleet: now $1,679.50/month, recommended $915.00/month, saving $764.50/month; 2 under-provisioned',
    );
    expect(r.stdout).toContain(
      'aws ec2 modify-volume --volume-id vol-0io2 --volume-type io2 --size 500 --iops 10000',
    );
    expect(r.stdout).toContain('vol-0nodata: no_data');
    expect(r.stdout).toContain('vol-0unattached (unattached): volume $20.00, snapshot —, saving $20.00');
    expect(r.stdout).toContain('at most four times within a rolling 24-hour period');
  });

  it('--json is a FleetPlan; --csv one row per volume; --format markdown', async () => {
    const j = await runCli([...PLAN, '--json', '--headroom', '0.5', '--statistic', 'p99']);
    expect(j.code, j.stderr).toBe(0);
    const plan = FleetPlanSchema.parse(JSON.parse(j.stdout));
    expect(plan).toMatchObject({
      statistic: 'p99',
      headroom: 0.5,
      region: 'us-east-1',
      priceDate: '2024-07-18', // the built-in us-east-1 prices' date (shared/src/aws/data/SOURCES.md)
    });
    const c = await runCli([...PLAN, '--csv']);
    expect(c.stdout.trim().split('\n')).toHaveLength(12); // header, 10 volumes, TOTAL
    const m = await runCli([...PLAN, '--format', 'markdown']);
    expect(m.stdout).toContain('## Blockwise fleet plan');
  });

  it.each([
    { name: 'unreadable file', file: 'missing.json', body: null, text: 'missing.json: cannot read: ENOENT' },
    { name: 'not JSON', file: 'bad.json', body: '{"Volumes": [', text: 'bad.json: not JSON' },
    {
      name: 'a field of the wrong type',
      file: 'wrong.json',
      body: '{"Volumes":[{"VolumeId":"vol-1","Size":"8","VolumeType":"gp3","State":"in-use"}]}',
      text: 'wrong.json: not describe-volumes output (expected {"Volumes":[...]}): Volumes.0.Size',
    },
  ])('bad data exits 1 naming file and field: $name', async ({ file, body, text }) => {
    const dir = mkdtempSync(join(tmpdir(), 'fleet-'));
    if (body !== null) writeFileSync(join(dir, file), body);
    const r = await runCli([
      'fleet',
      'plan',
      '--volumes',
      join(dir, file),
      '--metrics',
      join(REPO_ROOT, F, 'metrics-1.json'),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(text);
  });

  it('takes the Period from the timestamps (3,600 s for 90 days), and refuses a --period that disagrees', async () => {
    type Generator = {
      knownFleet: () => unknown;
      metricPages: (fleet: unknown, options: { days: number; period: number }) => Iterable<unknown>;
    };
    const g = (await import(pathToFileURL(join(REPO_ROOT, F, 'generate.mjs')).href)) as Generator;
    const dir = mkdtempSync(join(tmpdir(), 'fleet-period-'));
    const files = [...g.metricPages(g.knownFleet(), { days: 90, period: 3600 })].map((page, i) => {
      const path = join(dir, `metrics-${i + 1}.json`);
      writeFileSync(path, JSON.stringify(page));
      return path;
    });
    const base = ['fleet', 'plan', '--volumes', `${F}/volumes.json`, '--instances', `${F}/instances.json`];
    const args = [...base, ...files.flatMap((f) => ['--metrics', f])];
    const inferred = await runCli([...args, '--json']);
    expect(inferred.code).toBe(0);
    const plan = FleetPlanSchema.parse(JSON.parse(inferred.stdout));
    expect(plan.periodSeconds).toBe(3600);
    expect(plan.volumes.find((v) => v.volumeId === 'vol-0capped')!.observed).toMatchObject({
      readIops: 2000,
      writeIops: 1400,
      periodSeconds: 3600,
    });
    const refused = await runCli([...args, '--period', '300']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `${files[0]}: MetricDataResults.0.Timestamps: points 3600 s apart, but --period is 300 s`,
    );
    expect((await runCli([...args, '--period', '3600'])).code).toBe(0);
  });

  it('a metrics file of another shape exits 1 naming the file and field', async () => {
    const r = await runCli([
      'fleet',
      'plan',
      '--volumes',
      `${F}/volumes.json`,
      '--metrics',
      `${F}/instances.json`,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${F}/instances.json: not get-metric-data output (expected {"MetricDataResults":[...]}): MetricDataResults`,
    );
  });

  it.each([
    { args: ['fleet', 'plan', '--volumes', `${F}/volumes.json`], text: '--metrics: required' },
    { args: [...PLAN, '--statistic', 'p50'], text: '--statistic: expected max, p99 or p95' },
    { args: [...PLAN, '--json', '--csv'], text: 'give one output format' },
    { args: [...PLAN, '--region', 'mars-1'], text: '--region: no EBS price table for "mars-1"' },
    { args: ['fleet', 'resize'], text: 'expected a subcommand, query or plan' },
  ])('usage: $text (exit 2)', async ({ args, text }) => {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(text);
  });
});

// fixtures/fleet-evidence/ (its generate.mjs and README): AWS's exceeded checks, latency and balances.
const E = 'fixtures/fleet-evidence';
const E_PLAN = [
  'fleet',
  'plan',
  '--volumes',
  `${E}/volumes.json`,
  '--instances',
  `${E}/instances.json`,
  '--metrics',
  `${E}/metrics.json`,
];

describe('blockwise fleet query/plan --evidence (issue 28)', () => {
  it('query --evidence all: the extra queries per volume and attached instance, and what they cost', async () => {
    const r = await runCli([
      'fleet',
      'query',
      '--volumes',
      `${E}/volumes.json`,
      '--evidence',
      'all',
      '--days',
      '2',
    ]);
    expect(r.code, r.stderr).toBe(0);
    // 7 volumes × (3 checks + 2 latency) + 1 gp2 BurstBalance + 2 instances × (2 checks + 2 balances) = 44
    expect(r.stdout).toContain(
      '7 volumes × 6 sizing metrics = 42 queries, + 44 evidence queries (--evidence all)',
    );
    expect(r.stdout).toContain(
      'USD 0.01 per 1,000 (us-east-1, https://aws.amazon.com/cloudwatch/pricing/, as of 2026-11-28)',
    );
    expect(r.stdout).toContain('sizing $0.0004 + evidence $0.0004 = $0.0009 per run');
    expect(r.stdout).toContain('"Label": "i-0small InstanceEBSIOPSExceededCheck"');
    expect(r.stdout).toContain('"Label": "vol-0gp2 BurstBalance"');
    const json = await runCli(['fleet', 'query', '--volumes', `${E}/volumes.json`, '--json']);
    expect(JSON.parse(json.stdout).cost).toMatchObject({
      sizingQueries: 42,
      evidenceQueries: 25,
      evidence: 'checks',
    });
  });

  it("plan: the pinned volume's 415 minutes, the confirmed and the contradicted binding limits, latency, credits", async () => {
    const r = await runCli(E_PLAN);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      'vol-0pinned: demand above the limit for 415 minutes (VolumeIOPSExceededCheck',
    );
    expect(r.stdout).toContain('the checks confirm the binding limit: VolumeIOPSExceededCheck fired 36 min');
    expect(r.stdout).toContain(
      "vol-0contra: the checks contradict the model's binding limit (volume-iops): i-0small's InstanceEBSIOPSExceededCheck fired 48 min and the volume's checks never fired — trusting the checks, the instance binds",
    );
    expect(r.stdout).toContain('above what io2 promises');
    expect(r.stdout).toContain('burst balance minimum 0 %: credits ran out on 1 day(s)');
    expect(r.stdout).toContain('vol-0quiet:\n    volume exceeded checks: no data');
  });

  it('--json: the evidence per volume and instance, valid against the plan schema; markdown and CSV carry it', async () => {
    const r = await runCli([...E_PLAN, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const plan = FleetPlanSchema.parse(JSON.parse(r.stdout));
    const pinned = plan.volumes.find((v) => v.volumeId === 'vol-0pinned')!;
    expect(pinned.evidence).toMatchObject({ throttledMinutes: 415, bindingCheck: 'confirmed' });
    expect(plan.volumes.find((v) => v.volumeId === 'vol-0quiet')!.evidence!.throttledMinutes).toBeNull();
    expect(plan.instances!.find((i) => i.instanceId === 'i-0small')!.evidence!.iopsExceededMinutes).toBe(48);
    const md = await runCli([...E_PLAN, '--format', 'markdown']);
    expect(md.stdout).toContain("### AWS's evidence");
    const csv = await runCli([...E_PLAN, '--csv']);
    expect(csv.stdout.split('\n')[0]).toContain('binding_check,throttled_minutes,iops_exceeded_minutes');
  });
});
