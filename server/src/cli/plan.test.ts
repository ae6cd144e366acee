import { describe, expect, it } from 'vitest';
import { runCli } from '../testing/run-cli.ts';

const run = (args: string[]) => runCli(args);

const r5dMixed = [
  '--instance',
  'r5d.4xlarge',
  '--type',
  'gp3',
  '--size',
  '1000',
  '--iops',
  '16000',
  '--throughput',
  '1000',
  '--read-iops',
  '3043',
  '--write-iops',
  '6018',
  '--read-bw',
  '188MiB/s',
  '--write-bw',
  '381MiB/s',
  '--runtime',
  '900s',
];

describe('blockwise plan', () => {
  it('--json has the profile, limits, the bottleneck, recommendations and warnings (r5d mixed: instance bandwidth binds)', async () => {
    const r = await run(['plan', ...r5dMixed, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.bottleneck).toBe('instance-bandwidth');
    expect(out.limits.map((l: { id: string }) => l.id)).toEqual([
      'volume-iops',
      'volume-throughput',
      'instance-iops',
      'instance-bandwidth',
    ]);
    for (const l of out.limits)
      expect(Object.keys(l)).toEqual(
        expect.arrayContaining(['id', 'capacity', 'unit', 'demand', 'utilization']),
      );
    expect(out.profile.read.blockSizeBytes).toBeCloseTo((188 * 1048576) / 3043, 6);
    expect(out.recommendations[0]).toMatchObject({
      type: 'gp3',
      sizeGiB: 1000,
      monthlyUsd: { total: expect.any(Number) },
    });
    expect(out.warnings).toEqual(expect.any(Array));
  });

  it('r6id: warns that the 15-minute test ran inside the burst window', async () => {
    const args = r5dMixed.map((a) =>
      a === 'r5d.4xlarge'
        ? 'r6id.4xlarge'
        : a === '3043'
          ? '5477'
          : a === '6018'
            ? '10800'
            : a === '188MiB/s'
              ? '333MiB/s'
              : a === '381MiB/s'
                ? '675MiB/s'
                : a,
    );
    const out = JSON.parse((await run(['plan', ...args, '--json'])).stdout);
    expect(out.warnings.map((w: { code: string }) => w.code)).toContain('instance_burst_window');
  });

  it('reads a real fio file, picking the busiest phase of a multi-group file', async () => {
    const r = await run([
      'plan',
      '--instance',
      'm5.8xlarge',
      '--type',
      'gp3',
      '--size',
      '500',
      '--fio',
      'fixtures/fio/public/pkb_fio-2.1.4_four_stonewall_groups.json',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.profile.source).toBe('fio');
    expect(out.warnings.map((w: { code: string }) => w.code)).toEqual(
      expect.arrayContaining(['phase_selected', 'several_phases']),
    );
    const g = await run([
      'plan',
      '--instance',
      'm5.8xlarge',
      '--fio',
      'fixtures/fio/public/pkb_fio-2.1.4_four_stonewall_groups.json',
      '--group',
      '3',
      '--json',
    ]);
    expect(JSON.parse(g.stdout).profile.read.iops).toBeGreaterThan(0);
  });

  it('--nvme plans against the instance store and prices it as the d-variant premium', async () => {
    const out = JSON.parse(
      (
        await run([
          'plan',
          '--instance',
          'r5d.4xlarge',
          '--nvme',
          '--read-iops',
          '56000',
          '--write-iops',
          '114000',
          '--read-bw',
          '218MiB/s',
          '--write-bw',
          '445MiB/s',
          '--json',
        ])
      ).stdout,
    );
    expect(out.bottleneck).toBe('nvme-write-iops');
    expect(out.cost.nvme.monthlyPremiumUsd).toBe(105.12);
  });

  it('human output names the bottleneck and the prices used', async () => {
    const r = await run(['plan', ...r5dMixed]);
    expect(r.stdout).toMatch(/Instance EBS bandwidth .* ◀ bottleneck/);
    expect(r.stdout).toMatch(/= 4,750 Mbps/);
    expect(r.stdout).toMatch(/Prices: us-east-1, as of 2024-07-18/);
  });

  it.each([
    [
      [
        'plan',
        '--instance',
        'r5d.5xlarge',
        '--type',
        'gp3',
        '--size',
        '100',
        '--read-iops',
        '1',
        '--write-iops',
        '1',
        '--read-bw',
        '1MiB/s',
        '--write-bw',
        '1MiB/s',
      ],
      /--instance: unknown instance type "r5d.5xlarge"; did you mean .*r5d.4xlarge/,
    ],
    [
      [
        'plan',
        '--instance',
        'r5d.4xlarge',
        '--type',
        'gp3',
        '--size',
        '1000',
        '--iops',
        '90000',
        '--read-iops',
        '1',
        '--write-iops',
        '1',
        '--read-bw',
        '1MiB/s',
        '--write-bw',
        '1MiB/s',
      ],
      /--iops: gp3 IOPS must be 3,000–80,000/,
    ],
    [
      [
        'plan',
        '--instance',
        'r5d.4xlarge',
        '--type',
        'gp3',
        '--size',
        '100',
        '--read-iops',
        '1',
        '--write-iops',
        '1',
        '--read-bw',
        '1',
        '--write-bw',
        '1MiB/s',
      ],
      /--read-bw: expected a throughput such as 500MiB\/s/,
    ],
    [
      ['plan', '--instance', 'r5d.4xlarge', '--type', 'gp3', '--size', '100', '--read-iops', '1'],
      /missing: --write-iops, --read-bw, --write-bw/,
    ],
    [
      [
        'plan',
        '--instance',
        'r5.4xlarge',
        '--nvme',
        '--read-iops',
        '1',
        '--write-iops',
        '1',
        '--read-bw',
        '1MiB/s',
        '--write-bw',
        '1MiB/s',
      ],
      /--nvme: r5.4xlarge has no instance store/,
    ],
    [
      ['plan', '--instance', 'r5d.4xlarge', '--fio', 'no/such.json'],
      /--fio: cannot read no\/such.json: ENOENT/,
    ],
    [
      [
        'plan',
        '--instance',
        'r5d.4xlarge',
        '--fio',
        'fixtures/fio/public/cyberhuey_windows_fio_error_only.json',
      ],
      /--fio: .*not_fio_json/,
    ],
    [
      [
        'plan',
        '--instance',
        'r5d.4xlarge',
        '--headroom',
        'lots',
        '--read-iops',
        '1',
        '--write-iops',
        '1',
        '--read-bw',
        '1MiB/s',
        '--write-bw',
        '1MiB/s',
      ],
      /--headroom: expected a fraction/,
    ],
  ])('exit 2 naming the flag: %j', async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  // The physical model (docs/domain.md): each command an expert tries first, with its numbers.
  const typed = (extra: string[]) => [
    'plan',
    '--read-iops',
    '150',
    '--write-iops',
    '50',
    '--read-bw',
    '600KiB/s',
    '--write-bw',
    '200KiB/s',
    '--json',
    ...extra,
  ];

  it('small random I/O never ranks HDD: sc1/st1 are not viable, gp3 first, and the assumption is said', async () => {
    const r = await run(typed(['--instance', 'r6i.4xlarge', '--type', 'gp3', '--size', '1000']));
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.recommendations[0]).toMatchObject({ type: 'gp3', status: 'meets' });
    const hdd = out.recommendations.filter((x: { type: string }) => x.type === 'st1' || x.type === 'sc1');
    expect(hdd.map((x: { status: string }) => x.status)).toEqual(['not-viable', 'not-viable']);
    expect(out.warnings.map((w: { code: string }) => w.code)).toContain('access_assumed_random');
  });

  it('--access sequential sizes contiguous 64 KiB writes on merged operations (4,000 → 1,000 EBS IOPS)', async () => {
    const args = [
      'plan',
      '--instance',
      'r6i.4xlarge',
      '--type',
      'gp3',
      '--size',
      '500',
      '--read-iops',
      '0',
      '--write-iops',
      '4000',
    ];
    const bw = ['--read-bw', '0B/s', '--write-bw', '250MiB/s', '--json'];
    const seq = JSON.parse((await run([...args, ...bw, '--access', 'sequential'])).stdout);
    const random = JSON.parse((await run([...args, ...bw, '--access', 'random'])).stdout);
    expect(seq.rightSizing.target).toMatchObject({ iops: 1250, iopsUnmerged: 5000 });
    expect(random.rightSizing.target.iops).toBe(5000);
    const bad = await run([...args, ...bw, '--access', 'diagonal']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--access: expected random, sequential or mixed/);
  });

  it('400 MiB/s for 3 h on m5.xlarge cannot be real: exceeds_sustainable, never "saturated"', async () => {
    const r = await run([
      'plan',
      '--instance',
      'm5.xlarge',
      '--type',
      'gp3',
      '--size',
      '1000',
      '--iops',
      '16000',
      '--throughput',
      '1000',
      '--read-iops',
      '3200',
      '--write-iops',
      '0',
      '--read-bw',
      '400MiB/s',
      '--write-bw',
      '0B/s',
      '--runtime',
      '3h',
      '--json',
    ]);
    const out = JSON.parse(r.stdout);
    expect(out.warnings.map((w: { code: string }) => w.code)).toContain('exceeds_sustainable');
    expect(out.bottleneckDetail).toMatchObject({ state: 'impossible', saturated: false });
  });

  it('a stripe keeps its capacity, and NVMe → EBS keeps --dataset', async () => {
    const stripe = JSON.parse(
      (
        await run([
          ...typed(['--instance', 'r6i.2xlarge', '--type', 'gp3', '--size', '500', '--iops', '16000']),
          '--throughput',
          '1000',
          '--count',
          '4',
        ])
      ).stdout,
    );
    expect(stripe.rightSizing.target.minSizeGiB).toBe(2000);
    expect(stripe.recommendations[0].sizeGiB).toBeGreaterThanOrEqual(2000);
    const nvme = JSON.parse(
      (await run(typed(['--instance', 'r6id.4xlarge', '--nvme', '--dataset', '800GiB']))).stdout,
    );
    expect(nvme.recommendations[0]).toMatchObject({ type: 'gp3', sizeGiB: 800 });
  });

  it('--growth and --horizon size the capacity for the grown dataset and say both numbers', async () => {
    const grown = JSON.parse(
      (
        await run(
          typed([
            '--instance',
            'r6i.8xlarge',
            '--type',
            'gp3',
            '--size',
            '1000',
            '--dataset',
            '1500GiB',
            '--growth',
            '20%',
            '--horizon',
            '12',
          ]),
        )
      ).stdout,
    );
    expect(grown.rightSizing.target.minSizeGiB).toBe(1800);
    expect(grown.dataset).toEqual({
      todayGiB: 1500,
      growth: { percentPerYear: 20, horizonMonths: 12 },
      provisionGiB: 1800,
    });
    const human = await run(
      typed([
        '--instance',
        'r6i.8xlarge',
        '--type',
        'gp3',
        '--size',
        '1000',
        '--dataset',
        '2000',
        '--growth',
        '30',
      ]).filter((a) => a !== '--json'),
    );
    expect(human.stdout).toContain('(dataset: 2,000 GiB today, 2,600 GiB in 12 months at 30 %/year)');
    expect(human.stdout).toContain('≥ 2,600 GiB');
  });

  it.each([
    [['--dataset', '1500', '--growth', '1001'], '--growth: expected a growth from 0 to 1000 %/year'],
    [['--dataset', '1500', '--growth', 'fast'], '--growth: expected a growth from 0 to 1000 %/year'],
    [
      ['--dataset', '1500', '--growth', '20', '--horizon', '61'],
      '--horizon: expected a whole number of months from 1 to 60',
    ],
    [
      ['--dataset', '1500', '--growth', '20', '--horizon', '1.5'],
      '--horizon: expected a whole number of months',
    ],
    [['--growth', '20'], '--growth needs --dataset'],
    [['--dataset', '1500', '--horizon', '12'], '--horizon needs --growth'],
  ])('%j is a usage error naming the flag', async (extra, message) => {
    const r = await run(typed(['--instance', 'r6i.8xlarge', '--type', 'gp3', '--size', '1000', ...extra]));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('io2 at 64,000 IOPS on a Xen r4.16xlarge warns requires_nitro; 40 volumes on m5.large warn attachment_limit', async () => {
    const xen = JSON.parse(
      (await run(typed(['--instance', 'r4.16xlarge', '--type', 'io2', '--size', '1000', '--iops', '64000'])))
        .stdout,
    );
    expect(xen.warnings.map((w: { code: string }) => w.code)).toContain('requires_nitro');
    const many = JSON.parse(
      (await run(typed(['--instance', 'm5.large', '--type', 'gp3', '--size', '100', '--count', '40'])))
        .stdout,
    );
    expect(many.warnings.map((w: { code: string }) => w.code)).toContain('attachment_limit');
  });
});

describe('blockwise plan --metrics: the measured latency beside the plan', () => {
  it('a volume at 0.2 ms today: each recommended type with a slower promise says "slower than today"', async () => {
    const r = await run([
      'plan',
      '--metrics',
      'fixtures/metrics/iostat_12.6.1_x_t_C.txt',
      '--type',
      'io2',
      '--size',
      '200',
      '--iops',
      '8000',
      '--instance',
      'm7i.2xlarge',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Measured latency (iostat -x await (request-weighted mean)): average 0.20 ms');
    expect(r.stdout).toContain(
      '  io2 promises sub-millisecond (under 1 ms average); measured average 0.20 ms: within the promise',
    );
    expect(r.stdout).toContain(
      '! gp3 promises single-digit millisecond (1–10 ms average); measured average 0.20 ms: slower than today',
    );
  });

  it('--json carries it with each type’s verdict', async () => {
    const r = await run([
      'plan',
      '--metrics',
      'fixtures/nvme-amzn/stats_v3.0-rc1_json.txt',
      '--type',
      'gp3',
      '--size',
      '500',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      measuredLatency: { statistic: string; ms: number; promises: { type: string; verdict: string }[] };
    };
    expect(out.measuredLatency.statistic).toBe('p99');
    expect(out.measuredLatency.ms).toBe(4.096);
    expect(out.measuredLatency.promises[0]).toMatchObject({ type: 'gp3', verdict: 'as-today' });
  });

  it('a fio run: its clat p99 on the storage it ran on, against each type’s promise (text and --json)', async () => {
    // samyaple NVMe randwrite, 16 jobs: the worst job's clat_ns p99 is 536,576 ns (measured-latency.test.ts).
    const args = [
      'plan',
      '--fio',
      'fixtures/fio/public/samyaple_fio-3.33_randwrite_nj16_perjob.json',
      '--nvme',
      '--instance',
      'i4i.xlarge',
    ];
    const r = await run(args);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      'Measured latency (fio completion latency (clat) percentiles on local NVMe instance store, the upper bound over the jobs (no json+ bins to merge)): p99 0.54 ms (writes, the slower direction); whole run p50 0.19 ms, p99 0.54 ms, p99.9 2.3 ms, p99.99 2.6 ms',
    );
    expect(r.stdout).toContain(
      '! gp3 promises single-digit millisecond (1–10 ms average); measured p99 0.54 ms: slower than today',
    );
    expect(r.stdout).toContain(
      '  io2 promises sub-millisecond (under 1 ms average); measured p99 0.54 ms: within the promise',
    );
    const j = await run([...args, '--json']);
    expect(j.code, j.stderr).toBe(0);
    const out = JSON.parse(j.stdout) as {
      measuredLatency: {
        statistic: string;
        ms: number;
        span: string;
        promises: { type: string; verdict: string }[];
      };
    };
    expect([out.measuredLatency.statistic, out.measuredLatency.ms, out.measuredLatency.span]).toEqual([
      'p99',
      0.536576,
      'whole run',
    ]);
    expect(out.measuredLatency.promises.find((p) => p.type === 'gp3')?.verdict).toBe('slower-than-today');
  });

  it('a demand without latency (fio-free observed numbers) prints none', async () => {
    const r = await run([
      'plan',
      '--type',
      'gp3',
      '--size',
      '100',
      '--read-iops',
      '100',
      '--write-iops',
      '100',
      '--read-bw',
      '1MiB/s',
      '--write-bw',
      '1MiB/s',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('Measured latency');
  });
});
