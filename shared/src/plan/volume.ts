import { z } from 'zod';
import {
  GP2,
  GP3,
  HDD,
  IO1,
  IO2,
  IO_ACCOUNTING_UNIT_BYTES,
  NON_NITRO,
  VOLUME_TRAITS,
  VolumeTypeSchema,
  type Gp3Generation,
  type VolumeType,
} from '../aws/volume-types.ts';
import type { Problem } from '../problem.ts';
import { formatDecimal, formatInt } from '../units.ts';

/**
 * One EBS volume configuration, or `count` identical volumes striped together (RAID 0: their
 * IOPS and throughput add up, up to the instance's cap — [piops-2012] in docs/domain.md striped 10 × 1,000-IOPS volumes).
 * Sizes in GiB, throughput in MiB/s (the EC2 API's units).
 */
export const VolumeConfigSchema = z.object({
  type: VolumeTypeSchema,
  sizeGiB: z.number().positive().finite(),
  /** gp3 (default 3,000), io1/io2 (required). Ignored for gp2/st1/sc1, whose IOPS follow the size. */
  iops: z.number().positive().finite().optional(),
  /** gp3 only (default 125). */
  throughputMiBps: z.number().positive().finite().optional(),
  /** Identical volumes striped together (RAID 0); 1 when absent. */
  count: z.number().int().min(1).max(64).optional(),
});
export type VolumeConfig = z.infer<typeof VolumeConfigSchema>;

const countOf = (v: VolumeConfig) => v.count ?? 1;

/** What a volume (or stripe set) delivers: sustained, and while burst credits last. */
export type VolumeCapabilities = {
  /** Sustained IOPS over all striped volumes. */
  iops: number;
  /** Sustained MiB/s over all striped volumes. */
  throughputMiBps: number;
  /** gp2 < 1 TiB (3,000 IOPS per volume while credits last); null when the type does not burst IOPS. */
  burstIops: number | null;
  /** gp2 below 334 GiB (its size's 128 or 250 MiB/s maximum), st1, sc1; null when the type does not burst throughput. */
  burstThroughputMiBps: number | null;
  /** EBS counts each I/O up to this size as one operation. */
  ioUnitBytes: number;
  /** SSD or HDD: which I/O accounting applies (plan/demand.ts). */
  media: 'ssd' | 'hdd';
  /** io1/io2 held to 32,000 IOPS per volume because the instance is not built on Nitro. */
  nitroCapped: boolean;
};

/** What the instance allows a volume: io1/io2 above 32,000 IOPS need Nitro (null = unknown: no cap). */
export type AttachContext = { nitro: boolean | null };

export function gp2BaselineIops(sizeGiB: number): number {
  return Math.min(
    GP2.iops.baselineMax.value,
    Math.max(GP2.iops.baselineMin.value, GP2.iops.perGiB.value * sizeGiB),
  );
}

/**
 * gp2 throughput (AWS's formula, aws/volume-types.ts GP2): sustained = baseline IOPS × 256 KiB =
 * 0.75 MiB/s per GiB, up to the size's maximum (128 MiB/s up to 170 GiB, 250 above); while credits
 * last it reaches that maximum. 100 GiB: 75 sustained, 128 burst; 250 GiB: 187.5 sustained, 250
 * burst; from 334 GiB 250 sustained, no burst.
 */
export function gp2ThroughputMiBps(sizeGiB: number): { sustained: number; burst: number | null } {
  const t = GP2.throughputMiBps;
  const max = sizeGiB <= 170 ? t.maxUpTo170GiB.value : t.maxFrom171GiB.value;
  const sustained = Math.min(max, gp2BaselineIops(sizeGiB) * t.perBaselineIops.value);
  return { sustained, burst: sustained < max ? max : null };
}

/**
 * io1 maximum throughput for a provisioned IOPS (docs2023 provisioned-iops.md): up to 32,000 IOPS
 * each I/O may be 256 KiB, capped at 500 MiB/s (reached at 2,000 IOPS); above, 16 KiB per IOPS
 * (48,000 IOPS → 750 MiB/s), capped at 1,000 MiB/s.
 */
