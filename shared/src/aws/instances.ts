import { HOURS_PER_MONTH, usd, type Usd } from '../units.ts';
import {
  categoryOf,
  familyOf,
  isStorageOptimizedFamily,
  sizeOf,
  type InstanceSpec,
} from './instance-spec.ts';
import { activeCatalog } from './active-catalog.ts';
import type { CatalogData, InstanceRow } from './catalog-schema.ts';

/**
 * Every EC2 instance type of the active catalog (active-catalog.ts; 1,390 built in, with sources
 * and dates in data/SOURCES.md), and the base-vs-`d` price pairs of local NVMe.
 */

/** Lookups built from one catalog, rebuilt when another one is installed. */
type Lookups = {
  catalog: CatalogData;
  all?: readonly InstanceSpec[];
  byName?: ReadonlyMap<string, InstanceSpec>;
  byFamily?: ReadonlyMap<string, readonly InstanceSpec[]>;
  byCategory?: Map<string, readonly InstanceSpec[]>;
  /** General-purpose, compute- and memory-optimized types: where a storage-optimized workload looks for EBS. */
  ebsFamilies?: readonly InstanceSpec[];
  dPairs?: ReadonlyMap<string, string>;
  basePairs?: ReadonlyMap<string, string>;
};
let lookups: Lookups | undefined;

function current(): Lookups {
  const catalog = activeCatalog();
  if (lookups?.catalog !== catalog) lookups = { catalog };
  return lookups;
}

function toSpec(row: InstanceRow, usdPerHourUsEast1: Record<string, number>): InstanceSpec {
  const [
    instanceType,
    family,
    vCpus,
    memoryMiB,
    currentGeneration,
    baselineMbps,
    baselineIops,
    maximumMbps,
    maximumIops,
    storeVolumes,
    storeSize,
    storeKind,
    storeRandomReadIops,
    storeWriteIops,
    hypervisor,
    architecture,
    maximumEbsAttachments,
    ebsAttachmentLimitType,
    source,
  ] = row;
  return {
    instanceType,
    family,
    vCpus,
    memoryMiB,
    currentGeneration,
    ebs:
      baselineMbps && baselineIops && maximumMbps && maximumIops
        ? {
            baselineBandwidthMbps: baselineMbps,
            baselineIops,
            maximumBandwidthMbps: maximumMbps,
            maximumIops,
          }
        : null,
    instanceStore:
      storeVolumes && storeSize
        ? {
            volumes: storeVolumes,
            volumeSizeGB: storeSize,
            kind: storeKind ?? 'unknown',
            randomReadIops: storeRandomReadIops,
            writeIops: storeWriteIops,
          }
        : null,
    usdPerHourUsEast1: Object.hasOwn(usdPerHourUsEast1, instanceType)
      ? usdPerHourUsEast1[instanceType]!
      : null,
    source,
    hypervisor,
    architecture,
    maximumEbsAttachments,
    ebsAttachmentLimitType,
  };
}

/** All instance types, sorted by name. Built once per catalog, on first use. */
export function listInstanceTypes(): readonly InstanceSpec[] {
  const l = current();
  l.all ??= Object.freeze(
    l.catalog.instances.rows.map((row) => toSpec(row, l.catalog.ec2['us-east-1']?.usdPerHour ?? {})),
  );
  return l.all;
}

export function findInstanceType(name: string): InstanceSpec | undefined {
  const l = current();
  l.byName ??= new Map(listInstanceTypes().map((s) => [s.instanceType, s]));
  return l.byName.get(name.trim().toLowerCase());
}

/** Closest names for an unknown type (typo help in errors): same family first, then by prefix. */
export function suggestInstanceTypes(name: string, limit = 5): string[] {
  const wanted = name.trim().toLowerCase();
  const family = familyOf(wanted);
  const size = sizeOf(wanted);
  const names = listInstanceTypes().map((s) => s.instanceType);
  const sameSize = names.filter((n) => sizeOf(n) === size && familyOf(n).startsWith(family.slice(0, 2)));
  const sameFamily = names.filter((n) => familyOf(n) === family);
  if (sameFamily.length > 0) return sameFamily.slice(0, limit);
  if (size && sameSize.length > 0) return sameSize.slice(0, limit);
  const prefix = wanted.slice(0, 2);
  return names.filter((n) => n.startsWith(prefix)).slice(0, limit);
}

