import { z } from 'zod';
import type { Problem } from '../../problem.ts';
import { formatDecimal } from '../../units.ts';
import type { VolumeType } from './names.ts';

/**
 * What one EBS volume type is, in one place: its published limits (each cited), what a volume
 * delivers, which settings it takes and within which ranges, how it is validated and sized, what
 * it is billed for, and which types it may move to. One file per type (gp3.ts, io2.ts, …) fills
 * this contract; aws/volume-types.ts lists them. Every formula that depends on the type reads the
 * descriptor, so a new type is a new file, not a hunt through switches (docs/architecture.md,
 * "Adding a volume type").
 *
 * The shape of the price part follows the priced-resource pattern of cost estimators (Infracost's
 * `internal/resources/aws/ebs_volume.go`): a priced resource is a list of cost components, each a
 * name, a unit, a quantity and the key of its price; its cost is Σ quantity × price.
 */

/** Sources (ids used in the `source` fields; full citations in shared/src/aws/data/SOURCES.md):
 * - `sdk`: aws/aws-sdk-go-v2 `service/ec2/api_op_CreateVolume.go` @1278f137 (generated from the EC2
 *   API model; contains the post-2025 gp3 limits; date of the file not determined).
 * - `kotlinModify`: AWS SDK for Kotlin docs, ModifyVolumeRequest.throughput ("maximum value is 2,000").
 * - `docs2023`: awsdocs/amazon-ec2-user-guide @e3707c43 (official docs source, last changed 2023-05-11):
 *   general-purpose.md, provisioned-iops.md, hdd-vols.md, ebs-volume-types.md, ebs-io-characteristics.md.
 * Status "2023 docs, not re-confirmed" marks rules the newer sources neither confirm nor contradict.
 */

/** A cited number: value plus where it comes from and how sure we are. */
export type Cited<T> = { value: T; source: string; status: 'confirmed' | '2023 docs, not re-confirmed' };
export const c = <T>(value: T, source: string, status: Cited<T>['status'] = 'confirmed'): Cited<T> => ({
  value,
  source,
  status,
});

/**
 * gp3 limits changed (AWS raised them, reported by the March 2026 update of [guide] in docs/domain.md):
 * `current` = 80,000 IOPS / 2,000 MiB/s / 64 TiB (source `sdk`, `kotlinModify`);
 * `before-2025` = 16,000 IOPS / 1,000 MiB/s / 16 TiB (`docs2023`). Users can plan for either
 * (some regions / older tooling lag behind). Other types have one generation of limits.
 */
export const Gp3GenerationSchema = z.enum(['current', 'before-2025']);
export type Gp3Generation = z.infer<typeof Gp3GenerationSchema>;

/** EBS counts each I/O up to this size as one operation; larger I/Os count as ceil(size / unit). */
export const IO_ACCOUNTING_UNIT_BYTES = {
  ssd: c(256 * 1024, 'docs2023 ebs-io-characteristics.md'),
  hdd: c(1024 * 1024, 'docs2023 ebs-io-characteristics.md'),
} as const;

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

/** Provisioned IOPS a volume delivers on this instance: non-Nitro instances stop at 32,000. */
export function deliverablePiops(provisioned: number, ctx: AttachContext): number {
  return ctx.nitro === false ? Math.min(provisioned, NON_NITRO.maxPiops.value) : provisioned;
}

/** What the instance allows a volume: io1/io2 above 32,000 IOPS need Nitro (null = unknown: no cap). */
export type AttachContext = { nitro: boolean | null };

/** One volume's settings as a descriptor reads them (the stripe's `count` is applied by the caller). */
export type VolumeSettings = {
  sizeGiB: number;
  iops?: number | undefined;
  throughputMiBps?: number | undefined;
};

/** What ONE volume delivers: sustained, and while burst credits last (null: does not burst). */
export type SingleVolumeCapabilities = {
  iops: number;
  throughputMiBps: number;
  burstIops: number | null;
  burstThroughputMiBps: number | null;
  /** io1/io2 held to 32,000 IOPS because the instance is not built on Nitro. */
  nitroCapped: boolean;
};

/** An inclusive range [min, max] a setting may take. */
export type SettingRange = readonly [min: number, max: number];
export type SettingRanges = {
  sizeGiB: SettingRange;
  /** null: the setting follows the size (gp2, st1, sc1) or the IOPS (io1/io2 throughput). */
  iops: SettingRange | null;
  throughputMiBps: SettingRange | null;
};

/** The largest size, IOPS and throughput one volume of the type can have (current limits). */
export type TypeMaxima = { sizeGiB: number; iops: number; throughputMiBps: number };

