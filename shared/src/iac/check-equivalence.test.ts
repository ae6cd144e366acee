// Temporary: checkVolume split into named steps (check.ts) against the monolith it replaced
// (check-old.ts, a verbatim copy of check.ts before the split), report for report, on generated
// inputs and the Terraform fixtures. Deleted with check-old.ts once it passes.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { regionRateCardFor } from '../aws/ebs-prices.ts';
import { findInstanceType } from '../aws/instances.ts';
import { publishedProfile } from '../test-support/profiles.ts';
import { importMetrics } from '../timeseries/import-metrics.ts';
import { profileFromSeries } from '../timeseries/sizing.ts';
import { checkIac, type IacCheckInput } from './check.ts';
import { checkIac as checkIacOld } from './check-old.ts';
import type { IacVolume } from './schema.ts';
import { extractTerraformVolumes } from './terraform.ts';

const FIXTURES = resolve(import.meta.dirname, '../../../fixtures');
const series = (() => {
  const r = importMetrics(readFileSync(resolve(FIXTURES, 'demand/iostat_10s_pinned_3000.txt')));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
})();
const pinned = (() => {
  const p = profileFromSeries(series);
  if (!p.ok) throw new Error(p.error.message);
  return p.value;
})();
const profiles = [
  publishedProfile({ readIops: 12_000, readMiBps: 46.875, writeIops: 0, writeMiBps: 0 }),
  publishedProfile({ readIops: 200, readMiBps: 2, writeIops: 100, writeMiBps: 1 }),
  publishedProfile({ readIops: 30_000, readMiBps: 900, writeIops: 20_000, writeMiBps: 600 }),
  publishedProfile({ readIops: 2_500, readMiBps: 300, writeIops: 400, writeMiBps: 200 }),
];
const cards = [
  regionRateCardFor('us-east-1')!,
  regionRateCardFor('sa-east-1')!,
  regionRateCardFor('eu-west-1')!,
];
// Nitro (m5, r6i, c5), Xen (m4, c4, r4), one the catalog lacks, none.
const instances = [
  null,
  'm5.large',
  'm5.4xlarge',
  'r6i.2xlarge',
  'c5.xlarge',
  'm4.4xlarge',
  'c4.large',
  'r4.16xlarge',
  'x9.unknown',
];

const volumeConfig = fc.record(
  {
    type: fc.constantFrom('gp2', 'gp3', 'io1', 'io2', 'st1', 'sc1' as const),
    sizeGiB: fc.constantFrom(1, 4, 8, 100, 125, 500, 1000, 1500, 4000, 16_384, 20_000, 65_536, 70_000),
    iops: fc.constantFrom(100, 3000, 5000, 12_000, 16_000, 32_000, 40_000, 64_000, 80_000, 256_000, 300_000),
    throughputMiBps: fc.constantFrom(125, 250, 500, 1000, 1500, 2000, 3000),
    count: fc.constantFrom(1, 2, 4),
  },
  { requiredKeys: ['type', 'sizeGiB'] },
);
/** Mostly what AWS accepts, so the steps after the rules run: settings only where the type takes them. */
const plausibleConfig = fc
  .record({
    type: fc.constantFrom('gp2', 'gp2', 'gp3', 'gp3', 'io1', 'io2', 'st1', 'sc1' as const),
    sizeGiB: fc.constantFrom(8, 20, 100, 125, 200, 500, 1000, 2000, 4000, 16_000),
    iopsPerGiB: fc.constantFrom(0.5, 3, 10, 30, 50, 500),
    mibpsOfIops: fc.constantFrom(0.01, 0.05, 0.25),
    count: fc.constantFrom(undefined, undefined, 2),
  })
  .map(({ type, sizeGiB, iopsPerGiB, mibpsOfIops, count }) => {
    const iops = Math.max(3000, Math.min(80_000, Math.round(sizeGiB * iopsPerGiB)));
    const base = { type, sizeGiB: type === 'st1' || type === 'sc1' ? Math.max(sizeGiB, 125) : sizeGiB };
    const withCount = count ? { ...base, count } : base;
    if (type === 'gp3')
      return {
        ...withCount,
        iops,
        throughputMiBps: Math.max(125, Math.min(2000, Math.round(iops * mibpsOfIops))),
      };
    if (type === 'io1' || type === 'io2')
      return { ...withCount, iops: Math.max(100, Math.round(sizeGiB * Math.min(iopsPerGiB, 50))) };
    return withCount;
  });