/** Types of one family (e.g. every r5 size), in ascending order of baseline EBS bandwidth. */
export function familyMembers(family: string): readonly InstanceSpec[] {
  // Grouped once: the right-sizing sweep asks for a family per instance (1,390 × a full scan).
  const l = current();
  l.byFamily ??= groupByFamily(listInstanceTypes());
  return l.byFamily.get(family) ?? [];
}

/**
 * Where to look for an instance that sustains a demand the current one cannot: every type of
 * the same category (general m, compute c, memory r/x/z), or the family's own sizes for other
 * series. Right-sizing filters further (generation, architecture, vCPU, memory, price).
 */
export function upgradePool(spec: InstanceSpec): readonly InstanceSpec[] {
  const category = categoryOf(spec.family);
  // Off local NVMe onto EBS: the EBS baseline is searched across the general-purpose, compute- and
  // memory-optimized categories (an i-family workload may fit an m/r/c instance), never the
  // storage family's own larger sizes, which buy more of the store the move leaves behind.
  if (category === null && isStorageOptimizedFamily(spec.family)) {
    const l = current();
    l.ebsFamilies ??= Object.freeze(listInstanceTypes().filter((s) => categoryOf(s.family) !== null));
    return l.ebsFamilies;
  }
  if (category === null) return familyMembers(spec.family);
  const l = current();
  l.byCategory ??= new Map();
  let pool = l.byCategory.get(category);
  if (!pool) {
    pool = Object.freeze(listInstanceTypes().filter((s) => categoryOf(s.family) === category));
    l.byCategory.set(category, pool);
  }
  return pool;
}

function groupByFamily(specs: readonly InstanceSpec[]): ReadonlyMap<string, readonly InstanceSpec[]> {
  const groups = new Map<string, InstanceSpec[]>();
  for (const s of specs) {
    const group = groups.get(s.family);
    if (group) group.push(s);
    else groups.set(s.family, [s]);
  }
  const bandwidth = (s: InstanceSpec) => s.ebs?.baselineBandwidthMbps ?? 0;
  return new Map(
    [...groups].map(([family, members]) => [
      family,
      Object.freeze(members.sort((a, b) => bandwidth(a) - bandwidth(b))),
    ]),
  );
}

/** d type → base type, and base type → d type. */
function pairs(): { dPairs: ReadonlyMap<string, string>; basePairs: ReadonlyMap<string, string> } {
  const l = current();
  l.dPairs ??= new Map(l.catalog.dVariantPairs.map(([base, d]) => [d, base]));
  l.basePairs ??= new Map(l.catalog.dVariantPairs.map(([base, d]) => [base, d]));
  return { dPairs: l.dPairs, basePairs: l.basePairs };
}

/**
 * The price of local NVMe: the `d` variant's premium over its base type of the same size (same
 * vCPU, memory and EBS limits in all 322 pairs of the built-in data; only the instance store
 * differs). On-demand Linux, 730 h per month, in `region` when the catalog has EC2 prices there
 * (a refreshed catalog), else in us-east-1: `region` in the result says which.
 */
export function nvmePremium(
  instanceType: string,
  region?: string,
): { baseType: string; dType: string; region: string; usdPerHour: number; usdPerMonth: Usd } | null {
  const { dPairs, basePairs } = pairs();
  const dType = basePairs.get(instanceType) ?? instanceType;
  const baseType = dPairs.get(dType);
  if (!baseType) return null;
  const ec2 = activeCatalog().ec2;
  const priced = region !== undefined && Object.hasOwn(ec2, region) ? region : 'us-east-1';
  const prices = ec2[priced]?.usdPerHour ?? {};
  const base = Object.hasOwn(prices, baseType) ? prices[baseType]! : null;
  const d = Object.hasOwn(prices, dType) ? prices[dType]! : null;
  if (base === null || d === null) return null;
  const usdPerHour = Math.round((d - base) * 1e6) / 1e6;
  return {
    baseType,
    dType,
    region: priced,
    usdPerHour,
    usdPerMonth: usd(Math.round(usdPerHour * HOURS_PER_MONTH * 100) / 100),
  };
}

/** The base type of a `d` variant (r5d.4xlarge → r5.4xlarge), if the catalog pairs them. */
export function baseVariantOf(dType: string): string | undefined {
  return pairs().dPairs.get(dType);
}