/** What one volume of a stripe must deliver and hold (plan/right-size.ts computes it from the demand). */
export type SizingNeed = { iops: number; tp: number; hddBudget: number; hddIops: number; capacity: number };

/** Everything besides the need that sizing depends on. */
export type SizingContext = {
  gen: Gp3Generation;
  nitro: boolean | null;
  /** The demand has random I/O (HDD is then not offered). */
  random: boolean;
  blockSize: number | null;
};

export type Sized =
  | { volume: VolumeSettings; reasons: string[] }
  /** `perVolume`: the need is above one volume's maxima — more volumes striped could carry it. */
  | { notViable: string; perVolume: boolean };

export const tooBig = (why: string): Sized => ({ notViable: why, perVolume: true });
export const never = (why: string): Sized => ({ notViable: why, perVolume: false });

/** The line of a cost breakdown a component is added to (plan/cost.ts CostBreakdown). */
export type CostLine = 'storage' | 'iops' | 'throughput';

/**
 * How the AWS Price List states a component's price (aws/catalog-build/offer-prices.ts converts
 * each to the rate card's unit): per GB-month, per IOPS-month, per MiB/s-month (listed per GiBps-month).
 */
export type PriceListUnit = 'GB-Mo' | 'IOPS-Mo' | 'throughput-Mo';

/**
 * One thing a volume is billed for. `key` names its price on the rate card (`card[type][key]`,
 * `--rates type.key=…`, the catalog's `rates.type.key`); `usageType` is the AWS Price List usage
 * type that price is read from (after the region prefix). cost = Σ quantity(volume) × rate[key].
 */
export type CostComponent<K extends string = string> = {
  key: K;
  /** What the line is, as an invoice would say. */
  name: string;
  /** The unit of the quantity (and of the rate, per month). */
  unit: string;
  line: CostLine;
  quantity: (v: VolumeSettings) => number;
  usageType: string;
  priceListUnit: PriceListUnit;
};

/** What a type promises beyond raw numbers, in plain words (docs2023 ebs-volume-types.md). */
export type VolumeTraits = {
  name: string;
  media: 'ssd' | 'hdd';
  durability: string;
  annualFailureRate: string;
  consistency: string;
};

/** The words tradeOf (plan/alternatives.ts) compares between two types (sources there). */
export type TradeTerms = {
  /** Annual failure rate of one volume, percent: the range AWS publishes. */
  annualFailureRatePct: { min: number; max: number };
  latency: string;
  durability: string;
  consistency: string;
};

/**
 * What AWS promises of a type's average latency, as the range measured latency is held against
 * (plan/measured-latency.ts): "single-digit millisecond" is 1 ms up to 10 ms, "sub-millisecond"
 * under 1 ms. Source: the Amazon EBS volume types table, "Latency" row
 * (https://docs.aws.amazon.com/ebs/latest/userguide/ebs-volume-types.html; docs2023
 * ebs-volume-types.md has the same words). Null: AWS gives no latency figure (st1, sc1).
 */
export type LatencyPromise = { words: string; fromMs: number; underMs: number; source: string };

/** Where AWS states each type's average latency (the volume types table, "Latency" row). */
const LATENCY_ROW_SOURCE =
  'https://docs.aws.amazon.com/ebs/latest/userguide/ebs-volume-types.html (Latency row) + docs2023 ebs-volume-types.md';

/** gp2, gp3 and io1: "single-digit millisecond" average latency, read as 1 ms up to 10 ms. */
export const SINGLE_DIGIT_MS: LatencyPromise = {
  words: 'single-digit millisecond',
  fromMs: 1,
  underMs: 10,
  source: LATENCY_ROW_SOURCE,
};

/** io2 Block Express: "sub-millisecond" average latency, read as under 1 ms. */
export const SUB_MILLISECOND: LatencyPromise = {
  words: 'sub-millisecond',
  fromMs: 0,
  underMs: 1,
  source: LATENCY_ROW_SOURCE,
};

