import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findInstanceType } from '../aws/instances.ts';
import { regionRateCardFor } from '../aws/ebs-prices.ts';
import type { InstanceSpec } from '../aws/instance-spec.ts';
import { publishedProfile } from '../test-support/profiles.ts';
import { importMetrics } from '../timeseries/import-metrics.ts';
import { profileFromSeries } from '../timeseries/sizing.ts';
import { checkIac, failingFindings, type IacFailOn } from './check.ts';
import { formatUsd } from '../units.ts';
import { DEFAULT_CSI_DRIVER_VERSION, csiIopsRuleOf, parseCsiDriverVersion } from './csi-driver.ts';
import { IAC_COMMENT_MARKER, formatIacMarkdown } from './format.ts';
import {
  driverIops,
  extractKubernetesVolumes,
  gibOfBytes,
  isPassedThrough,
  mergeClassRequest,
  multiAttachOf,
  parseQuantityBytes,
  readDriverInteger,
  readEbsParameters,
  type ManifestObject,
} from './kubernetes.ts';
import type { IacFinding, IacVolume } from './schema.ts';
import { extractTerraformVolumes } from './terraform.ts';

const FIXTURES = resolve(import.meta.dirname, '../../../fixtures/iac');
const readPlan = (name: string) => JSON.parse(readFileSync(resolve(FIXTURES, name), 'utf8')) as unknown;
const card = regionRateCardFor('us-east-1')!;
const codes = (findings: readonly IacFinding[]) => findings.map((f) => f.code).sort();

/** 12,000 random 4 KiB reads per second: the demand of the done-means case. */
const demand12k = publishedProfile({
  readIops: 12_000,
  readMiBps: (12_000 * 4) / 1024,
  writeIops: 0,
  writeMiBps: 0,
});

const vol = (volume: IacVolume['volume'], instanceType: string | null = null): IacVolume => ({
  file: 'plan.json',
  subject: 'aws_ebs_volume.x',
  origin: 'terraform',
  volume,
  instanceType,
});

const check = (volumes: IacVolume[], extra: Partial<Parameters<typeof checkIac>[0]> = {}) =>
  checkIac({
    volumes,
    profile: null,
    headroom: 0.25,
    rateCard: card,
    findInstance: findInstanceType,
    ...extra,
  });

describe('the done-means case: gp3 maxed out at 80,000 IOPS where demand peaks at 12,000', () => {
  it('is over-provisioned by $360.00 a month (us-east-1 prices of 2024-07-18)', () => {
    // By hand, from the catalog's us-east-1 card (gp3: $0.08/GiB, $0.005 per IOPS above 3,000,
    // $0.04 per MiB/s above 125):
    //   provisioned  1,000 GiB × 0.08 = 80 + (80,000 − 3,000) × 0.005 = 385 + (1,000 − 125) × 0.04 = 35 → $500.00
    //   target       12,000 × 1.25 = 15,000 IOPS; 46.9 MiB/s × 1.25 → 59 MiB/s (under the free 125)
    //   cheapest     gp3 1,000 GiB (the size stays: EBS cannot shrink), 15,000 IOPS, 125 MiB/s
    //                = 80 + 12,000 × 0.005 = 60 → $140.00
    //   waste        500 − 140 = $360.00 per month
    expect(card.gp3).toEqual({ storage: 0.08, iops: 0.005, throughput: 0.04 });
    const tf = extractTerraformVolumes(readPlan('over-provisioned-gp3.plan.json'), 'plan.json');
    if (!tf.ok) throw new Error(tf.error.message);
    const report = check(tf.value.volumes, { profile: demand12k });
    const over = report.findings.filter((f) => f.kind === 'over');
    expect(over).toHaveLength(1);
    expect(over[0]!.wasteUsdPerMonth).toBe(360);
    expect(over[0]!.message).toContain('$360.00/month wasted');
    expect(report.volumes[0]!.monthlyUsd!.total).toBe(500);
    expect(report.volumes[0]!.rightSized).toMatchObject({
      type: 'gp3',
      volume: { sizeGiB: 1000, iops: 15_000, throughputMiBps: 125 },
      monthlyUsd: { total: 140 },
    });
    expect(report.demand).toMatchObject({ peakIops: 12_000, targetIops: 15_000, headroom: 0.25 });
    expect(failingFindings(report.findings, 'over')).toHaveLength(1);
    expect(failingFindings(report.findings, 'under')).toHaveLength(0);
    const md = formatIacMarkdown(report);
    expect(md.startsWith(IAC_COMMENT_MARKER)).toBe(true);
    expect(md).toContain('**$360.00/month** of over-provisioning');
  });
});