export function io1ThroughputMiBps(provisionedIops: number): number {
  if (provisionedIops <= 32_000) return Math.min(provisionedIops * 0.25, 500);
  return Math.min((provisionedIops * 16) / 1024, IO1.throughputMiBps.max.value);
}

export function io2ThroughputMiBps(provisionedIops: number): number {
  return Math.min(
    provisionedIops * IO2.throughputMiBps.maxPerProvisionedIops.value,
    IO2.throughputMiBps.max.value,
  );
}

/** st1/sc1 throughput from size: per-TiB baseline and burst rates, each capped at the type's maximum. */
export function hddThroughputMiBps(
  type: 'st1' | 'sc1',
  sizeGiB: number,
): { sustained: number; burst: number } {
  const spec = HDD[type];
  const tib = sizeGiB / 1024;
  return {
    sustained: Math.min(spec.baselineMiBpsPerTiB.value * tib, spec.maxMiBps.value),
    burst: Math.min(spec.burstMiBpsPerTiB.value * tib, spec.maxMiBps.value),
  };
}

/** Provisioned IOPS a volume delivers on this instance: non-Nitro instances stop at 32,000. */
export function deliverablePiops(provisioned: number, ctx: AttachContext): number {
  return ctx.nitro === false ? Math.min(provisioned, NON_NITRO.maxPiops.value) : provisioned;
}

/** Sustained and burst capabilities of a (valid) volume configuration, on an instance of this kind. */
export function volumeCapabilities(
  volume: VolumeConfig,
  ctx: AttachContext = { nitro: null },
): VolumeCapabilities {
  const n = countOf(volume);
  const ssdUnit = IO_ACCOUNTING_UNIT_BYTES.ssd.value;
  const ssd = { ioUnitBytes: ssdUnit, media: 'ssd' as const, nitroCapped: false };
  switch (volume.type) {
    case 'gp3': {
      const iops = volume.iops ?? GP3.iops.included.value;
      const tp = volume.throughputMiBps ?? GP3.throughputMiBps.included.value;
      return {
        iops: iops * n,
        throughputMiBps: tp * n,
        burstIops: null,
        burstThroughputMiBps: null,
        ...ssd,
      };
    }
    case 'gp2': {
      const baseline = gp2BaselineIops(volume.sizeGiB);
      const tp = gp2ThroughputMiBps(volume.sizeGiB);
      const bursts = baseline < GP2.iops.burst.value;
      return {
        iops: baseline * n,
        throughputMiBps: tp.sustained * n,
        burstIops: bursts ? GP2.iops.burst.value * n : null,
        burstThroughputMiBps: tp.burst === null ? null : tp.burst * n,
        ...ssd,
      };
    }
    case 'io1': {
      const provisioned = volume.iops ?? IO1.iops.min.value;
      const iops = deliverablePiops(provisioned, ctx);
      return {
        iops: iops * n,
        throughputMiBps: io1ThroughputMiBps(iops) * n,
        burstIops: null,
        burstThroughputMiBps: null,
        ...ssd,
        nitroCapped: iops < provisioned,
      };
    }
    case 'io2': {
      const provisioned = volume.iops ?? IO2.iops.min.value;
      const iops = deliverablePiops(provisioned, ctx);
      const tp =
        ctx.nitro === false
          ? Math.min(io2ThroughputMiBps(iops), NON_NITRO.maxMiBps.value)
          : io2ThroughputMiBps(iops);
      return {
        iops: iops * n,
        throughputMiBps: tp * n,
        burstIops: null,
        burstThroughputMiBps: null,
        ...ssd,
        nitroCapped: iops < provisioned,
      };
    }
    case 'st1':
    case 'sc1': {
      const tp = hddThroughputMiBps(volume.type, volume.sizeGiB);
      return {
        iops: HDD[volume.type].maxIops.value * n,
        throughputMiBps: tp.sustained * n,
        burstIops: null,
        burstThroughputMiBps: tp.burst * n,
        ioUnitBytes: IO_ACCOUNTING_UNIT_BYTES.hdd.value,
        media: 'hdd',
        nitroCapped: false,
      };
    }
  }
}

