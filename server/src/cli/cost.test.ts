import { describe, expect, it } from 'vitest';
import { runCli } from '../testing/run-cli.ts';

/** sa-east-1 has no io2 price in the built-in data (2022 extract, 2024 pricing-page file): a region missing one type. */
const IO2_IN_SA_EAST_1 = [
  'cost',
  '--type',
  'io2',
  '--size',
  '100',
  '--iops',
  '1000',
  '--region',
  'sa-east-1',
];

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
    // The card under the custom rates is us-east-1's, dated by its source (shared/src/aws/data/SOURCES.md).
    expect(out.rates).toMatchObject({ source: expect.stringMatching(/^custom rates/), date: '2024-07-18' });
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

  it.each([
    // region, type, monthly total for 100 GiB (no IOPS, no throughput above the included), date of
    // the region's prices: Regions from the pricing page's file of 2024-07-18, zones from 2022
    ['sa-east-1', 'gp3', 15.2, '2024-07-18'],
    ['sa-east-1', 'gp2', 19, '2024-07-18'],
    ['use1-atl1-az1', 'gp2', 15, '2022-02-10'],
    // Regions opened since 2022, priced from the 2024-07-18 file: 100 × $0.1056 and 100 × $0.1142
    ['il-central-1', 'gp3', 10.56, '2024-07-18'],
    ['eu-central-2', 'gp3', 11.42, '2024-07-18'],
  ] as const)('%s is missing a price, but %s is priced: $%d', async (region, type, total, date) => {
    const r = await run(['cost', '--type', type, '--size', '100', '--region', region, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.monthlyUsd.total).toBe(total);
    expect(out.rates).toMatchObject({ region, date });
    // The card shows what the catalog lacks as null, never a guess.
    if (region === 'sa-east-1')
      expect(out.rates.io2).toEqual({ storage: null, iops: null, iops2: null, iops3: null });
  });

  it('a type the region lacks is priced once --rates gives all its components', async () => {
    const rates = 'io2.storage=0.2,io2.iops=0.1,io2.iops2=0.07,io2.iops3=0.05';
    const r = await run([...IO2_IN_SA_EAST_1, '--rates', rates, '--json']);
    expect(r.code, r.stderr).toBe(0);
    // 100 × 0.2 + 1,000 × 0.1
    expect(JSON.parse(r.stdout).monthlyUsd.total).toBe(120);
  });

  it('the readable output says which types the table has no price for', async () => {
    const r = await run(['cost', '--type', 'gp3', '--size', '100', '--region', 'sa-east-1']);
    expect(r.stdout).toMatch(/Rates: sa-east-1 \(South America \(Sao Paulo\)\), as of 2024-07-18/);
    expect(r.stdout).toContain('(no io2 price in this table)');
  });

  it.each([
    // --throughput, provisioned MiB/s, note on stderr
    ['125', 125, null],
    ['500MiB/s', 500, null],
    ['0.5GiB/s', 512, null],
    ['131072KiB/s', 128, null],
    ['125.5', 126, '--throughput 125.5 MiB/s rounded up to 126 MiB/s'],
    ['200.01MiB/s', 201, '--throughput 200.01 MiB/s rounded up to 201 MiB/s'],
    ['130000KiB/s', 127, '--throughput 126.953 MiB/s rounded up to 127 MiB/s'],
  ] as const)('--throughput %s → %d MiB/s', async (text, miBps, note) => {
    const r = await run([
      'cost',
      '--type',
      'gp3',
      '--size',
      '100',
      '--iops',
      '3000',
      '--throughput',
      text,
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).volume.throughputMiBps).toBe(miBps);
    if (note === null) expect(r.stderr).toBe('');
    else expect(r.stderr).toBe(`note: ${note} (gp3 throughput is provisioned in whole MiB/s)\n`);
  });

  describe('--hours: a short-lived volume (a CI runner), billed per second with a 60-second minimum', () => {
    it.each([
      // --hours, seconds lived, seconds billed, USD for 100 GiB gp3 at us-east-1's $0.08
      ['0.2', 720, 720, 0.002192],
      ['12m', 720, 720, 0.002192],
      ['720s', 720, 720, 0.002192],
      ['20s', 20, 60, 0.000183],
      ['730', 2_628_000, 2_628_000, 8],
    ] as const)('--hours %s: %d s lived, %d s billed, $%d', async (hours, seconds, billed, usd) => {
      const r = await run(['cost', '--type', 'gp3', '--size', '100', '--hours', hours, '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).forDuration).toMatchObject({ seconds, billedSeconds: billed, total: usd });
    });

    it('× volumes × nodes, and the readable output says how it was billed', async () => {
      const args = [
        'cost',
        '--type',
        'gp3',
        '--size',
        '100',
        '--count',
        '2',
        '--nodes',
        '3',
        '--hours',
        '12m',
      ];
      const r = await run(args);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('for 12 min (720 s billed): $0.013151 for all 6 volumes');
      expect(r.stdout).toContain('per-second billing, 60-second minimum');
    });

    it('without --hours there is no duration figure', async () => {
      const r = await run(['cost', '--type', 'gp3', '--size', '100', '--json']);
      expect(JSON.parse(r.stdout)).not.toHaveProperty('forDuration');
    });
  });

  it('prints a readable breakdown by default', async () => {
    const r = await run(['cost', '--type', 'gp3', '--size', '1000']);
    expect(r.stdout).toMatch(/per volume\s+\$80\.00 \/ month/);
    expect(r.stdout).toMatch(/Rates: us-east-1 .* as of 2024-07-18/);
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
      /--region: no EBS price table for "mars-1"; regions with every price: .*us-east-1/,
    ],
    [
      ['cost', '--type', 'gp3', '--size', '100', '--region', 'cn-north-1'],
      /--region: no EBS price table for "cn-north-1"/,
    ],
    // Only the type the region has no price for is refused, naming the region and the component.
    [
      IO2_IN_SA_EAST_1,
      /--region: no io2 price for sa-east-1 in the catalog \(AWS Price List.*, 2024-07-18\); give it with --rates io2\.storage=…,io2\.iops=…,io2\.iops2=…,io2\.iops3=…/,
    ],
    // The 2024-07-18 file lists no io2 price for the Regions opened since 2022.
    [
      ['cost', '--type', 'io2', '--size', '100', '--iops', '1000', '--region', 'il-central-1'],
      /--region: no io2 price for il-central-1 in the catalog \(AWS Price List, AmazonEC2 offer 20240718135337 for il-central-1 .*, 2024-07-18\)/,
    ],
    [
      ['cost', '--type', 'gp3', '--size', '100', '--region', 'use1-atl1-az1'],
      /--region: no gp3 price for use1-atl1-az1 in the catalog/,
    ],
    [
      [...IO2_IN_SA_EAST_1, '--rates', 'io2.storage=0.2'],
      /--region: no io2 iops, iops2, iops3 price for sa-east-1 in the rate card \(custom rates/,
    ],
    // gp3 throughput is provisioned in MiB/s: decimal units never land on a whole MiB/s.
    [
      ['cost', '--type', 'gp3', '--size', '100', '--throughput', '125MB/s'],
      /--throughput: gp3 throughput is provisioned in MiB\/s \(125MB\/s = 119\.2 MiB\/s\): give e\.g\. 120MiB\/s/,
    ],
    [
      ['cost', '--type', 'gp3', '--size', '100', '--iops', '4000', '--throughput', '1000Mbps'],
      /--throughput: gp3 throughput is provisioned in MiB\/s \(1000Mbps = 119\.2 MiB\/s\): give e\.g\. 120MiB\/s/,
    ],
    [
      ['cost', '--type', 'gp3', '--size', '100', '--rates', 'iops=cheap'],
      /--rates: "iops=cheap": expected key=value/,
    ],
    [
      ['cost', '--type', 'gp3', '--size', '100', '--hours', 'soon'],
      /--hours: expected hours \(0\.2\) or a duration such as 720s, 12m or 2h, above 0; got "soon"/,
    ],
    [['cost', '--type', 'gp3', '--size', '100', '--hours', '0'], /--hours: expected hours/],
  ])('exit 2 naming the flag: %j', async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
