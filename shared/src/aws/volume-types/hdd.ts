import { formatInt as n0 } from '../../units.ts';
import type { Problem } from '../../problem.ts';
import {
  defineVolumeType,
  never,
  tooBig,
  validationHelpers,
  type Cited,
  type VolumeTraits,
} from './descriptor.ts';

/** st1 / sc1's published limits: throughput scales with size (per TiB), capped (docs2023 hdd-vols.md). */
export type HddSpec = {
  sizeGiB: { min: Cited<number>; max: Cited<number> };
  baselineMiBpsPerTiB: Cited<number>;
  burstMiBpsPerTiB: Cited<number>;
  maxMiBps: Cited<number>;
  /** At 1 MiB I/O. */
  maxIops: Cited<number>;
  /** Burst bucket: 1 TiB of throughput credits per TiB of size (a full bucket = one full-volume scan). */
  creditsTiBPerTiB: Cited<number>;
};

/** HDD throughput from size: per-TiB baseline and burst rates, each capped at the type's maximum. */
export function hddSpecThroughputMiBps(spec: HddSpec, sizeGiB: number): { sustained: number; burst: number } {
  const tib = sizeGiB / 1024;
  return {
    sustained: Math.min(spec.baselineMiBpsPerTiB.value * tib, spec.maxMiBps.value),
    burst: Math.min(spec.burstMiBpsPerTiB.value * tib, spec.maxMiBps.value),
  };
}

/**
 * st1/sc1 burst: the bucket holds 1 TiB of throughput credits per TiB of size (full at creation)
 * and refills at the baseline rate; above baseline it drains by (demand − baseline) MiB/s, so a
 * full bucket lasts size ÷ (demand − baseline) — a 1 TiB st1 at 250 MiB/s: 1 TiB ÷ 210 MiB/s ≈ 83
 * min. null: demand at or below baseline (never drains); 0: above the burst ceiling (never served).
 */
export function hddSpecBurstSeconds(spec: HddSpec, sizeGiB: number, demandMiBps: number): number | null {
  const tp = hddSpecThroughputMiBps(spec, sizeGiB);
  if (demandMiBps <= tp.sustained) return null;
  if (demandMiBps > tp.burst) return 0;
  const bucketMiB = (sizeGiB / 1024) * spec.creditsTiBPerTiB.value * 1024 * 1024;
  return bucketMiB / (demandMiBps - tp.sustained);
}

/**
 * An HDD type's descriptor: st1 and sc1 differ only in their numbers. They spend a whole 1 MiB of
 * throughput on every operation, so small or random I/O drains them: 200 random IOPS cost 200
 * MiB/s (a 1 TiB sc1 sustains 12 of them). AWS advises SSD for small, random I/O; so does the
 * planner — HDD is offered only for sequential work, sized on the merged throughput it really spends.
 */
export function hddVolumeType(type: 'st1' | 'sc1', spec: HddSpec, traits: Omit<VolumeTraits, 'media'>) {
  return defineVolumeType({
    traits: { ...traits, media: 'hdd' },
    trade: {
      annualFailureRatePct: { min: 0.1, max: 0.2 },
      latency: 'HDD latency',
      latencyPromiseMs: null,
      durability: '99.8–99.9 % durability (AFR 0.1–0.2 %)',
      consistency: '≥ 90 % of expected throughput 99 % of the time',
    },
    // Never SSD: an HDD volume's access pattern is not known to allow it.
    alternatives: ['st1', 'sc1'],
    provisionedIops: false,
    included: { iops: null, throughputMiBps: null },
    settingRanges: () => ({
      sizeGiB: [spec.sizeGiB.min.value, spec.sizeGiB.max.value],
      iops: null,
      throughputMiBps: null,
    }),
    maxIopsPerGiB: null,
    maxima: {
      sizeGiB: spec.sizeGiB.max.value,
      iops: spec.maxIops.value,
      throughputMiBps: spec.maxMiBps.value,
    },
    capabilities(v) {
      const tp = hddSpecThroughputMiBps(spec, v.sizeGiB);
      return {
        iops: spec.maxIops.value,
        throughputMiBps: tp.sustained,
        burstIops: null,
        burstThroughputMiBps: tp.burst,
        nitroCapped: false,
      };
    },
    validate(v) {
      const problems: Problem[] = [];
      const check = validationHelpers(v, traits.name, problems);
      check.sizeRange(spec.sizeGiB.min.value, spec.sizeGiB.max.value);
      check.unsupported('iops', 'HDD volumes are throughput-based; IOPS cannot be provisioned');
      check.unsupported('throughputMiBps', 'throughput follows the size; set the size instead');
      return problems;
    },
    size(t, { random, blockSize }) {
      const kib = blockSize !== null ? `${n0(blockSize / 1024)} KiB ` : '';
      if (random) {
        const perTiB = spec.baselineMiBpsPerTiB.value;
        return never(
          `random I/O: every ${kib}I/O costs a whole 1 MiB of ${type} throughput, so ${n0(t.hddIops)} IOPS spend ${n0(t.hddIops)} MiB/s (a 1 TiB ${type} sustains ${perTiB} such IOPS). HDD volumes are for large sequential I/O; AWS recommends SSD for small, random I/O`,
        );
      }
      if (t.hddIops > spec.maxIops.value)
        return tooBig(
          `needs ${n0(t.hddIops)} operations of up to 1 MiB per second; one ${type} volume handles ${spec.maxIops.value}`,
        );
      if (t.hddBudget > spec.maxMiBps.value)
        return tooBig(`needs ${n0(t.hddBudget)} MiB/s, above ${type}'s ${spec.maxMiBps.value} MiB/s`);
      const sizeForTp = Math.ceil((t.hddBudget / spec.baselineMiBpsPerTiB.value) * 1024);
      const size = Math.max(t.capacity, sizeForTp, spec.sizeGiB.min.value);
      if (size > spec.sizeGiB.max.value)
        return tooBig(
          `needs ${n0(size)} GiB for ${n0(t.hddBudget)} MiB/s baseline, above ${type}'s maximum size`,
        );
      return {
        volume: { sizeGiB: size },
        reasons: [
          `${n0(size)} GiB for a ${n0(hddSpecThroughputMiBps(spec, size).sustained)} MiB/s baseline (${spec.baselineMiBpsPerTiB.value} MiB/s per TiB); sequential I/O merges into 1 MiB operations`,
        ],
      };
    },
    burst: {
      allowance: 'hdd',
      drainedBy: 'throughput',
      seconds: (sizeGiB, miBps) => hddSpecBurstSeconds(spec, sizeGiB, miBps),
    },
    // st1, sc1 = GiB × storage: throughput comes with the size.
    costComponents: [
      {
        key: 'storage',
        name: 'Storage',
        unit: 'GiB-month',
        line: 'storage',
        quantity: (v) => v.sizeGiB,
        usageType: `EBS:VolumeUsage.${type}`,
        priceListUnit: 'GB-Mo',
      },
    ],
  });
}