describe('formatIacMarkdown: names from the files stay text', () => {
  it('leaves no live address, and quotes the price source exactly', () => {
    const v = {
      ...vol({ type: 'gp3', sizeGiB: 10 }),
      subject: 'PersistentVolumeClaim db/cfg|x](http://evil)',
    };
    const report = check([v], {
      profile: demand12k,
      demandSource: 'series pg-ci: https://bw.example/runs/1',
    });
    const md = formatIacMarkdown(report);
    // Outside code spans (GitHub links nothing inside one), no address GitHub would autolink.
    expect(md.replace(/`[^`\n]*`/g, '')).not.toMatch(/:\/\/|www\./i);
    expect(md).toContain('| PersistentVolumeClaim db/cfg\\|x\\](http:\u200b//evil) |');
    expect(md).toContain('Demand (`series pg-ci: https://bw.example/runs/1`)');
    expect(md).toContain(
      "Prices: `us-east-1 (US East (N. Virginia)), prices as of 2024-07-18, source: AWS Price List, AmazonEC2 offer 20240718135337 for us-east-1 (published 2024-07-18, fetched 2026-11-24) Regions only: the Amazon EBS pricing page's price file via yeo/ec2.shop@576c890f data/ebs/ebs.json, re-encoded`",
    );
  });
});

describe('extractTerraformVolumes', () => {
  const plan = (resources: unknown[], childModules: unknown[] = []) => ({
    format_version: '1.2',
    planned_values: { root_module: { resources, child_modules: childModules } },
  });
  const res = (type: string, address: string, values: unknown, mode = 'managed') => ({
    address,
    mode,
    type,
    values,
  });
  it.each([
    {
      name: 'aws_ebs_volume without a type: CreateVolume default gp2',
      doc: plan([res('aws_ebs_volume', 'aws_ebs_volume.a', { size: 100 })]),
      volumes: [{ subject: 'aws_ebs_volume.a', volume: { type: 'gp2', sizeGiB: 100 } }],
      notes: [],
    },
    {
      name: 'aws_instance root and data volumes, with its instance type',
      doc: plan([
        res('aws_instance', 'aws_instance.db', {
          instance_type: 'r6i.2xlarge',
          root_block_device: [{ volume_size: 30, volume_type: 'gp3' }],
          ebs_block_device: [{ device_name: '/dev/sdf', volume_size: 500, volume_type: 'io2', iops: 8000 }],
        }),
      ]),
      volumes: [
        {
          subject: 'aws_instance.db root_block_device',
          volume: { type: 'gp3', sizeGiB: 30 },
          instanceType: 'r6i.2xlarge',
        },
        {
          subject: 'aws_instance.db ebs_block_device /dev/sdf',
          volume: { type: 'io2', sizeGiB: 500, iops: 8000 },
          instanceType: 'r6i.2xlarge',
        },
      ],
      notes: [],
    },
    {
      name: 'a root volume left to the AMI (no size, no type)',
      doc: plan([
        res('aws_instance', 'aws_instance.web', { instance_type: 'm6i.large', root_block_device: [{}] }),
      ]),
      volumes: [],
      notes: ['type_unknown'],
    },
    {
      name: 'a launch template in a child module; 0 means unset; string numbers',
      doc: plan(
        [],
        [
          {
            address: 'module.m',
            resources: [
              res('aws_launch_template', 'module.m.aws_launch_template.lt', {
                instance_type: 'm5.large',
                block_device_mappings: [
                  {
                    device_name: '/dev/xvda',
                    ebs: [{ volume_type: 'gp3', volume_size: '64', iops: 0, throughput: 0 }],
                  },
                ],
              }),
            ],
          },
        ],
      ),
      volumes: [
        {
          subject: 'module.m.aws_launch_template.lt block_device_mappings /dev/xvda',
          volume: { type: 'gp3', sizeGiB: 64 },
          instanceType: 'm5.large',
        },
      ],
      notes: [],
    },
    {
      name: 'data sources and other resources are left alone; standard (magnetic) is noted',
      doc: plan([
        res('aws_ebs_volume', 'data.aws_ebs_volume.old', { size: 8, type: 'gp2' }, 'data'),
        res('aws_s3_bucket', 'aws_s3_bucket.b', { bucket: 'x' }),
        res('aws_ebs_volume', 'aws_ebs_volume.mag', { size: 8, type: 'standard' }),
      ]),
      volumes: [],
      notes: ['type_not_checked'],
    },
    {
      name: 'resource_changes when there are no planned_values (deletions skipped)',
      doc: {
        format_version: '1.2',
        resource_changes: [
          {
            address: 'aws_ebs_volume.new',
            type: 'aws_ebs_volume',
            change: { actions: ['create'], after: { size: 10, type: 'gp3' } },
          },
          {
            address: 'aws_ebs_volume.old',
            type: 'aws_ebs_volume',
            change: { actions: ['delete'], after: null },
          },
        ],
      },
      volumes: [{ subject: 'aws_ebs_volume.new', volume: { type: 'gp3', sizeGiB: 10 } }],
      notes: [],
    },
    {
      name: 'a numeric string with an exponent is read',
      doc: plan([res('aws_ebs_volume', 'aws_ebs_volume.e', { type: 'gp3', size: '1e2', iops: '1.2e4' })]),
      volumes: [{ volume: { type: 'gp3', sizeGiB: 100, iops: 12_000 } }],
      notes: [],
    },
    {
      name: 'unreadable numbers are reported, not read as unset',
      doc: plan([
        res('aws_ebs_volume', 'aws_ebs_volume.bad', { type: 'gp3', size: 100, iops: 'abc' }),
        res('aws_instance', 'aws_instance.bad', {
          instance_type: 'm6i.large',
          root_block_device: [{ volume_type: 'gp3', volume_size: true, throughput: { x: 1 } }],
        }),
        res('aws_ebs_volume', 'aws_ebs_volume.neg', { type: 'gp3', size: '-5' }),
      ]),
      volumes: [],
      notes: ['attribute_not_a_number', 'attribute_not_a_number', 'attribute_not_a_number'],
    },
  ])('$name', ({ doc, volumes, notes }) => {
    const r = extractTerraformVolumes(doc, 'plan.json');
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.volumes).toMatchObject(volumes);
    expect(r.value.volumes).toHaveLength(volumes.length);
    expect(codes(r.value.findings)).toEqual(notes);
  });

  it('names the attribute it could not read, and leaves the volume unjudged', () => {
    const r = extractTerraformVolumes(
      plan([
        res('aws_instance', 'aws_instance.bad', {
          root_block_device: [{ volume_type: 'gp3', volume_size: 30, iops: '3k', throughput: 'fast' }],
        }),
      ]),
      'plan.json',
    );
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.findings).toMatchObject([
      {
        kind: 'invalid',
        code: 'attribute_not_a_number',
        subject: 'aws_instance.bad root_block_device',
        message: expect.stringMatching(/^iops: "3k" and throughput: "fast" are not numbers/),
      },
    ]);
  });

  // The AWS provider reports what EC2 computed for the types that take no settings: gp2's
  // baseline IOPS (3 per GiB, 100 at least) and throughput 0, in planned_values and in a state.
  it('a gp2 volume as the provider reports it is neither invalid nor unpriced', () => {
    const r = extractTerraformVolumes(
      plan([
        res('aws_instance', 'aws_instance.web', {
          instance_type: 'm6i.large',
          root_block_device: [{ volume_type: 'gp2', volume_size: 8, iops: 100, throughput: 0 }],
        }),
        res('aws_ebs_volume', 'aws_ebs_volume.old', { type: 'gp2', size: 500, iops: 1500, throughput: 0 }),
        res('aws_ebs_volume', 'aws_ebs_volume.cold', { type: 'sc1', size: 500, iops: 0, throughput: 6 }),
      ]),
      'plan.json',
    );
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.volumes.map((v) => v.volume)).toEqual([
      { type: 'gp2', sizeGiB: 8 },
      { type: 'gp2', sizeGiB: 500 },
      { type: 'sc1', sizeGiB: 500 },
    ]);
    const report = check(r.value.volumes);
    expect(codes(report.findings)).not.toContain('volume_invalid');
    // gp2 at $0.10 and sc1 at $0.015 per GiB-month (us-east-1, 2024-07-18)
    expect(report.volumes.map((v) => v.monthlyUsd?.total)).toEqual([0.8, 50, 7.5]);
  });

  it('refuses a document that is not a plan', () => {
    const r = extractTerraformVolumes({ resources: [] }, 'x.json');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('not_a_terraform_plan');
  });
});

