import { c, type VolumeTypeDescriptor } from './volume-types/descriptor.ts';
import { VOLUME_TYPES, type VolumeType } from './volume-types/names.ts';
import { gp2 } from './volume-types/gp2.ts';
import { gp3 } from './volume-types/gp3.ts';
import { io1 } from './volume-types/io1.ts';
import { io2 } from './volume-types/io2.ts';
import { sc1, SC1 } from './volume-types/sc1.ts';
import { st1, ST1 } from './volume-types/st1.ts';

/**
 * EBS volume types: the registry of their descriptors (one file per type under volume-types/:
 * limits with their citations, capabilities, settings, validation, sizing, cost components,
 * alternatives), and what all types share. Adding a type: docs/architecture.md, "Adding a volume type".
 */

export { VOLUME_TYPES, VolumeTypeSchema, type VolumeType } from './volume-types/names.ts';

/**
 * Each type's descriptor. A `Record` over VolumeType: a type added to VOLUME_TYPES without its
 * descriptor does not compile. The keys' order is the rate card's and the catalog's (`rates` in
 * aws/data/catalog.json), kept so cards and catalogs serialize as they always have.
 */
export const VOLUME_TYPE_REGISTRY = { gp2, gp3, io1, io2, st1, sc1 } as const satisfies Record<
  VolumeType,
  VolumeTypeDescriptor
>;

export const descriptorOf = (type: VolumeType): VolumeTypeDescriptor => VOLUME_TYPE_REGISTRY[type];

/** The rate-card keys of a type's cost components (`storage`, `iops`, … : `card[type][key]`). */
export type RateKeyOf<T extends VolumeType> =
  (typeof VOLUME_TYPE_REGISTRY)[T]['costComponents'][number]['key'];

export {
  Gp3GenerationSchema,
  IO_ACCOUNTING_UNIT_BYTES,
  NON_NITRO,
  type Gp3Generation,
} from './volume-types/descriptor.ts';
export { GP3, provisionableGp3ThroughputMiBps } from './volume-types/gp3.ts';
export { GP2 } from './volume-types/gp2.ts';

/** st1 / sc1: throughput-optimized / cold HDD. Throughput scales with size (per TiB), capped. */
export const HDD = { st1: ST1, sc1: SC1 } as const;

/**
 * Physically contiguous I/Os of at least this size are merged into one operation of up to the
 * accounting unit; smaller ones count one each, contiguous or not (AWS EBS User Guide, "I/O
 * characteristics and monitoring", table of examples: 8 contiguous 32 KiB I/Os = 1 operation,
 * 8 random 32 KiB I/Os = 8). Merging is best effort ("Amazon EBS attempts to merge").
 */
export const MERGE_MIN_IO_BYTES = c(32 * 1024, 'ebs-guide-2026 ebs-io-characteristics');

/** What each type promises beyond raw numbers, in plain words (docs2023 ebs-volume-types.md). */
export const VOLUME_TRAITS = Object.fromEntries(
  VOLUME_TYPES.map((type) => [type, VOLUME_TYPE_REGISTRY[type].traits]),
) as Record<VolumeType, VolumeTypeDescriptor['traits']>;

/**
 * gp2/gp3 deliver ≥ 90% of provisioned IOPS 99% of the time, io1/io2 99.9% of the time
 * (docs2023 ebs-volume-types.md): provisioning below demand ÷ 0.9 can fall short when it matters.
 */
export const DELIVERY_FLOOR_FRACTION = 0.9;

/** The instance sustains its maximum EBS performance for 30 minutes at least once every 24 hours (docs2023 ebs-optimized.md). */
export const INSTANCE_BURST_MINUTES_PER_DAY = 30;
