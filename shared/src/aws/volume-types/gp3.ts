import type { Problem } from '../../problem.ts';
import { formatInt as n0 } from '../../units.ts';
import {
  c,
  defineVolumeType,
  fmt,
  outOfRange,
  SINGLE_DIGIT_MS,
  tooBig,
  validationHelpers,
  type Gp3Generation,
} from './descriptor.ts';

/** General Purpose SSD gp3: size, IOPS and throughput set independently; 3,000 IOPS and 125 MiB/s included. */
export const GP3 = {
  sizeGiB: {
    min: c(1, 'sdk'),
    max: { current: c(65_536, 'sdk'), 'before-2025': c(16_384, 'docs2023 general-purpose.md') },
  },
  iops: {
    included: c(3_000, 'sdk'),
    min: c(3_000, 'sdk'),
    max: { current: c(80_000, 'sdk'), 'before-2025': c(16_000, 'docs2023 general-purpose.md') },
    maxPerGiB: c(500, 'docs2023 general-purpose.md', '2023 docs, not re-confirmed'),
  },
  throughputMiBps: {
    included: c(125, 'sdk'),
    min: c(125, 'sdk'),
    max: { current: c(2_000, 'sdk + kotlinModify'), 'before-2025': c(1_000, 'docs2023 general-purpose.md') },
    maxPerProvisionedIops: c(0.25, 'docs2023 general-purpose.md', '2023 docs, not re-confirmed'),
  },
} as const;

/**
 * gp3 throughput is provisioned in whole MiB/s: the EC2 API takes it as an integer (source `sdk`:
 * `CreateVolumeInput.Throughput *int32`, "The throughput to provision for the volume, in MiB/s").
 * A fraction is rounded up, so the volume gets at least the rate asked for: 125.2 → 126.
 */
export function provisionableGp3ThroughputMiBps(miBps: number): number {
  return Math.ceil(miBps);
}

const iopsOf = (v: { iops?: number | undefined }) => v.iops ?? GP3.iops.included.value;
const throughputOf = (v: { throughputMiBps?: number | undefined }) =>
  v.throughputMiBps ?? GP3.throughputMiBps.included.value;

/**
 * The most IOPS a gp3 volume of this size takes: every size includes 3,000, and the 500 IOPS per
 * GiB ratio only limits what is provisioned above that (EBS User Guide, "General Purpose SSD
 * volumes": a 3,000 IOPS baseline on any gp3; "maximum ratio of provisioned IOPS to provisioned
 * volume size is 500 IOPS per GiB"), up to the type's maximum.
 */
function gp3MaxIops(sizeGiB: number, gen: Gp3Generation): number {
  return Math.min(
    GP3.iops.max[gen].value,
    Math.max(GP3.iops.included.value, GP3.iops.maxPerGiB.value * sizeGiB),
  );
}

const NAME = 'General Purpose SSD (gp3)';