describe('the rules that need no demand', () => {
  const xen: InstanceSpec = { ...findInstanceType('m4.4xlarge')!, hypervisor: null };
  it.each([
    {
      name: 'gp3 above 500 IOPS per GiB',
      v: vol({ type: 'gp3', sizeGiB: 100, iops: 60_000 }),
      want: ['volume_invalid'],
    },
    {
      name: 'gp3 throughput above 0.25 MiB/s per IOPS',
      v: vol({ type: 'gp3', sizeGiB: 500, iops: 3000, throughputMiBps: 1000 }),
      want: ['volume_invalid'],
    },
    {
      name: 'io1 above 50 IOPS per GiB',
      v: vol({ type: 'io1', sizeGiB: 100, iops: 6000 }),
      want: ['volume_invalid'],
    },
    {
      name: 'io2 above 1,000 IOPS per GiB',
      v: vol({ type: 'io2', sizeGiB: 10, iops: 12_000 }),
      want: ['volume_invalid'],
    },
    {
      name: 'gp2 with IOPS set',
      v: vol({ type: 'gp2', sizeGiB: 100, iops: 3000 }),
      want: ['volume_invalid'],
    },
    {
      name: 'io1 above 32,000 IOPS on a Xen instance (m4.4xlarge); its cap binds too',
      v: vol({ type: 'io1', sizeGiB: 1000, iops: 40_000 }, 'm4.4xlarge'),
      want: ['instance_cap_below_volume', 'requires_nitro'],
    },
    {
      name: 'io2 above 32,000 IOPS on Nitro (m6i.32xlarge): fine',
      v: vol({ type: 'io2', sizeGiB: 1000, iops: 40_000 }, 'm6i.32xlarge'),
      want: [],
    },
    {
      name: 'io2 above 32,000 IOPS without an instance type',
      v: vol({ type: 'io2', sizeGiB: 1000, iops: 40_000 }),
      want: ['nitro_unchecked'],
    },
    {
      name: 'gp3 16,000 IOPS / 1,000 MiB/s on r5.large (3,600 IOPS, 650 Mbps)',
      v: vol({ type: 'gp3', sizeGiB: 1000, iops: 16_000, throughputMiBps: 1000 }, 'r5.large'),
      want: ['instance_cap_below_volume'],
    },
    {
      name: 'gp3 at the current maxima (80,000 IOPS, 2,000 MiB/s)',
      v: vol({ type: 'gp3', sizeGiB: 1000, iops: 80_000, throughputMiBps: 2000 }),
      want: [],
    },
    {
      name: 'an instance type the catalog lacks',
      v: vol({ type: 'gp3', sizeGiB: 10 }, 'zz9.huge'),
      want: ['instance_unknown'],
    },
  ])('$name → $want', ({ v, want }) => {
    expect(codes(check([v]).findings)).toEqual(want);
  });

  it('gp3 at 80,000 IOPS is invalid under the limits before 2025 (16,000)', () => {
    const v = vol({ type: 'gp3', sizeGiB: 1000, iops: 80_000 });
    expect(codes(check([v], { gp3Generation: 'before-2025' }).findings)).toEqual(['volume_invalid']);
  });

  it('skips the Nitro check when the catalog does not say (hypervisor unknown)', () => {
    const v = vol({ type: 'io1', sizeGiB: 1000, iops: 40_000 }, 'm4.4xlarge');
    const r = check([v], { findInstance: () => xen });
    expect(codes(r.findings)).toContain('nitro_unknown');
    expect(codes(r.findings)).not.toContain('requires_nitro');
  });
});

describe('against demand (12,000 random 4 KiB reads per second)', () => {
  it.each([
    {
      name: 'gp3 at the included 3,000 IOPS: volume IOPS bind',
      v: vol({ type: 'gp3', sizeGiB: 100 }),
      kinds: ['under'],
      text: 'Volume IOPS will bind',
    },
    {
      name: 'gp3 at exactly peak × 1.25 = 15,000 IOPS: neither over nor under',
      v: vol({ type: 'gp3', sizeGiB: 1000, iops: 15_000 }),
      kinds: [],
      text: '',
    },
    {
      name: 'gp3 on r5.large: the instance binds (3,600 IOPS)',
      v: vol({ type: 'gp3', sizeGiB: 1000, iops: 16_000 }, 'r5.large'),
      kinds: ['instance-cap', 'over', 'under'],
      text: 'Instance EBS IOPS will bind',
    },
    {
      name: 'io2 at 20,000 IOPS: over (gp3 is cheaper)',
      v: vol({ type: 'io2', sizeGiB: 1024, iops: 20_000 }),
      kinds: ['over'],
      text: '$1,286.08/month wasted',
    },
  ])('$name', ({ v, kinds, text }) => {
    const r = check([v], { profile: demand12k });
    const judged = r.findings.filter((f) => f.kind !== 'note');
    expect(judged.map((f) => f.kind).sort()).toEqual(kinds);
    if (text) expect(judged.map((f) => f.message).join('\n')).toContain(text);
  });

  it('more headroom turns a fitting volume into an under-provisioned one', () => {
    const v = vol({ type: 'gp3', sizeGiB: 1000, iops: 15_000 });
    expect(check([v], { profile: demand12k, headroom: 0.3 }).findings.map((f) => f.kind)).toContain('under');
  });

  it('throughput: 200 MiB/s of 1 MiB sequential reads on gp3 at 125 MiB/s', () => {
    const profile = publishedProfile({
      readIops: 200,
      readMiBps: 200,
      writeIops: 0,
      writeMiBps: 0,
      access: 'sequential',
    });
    const r = check([vol({ type: 'gp3', sizeGiB: 500 })], { profile });
    expect(r.findings.find((f) => f.kind === 'under')?.message).toContain('Volume throughput will bind');
  });

  it('judges only the volumes the demand is for', () => {
    const root = { ...vol({ type: 'gp3', sizeGiB: 30 }), subject: 'aws_instance.db root_block_device' };
    const r = check([root], {
      profile: demand12k,
      judgeDemand: (v) => v.subject.includes('ebs_block_device'),
    });
    expect(r.findings.filter((f) => f.kind === 'under')).toEqual([]);
  });
});

describe('failingFindings', () => {
  const f = (kind: IacFinding['kind']): IacFinding => ({
    kind,
    code: kind,
    file: 'f',
    subject: 's',
    message: 'm',
    wasteUsdPerMonth: null,
  });
  const all = (['over', 'under', 'instance-cap', 'invalid', 'driver', 'note'] as const).map(f);
  it.each<[IacFailOn, string[]]>([
    ['over', ['over']],
    ['under', ['under']],
    ['any', ['over', 'under', 'instance-cap', 'invalid', 'driver']],
    ['none', []],
  ])('--fail-on %s fails on %j', (failOn, kinds) => {
    expect(failingFindings(all, failOn).map((x) => x.kind)).toEqual(kinds);
  });
});

