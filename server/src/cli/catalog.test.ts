import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installBuiltInCatalog } from '@blockwise/shared/catalog';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  describeInstanceTypesFile,
  ebsItems,
  instanceItem,
  offerFile,
  serveMirror,
  writeMirror,
  type MirrorServer,
} from '../catalog/testing/price-list.ts';
import { runCli } from '../testing/run-cli.ts';

/**
 * `blockwise catalog update` against a local mirror of the AWS Price List layout, served over
 * HTTP from 127.0.0.1 (nothing leaves the machine), then `cost` / `plan --catalog` using it.
 */
const US_EAST_1 = offerFile(
  [
    ...ebsItems('us-east-1', '', {
      gp2: '0.1000000000',
      gp3: ['0.0800000000', '0.0050000000', '40.9600000000'],
      io1: ['0.1250000000', '0.0650000000'],
      io2: ['0.1250000000', '0.0650000000', '0.0455000000', '0.0318500000'],
      st1: '0.0450000000',
      sc1: '0.0150000000',
      snapshot: ['0.0500000000', '0.0125000000'],
    }),
    instanceItem('us-east-1', '', 'r5.4xlarge', '1.0080000000'),
    instanceItem('us-east-1', '', 'r5d.4xlarge', '1.2000000000'),
    instanceItem('us-east-1', '', 'r5d.4xlarge', '1.9880000000', { os: 'Windows' }),
    instanceItem('us-east-1', '', 'r5d.4xlarge', '1.2670000000', { tenancy: 'Dedicated' }),
  ],
  { reservedPerSku: 3 },
);
// A region the built-in catalog (2022) does not have, with io2's three tiers.
const THAILAND = offerFile(
  ebsItems('ap-southeast-7', 'APSE7-', {
    gp2: '0.1140000000',
    gp3: ['0.0912000000', '0.0057000000', '46.6944000000'],
    io1: ['0.1380000000', '0.0719000000'],
    io2: ['0.1380000000', '0.0719000000', '0.0503000000', '0.0352000000'],
    st1: '0.0513000000',
    sc1: '0.0171000000',
  }),
  { reservedPerSku: 2 },
);
// No io2 price (as in 2022): gp3 must still be priced.
const SAO_PAULO = offerFile(
  ebsItems('sa-east-1', 'SAE1-', {
    gp2: '0.1900000000',
    gp3: ['0.1520000000', '0.0095000000', '77.8240000000'],
    io1: ['0.2380000000', '0.0910000000'],
    st1: '0.0860000000',
    sc1: '0.0288000000',
  }),
);

let dir: string;
let mirror: string;
let server: MirrorServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bw-catalog-'));
  mirror = join(dir, 'mirror');
  writeMirror(mirror, { 'us-east-1': US_EAST_1, 'ap-southeast-7': THAILAND, 'sa-east-1': SAO_PAULO });
  server = await serveMirror(mirror);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});
// Commands install the catalog they load for the whole process: back to the built-in one.
afterEach(() => installBuiltInCatalog());

const run = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, { cwd: dir, env });
const io2Cost = ['cost', '--type', 'io2', '--size', '100', '--iops', '70000', '--json'];

