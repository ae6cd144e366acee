import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../testing/run-cli.ts';

/**
 * One file, four surfaces (issue 25): `metrics`, `plan --metrics`, `check-iac --metrics` and
 * `fleet plan` read the same export through the one demand model (shared/src/demand) and give the
 * same target. Scenarios and files: fixtures/demand/README.md.
 */

const f = (name: string) => `${REPO_ROOT}fixtures/demand/${name}`;
const NIGHTLY = f('gmd_nightly_batch_14d.json');
const IOSTAT = f('iostat_10s_checkpoint_burst.txt');

async function targets(file: string, statistic: string, fleet: boolean) {
  const out: Record<string, number> = {};
  const metrics = await runCli(['metrics', file, '--statistic', statistic, '--json']);
  expect(metrics.code, metrics.stderr).toBe(0);
  out.metrics = (JSON.parse(metrics.stdout) as { target: { iops: number } }).target.iops;
  const plan = await runCli([
    'plan',
    '--metrics',
    file,
    '--statistic',
    statistic,
    '--type',
    'gp3',
    '--size',
    '500',
    '--iops',
    '12000',
    '--throughput',
    '500',
    '--json',
  ]);
  expect(plan.code, plan.stderr).toBe(0);
  out.plan = (
    JSON.parse(plan.stdout) as { rightSizing: { target: { iops: number } } }
  ).rightSizing.target.iops;
  const iac = await runCli([
    'check-iac',
    f('gp3-12000-iops.plan.json'),
    '--metrics',
    file,
    '--statistic',
    statistic,
    '--format',
    'json',
  ]);
  expect(iac.code, iac.stderr).toBe(0);
  out.checkIac = (JSON.parse(iac.stdout) as { demand: { targetIops: number } }).demand.targetIops;
  if (fleet) {
    const plan = await runCli([
      'fleet',
      'plan',
      '--volumes',
      f('volumes_nightly.json'),
      '--metrics',
      file,
      '--statistic',
      statistic,
      '--json',
    ]);
    expect(plan.code, plan.stderr).toBe(0);
    out.fleet = (
      JSON.parse(plan.stdout) as { volumes: { target: { iops: number } }[] }
    ).volumes[0]!.target.iops;
  }
  return out;
}

describe('the same target on every surface', () => {
  it.each(['max', 'p99', 'p95'])(
    '14 days at ~1,300 IOPS with 01:30–01:40 daily at 8,200 (get-metric-data), --statistic %s: ≥ 8,200 × 1.25 everywhere',
    async (statistic) => {
      const t = await targets(NIGHTLY, statistic, true);
      expect(new Set(Object.values(t)).size, JSON.stringify(t)).toBe(1);
      expect(t.metrics).toBe(10_250);
    },
  );

  it('iostat every 10 s with a 40-second burst of 10,500 IOPS every 15 minutes: 13,125 on metrics, plan and check-iac', async () => {
    const t = await targets(IOSTAT, 'max', false);
    expect(t).toEqual({ metrics: 13_125, plan: 13_125, checkIac: 13_125 });
  });
});

describe('incomplete data and --fail-on', () => {
  it('fleet plan on the first page only: named on stderr, JSON complete false, --fail-on incomplete exits 1', async () => {
    const args = [
      'fleet',
      'plan',
      '--volumes',
      f('volumes_nightly.json'),
      '--metrics',
      f('gmd_nightly_batch_first_page.json'),
    ];
    const text = await runCli(args);
    expect(text.code).toBe(0);
    expect(text.stderr).toContain('fleet plan: INCOMPLETE data for 1 volume(s):\n  vol-0e1d2c3b4a5968778: ');
    const json = await runCli([...args, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ complete: false });
    expect((await runCli([...args, '--fail-on', 'incomplete'])).code).toBe(1);
  });
});