describe('Kubernetes quantities', () => {
  it.each([
    ['100Gi', 100 * 2 ** 30],
    ['1Ti', 2 ** 40],
    ['500G', 5e11],
    ['1e12', 1e12],
    ['1073741824', 2 ** 30],
    ['1.5Gi', 1.5 * 2 ** 30],
    ['100GB', null],
    ['', null],
    ['-1Gi', null],
  ])('%s → %s bytes', (text, bytes) => {
    expect(parseQuantityBytes(text)).toBe(bytes);
  });
  it('rounds up to whole GiB, as the driver does: 500G = 465.7 GiB → 466', () => {
    expect(gibOfBytes(5e11)).toBe(466);
    expect(gibOfBytes(2 ** 30)).toBe(1);
  });
});

describe('EBS CSI driver parameters', () => {
  it.each([
    { name: 'plain gp3', params: { type: 'gp3' }, modify: false, want: [] },
    {
      name: 'keys are case-insensitive; fstype and tags are fine',
      params: {
        TYPE: 'gp3',
        Encrypted: 'true',
        KMSKeyId: 'arn:aws:kms:x',
        'csi.storage.k8s.io/fstype': 'xfs',
        tagSpecification_1: 'team=db',
      },
      modify: false,
      want: [],
    },
    {
      name: 'throughput on io2',
      params: { type: 'io2', iops: '20000', throughput: '500' },
      modify: false,
      want: ['throughput_not_gp3'],
    },
    {
      name: 'throughput on gp2',
      params: { type: 'gp2', throughput: '250' },
      modify: false,
      want: ['throughput_not_gp3'],
    },
    {
      name: 'iops and iopsPerGB',
      params: { iops: '6000', iopsPerGB: '50' },
      modify: false,
      want: ['iops_and_iops_per_gb'],
    },
    {
      name: 'iops on gp2',
      params: { type: 'gp2', iops: '3000' },
      modify: false,
      want: ['iops_not_supported'],
    },
    {
      name: 'an unknown key',
      params: { type: 'gp3', fsTypes: 'ext4' },
      modify: false,
      want: ['unknown_parameter'],
    },
    { name: 'not a whole number', params: { iops: '3k' }, modify: false, want: ['parameter_not_integer'] },
    // The driver reads them with Go's strconv.ParseInt(value, 10, 32): no spaces, a sign allowed, 32 bits.
    {
      name: 'a space around the number',
      params: { iops: ' 4000' },
      modify: false,
      want: ['parameter_not_integer'],
    },
    { name: 'a plus sign', params: { iops: '+4000' }, modify: false, want: [] },
    {
      name: 'above 32 bits',
      params: { throughput: '4294967296' },
      modify: false,
      want: ['parameter_not_integer'],
    },
    { name: '0 asks for nothing', params: { iops: '0' }, modify: false, want: ['parameter_no_effect'] },
    { name: 'not a string', params: { iops: 3000 }, modify: false, want: ['parameter_not_string'] },
    { name: 'not a volume type', params: { type: 'gp4' }, modify: false, want: ['unknown_type'] },
    {
      name: 'blockExpress has no effect',
      params: { type: 'io2', blockExpress: 'true' },
      modify: false,
      want: ['parameter_no_effect'],
    },
    {
      name: 'VolumeAttributesClass type/iops/throughput',
      params: { type: 'gp3', iops: '4000', throughput: '250' },
      modify: true,
      want: [],
    },
    {
      name: 'VolumeAttributesClass keys are case-sensitive',
      params: { iopsPerGB: '10' },
      modify: true,
      want: ['unknown_parameter'],
    },
    { name: 'VolumeAttributesClass tag deletion', params: { tagDeletion_1: 'old' }, modify: true, want: [] },
    {
      name: 'VolumeAttributesClass throughput on io2',
      params: { type: 'io2', throughput: '500' },
      modify: true,
      want: ['throughput_not_gp3'],
    },
  ])('$name → $want', ({ params, modify, want }) => {
    expect(codes(readEbsParameters(params, 'f.yaml', 'StorageClass x', modify).findings)).toEqual(want);
  });

  it.each([
    {
      type: 'gp3',
      size: 20,
      requested: 12_000,
      allow: false,
      gen: 'current',
      want: { iops: 10_000, change: 'capped' },
    },
    {
      type: 'gp3',
      size: 1000,
      requested: 100_000,
      allow: false,
      gen: 'current',
      want: { iops: 80_000, change: 'capped' },
    },
    {
      type: 'gp3',
      size: 1000,
      requested: 100_000,
      allow: false,
      gen: 'before-2025',
      want: { iops: 16_000, change: 'capped' },
    },
    {
      type: 'gp3',
      size: 4,
      requested: 2000,
      allow: false,
      gen: 'current',
      want: { iops: 2000, change: 'below-minimum' },
    },
    {
      type: 'gp3',
      size: 4,
      requested: 2000,
      allow: true,
      gen: 'current',
      want: { iops: 3000, change: 'raised' },
    },
    // The driver skips its per-GiB cap when it would fall below the minimum (4 GiB × 500 = 2,000 <
    // 3,000) and passes the request on: EC2 takes at most 3,000 IOPS on a gp3 that small.
    {
      type: 'gp3',
      size: 4,
      requested: 4000,
      allow: false,
      gen: 'current',
      want: { iops: 4000, change: 'above-ratio' },
    },
    {
      type: 'gp3',
      size: 4,
      requested: 4000,
      allow: true,
      gen: 'current',
      want: { iops: 4000, change: 'above-ratio' },
    },
    {
      type: 'gp3',
      size: 4,
      requested: 3000,
      allow: false,
      gen: 'current',
      want: { iops: 3000, change: null },
    },
    {
      type: 'gp3',
      size: 6,
      requested: 4000,
      allow: false,
      gen: 'current',
      want: { iops: 3000, change: 'capped' },
    },
    {
      type: 'io1',
      size: 100,
      requested: 6000,
      allow: false,
      gen: 'current',
      want: { iops: 5000, change: 'capped' },
    },
    {
      type: 'io2',
      size: 100,
      requested: 50_000,
      allow: false,
      gen: 'current',
      want: { iops: 50_000, change: null },
    },
  ] as const)(
    '$type $size GiB asking $requested IOPS → $want.iops ($want.change)',
    ({ type, size, requested, allow, gen, want }) => {
      expect(driverIops(type, size, requested, allow, gen)).toMatchObject(want);
    },
  );
});