describe('blockwise catalog update (AWS Price List bulk API layout over HTTP)', () => {
  it('writes a catalog that cost --catalog uses, a region the built-in data lacks and io2’s three tiers included', async () => {
    const r = await run(['catalog', 'update', '--offers', server.url, '--out', 'cat.json']);
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests[0]).toBe('/offers/v1.0/aws/AmazonEC2/current/region_index.json');
    expect(r.stdout).toMatch(
      /\+ EBS prices for ap-southeast-7 \(Test location \(ap-southeast-7\)\), as of 2026-11-01: new region/,
    );
    expect(r.stdout).toMatch(/~ EC2 on-demand Linux prices, us-east-1: \d+ → 2 types/);
    expect(r.stderr).toMatch(/us-east-1: .* MB read \(stopped after the on-demand terms\)/);

    const cost = await run([...io2Cost, '--region', 'ap-southeast-7', '--catalog', 'cat.json']);
    expect(cost.code, cost.stderr).toBe(0);
    const out = JSON.parse(cost.stdout);
    // 32,000 × 0.0719 + 32,000 × 0.0503 + 6,000 × 0.0352
    expect(out.monthlyUsd.iops).toBe(4121.6);
    expect(out.rates).toMatchObject({
      region: 'ap-southeast-7',
      date: '2026-11-01',
      io2: { storage: 0.138, iops: 0.0719, iops2: 0.0503, iops3: 0.0352 },
      gp3: { throughput: 0.0456 }, // 46.6944 per GiBps-month / 1024
    });
    expect(out.rates.source).toMatch(
      /^AWS Price List, AmazonEC2 offer 20261101000000 for ap-southeast-7 \(published 2026-11-01, fetched \d{4}-\d\d-\d\d\)$/,
    );

    const catalog = JSON.parse(readFileSync(join(dir, 'cat.json'), 'utf8'));
    const source = catalog.sources[catalog.ebs['ap-southeast-7'].source];
    expect(source).toMatchObject({
      kind: 'aws-price-list',
      location: `${server.url}/offers/v1.0/aws/AmazonEC2/20261101000000/ap-southeast-7/index.json`,
      publicationDate: '2026-11-01T00:00:00Z',
    });
    expect(catalog.ebs['us-east-1'].snapshot).toEqual({ standard: 0.05, archive: 0.0125 });
    // Linux, shared tenancy only: the Windows and dedicated hours are other products.
    expect(catalog.ec2['us-east-1'].usdPerHour).toEqual({ 'r5.4xlarge': 1.008, 'r5d.4xlarge': 1.2 });
    // Regions the mirror does not list keep their built-in prices and sources (eu-central-1's:
    // the EBS pricing page's file of 2024-07-18, shared/src/aws/data/SOURCES.md).
    expect(catalog.sources[catalog.ebs['eu-central-1'].source].publicationDate).toBe('2024-07-18T13:53:37Z');
  });

  it('a region without an io2 price still prices gp3; io2 there is refused naming the gap', async () => {
    const gp3 = await run(['cost', '--type', 'gp3', '--size', '100', '--region', 'sa-east-1', '--json'], {
      BLOCKWISE_CATALOG: 'cat.json',
    });
    expect(gp3.code, gp3.stderr).toBe(0);
    expect(JSON.parse(gp3.stdout).rates).toMatchObject({ date: '2026-11-01', gp3: { storage: 0.152 } });
    const io2 = await run([...io2Cost, '--region', 'sa-east-1'], { BLOCKWISE_CATALOG: 'cat.json' });
    expect(io2.code).toBe(2);
    expect(io2.stderr).toMatch(
      /--region: no io2 price for sa-east-1 in the catalog \(AWS Price List, AmazonEC2 offer 20261101000000 for sa-east-1/,
    );
  });

  it('plan --catalog prices the NVMe premium from the refreshed EC2 prices', async () => {
    const r = await run([
      'plan',
      '--instance',
      'r5d.4xlarge',
      '--nvme',
      '--read-iops',
      '1000',
      '--write-iops',
      '1000',
      '--read-bw',
      '10MiB/s',
      '--write-bw',
      '10MiB/s',
      '--catalog',
      'cat.json',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    // (1.2 − 1.008) × 730 h; the built-in 2026-07-20 prices give 105.12.
    expect(JSON.parse(r.stdout).cost.nvme.monthlyPremiumUsd).toBe(140.16);
  });

  it('a failed region leaves the previous catalog as it was, and no temporary file', async () => {
    const before = readFileSync(join(dir, 'cat.json'));
    server.fail('/offers/v1.0/aws/AmazonEC2/20261101000000/sa-east-1/index.json', { status: 503 });
    try {
      const r = await run(['catalog', 'update', '--offers', server.url, '--out', 'cat.json']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `${server.url}/offers/v1.0/aws/AmazonEC2/20261101000000/sa-east-1/index.json: HTTP 503`,
      );
      expect(r.stderr).toMatch(/Nothing was written; cat\.json is unchanged/);
    } finally {
      server.fail('/offers/v1.0/aws/AmazonEC2/20261101000000/sa-east-1/index.json', null);
    }
    expect(readFileSync(join(dir, 'cat.json')).equals(before)).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a connection cut in the middle of an offer file is an error naming the file', async () => {
    const path = '/offers/v1.0/aws/AmazonEC2/20261101000000/ap-southeast-7/index.json';
    server.fail(path, { cutAfterBytes: 2000 });
    try {
      const r = await run(['catalog', 'update', '--offers', server.url, '--out', 'cut.json']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`${server.url}${path}: (download failed|not valid JSON)`));
    } finally {
      server.fail(path, null);
    }
    expect(readdirSync(dir)).not.toContain('cut.json');
  });

  it('--regions that the region index does not list: exit 2 naming the flag', async () => {
    const r = await run([
      'catalog',
      'update',
      '--offers',
      server.url,
      '--regions',
      'mars-north-1',
      '--out',
      'x.json',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /--regions: .*region_index\.json: regions: no mars-north-1 \(it lists ap-southeast-7, sa-east-1, us-east-1\)/,
    );
  });
});

describe('malformed inputs: the file and the field', () => {
  it('a price that is not a number', async () => {
    const folder = join(dir, 'bad-price');
    const text = offerFile(ebsItems('eu-west-1', 'EU-', { gp2: 'abc' }));
    writeMirror(folder, { 'eu-west-1': text });
    const r = await run(['catalog', 'update', '--offers', 'bad-price', '--out', 'bad.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /bad-price\/offers\/v1\.0\/aws\/AmazonEC2\/20261101000000\/eu-west-1\/index\.json: terms\.OnDemand\.TESTSKU\d+\.TESTSKU\d+\.JRTCKXETXF\.priceDimensions\.TESTSKU\d+\.JRTCKXETXF\.6YS6EN2CT7\.pricePerUnit\.USD: "abc" is not a price/,
    );
  });

  it('gp3 throughput in an unexpected unit', async () => {
    const folder = join(dir, 'bad-unit');
    const items = ebsItems('eu-west-1', 'EU-', { gp3: ['0.088', '0.0055', '45.056'] });
    items[2]!.price.unit = 'Mbps-Mo';
    writeMirror(folder, { 'eu-west-1': offerFile(items) });
    const r = await run(['catalog', 'update', '--offers', 'bad-unit', '--out', 'bad.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /\.unit: "Mbps-Mo" for EU-EBS:VolumeP-Throughput\.gp3, expected gibps-mo or mibps-mo/,
    );
  });

  it('a file that is not an offer file', async () => {
    writeMirror(join(dir, 'not-offer'), {
      'eu-west-1':
        '{"offerCode":"AmazonS3","publicationDate":"2026-11-01T00:00:00Z","products":{},"terms":{"OnDemand":{}}}',
    });
    const r = await run(['catalog', 'update', '--offers', 'not-offer', '--out', 'bad.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/eu-west-1\/index\.json: offerCode: expected "AmazonEC2", got "AmazonS3"/);
  });

  it('--catalog naming a file that is not a catalog: exit 2 naming the flag and the field', async () => {
    writeFileSync(
      join(dir, 'not-a-catalog.json'),
      '{"format":"blockwise-catalog/v1","generatedAt":"x","sources":{},"ebs":{"x":{}},"ec2":{},"instances":{"columns":[],"rows":[]},"dVariantPairs":[]}',
    );
    const r = await run(['cost', '--type', 'gp3', '--size', '100', '--catalog', 'not-a-catalog.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--catalog: not-a-catalog\.json: ebs\.x\.location: /);
  });
});

describe('--offers DIR reads only what is inside DIR', () => {
  // What a link could reach: a file outside the folder, with a recognizable size and first byte.
  const SECRET = `root:x:0:0:root:/root:/bin/bash\n${'daemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n'.repeat(29)}`;
  const INDEX = 'offers/v1.0/aws/AmazonEC2/current/region_index.json';
  const OFFER = 'offers/v1.0/aws/AmazonEC2/20261101000000/eu-west-1/index.json';
  const euWest = () => offerFile(ebsItems('eu-west-1', 'EU-', { gp2: '0.1100000000' }));

  /** A mirror folder `name` whose `path` is replaced by a symbolic link to `target`. */
  function mirrorWithLink(name: string, path: string, target: string): void {
    const folder = join(dir, name);
    writeMirror(folder, { 'eu-west-1': euWest() });
    rmSync(join(folder, path), { recursive: true });
    symlinkSync(target, join(folder, path));
  }

  function expectRefusedUnread(r: { code: number; stderr: string }, shown: string): void {
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${shown}: a link to a file outside`);
    expect(r.stderr).not.toContain(String(Buffer.byteLength(SECRET)));
    expect(r.stderr).not.toMatch(/root|daemon|Unexpected token|not valid JSON/);
    expect(r.stderr).toMatch(/Nothing was written/);
  }

  beforeAll(() => {
    writeFileSync(join(dir, 'secret.txt'), SECRET);
    mkdirSync(join(dir, 'elsewhere'));
    writeFileSync(join(dir, 'elsewhere', 'index.json'), euWest());
  });

  it('a region index that links out of the folder: refused, its size and content never shown', async () => {
    mirrorWithLink('link-index', INDEX, join(dir, 'secret.txt'));
    const r = await run(['catalog', 'update', '--offers', 'link-index', '--out', 'li.json']);
    expectRefusedUnread(r, `link-index/${INDEX}`);
    expect(readdirSync(dir)).not.toContain('li.json');
  });

  it('an offer file that links out (relative link): refused, unread', async () => {
    mirrorWithLink('link-offer', OFFER, '../../../../../../../secret.txt');
    const r = await run(['catalog', 'update', '--offers', 'link-offer', '--out', 'lo.json']);
    expectRefusedUnread(r, `link-offer/${OFFER}`);
  });

  it('a folder on the way that links out: refused, even to a valid offer file', async () => {
    mirrorWithLink('link-dir', OFFER.replace('/index.json', ''), join(dir, 'elsewhere'));
    const r = await run(['catalog', 'update', '--offers', 'link-dir', '--out', 'ld.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`link-dir/${OFFER}: a link to a file outside link-dir: refused, not read`);
  });

  it('links that stay inside the folder are followed (a mirror whose current/ is a link)', async () => {
    const folder = join(dir, 'link-inside');
    writeMirror(folder, { 'eu-west-1': euWest() });
    renameSync(
      join(folder, 'offers/v1.0/aws/AmazonEC2/current'),
      join(folder, 'offers/v1.0/aws/AmazonEC2/v1'),
    );
    symlinkSync('v1', join(folder, 'offers/v1.0/aws/AmazonEC2/current'));
    const r = await run(['catalog', 'update', '--offers', 'link-inside', '--out', 'inside.json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'inside.json'), 'utf8')).ebs['eu-west-1'].rates.gp2).toEqual({
      storage: 0.11,
    });
  });
});

describe('region codes: AWS’s shape only, never markup in the catalog', () => {
  it('a region index listing "<script>": refused naming the field, nothing written', async () => {
    const folder = join(dir, 'hostile-index');
    writeMirror(folder, { 'eu-west-1': offerFile(ebsItems('eu-west-1', 'EU-', { gp2: '0.11' })) });
    const file = join(folder, 'offers/v1.0/aws/AmazonEC2/current/region_index.json');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('"regionCode": "eu-west-1"', '"regionCode": "<script>"'),
    );
    const r = await run(['catalog', 'update', '--offers', 'hostile-index', '--out', 'hi.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /region_index\.json: regions\.eu-west-1\.regionCode: expected an AWS region code/,
    );
    expect(readdirSync(dir)).not.toContain('hi.json');
  });

  it('an offer whose products name "<script>" as their region: refused naming the product', async () => {
    writeMirror(join(dir, 'hostile-offer'), {
      'eu-west-1': offerFile(ebsItems('<script>alert(1)</script>', 'EU-', { gp2: '0.11' })),
    });
    const r = await run(['catalog', 'update', '--offers', 'hostile-offer', '--out', 'ho.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /eu-west-1\/index\.json: products\.TESTSKU\d+\.attributes\.regionCode: "<script>alert\(1\)<\/script>" is not an AWS region code/,
    );
    expect(readdirSync(dir)).not.toContain('ho.json');
  });

  it('--catalog naming a file with such a region: exit 2 naming the key', async () => {
    const catalog = JSON.parse(readFileSync(join(dir, 'cat.json'), 'utf8'));
    catalog.ebs['<img src=x>'] = catalog.ebs['us-east-1'];
    writeFileSync(join(dir, 'hostile-cat.json'), JSON.stringify(catalog));
    const r = await run(['cost', '--type', 'gp3', '--size', '100', '--catalog', 'hostile-cat.json']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--catalog: hostile-cat\.json: ebs\.<img src=x>: expected an AWS region code/);
  });
});

describe('instance limits from a saved describe-instance-types output', () => {
  const types = [
    {
      InstanceType: 'm9z.large',
      CurrentGeneration: true,
      Hypervisor: 'nitro',
      ProcessorInfo: { SupportedArchitectures: ['arm64'] },
      VCpuInfo: { DefaultVCpus: 2 },
      MemoryInfo: { SizeInMiB: 8192 },
      InstanceStorageSupported: false,
      EbsInfo: {
        EbsOptimizedSupport: 'default',
        EbsOptimizedInfo: {
          BaselineBandwidthInMbps: 1250,
          BaselineIops: 6000,
          MaximumBandwidthInMbps: 10000,
          MaximumIops: 40000,
        },
        MaximumEbsAttachments: 32,
        AttachmentLimitType: 'dedicated',
      },
    },
    // Saved before 2025: no attachment limit. The store layout is the built-in one.
    {
      InstanceType: 'r5d.4xlarge',
      CurrentGeneration: true,
      Hypervisor: 'nitro',
      ProcessorInfo: { SupportedArchitectures: ['x86_64'] },
      VCpuInfo: { DefaultVCpus: 16 },
      MemoryInfo: { SizeInMiB: 131072 },
      InstanceStorageSupported: true,
      InstanceStorageInfo: {
        TotalSizeInGB: 600,
        Disks: [{ SizeInGB: 300, Count: 2, Type: 'ssd' }],
        NvmeSupport: 'required',
      },
      EbsInfo: {
        EbsOptimizedInfo: {
          BaselineBandwidthInMbps: 4750,
          BaselineIops: 18750,
          MaximumBandwidthInMbps: 4750,
          MaximumIops: 18750,
        },
      },
    },
    // Bare metal: no Hypervisor in the API's answer.
    {
      InstanceType: 'm9z.metal',
      BareMetal: true,
      VCpuInfo: { DefaultVCpus: 64 },
      MemoryInfo: { SizeInMiB: 262144 },
      EbsInfo: {
        EbsOptimizedInfo: {
          BaselineBandwidthInMbps: 40000,
          BaselineIops: 160000,
          MaximumBandwidthInMbps: 40000,
          MaximumIops: 160000,
        },
      },
    },
  ];

  it('merges them over the built-in types, keeping what an older file cannot say', async () => {
    writeFileSync(join(dir, 'types.json'), describeInstanceTypesFile(types));
    const r = await run([
      'catalog',
      'update',
      '--offers',
      'none',
      '--instances',
      'types.json',
      '--out',
      'types-cat.json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\+ 2 instance type\(s\): m9z\.large, m9z\.metal/);
    const catalog = JSON.parse(readFileSync(join(dir, 'types-cat.json'), 'utf8'));
    const rows = new Map(catalog.instances.rows.map((row: unknown[]) => [row[0], row]));
    const r5d = rows.get('r5d.4xlarge') as unknown[];
    // Store IOPS (AWS docs) kept with their own source; attachments kept from the built-in dump.
    expect(r5d.slice(9, 14)).toEqual([2, 300, 'nvme-ssd', 234000, 114000]);
    expect(r5d[18]).toBe('describe-instance-types/types');
    expect(r5d[19]).toBe('aws-docs/instance-store-iops.awsdocs-2026-03-01');
    expect([r5d[16], r5d[17], r5d[20]]).toEqual([
      25,
      'shared',
      'describe-instance-types/describe-instance-types.moto-2026-08-02',
    ]);
    expect((rows.get('m9z.metal') as unknown[])[14]).toBe('nitro');
    expect(catalog.sources['describe-instance-types/types']).toMatchObject({
      kind: 'describe-instance-types',
      location: 'types.json',
      publicationDate: null,
    });

    const plan = await run([
      'plan',
      '--instance',
      'm9z.large',
      '--read-iops',
      '5000',
      '--write-iops',
      '1000',
      '--read-bw',
      '100MiB/s',
      '--write-bw',
      '10MiB/s',
      '--catalog',
      'types-cat.json',
      '--json',
    ]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout).instanceType).toBe('m9z.large');
  });

  it('a malformed field: exit 1 naming the file and the field', async () => {
    writeFileSync(
      join(dir, 'bad-types.json'),
      describeInstanceTypesFile([{ InstanceType: 'm9z.large', VCpuInfo: { DefaultVCpus: '2' } }]),
    );
    const r = await run([
      'catalog',
      'update',
      '--offers',
      'none',
      '--instances',
      'bad-types.json',
      '--out',
      'bt.json',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bad-types\.json: InstanceTypes\.0\.VCpuInfo\.DefaultVCpus: /);
  });
});
