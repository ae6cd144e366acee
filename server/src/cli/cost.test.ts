import { describe, expect, it } from 'vitest';
import { runCli } from '../testing/run-cli.ts';

const run = (args: string[]) => runCli(args);

describe('blockwise cost', () => {
  it('--json: per-component monthly cost, count, total and the rate card with source and date', async () => {
    const r = await run([
      'cost',
      '--type',
      'gp3',
      '--size',
      '1000',
      '--iops',
      '10000',
      '--throughput',
      '500',
      '--rates',
      'storage=0.08,iops=0.005,throughput=0.06',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.monthlyUsd).toEqual({ storage: 80, iops: 35, throughput: 22.5, total: 137.5 });
    expect(out.count).toBe(1);
    expect(out.totalMonthlyUsd).toBe(137.5);
    expect(out.rates).toMatchObject({ source: expect.stringMatching(/^custom rates/), date: '2022-02-10' });
  });

  it('units in flags: --size 1TiB, --throughput 500MiB/s, --iops 16k; × count × nodes', async () => {
    const r = await run([
      'cost',
      '--type',
      'gp3',
      '--size',
      '1TiB',
      '--iops',
      '16k',
      '--throughput',
      '500MiB/s',
      '--count',
      '2',
      '--nodes',
      '4',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.volume).toMatchObject({ sizeGiB: 1024, iops: 16_000, throughputMiBps: 500 });
    // us-east-1: 1024 × 0.08 + 13,000 × 0.005 + 375 × 0.04 = 81.92 + 65 + 15
    expect(out.monthlyUsd.total).toBe(161.92);
    expect(out.totalMonthlyUsd).toBe(1295.36);
  });

  it('io2 tiers in a region', async () => {
    const r = await run(['cost', '--type', 'io2', '--size', '2000', '--iops', '12000', '--json']);
    expect(JSON.parse(r.stdout).monthlyUsd.total).toBe(1030);
  });

  it('prints a readable breakdown by default', async () => {
    const r = await run(['cost', '--type', 'gp3', '--size', '1000']);
    expect(r.stdout).toMatch(/per volume\s+\$80\.00 \/ month/);
    expect(r.stdout).toMatch(/Rates: us-east-1 .* as of 2022-02-10/);
  });

  it.each([
    [
      ['cost', '--type', 'gp3', '--size', '1000', '--iops', '90000'],
      /--iops: gp3 IOPS must be 3,000–80,000 IOPS, got 90,000/,
    ],
    [
      ['cost', '--type', 'io2', '--size', '5', '--iops', '10000'],
      /--iops: io2 allows at most 1,000 IOPS per GiB/,
    ],
    [['cost', '--type', 'gp4', '--size', '100'], /--type: expected one of gp3, gp2, io2, io1, st1, sc1/],
    [['cost', '--type', 'gp3'], /--size is required/],
    [['cost', '--type', 'gp3', '--size', 'huge'], /--size: expected a size in GiB/],
    [
      ['cost', '--type', 'gp3', '--size', '100', '--throughput', '500 furlongs'],
      /--throughput: expected a throughput/,
    ],
    [
      ['cost', '--type', 'gp3', '--size', '100', '--region', 'mars-1'],
      /--region: no complete EBS price table for "mars-1"/,
    ],
    [
      ['cost', '--type', 'gp3', '--size', '100', '--rates', 'iops=cheap'],
      /--rates: "iops=cheap": expected key=value/,
    ],
  ])('exit 2 naming the flag: %j', async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