describe('extractKubernetesVolumes', () => {
  const sc = (name: string, parameters: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name, ...extra },
    provisioner: 'ebs.csi.aws.com',
    parameters,
  });
  const pvc = (name: string, spec: Record<string, unknown>, storage = '100Gi') => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'db' },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } }, ...spec },
  });
  const vac = (name: string, parameters: Record<string, string>) => ({
    apiVersion: 'storage.k8s.io/v1beta1',
    kind: 'VolumeAttributesClass',
    metadata: { name },
    driverName: 'ebs.csi.aws.com',
    parameters,
  });
  const run = (objects: unknown[]) =>
    extractKubernetesVolumes(objects.map((object): ManifestObject => ({ file: 'm.yaml', object })));
  const defaultAnnotation = { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } };

  it.each([
    {
      name: 'a claim on the default class: gp3 with the driver defaults',
      objects: [sc('gp3', {}, defaultAnnotation), pvc('a', {})],
      volumes: [{ subject: 'PersistentVolumeClaim db/a', volume: { type: 'gp3', sizeGiB: 100 } }],
      notes: [],
    },
    {
      name: 'iopsPerGB × size',
      objects: [sc('io2', { type: 'io2', iopsPerGB: '50' }), pvc('a', { storageClassName: 'io2' }, '200Gi')],
      volumes: [{ volume: { type: 'io2', sizeGiB: 200, iops: 10_000 } }],
      notes: [],
    },
    {
      name: 'the VolumeAttributesClass wins over the StorageClass',
      objects: [
        sc('gp3', { type: 'gp3', iops: '4000' }),
        vac('fast', { iops: '12000', throughput: '500' }),
        pvc('a', { storageClassName: 'gp3', volumeAttributesClassName: 'fast' }),
      ],
      volumes: [{ volume: { type: 'gp3', sizeGiB: 100, iops: 12_000, throughputMiBps: 500 } }],
      notes: [],
    },
    {
      name: 'a List (kubectl get -o yaml) is read item by item',
      objects: [
        {
          apiVersion: 'v1',
          kind: 'List',
          items: [sc('gp3', {}), pvc('a', { storageClassName: 'gp3' }, '1Ti')],
        },
      ],
      volumes: [{ volume: { type: 'gp3', sizeGiB: 1024 } }],
      notes: [],
    },
    {
      name: 'storageClassName "": nothing provisioned',
      objects: [pvc('a', { storageClassName: '' })],
      volumes: [],
      notes: ['no_dynamic_provisioning'],
    },
    {
      name: 'no class and no default',
      objects: [pvc('a', {})],
      volumes: [],
      notes: ['storage_class_unknown'],
    },
    {
      name: 'a class not in the files',
      objects: [pvc('a', { storageClassName: 'x' })],
      volumes: [],
      notes: ['storage_class_not_found'],
    },
    {
      name: 'another provisioner (in-tree)',
      objects: [
        { ...sc('old', {}), provisioner: 'kubernetes.io/aws-ebs' },
        pvc('a', { storageClassName: 'old' }),
      ],
      volumes: [],
      notes: ['not_ebs_csi'],
    },
    {
      name: 'no size',
      objects: [sc('gp3', {}), pvc('a', { storageClassName: 'gp3' }, 'lots')],
      volumes: [],
      notes: ['size_unknown'],
    },
    {
      name: 'IOPS below gp3 minimum without allowAutoIOPSPerGBIncrease: refused',
      objects: [sc('g', { iopsPerGB: '10' }), pvc('a', { storageClassName: 'g' }, '10Gi')],
      volumes: [],
      notes: ['iops_below_minimum'],
    },
    {
      name: 'IOPS below the minimum with allowAutoIOPSPerGBIncrease: raised',
      objects: [
        sc('g', { iopsPerGB: '10', allowAutoIOPSPerGBIncrease: 'true' }),
        pvc('a', { storageClassName: 'g' }, '10Gi'),
      ],
      volumes: [{ volume: { type: 'gp3', sizeGiB: 10, iops: 3000 } }],
      notes: ['iops_raised'],
    },
    {
      name: 'iops above what EC2 takes at 4 GiB: the driver passes it on, EC2 refuses',
      objects: [sc('g', { iops: '4000' }), pvc('a', { storageClassName: 'g' }, '4Gi')],
      volumes: [],
      notes: ['iops_above_size_ratio'],
    },
    {
      name: 'allowAutoIOPSPerGBIncrease is "true" exactly (the driver compares as written)',
      objects: [
        sc('g', { iopsPerGB: '10', allowAutoIOPSPerGBIncrease: 'True' }),
        pvc('a', { storageClassName: 'g' }, '10Gi'),
      ],
      volumes: [],
      notes: ['iops_below_minimum'],
    },
    {
      name: 'a VolumeAttributesClass that is not in the files',
      objects: [sc('gp3', {}), pvc('a', { storageClassName: 'gp3', volumeAttributesClassName: 'gone' })],
      volumes: [{ volume: { type: 'gp3', sizeGiB: 100 } }],
      notes: ['attributes_class_not_found'],
    },
  ])('$name', ({ objects, volumes, notes }) => {
    const r = run(objects);
    expect(r.volumes).toMatchObject(volumes);
    expect(r.volumes).toHaveLength(volumes.length);
    expect(codes(r.findings)).toEqual(notes);
  });
});

describe('Multi-Attach: io1/io2 only in EC2, io2 Block only through the EBS CSI driver', () => {
  const plan = (values: Record<string, unknown>) => ({
    format_version: '1.2',
    planned_values: {
      root_module: {
        resources: [{ address: 'aws_ebs_volume.shared', mode: 'managed', type: 'aws_ebs_volume', values }],
      },
    },
  });
  it.each([
    [{ type: 'gp3', size: 100, multi_attach_enabled: true }, ['multi_attach_not_supported']],
    [{ type: 'gp2', size: 100, multi_attach_enabled: true }, ['multi_attach_not_supported']],
    [{ type: 'st1', size: 500, multi_attach_enabled: true }, ['multi_attach_not_supported']],
    [{ type: 'sc1', size: 500, multi_attach_enabled: 'true' }, ['multi_attach_not_supported']],
    [{ type: 'io2', size: 100, iops: 3000, multi_attach_enabled: true }, []],
    [{ type: 'io1', size: 100, iops: 3000, multi_attach_enabled: true }, []],
    [{ type: 'gp3', size: 100, multi_attach_enabled: false }, []],
  ])('terraform %j → %j', (values, want) => {
    const tf = extractTerraformVolumes(plan(values), 'plan.json');
    if (!tf.ok) throw new Error(tf.error.message);
    const found = check(tf.value.volumes).findings.filter((f) => f.code.startsWith('multi_attach'));
    expect(found.map((f) => f.code)).toEqual(want);
    for (const f of found) expect(f.kind).toBe('invalid');
  });

  const sc = (name: string, type: string) => ({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name },
    provisioner: 'ebs.csi.aws.com',
    parameters: { type, ...(type.startsWith('io') ? { iops: '3000' } : {}) },
  });
  const claim = (className: string, accessModes: string[], volumeMode?: string) => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'shared', namespace: 'db' },
    spec: {
      accessModes,
      storageClassName: className,
      ...(volumeMode ? { volumeMode } : {}),
      resources: { requests: { storage: '100Gi' } },
    },
  });
  it.each([
    ['gp3', ['ReadWriteMany'], 'Block', ['multi_attach_not_supported']],
    ['gp2', ['ReadWriteMany'], 'Block', ['multi_attach_not_supported']],
    // EC2 takes io1 Multi-Attach; the driver does not.
    ['io1', ['ReadWriteMany'], 'Block', ['multi_attach_not_supported']],
    ['io2', ['ReadWriteMany'], 'Block', []],
    ['io2', ['ReadWriteMany'], undefined, ['multi_attach_needs_block']],
    ['gp3', ['ReadWriteOnce'], 'Block', []],
  ])('kubernetes %s %j %s → %j', (type, modes, mode, want) => {
    const k8s = extractKubernetesVolumes(
      [sc('c', type), claim('c', modes, mode)].map((object): ManifestObject => ({ file: 'm.yaml', object })),
    );
    const found = check(k8s.volumes).findings.filter((f) => f.code.startsWith('multi_attach'));
    expect(found.map((f) => f.code)).toEqual(want);
    for (const f of found) expect(f.kind).toBe('driver');
  });
});