/**
 * How a configuration is named everywhere (plans, comparisons, warnings, the fio job panel):
 * "4 × gp3 500 GiB", and with `performance` the settings it was given: "gp3 1000 GiB, 16,000 IOPS, 1000 MiB/s".
 */
export function describeVolume(v: VolumeConfig, options: { performance?: boolean } = {}): string {
  const count = countOf(v);
  const head = `${count > 1 ? `${count} × ` : ''}${v.type} ${v.sizeGiB} GiB`;
  if (!options.performance) return head;
  const perf = [
    v.iops !== undefined ? `${formatInt(v.iops)} IOPS` : null,
    v.throughputMiBps !== undefined ? `${v.throughputMiBps} MiB/s` : null,
  ].filter(Boolean);
  return perf.length > 0 ? `${head}, ${perf.join(', ')}` : head;
}

/** An inclusive range [min, max] a setting may take. */
type SettingRange = readonly [min: number, max: number];

/**
 * What can be set on a volume of this type, and within which range: the size always; IOPS on gp3,
 * io1 and io2; throughput on gp3 only. gp2's IOPS and throughput and st1/sc1's throughput follow
 * the size, so they have no range (null). Every bound is the type's published limit (aws/volume-types.ts).
 */
export function settingRangesOf(
  type: VolumeType,
  gen: Gp3Generation = 'current',
): { sizeGiB: SettingRange; iops: SettingRange | null; throughputMiBps: SettingRange | null } {
  switch (type) {
    case 'gp3':
      return {
        sizeGiB: [GP3.sizeGiB.min.value, GP3.sizeGiB.max[gen].value],
        iops: [GP3.iops.min.value, GP3.iops.max[gen].value],
        throughputMiBps: [GP3.throughputMiBps.min.value, GP3.throughputMiBps.max[gen].value],
      };
    case 'io1':
    case 'io2': {
      const spec = type === 'io1' ? IO1 : IO2;
      return {
        sizeGiB: [spec.sizeGiB.min.value, spec.sizeGiB.max.value],
        iops: [spec.iops.min.value, spec.iops.max.value],
        throughputMiBps: null,
      };
    }
    case 'gp2':
      return { sizeGiB: [GP2.sizeGiB.min.value, GP2.sizeGiB.max.value], iops: null, throughputMiBps: null };
    case 'st1':
    case 'sc1':
      return {
        sizeGiB: [HDD[type].sizeGiB.min.value, HDD[type].sizeGiB.max.value],
        iops: null,
        throughputMiBps: null,
      };
  }
}

/** Which performance settings a type takes (the ones `settingRangesOf` gives a range). */
export function provisionedFieldsOf(type: VolumeType): { iops: boolean; throughputMiBps: boolean } {
  const r = settingRangesOf(type);
  return { iops: r.iops !== null, throughputMiBps: r.throughputMiBps !== null };
}

/** What a type includes without provisioning (gp3: 3,000 IOPS and 125 MiB/s); null where nothing is included. */
export function includedSettingsOf(type: VolumeType): {
  iops: number | null;
  throughputMiBps: number | null;
} {
  return type === 'gp3'
    ? { iops: GP3.iops.included.value, throughputMiBps: GP3.throughputMiBps.included.value }
    : { iops: null, throughputMiBps: null };
}

/**
 * A configuration with only the settings its type takes: IOPS dropped from gp2/st1/sc1,
 * throughput from all but gp3. null/undefined settings (and count) are left out.
 */
export function volumeWithSettings(v: {
  type: VolumeType;
  sizeGiB: number;
  iops?: number | null | undefined;
  throughputMiBps?: number | null | undefined;
  count?: number | null | undefined;
}): VolumeConfig {
  const takes = provisionedFieldsOf(v.type);
  const volume: VolumeConfig = { type: v.type, sizeGiB: v.sizeGiB };
  if (takes.iops && v.iops !== undefined && v.iops !== null) volume.iops = v.iops;
  if (takes.throughputMiBps && v.throughputMiBps !== undefined && v.throughputMiBps !== null)
    volume.throughputMiBps = v.throughputMiBps;
  if (v.count !== undefined && v.count !== null) volume.count = v.count;
  return volume;
}