const anyConfig = fc.oneof({ arbitrary: plausibleConfig, weight: 3 }, { arbitrary: volumeConfig, weight: 1 });
const volume = fc
  .record(
    {
      file: fc.constantFrom('a.plan.json', 'b.yaml'),
      subject: fc.constantFrom('aws_ebs_volume.a', 'aws_ebs_volume.b', 'PersistentVolumeClaim prod/pg'),
      origin: fc.constantFrom('terraform', 'kubernetes' as const),
      volume: anyConfig,
      instanceType: fc.constantFrom(...instances),
      multiAttach: fc.constantFrom(
        'multi_attach_enabled',
        'ReadWriteMany Block',
        'ReadWriteMany Filesystem' as const,
      ),
      instance: fc.constantFrom(null, 'aws_instance.db', 'aws_instance.web'),
      current: anyConfig,
    },
    { requiredKeys: ['file', 'subject', 'origin', 'volume', 'instanceType'] },
  )
  .map((v) =>
    v.multiAttach && v.subject !== 'aws_ebs_volume.b' ? { ...v, multiAttach: undefined } : v,
  ) as fc.Arbitrary<IacVolume>;

const fixtureVolumes = [
  'iac/over-provisioned-gp3.plan.json',
  'iac/multi-attach-gp2.plan.json',
  'iac/rules.plan.json',
  'demand/gp3-12000-iops.plan.json',
  'demand/pinned-3000-and-16000-iops.plan.json',
  'demand/pinned-3000-raised-to-16000.plan.json',
].flatMap((name) => {
  const tf = extractTerraformVolumes(JSON.parse(readFileSync(resolve(FIXTURES, name), 'utf8')), name);
  if (!tf.ok) throw new Error(tf.error.message);
  return tf.value.volumes;
});

const options = fc.record({
  demand: fc.constantFrom('none', 'p0', 'p1', 'p2', 'p3', 'pinned', 'pinned+series'),
  headroom: fc.constantFrom(0, 0.25, 1),
  card: fc.constantFrom(0, 1, 2),
  gen: fc.constantFrom(undefined, 'current', 'before-2025' as const),
  judge: fc.boolean(),
  minWasteUsd: fc.constantFrom(undefined, 0, 50),
});

type Options = typeof options extends fc.Arbitrary<infer T> ? T : never;
const inputOf = (volumes: IacVolume[], o: Options): IacCheckInput => ({
  volumes,
  profile:
    o.demand === 'none'
      ? null
      : o.demand.startsWith('pinned')
        ? pinned
        : profiles[Number(o.demand.slice(1))]!,
  ...(o.demand === 'pinned+series' ? { deliveredSeries: series, demandSource: 'iostat' } : {}),
  headroom: o.headroom,
  rateCard: cards[o.card]!,
  findInstance: findInstanceType,
  ...(o.gen ? { gp3Generation: o.gen } : {}),
  ...(o.judge ? { judgeDemand: (v: IacVolume) => v.origin === 'terraform' } : {}),
  ...(o.minWasteUsd === undefined ? {} : { minWasteUsd: o.minWasteUsd }),
});

const codes = new Map<string, number>();
const same = (input: IacCheckInput) => {
  const now = checkIac(input);
  expect(JSON.stringify(now)).toBe(JSON.stringify(checkIacOld(input)));
  for (const f of now.findings) codes.set(f.code, (codes.get(f.code) ?? 0) + 1);
  return now.volumes.length;
};

describe('checkVolume in steps = the monolith', () => {
  it('generated volumes, 1–4 per check', () => {
    let volumes = 0;
    fc.assert(
      fc.property(fc.array(volume, { minLength: 1, maxLength: 4 }), options, (vs, o) => {
        volumes += same(inputOf(vs, o));
      }),
      { seed: 20261129, numRuns: 4000 },
    );
    console.log(`generated: ${volumes} volumes; findings by code: ${JSON.stringify([...codes].sort())}`);
  });

  it('the Terraform fixtures under every option', () => {
    let volumes = 0;
    fc.assert(
      fc.property(options, (o) => {
        volumes += same(inputOf(fixtureVolumes, o));
      }),
      { seed: 7, numRuns: 400 },
    );
    console.log(`fixtures: ${fixtureVolumes.length} volumes × 400 = ${volumes}`);
  });
});