describe('gp2 → gp3 at equal performance, without demand', () => {
  // us-east-1, 2024-07-18: gp2 $0.10/GiB; gp3 $0.08/GiB + $0.005/IOPS above 3,000 + $0.04/MiB/s above 125.
  it.each([
    // 500 GiB gp2: 1,500 baseline IOPS, 3,000 burst, 250 MiB/s → gp3 3,000 IOPS / 250 MiB/s = 40 + 5.
    [500, 50, 45, 5],
    // 1,000 GiB: 3,000 IOPS, 250 MiB/s → 80 + 5.
    [1000, 100, 85, 15],
    // 250 GiB: 750 baseline, bursting to 3,000 IOPS and 250 MiB/s → 20 + 5.
    [250, 25, 25, 0],
    // 100 GiB: 300 baseline, 128 MiB/s on credits → 8 + 0.12.
    [100, 10, 8.12, 1.88],
    // 8 GiB root volume: $0.80 against $0.76: 4 cents is below the $1 floor.
    [8, 0.8, 0.76, 0.04],
  ])('%d GiB gp2 ($%d) → gp3 $%d: $%d/month saved', (size, gp2Usd, gp3Usd, saving) => {
    const report = check([vol({ type: 'gp2', sizeGiB: size })]);
    expect(report.volumes[0]!.monthlyUsd!.total).toBe(gp2Usd);
    const hint = report.findings.find((f) => f.code === 'gp2_to_gp3');
    if (saving < 1) {
      expect(hint).toBeUndefined();
      return;
    }
    expect(hint).toMatchObject({ kind: 'hint', wasteUsdPerMonth: saving });
    expect(hint!.message).toContain(`for ${formatUsd(gp3Usd)}/month: ${formatUsd(saving)}/month saved`);
    // A hint never fails a build, not even with --fail-on any.
    expect(failingFindings(report.findings, 'any')).toEqual([]);
  });

  it('names what gp3 keeps: gp2 500 GiB → gp3 500 GiB, 3,000 IOPS, 250 MiB/s', () => {
    const report = check([vol({ type: 'gp2', sizeGiB: 500 })]);
    const hint = report.findings.find((f) => f.code === 'gp2_to_gp3')!;
    expect(hint.message).toContain(
      "gp3 500 GiB, 3,000 IOPS, 250 MiB/s keeps gp2's 1,500 baseline IOPS and 3,000 burst and its best 250 MiB/s",
    );
    expect(hint.message).toContain('us-east-1 prices of 2024-07-18');
    expect(formatIacMarkdown(report)).toContain('**$5.00/month** to save at equal performance (hints).');
  });

  it('with demand that finds a cheaper configuration, over_provisioned says it and the hint stays out', () => {
    const report = check([vol({ type: 'gp2', sizeGiB: 1000 })], {
      profile: publishedProfile({ readIops: 100, readMiBps: 1, writeIops: 0, writeMiBps: 0 }),
    });
    expect(codes(report.findings)).toContain('over_provisioned');
    expect(codes(report.findings)).not.toContain('gp2_to_gp3');
  });
});