/** The volume fields of a run's labels (structurally `RunLabels`: records/run.ts). */
export type VolumeLabels = {
  volumeType?: VolumeType | undefined;
  volumeSizeGiB?: number | undefined;
  volumeIops?: number | undefined;
  volumeThroughputMiBps?: number | undefined;
  volumeCount?: number | undefined;
};

/**
 * The configuration a run's labels describe, with only the settings its type takes; null when
 * the labels name no volume type or no size. The caller decides what `kind` means (NVMe has none).
 */
export function volumeFromLabels(labels: VolumeLabels): VolumeConfig | null {
  if (labels.volumeType === undefined || labels.volumeSizeGiB === undefined) return null;
  return volumeWithSettings({
    type: labels.volumeType,
    sizeGiB: labels.volumeSizeGiB,
    iops: labels.volumeIops,
    throughputMiBps: labels.volumeThroughputMiBps,
    count: labels.volumeCount,
  });
}

/** The labels a run on this configuration carries: only the settings its type takes, a count above 1. */
export function volumeToLabels(
  volume: VolumeConfig,
): VolumeLabels & { volumeType: VolumeType; volumeSizeGiB: number } {
  const v = volumeWithSettings(volume);
  const labels: VolumeLabels & { volumeType: VolumeType; volumeSizeGiB: number } = {
    volumeType: v.type,
    volumeSizeGiB: v.sizeGiB,
  };
  if (v.iops !== undefined) labels.volumeIops = v.iops;
  if (v.throughputMiBps !== undefined) labels.volumeThroughputMiBps = v.throughputMiBps;
  // One volume is the default: its run carries no count label.
  if (v.count !== undefined && v.count > 1) labels.volumeCount = v.count;
  return labels;
}

