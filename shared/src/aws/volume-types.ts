import { z } from 'zod';

/**
 * EBS volume types: limits, ratio rules, burst models, durability and consistency.
 *
 * Sources (ids used in the `source` fields below; full citations in shared/src/aws/data/SOURCES.md):
 * - `sdk`: aws/aws-sdk-go-v2 `service/ec2/api_op_CreateVolume.go` @1278f137 (generated from the EC2
 *   API model; contains the post-2025 gp3 limits; date of the file not determined).
 * - `kotlinModify`: AWS SDK for Kotlin docs, ModifyVolumeRequest.throughput ("maximum value is 2,000").
 * - `docs2023`: awsdocs/amazon-ec2-user-guide @e3707c43 (official docs source, last changed 2023-05-11):
 *   general-purpose.md, provisioned-iops.md, hdd-vols.md, ebs-volume-types.md, ebs-io-characteristics.md.
 * Status "2023 docs, not re-confirmed" marks rules the newer sources neither confirm nor contradict.
 */

export const VOLUME_TYPES = ['gp3', 'gp2', 'io2', 'io1', 'st1', 'sc1'] as const;
export const VolumeTypeSchema = z.enum(VOLUME_TYPES);
export type VolumeType = z.infer<typeof VolumeTypeSchema>;

/**
 * gp3 limits changed (AWS raised them, reported by the March 2026 update of [guide] in docs/domain.md):
 * `current` = 80,000 IOPS / 2,000 MiB/s / 64 TiB (source `sdk`, `kotlinModify`);
 * `before-2025` = 16,000 IOPS / 1,000 MiB/s / 16 TiB (`docs2023`). Users can plan for either
 * (some regions / older tooling lag behind).
 */
export const Gp3GenerationSchema = z.enum(['current', 'before-2025']);
export type Gp3Generation = z.infer<typeof Gp3GenerationSchema>;

/** A cited number: value plus where it comes from and how sure we are. */
type Cited<T> = { value: T; source: string; status: 'confirmed' | '2023 docs, not re-confirmed' };
const c = <T>(value: T, source: string, status: Cited<T>['status'] = 'confirmed'): Cited<T> => ({
  value,
  source,
  status,
});

/** EBS counts each I/O up to this size as one operation; larger I/Os count as ceil(size / unit). */
export const IO_ACCOUNTING_UNIT_BYTES = {
  ssd: c(256 * 1024, 'docs2023 ebs-io-characteristics.md'),
  hdd: c(1024 * 1024, 'docs2023 ebs-io-characteristics.md'),
} as const;

/**
 * Physically contiguous I/Os of at least this size are merged into one operation of up to the
 * accounting unit; smaller ones count one each, contiguous or not (AWS EBS User Guide, "I/O
 * characteristics and monitoring", table of examples: 8 contiguous 32 KiB I/Os = 1 operation,
 * 8 random 32 KiB I/Os = 8). Merging is best effort ("Amazon EBS attempts to merge").
 */
export const MERGE_MIN_IO_BYTES = c(32 * 1024, 'ebs-guide-2026 ebs-io-characteristics');

/**
 * io1/io2 on an instance not built on the Nitro System. What AWS says, and what it does not:
 * - IOPS: at most 32,000 per volume. The current EBS User Guide ("Provisioned IOPS SSD volumes",
 *   io2 Block Express considerations) says other instance types "can achieve up to 32,000 IOPS" —
 *   no promise; the EC2 API model says the same (`sdk`). The 2023 EC2 User Guide
 *   (docs2023 ebs-volume-types.md, footnote to io1/io2) said other instances *guarantee* up to
 *   32,000 IOPS and 500 MiB/s.
 * - Throughput: the current guide publishes no figure for io2 on these instances; the only one
 *   AWS published is that 500 MiB/s guarantee, so it is the one planned with (status: not
 *   re-confirmed) and every io2 plan on such an instance says so (`io2_not_nitro`,
 *   plan/configuration-checks.ts). io1's own curve stops at 500 MiB/s up to 32,000 IOPS anyway.
 */
export const NON_NITRO = {
  maxPiops: c(
    32_000,
    'ebs-guide-2026 provisioned-iops ("can achieve up to") + sdk + docs2023 ebs-volume-types.md',
  ),
  maxMiBps: c(
    500,
    'docs2023 ebs-volume-types.md ("guarantee up to 32,000 IOPS and 500 MiB/s")',
    '2023 docs, not re-confirmed',
  ),
} as const;

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

export const GP2 = {
  sizeGiB: { min: c(1, 'docs2023 general-purpose.md'), max: c(16_384, 'docs2023 general-purpose.md') },
  iops: {
    perGiB: c(3, 'docs2023 general-purpose.md'),
    baselineMin: c(100, 'docs2023 general-purpose.md'),
    baselineMax: c(16_000, 'docs2023 general-purpose.md'),
    /** Only volumes whose baseline is below 3,000 (< 1 TiB) burst. */
    burst: c(3_000, 'docs2023 general-purpose.md'),
    creditBucket: c(5_400_000, 'docs2023 general-purpose.md'),
  },
  throughputMiBps: {
    /**
     * AWS's gp2 throughput formula: size × 3 IOPS per GiB × the I/O size, at most 256 KiB — the
     * baseline IOPS × 0.25 MiB (0.75 MiB/s per GiB). The volume sustains that; above it, only while
     * burst credits last, up to the size's maximum (docs2023 general-purpose.md "Throughput
     * performance"; awslabs/aws-support-tools EBS/VolumeLimitCalculator: min(maximum, baseline IOPS ÷ 4)).
     */
    perBaselineIops: c(0.25, 'docs2023 general-purpose.md + VolumeLimitCalculator'),
    /** Volumes of 170 GiB and smaller: at most 128 MiB/s. */
    maxUpTo170GiB: c(128, 'docs2023 general-purpose.md'),
    /** Larger volumes: at most 250 MiB/s, sustained from 334 GiB (3 × 334 × 0.25 ≥ 250). */
    maxFrom171GiB: c(250, 'docs2023 general-purpose.md'),
  },
} as const;