describe('the EBS CSI driver version decides a request above a per-GiB cap that is below the minimum', () => {
  it.each([
    // PR #3021's own example: gp3, iopsPerGb 3001, 1 GiB → 3,001 requested, per-GiB cap 500 < 3,000.
    ['skip-cap', 'gp3', 1, 3001, false, { iops: 3001, change: 'above-ratio' }],
    ['cap-to-minimum', 'gp3', 1, 3001, false, { iops: 3000, change: 'capped' }],
    ['skip-cap', 'gp3', 4, 4000, false, { iops: 4000, change: 'above-ratio' }],
    ['cap-to-minimum', 'gp3', 4, 4000, false, { iops: 3000, change: 'capped' }],
    // Below the minimum and above the per-GiB cap: capping to the minimum raises it.
    ['skip-cap', 'gp3', 4, 2500, false, { iops: 2500, change: 'below-minimum' }],
    ['cap-to-minimum', 'gp3', 4, 2500, false, { iops: 3000, change: 'raised' }],
    // Where the per-GiB cap is at least the minimum, both versions agree.
    ['cap-to-minimum', 'gp3', 6, 4000, false, { iops: 3000, change: 'capped' }],
    ['cap-to-minimum', 'gp3', 20, 12_000, false, { iops: 10_000, change: 'capped' }],
    ['cap-to-minimum', 'io2', 100, 50_000, false, { iops: 50_000, change: null }],
  ] as const)('%s: %s %d GiB asking %d IOPS', (rule, type, size, requested, allow, want) => {
    expect(driverIops(type, size, requested, allow, 'current', rule)).toMatchObject(want);
  });

  const manifests = (storage: string): ManifestObject[] =>
    [
      {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'StorageClass',
        metadata: { name: 'fast' },
        provisioner: 'ebs.csi.aws.com',
        parameters: { type: 'gp3', iopsPerGB: '3001' },
      },
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'tiny', namespace: 'db' },
        spec: { storageClassName: 'fast', resources: { requests: { storage } } },
      },
    ].map((object) => ({ file: 'm.yaml', object }));
  const version = (text: string) => {
    const v = parseCsiDriverVersion(text);
    if (!v.ok) throw new Error(v.error.message);
    return v.value;
  };

  it('v1.66 (the default): the volume is refused; after v1.66 it gets 3,000 IOPS', () => {
    const old = extractKubernetesVolumes(manifests('1Gi'));
    expect(old.volumes).toEqual([]);
    const refused = old.findings.find((f) => f.code === 'iops_above_size_ratio')!;
    expect(refused.message).toContain('iopsPerGB 3001 × 1 GiB = 3,001 IOPS');
    expect(refused.message).toContain('driver v1.66.0 does not cap it');
    for (const text of ['1.67', 'v1.67.0', 'v1.68.1-eksbuild.1']) {
      const fixed = extractKubernetesVolumes(manifests('1Gi'), 'current', version(text));
      expect(fixed.volumes.map((v) => v.volume)).toEqual([{ type: 'gp3', sizeGiB: 1, iops: 3000 }]);
      expect(codes(fixed.findings)).toEqual(['iops_capped']);
      expect(fixed.findings[0]!.message).toContain('silently provisions 3,000 IOPS');
    }
    expect(extractKubernetesVolumes(manifests('1Gi'), 'current', version('v1.66.3')).volumes).toEqual([]);
  });

  it.each([
    ['1.66', { major: 1, minor: 66, patch: 0 }],
    ['v1.52.0', { major: 1, minor: 52, patch: 0 }],
    [' v1.67.2-eksbuild.1 ', { major: 1, minor: 67, patch: 2 }],
  ])('parses %j', (text, want) => {
    expect(parseCsiDriverVersion(text)).toEqual({ ok: true, value: want });
  });

  it.each(['', 'latest', '1', 'v1.x', '1.66.0.1'])('refuses %j, naming what it expected', (text) => {
    const v = parseCsiDriverVersion(text);
    expect(v).toMatchObject({ ok: false, error: { code: 'invalid_csi_driver_version' } });
    if (!v.ok) expect(v.error.message).toContain('such as 1.66, v1.66.0');
  });

  it('a release older than the handling read (v1.52.0) says so in a note', () => {
    const r = extractKubernetesVolumes(manifests('10Gi'), 'current', version('1.40'));
    expect(r.findings.find((f) => f.code === 'csi_driver_version_unverified')).toMatchObject({
      kind: 'note',
    });
    expect(csiIopsRuleOf(version('1.40'))).toEqual({ rule: 'skip-cap', verified: false });
    expect(DEFAULT_CSI_DRIVER_VERSION).toEqual({ major: 1, minor: 66, patch: 0 });
  });
});

describe('io2 on an instance not built on Nitro: what is and is not promised', () => {
  it('r4.16xlarge (Xen): a note with both sources; the volume is judged at 500 MiB/s', () => {
    const report = check([vol({ type: 'io2', sizeGiB: 1000, iops: 20_000 }, 'r4.16xlarge')]);
    const note = report.findings.find((f) => f.code === 'io2_not_nitro')!;
    expect(note.kind).toBe('note');
    expect(note.message).toContain('can achieve up to 32,000 IOPS: no throughput figure and no guarantee');
    expect(note.message).toContain('guaranteed up to 32,000 IOPS and 500 MiB/s');
    // On a Nitro r6i.16xlarge no such note (its 2,384.2 MiB/s EBS cap binds before the volume's 4,000).
    const nitro = check([vol({ type: 'io2', sizeGiB: 1000, iops: 20_000 }, 'r6i.16xlarge')]);
    expect(codes(nitro.findings)).toEqual(['instance_cap_below_volume']);
  });
});

describe('censored demand (issue 25 item 4): metrics flat at the limit the code provisions', () => {
  // iostat every 10 s for 2 h on a gp3 at its included 3,000 IOPS: every point at 2,950–3,000
  // IOPS, 16 KiB (~47 MiB/s). The metrics were delivered under each volume's own limits.
  const series = (() => {
    const r = importMetrics(readFileSync(resolve(FIXTURES, '../demand/iostat_10s_pinned_3000.txt')));
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  })();
  const profile = (() => {
    const p = profileFromSeries(series);
    if (!p.ok) throw new Error(p.error.message);
    return p.value;
  })();
  const gp3At3000 = vol({ type: 'gp3', sizeGiB: 500, iops: 3_000, throughputMiBps: 125 });
  const gp3At16000 = {
    ...vol({ type: 'gp3', sizeGiB: 500, iops: 16_000, throughputMiBps: 250 }),
    subject: 'aws_ebs_volume.next',
  };
  const io1At3000 = { ...vol({ type: 'io1', sizeGiB: 500, iops: 3_000 }), subject: 'aws_ebs_volume.legacy' };
  const censored = (findings: readonly IacFinding[], subject: string) =>
    findings.filter((f) => f.code === 'demand_censored' && f.subject === subject);

  it('without the series (the bug): io1 pinned at 3,000 is "over-provisioned", the gp3 at 3,000 right-sized (headroom 0)', () => {
    const r = check([gp3At3000, io1At3000], { profile, headroom: 0 });
    expect(r.findings.filter((f) => f.kind === 'over').map((f) => f.subject)).toEqual([
      'aws_ebs_volume.legacy',
    ]);
    expect(r.volumes[0]!.rightSized).toMatchObject({ volume: { iops: 3_000 } });
  });

  it.each([0, 0.25])(
    'with it: each pinned volume is under (censored), never over or right-sized (headroom %s)',
    (headroom) => {
      const r = check([gp3At3000, gp3At16000, io1At3000], { profile, deliveredSeries: series, headroom });
      for (const subject of ['aws_ebs_volume.x', 'aws_ebs_volume.legacy']) {
        const [f] = censored(r.findings, subject);
        expect(f).toMatchObject({ kind: 'under' });
        expect(f!.message).toMatch(
          /: pinned at the limit 100\.0 % of the time; demand unknown above 3,000 IOPS \(720 of 720 points of 10 s within 5 % of the limit\): raise the limit and measure again/,
        );
        expect(r.findings.filter((x) => x.subject === subject && x.kind === 'over')).toEqual([]);
      }
      expect(r.volumes.map((v) => v.rightSized === null)).toEqual([true, false, true]);
      // The same points under a 16,000-IOPS gp3 are not pinned: 3,000 × (1 + headroom) is judged as demand.
      expect(censored(r.findings, 'aws_ebs_volume.next')).toEqual([]);
      expect(
        r.findings.filter((f) => f.subject === 'aws_ebs_volume.next' && f.kind === 'over'),
      ).toMatchObject([{ code: 'over_provisioned' }]);
      expect(failingFindings(r.findings, 'under').filter((f) => f.code === 'demand_censored')).toHaveLength(
        2,
      );
      expect(failingFindings(r.findings, 'over').map((f) => f.subject)).toEqual(['aws_ebs_volume.next']);
      expect(formatIacMarkdown(r)).toContain('`demand_censored`');
    },
  );

  it('a volume with more IOPS than the points reach by over 5 % is not pinned: 3,200 IOPS (95 % = 3,040)', () => {
    const r = check([vol({ type: 'gp3', sizeGiB: 500, iops: 3_200, throughputMiBps: 125 })], {
      profile,
      deliveredSeries: series,
    });
    expect(censored(r.findings, 'aws_ebs_volume.x')).toEqual([]);
    expect(r.findings.map((f) => f.code)).toContain('under_provisioned');
  });
});