const fmt = (n: number) => formatDecimal(n, 3);
const outOfRange = (
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

/**
 * Checks a configuration against the type's ranges and ratio rules. Returns every problem, each
 * naming the field (`sizeGiB`, `iops`, `throughputMiBps`, `count`) and the allowed range — so the
 * CLI can name the flag and the web app the input.
 */
export function validateVolume(volume: VolumeConfig, gp3Generation: Gp3Generation = 'current'): Problem[] {
  const problems: Problem[] = [];
  const name = VOLUME_TRAITS[volume.type].name;
  const size = volume.sizeGiB;
  const sizeRange = (min: number, max: number) => {
    if (!(size >= min && size <= max))
      problems.push(outOfRange('sizeGiB', `${name} size`, min, max, 'GiB', size));
  };
  const unsupported = (field: 'iops' | 'throughputMiBps', why: string) => {
    if (volume[field] !== undefined)
      problems.push({ code: 'volume_invalid', path: field, message: `${name}: ${why}` });
  };
  switch (volume.type) {
    case 'gp3': {
      sizeRange(GP3.sizeGiB.min.value, GP3.sizeGiB.max[gp3Generation].value);
      const iops = volume.iops ?? GP3.iops.included.value;
      const tp = volume.throughputMiBps ?? GP3.throughputMiBps.included.value;
      const maxIops = GP3.iops.max[gp3Generation].value;
      const maxTp = GP3.throughputMiBps.max[gp3Generation].value;
      if (!(iops >= GP3.iops.min.value && iops <= maxIops))
        problems.push(outOfRange('iops', 'gp3 IOPS', GP3.iops.min.value, maxIops, 'IOPS', iops));
      else if (iops > gp3MaxIops(size, gp3Generation))
        problems.push({
          code: 'volume_invalid',
          path: 'iops',
          message: `gp3 allows at most ${GP3.iops.maxPerGiB.value} IOPS per GiB: ${fmt(iops)} IOPS needs at least ${fmt(Math.ceil(iops / GP3.iops.maxPerGiB.value))} GiB (size is ${fmt(size)} GiB, so at most ${fmt(gp3MaxIops(size, gp3Generation))} IOPS; every size includes ${fmt(GP3.iops.included.value)})`,
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
      break;
    }
    case 'gp2':
      sizeRange(GP2.sizeGiB.min.value, GP2.sizeGiB.max.value);
      unsupported('iops', 'IOPS follow the size (3 IOPS per GiB, 100–16,000); set the size instead');
      unsupported('throughputMiBps', 'throughput follows the size (128 or 250 MiB/s); set the size instead');
      break;
    case 'io1':
    case 'io2': {
      const spec = volume.type === 'io1' ? IO1 : IO2;
      sizeRange(spec.sizeGiB.min.value, spec.sizeGiB.max.value);
      unsupported('throughputMiBps', 'throughput follows the provisioned IOPS; set --iops instead');
      const iops = volume.iops;
      if (iops === undefined) {
        problems.push({
          code: 'volume_invalid',
          path: 'iops',
          message: `${name} needs provisioned IOPS (${fmt(spec.iops.min.value)}–${fmt(spec.iops.max.value)})`,
        });
      } else if (!(iops >= spec.iops.min.value && iops <= spec.iops.max.value)) {
        problems.push(
          outOfRange('iops', `${volume.type} IOPS`, spec.iops.min.value, spec.iops.max.value, 'IOPS', iops),
        );
      } else if (iops > spec.iops.maxPerGiB.value * size) {
        problems.push({
          code: 'volume_invalid',
          path: 'iops',
          message: `${volume.type} allows at most ${fmt(spec.iops.maxPerGiB.value)} IOPS per GiB: ${fmt(iops)} IOPS needs at least ${fmt(Math.ceil(iops / spec.iops.maxPerGiB.value))} GiB (size is ${fmt(size)} GiB, so at most ${fmt(Math.floor(spec.iops.maxPerGiB.value * size))} IOPS)`,
        });
      }
      break;
    }
    case 'st1':
    case 'sc1':
      sizeRange(HDD[volume.type].sizeGiB.min.value, HDD[volume.type].sizeGiB.max.value);
      unsupported('iops', 'HDD volumes are throughput-based; IOPS cannot be provisioned');
      unsupported('throughputMiBps', 'throughput follows the size; set the size instead');
      break;
  }
  return problems;
}

/**
 * gp2 burst credits: the bucket holds 5.4 M I/O credits (full at creation) and earns the baseline
 * IOPS per second; above baseline it drains by (demand − baseline) per second. Burst duration =
 * balance ÷ (burst − baseline): a 20 GiB volume (100 IOPS) bursts 3,000 IOPS for 1,862 s ≈ 31 min.
 */
export function gp2BurstSeconds(
  sizeGiB: number,
  demandIops: number,
  creditBalance = GP2.iops.creditBucket.value,
): number | null {
  const baseline = gp2BaselineIops(sizeGiB);
  if (demandIops <= baseline) return null; // never drains: sustainable
  if (baseline >= GP2.iops.burst.value) return 0; // ≥ 1 TiB volumes do not burst: demand above baseline is simply not served
  const drainRate = Math.min(demandIops, GP2.iops.burst.value) - baseline;
  return creditBalance / drainRate;
}

/**
 * st1/sc1 burst: the bucket holds 1 TiB of throughput credits per TiB of size (full at creation)
 * and refills at the baseline rate; above baseline it drains by (demand − baseline) MiB/s, so a
 * full bucket lasts size ÷ (demand − baseline) — a 1 TiB st1 at 250 MiB/s: 1 TiB ÷ 210 MiB/s ≈ 83
 * min. null: demand at or below baseline (never drains); 0: above the burst ceiling (never served).
 */
export function hddBurstSeconds(type: 'st1' | 'sc1', sizeGiB: number, demandMiBps: number): number | null {
  const tp = hddThroughputMiBps(type, sizeGiB);
  if (demandMiBps <= tp.sustained) return null;
  if (demandMiBps > tp.burst) return 0;
  const bucketMiB = (sizeGiB / 1024) * HDD[type].creditsTiBPerTiB.value * 1024 * 1024;
  return bucketMiB / (demandMiBps - tp.sustained);
}