export const gp3 = defineVolumeType({
  traits: {
    name: NAME,
    media: 'ssd',
    durability: '99.8%–99.9%',
    annualFailureRate: '≤ 0.2%',
    consistency: '≥ 90% of provisioned IOPS 99% of the time',
  },
  trade: {
    annualFailureRatePct: { min: 0.1, max: 0.2 },
    latency: 'single-digit-millisecond latency',
    durability: '99.8–99.9 % durability (AFR 0.1–0.2 %)',
    consistency: '≥ 90 % of provisioned IOPS 99 % of the time',
  },
  latencyPromise: SINGLE_DIGIT_MS,
  alternatives: ['gp3', 'gp2'],
  provisionedIops: false,
  included: { iops: GP3.iops.included.value, throughputMiBps: GP3.throughputMiBps.included.value },
  settingRanges: (gen) => ({
    sizeGiB: [GP3.sizeGiB.min.value, GP3.sizeGiB.max[gen].value],
    iops: [GP3.iops.min.value, GP3.iops.max[gen].value],
    throughputMiBps: [GP3.throughputMiBps.min.value, GP3.throughputMiBps.max[gen].value],
  }),
  maxIopsPerGiB: GP3.iops.maxPerGiB.value,
  maxima: {
    sizeGiB: GP3.sizeGiB.max.current.value,
    iops: GP3.iops.max.current.value,
    throughputMiBps: GP3.throughputMiBps.max.current.value,
  },
  capabilities: (v) => ({
    iops: iopsOf(v),
    throughputMiBps: throughputOf(v),
    burstIops: null,
    burstThroughputMiBps: null,
    nitroCapped: false,
  }),
  validate(v, gen) {
    const problems: Problem[] = [];
    const size = v.sizeGiB;
    validationHelpers(v, NAME, problems).sizeRange(GP3.sizeGiB.min.value, GP3.sizeGiB.max[gen].value);
    const iops = iopsOf(v);
    const tp = throughputOf(v);
    const maxIops = GP3.iops.max[gen].value;
    const maxTp = GP3.throughputMiBps.max[gen].value;
    if (!(iops >= GP3.iops.min.value && iops <= maxIops))
      problems.push(outOfRange('iops', 'gp3 IOPS', GP3.iops.min.value, maxIops, 'IOPS', iops));
    else if (iops > gp3MaxIops(size, gen))
      problems.push({
        code: 'volume_invalid',
        path: 'iops',
        message: `gp3 allows at most ${GP3.iops.maxPerGiB.value} IOPS per GiB: ${fmt(iops)} IOPS needs at least ${fmt(Math.ceil(iops / GP3.iops.maxPerGiB.value))} GiB (size is ${fmt(size)} GiB, so at most ${fmt(gp3MaxIops(size, gen))} IOPS; every size includes ${fmt(GP3.iops.included.value)})`,
      });
    if (!(tp >= GP3.throughputMiBps.min.value && tp <= maxTp))
      problems.push(
        outOfRange('throughputMiBps', 'gp3 throughput', GP3.throughputMiBps.min.value, maxTp, 'MiB/s', tp),
      );
    else if (tp > GP3.throughputMiBps.maxPerProvisionedIops.value * iops)
      problems.push({
        code: 'volume_invalid',
        path: 'throughputMiBps',
        message: `gp3 allows at most ${GP3.throughputMiBps.maxPerProvisionedIops.value} MiB/s per provisioned IOPS: ${fmt(tp)} MiB/s needs at least ${fmt(Math.ceil(tp / GP3.throughputMiBps.maxPerProvisionedIops.value))} IOPS (provisioned ${fmt(iops)})`,
      });
    return problems;
  },
  size(t, { gen }) {
    const maxIops = GP3.iops.max[gen].value;
    const maxTp = GP3.throughputMiBps.max[gen].value;
    const tp = Math.max(GP3.throughputMiBps.included.value, Math.ceil(t.tp));
    let iops = Math.max(GP3.iops.included.value, Math.ceil(t.iops));
    const reasons: string[] = [];
    if (iops > maxIops || tp > maxTp)
      return tooBig(
        `needs ${n0(iops)} IOPS / ${n0(tp)} MiB/s, above one gp3 volume's ${n0(maxIops)} IOPS / ${n0(maxTp)} MiB/s (${gen === 'current' ? 'current limits' : 'limits before 2025'})`,
      );
    const ratio = GP3.throughputMiBps.maxPerProvisionedIops.value;
    if (tp > ratio * iops) {
      reasons.push(
        `IOPS raised to ${n0(Math.ceil(tp / ratio))}: gp3 allows ${ratio} MiB/s per provisioned IOPS`,
      );
      iops = Math.ceil(tp / ratio);
    }
    if (iops === GP3.iops.included.value && tp === GP3.throughputMiBps.included.value)
      reasons.push('the included 3,000 IOPS and 125 MiB/s cover the target: pay for storage only');
    else
      reasons.push(
        `${n0(iops)} IOPS and ${n0(tp)} MiB/s provisioned (3,000 IOPS and 125 MiB/s are included)`,
      );
    // The 500 IOPS/GiB ratio limits provisioned IOPS above the included 3,000, which any gp3 size
    // gets (validate applies the same rule): a 1 GiB gp3 at 3,000 IOPS is valid.
    const sizeForIops = iops <= GP3.iops.included.value ? 0 : Math.ceil(iops / GP3.iops.maxPerGiB.value);
    const size = Math.max(t.capacity, sizeForIops, GP3.sizeGiB.min.value);
    if (sizeForIops > t.capacity)
      reasons.push(`size raised to ${n0(size)} GiB: gp3 allows ${GP3.iops.maxPerGiB.value} IOPS per GiB`);
    if (size > GP3.sizeGiB.max[gen].value) return tooBig(`needs ${n0(size)} GiB, above gp3's maximum size`);
    return { volume: { sizeGiB: size, iops, throughputMiBps: tp }, reasons };
  },
  burst: null,
  // gp3 = GiB × storage + max(0, IOPS − 3,000) × iops + max(0, MiB/s − 125) × throughput.
  costComponents: [
    {
      key: 'storage',
      name: 'Storage',
      unit: 'GiB-month',
      line: 'storage',
      quantity: (v) => v.sizeGiB,
      usageType: 'EBS:VolumeUsage.gp3',
      priceListUnit: 'GB-Mo',
    },
    {
      key: 'iops',
      name: 'Provisioned IOPS above the included 3,000',
      unit: 'IOPS-month',
      line: 'iops',
      quantity: (v) => Math.max(0, iopsOf(v) - GP3.iops.included.value),
      usageType: 'EBS:VolumeP-IOPS.gp3',
      priceListUnit: 'IOPS-Mo',
    },
    {
      key: 'throughput',
      name: 'Provisioned throughput above the included 125 MiB/s',
      unit: 'MiB/s-month',
      line: 'throughput',
      quantity: (v) => Math.max(0, throughputOf(v) - GP3.throughputMiBps.included.value),
      usageType: 'EBS:VolumeP-Throughput.gp3',
      priceListUnit: 'throughput-Mo',
    },
  ],
});