describe('a plan that changes a volume: `current` is what the metrics were delivered under', () => {
  const plan = JSON.parse(
    readFileSync(resolve(FIXTURES, '../demand/pinned-3000-raised-to-16000.plan.json'), 'utf8'),
  ) as { resource_changes: { change: { actions: string[] } }[] };

  it('an update from gp3 3,000 IOPS / 125 MiB/s to 16,000 / 250 keeps the before as current', () => {
    const tf = extractTerraformVolumes(plan, 'plan.json');
    if (!tf.ok) throw new Error(tf.error.message);
    expect(tf.value.volumes[0]).toMatchObject({
      volume: { type: 'gp3', sizeGiB: 500, iops: 16_000, throughputMiBps: 250 },
      current: { type: 'gp3', sizeGiB: 500, iops: 3_000, throughputMiBps: 125 },
    });
  });

  it('a create (no before) or an unchanged volume has none', () => {
    const created = structuredClone(plan);
    created.resource_changes[0]!.change.actions = ['create'];
    const tf = extractTerraformVolumes(created, 'plan.json');
    if (!tf.ok) throw new Error(tf.error.message);
    expect(tf.value.volumes[0]!.current).toBeUndefined();
    const same = extractTerraformVolumes(readPlan('over-provisioned-gp3.plan.json'), 'plan.json');
    if (!same.ok) throw new Error(same.error.message);
    expect(same.value.volumes.every((v) => v.current === undefined)).toBe(true);
  });
});

describe("extractKubernetesVolumes's steps", () => {
  const at = { file: 'ebs-csi.yaml', subject: 'StorageClass io2-fast' };
  // The classes of fixtures/iac/ebs-csi.yaml, read as the driver reads them.
  const classOf = (parameters: Record<string, string>, modify = false) =>
    readEbsParameters(parameters, at.file, at.subject, modify).params;
  const io2Fast = classOf({ type: 'io2', iops: '20000', throughput: '500' });
  const gp3PerGb = classOf({ type: 'gp3', iopsPerGB: '600', allowAutoIOPSPerGBIncrease: 'true' });
  const gp3Default = classOf({ type: 'gp3', 'csi.storage.k8s.io/fstype': 'xfs', encrypted: 'true' });
  const gp3_16k = classOf({ type: 'gp3', iops: '16000', throughput: '1000' }, true);

  it.each([
    // Go's strconv.ParseInt(value, 10, 32): a sign is allowed, spaces and exponents are not, 32 bits at most.
    ['3000', 3000, null],
    ['+3000', 3000, null],
    [' 3000', null, 'parameter_not_integer'],
    ['3e3', null, 'parameter_not_integer'],
    ['2147483647', 2147483647, null],
    ['2147483648', null, 'parameter_not_integer'],
    // 0 or less is "not given" (pkg/cloud CreateDisk: IOPS > 0): a note, not a refusal.
    ['0', null, 'parameter_no_effect'],
    ['-2147483648', null, 'parameter_no_effect'],
  ] as const)('readDriverInteger(%j) → %j (%s)', (text, value, code) => {
    const read = readDriverInteger('iops', text, false, at);
    expect([read.value, read.finding?.code ?? null]).toEqual([value, code]);
  });

  it.each([
    ['tagSpecification_1', false, true],
    ['tagSpecification_1', true, true],
    // Tag deletion is a modify-only key: on a StorageClass it is unknown.
    ['tagDeletion_1', true, true],
    ['tagDeletion_1', false, false],
    // Kubernetes' own keys on a StorageClass; a VolumeAttributesClass has none.
    ['csi.storage.k8s.io/fstype', false, true],
    ['csi.storage.k8s.io/fstype', true, false],
    ['iops', false, false],
  ] as const)('isPassedThrough(%j, modify %j) → %j', (key, modify, expected) => {
    expect(isPassedThrough(key, modify)).toBe(expected);
  });

  it.each([
    // The StorageClass alone: its type, IOPS and throughput.
    [
      'io2-fast alone',
      io2Fast,
      undefined,
      100,
      { type: 'io2', iops: { value: 20000, fromRatio: false }, throughputMiBps: 500 },
    ],
    // No type anywhere is gp3, the driver's default; no IOPS asked: none.
    ['no parameters', classOf({}), undefined, 100, { type: 'gp3', iops: null, throughputMiBps: null }],
    // iopsPerGB × the claim's size (GiB).
    [
      'gp3-per-gb × 50 GiB',
      gp3PerGb,
      undefined,
      50,
      { type: 'gp3', iops: { value: 30000, fromRatio: true }, throughputMiBps: null },
    ],
    // The attributes class wins over the StorageClass (CSI spec: mutable_parameters take precedence)…
    [
      'gp3 + gp3-16k',
      gp3Default,
      gp3_16k,
      100,
      { type: 'gp3', iops: { value: 16000, fromRatio: false }, throughputMiBps: 1000 },
    ],
    // …and its iops wins over the StorageClass's iopsPerGB.
    [
      'gp3-per-gb + gp3-16k',
      gp3PerGb,
      gp3_16k,
      50,
      { type: 'gp3', iops: { value: 16000, fromRatio: false }, throughputMiBps: 1000 },
    ],
  ] as const)('mergeClassRequest: %s', (_name, storageClass, attributes, sizeGiB, expected) => {
    expect(mergeClassRequest(storageClass, attributes, sizeGiB)).toEqual(expected);
  });

  it.each([
    [{ accessModes: ['ReadWriteOnce'] }, null],
    [{}, null],
    [{ accessModes: ['ReadWriteMany'], volumeMode: 'Block' }, 'ReadWriteMany Block'],
    // Filesystem is the default volumeMode.
    [{ accessModes: ['ReadWriteOnce', 'ReadWriteMany'] }, 'ReadWriteMany Filesystem'],
  ] as const)('multiAttachOf(%j) → %j', (spec, expected) => {
    expect(multiAttachOf(spec)).toBe(expected);
  });
});