export const IO1 = {
  sizeGiB: { min: c(4, 'docs2023 provisioned-iops.md'), max: c(16_384, 'docs2023 provisioned-iops.md') },
  iops: {
    min: c(100, 'docs2023 provisioned-iops.md'),
    /** 64,000 on Nitro instances; other instances up to 32,000. */
    max: c(64_000, 'docs2023 provisioned-iops.md'),
    maxPerGiB: c(50, 'docs2023 provisioned-iops.md'),
  },
  throughputMiBps: { max: c(1_000, 'docs2023 provisioned-iops.md') },
} as const;

export const IO2 = {
  sizeGiB: { min: c(4, 'sdk'), max: c(65_536, 'sdk') },
  iops: {
    min: c(100, 'sdk'),
    /** Block Express on Nitro instances; other instances up to 32,000. */
    max: c(256_000, 'sdk'),
    maxPerGiB: c(1_000, 'sdk'),
  },
  throughputMiBps: {
    max: c(4_000, 'docs2023 provisioned-iops.md'),
    maxPerProvisionedIops: c(0.256, 'docs2023 provisioned-iops.md'),
  },
} as const;

/** st1 / sc1: throughput-optimized / cold HDD. Throughput scales with size (per TiB), capped. */
export const HDD = {
  st1: {
    sizeGiB: { min: c(125, 'docs2023 hdd-vols.md'), max: c(16_384, 'docs2023 hdd-vols.md') },
    baselineMiBpsPerTiB: c(40, 'docs2023 hdd-vols.md'),
    burstMiBpsPerTiB: c(250, 'docs2023 hdd-vols.md'),
    maxMiBps: c(500, 'docs2023 hdd-vols.md'),
    /** At 1 MiB I/O. */
    maxIops: c(500, 'docs2023 hdd-vols.md'),
    /** Burst bucket: 1 TiB of throughput credits per TiB of size (a full bucket = one full-volume scan). */
    creditsTiBPerTiB: c(1, 'docs2023 hdd-vols.md'),
  },
  sc1: {
    sizeGiB: { min: c(125, 'docs2023 hdd-vols.md'), max: c(16_384, 'docs2023 hdd-vols.md') },
    baselineMiBpsPerTiB: c(12, 'docs2023 hdd-vols.md'),
    burstMiBpsPerTiB: c(80, 'docs2023 hdd-vols.md'),
    maxMiBps: c(250, 'docs2023 hdd-vols.md'),
    maxIops: c(250, 'docs2023 hdd-vols.md'),
    creditsTiBPerTiB: c(1, 'docs2023 hdd-vols.md'),
  },
} as const;

/** What each type promises beyond raw numbers, in plain words (docs2023 ebs-volume-types.md). */
export const VOLUME_TRAITS: Record<
  VolumeType,
  { name: string; media: 'ssd' | 'hdd'; durability: string; annualFailureRate: string; consistency: string }
> = {
  gp3: {
    name: 'General Purpose SSD (gp3)',
    media: 'ssd',
    durability: '99.8%–99.9%',
    annualFailureRate: '≤ 0.2%',
    consistency: '≥ 90% of provisioned IOPS 99% of the time',
  },
  gp2: {
    name: 'General Purpose SSD (gp2)',
    media: 'ssd',
    durability: '99.8%–99.9%',
    annualFailureRate: '≤ 0.2%',
    consistency: '≥ 90% of baseline IOPS 99% of the time; bursts while credits last',
  },
  io2: {
    name: 'Provisioned IOPS SSD (io2 Block Express)',
    media: 'ssd',
    durability: '99.999%',
    annualFailureRate: '≤ 0.001%',
    consistency: '≥ 90% of provisioned IOPS 99.9% of the time; sub-millisecond average latency',
  },
  io1: {
    name: 'Provisioned IOPS SSD (io1)',
    media: 'ssd',
    durability: '99.8%–99.9%',
    annualFailureRate: '≤ 0.2%',
    consistency: '≥ 90% of provisioned IOPS 99.9% of the time',
  },
  st1: {
    name: 'Throughput Optimized HDD (st1)',
    media: 'hdd',
    durability: '99.8%–99.9%',
    annualFailureRate: '0.1%–0.2%',
    consistency: '≥ 90% of expected throughput 99% of the time; poor at small random I/O',
  },
  sc1: {
    name: 'Cold HDD (sc1)',
    media: 'hdd',
    durability: '99.8%–99.9%',
    annualFailureRate: '0.1%–0.2%',
    consistency: '≥ 90% of expected throughput 99% of the time; poor at small random I/O',
  },
};

/**
 * gp2/gp3 deliver ≥ 90% of provisioned IOPS 99% of the time, io1/io2 99.9% of the time
 * (docs2023 ebs-volume-types.md): provisioning below demand ÷ 0.9 can fall short when it matters.
 */
export const DELIVERY_FLOOR_FRACTION = 0.9;

/** The instance sustains its maximum EBS performance for 30 minutes at least once every 24 hours (docs2023 ebs-optimized.md). */
export const INSTANCE_BURST_MINUTES_PER_DAY = 30;