export type VolumeTypeDescriptor<K extends string = string> = {
  traits: VolumeTraits;
  trade: TradeTerms;
  latencyPromise: LatencyPromise | null;
  /** The types a volume of this type may be moved to by modify-volume without changing what it is for (itself included, preferred first). */
  alternatives: readonly VolumeType[];
  /** Provisioned IOPS SSD (io1/io2): Multi-Attach, the non-Nitro 32,000 IOPS cap, a stated IOPS cost. */
  provisionedIops: boolean;
  /** The performance the type includes without provisioning (gp3: 3,000 IOPS, 125 MiB/s); null where nothing is included. */
  included: { iops: number | null; throughputMiBps: number | null };
  settingRanges: (gen: Gp3Generation) => SettingRanges;
  /** The most IOPS that may be provisioned per GiB of size; null where IOPS are not provisioned. */
  maxIopsPerGiB: number | null;
  /** The largest a volume can be (fleet/limits.ts bounds what an AWS export may claim with these). */
  maxima: TypeMaxima;
  capabilities: (v: VolumeSettings, ctx: AttachContext) => SingleVolumeCapabilities;
  /** Problems of a configuration of this type (name: the type's full name, for messages). */
  validate: (v: VolumeSettings, gen: Gp3Generation) => Problem[];
  /** The cheapest ONE volume of the type that meets the need, or why none does. */
  size: (need: SizingNeed, ctx: SizingContext) => Sized;
  costComponents: readonly CostComponent<K>[];
  /**
   * The type's credit bucket, if it has one: which allowance it is (plan/sustainability.ts), which
   * demand drains it (operations per second or MiB/s, per volume), and how long a full bucket
   * holds that demand (null: never drains; 0: never served). null: no burst credits.
   */
  burst: {
    allowance: 'gp2' | 'hdd';
    drainedBy: 'operations' | 'throughput';
    seconds: (sizeGiB: number, demandPerVolume: number) => number | null;
  } | null;
};

/** Declares a type's descriptor, keeping its rate keys as literals (so RateCard knows `card.io2.iops2`). */
export const defineVolumeType = <const K extends string>(
  d: VolumeTypeDescriptor<K>,
): VolumeTypeDescriptor<K> => d;

/** The checks every type shares, phrased for the type's full `name`. */
export function validationHelpers(v: VolumeSettings, name: string, problems: Problem[]) {
  return {
    sizeRange(min: number, max: number) {
      if (!(v.sizeGiB >= min && v.sizeGiB <= max))
        problems.push(outOfRange('sizeGiB', `${name} size`, min, max, 'GiB', v.sizeGiB));
    },
    unsupported(field: 'iops' | 'throughputMiBps', why: string) {
      if (v[field] !== undefined)
        problems.push({ code: 'volume_invalid', path: field, message: `${name}: ${why}` });
    },
  };
}

export const fmt = (n: number) => formatDecimal(n, 3);
export const outOfRange = (
  path: string,
  what: string,
  min: number,
  max: number,
  unit: string,
  got: number,
): Problem => ({
  code: 'volume_invalid',
  path,
  message: `${what} must be ${fmt(min)}–${fmt(max)} ${unit}, got ${fmt(got)}`,
});

/** The published limits io1 and io2 share the shape of. */
type PiopsSpec = {
  sizeGiB: { min: Cited<number>; max: Cited<number> };
  iops: { min: Cited<number>; max: Cited<number>; maxPerGiB: Cited<number> };
};

/** io1/io2: the size range, IOPS required and within range, at most `maxPerGiB` IOPS per GiB; no throughput setting. */
export function validateProvisionedIops(
  v: VolumeSettings,
  type: string,
  name: string,
  spec: PiopsSpec,
): Problem[] {
  const problems: Problem[] = [];
  const check = validationHelpers(v, name, problems);
  check.sizeRange(spec.sizeGiB.min.value, spec.sizeGiB.max.value);
  check.unsupported('throughputMiBps', 'throughput follows the provisioned IOPS; set --iops instead');
  const iops = v.iops;
  if (iops === undefined) {
    problems.push({
      code: 'volume_invalid',
      path: 'iops',
      message: `${name} needs provisioned IOPS (${fmt(spec.iops.min.value)}–${fmt(spec.iops.max.value)})`,
    });
  } else if (!(iops >= spec.iops.min.value && iops <= spec.iops.max.value)) {
    problems.push(outOfRange('iops', `${type} IOPS`, spec.iops.min.value, spec.iops.max.value, 'IOPS', iops));
  } else if (iops > spec.iops.maxPerGiB.value * v.sizeGiB) {
    problems.push({
      code: 'volume_invalid',
      path: 'iops',
      message: `${type} allows at most ${fmt(spec.iops.maxPerGiB.value)} IOPS per GiB: ${fmt(iops)} IOPS needs at least ${fmt(Math.ceil(iops / spec.iops.maxPerGiB.value))} GiB (size is ${fmt(v.sizeGiB)} GiB, so at most ${fmt(Math.floor(spec.iops.maxPerGiB.value * v.sizeGiB))} IOPS)`,
    });
  }
  return problems;
}
