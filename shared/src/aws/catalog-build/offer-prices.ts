import { REGION_CODE, type EbsRates } from '../catalog-schema.ts';
import { VOLUME_TYPE_REGISTRY, type RateKeyOf, type VolumeType } from '../volume-types.ts';
import type { PriceListUnit } from '../volume-types/descriptor.ts';

/**
 * Reads the records of an AWS Price List offer file (AmazonEC2, one region) into EBS and EC2
 * prices, one record at a time, so the caller can stream a file of several GB through it and
 * keep only what the catalog needs (docs/catalog.md has the format, with AWS's documentation):
 *
 *   products[sku] = { sku, productFamily, attributes: { regionCode, usagetype, volumeApiName,
 *                     instanceType, operatingSystem, tenancy, preInstalledSw, capacitystatus, … } }
 *   terms.OnDemand[sku][sku.offerTermCode].priceDimensions[rateCode] =
 *                   { unit, pricePerUnit: { USD: "0.0800000000" }, beginRange, endRange, … }
 *
 * Usage types carry a region prefix outside us-east-1 (`APN1-EBS:VolumeUsage.gp3`,
 * `USW2-LAX1-EBS:…` in a Local Zone): the part from `EBS:` / `BoxUsage:` on names the price.
 * Nothing here reads a file: the server streams, this keeps the state (bounded by the number
 * of SKUs it wants, a few thousand per region, not by the file's size).
 */

/** `type.key` of a rate-card price (the catalog's `rates.type.key`), or a snapshot price. */
type EbsKey =
  { [T in VolumeType]: `${T}.${RateKeyOf<T>}` }[VolumeType] | `snapshot.${'standard' | 'archive'}`;

type UnitRule = { units: readonly string[]; perUnit: (usd: number, unit: string) => number };
const same = (usd: number) => usd;
const GB_MONTH: UnitRule = { units: ['gb-mo', 'gb-month'], perUnit: same };
const IOPS_MONTH: UnitRule = { units: ['iops-mo'], perUnit: same };
// gp3 throughput is listed per GiBps-month (us-east-1: 40.96 = 0.04 per MiB/s-month).
const THROUGHPUT_MONTH: UnitRule = {
  units: ['gibps-mo', 'mibps-mo'],
  perUnit: (usd, unit) => (unit === 'gibps-mo' ? usd / 1024 : usd),
};
const HOURS: UnitRule = { units: ['hrs'], perUnit: same };

const UNIT_RULES: Record<PriceListUnit, UnitRule> = {
  'GB-Mo': GB_MONTH,
  'IOPS-Mo': IOPS_MONTH,
  'throughput-Mo': THROUGHPUT_MONTH,
};

/**
 * The EBS usage types the catalog reads (after the region prefix), with their unit: each volume
 * type's cost components name theirs (aws/volume-types/*.ts, keyed like the rate card), then the
 * snapshots. io2's IOPS tiers are separate usage types, each listed over 0–Inf: their bounds
 * (32,000 / 64,000) are not in the offer file; they are AWS's published tiers
 * (aws/volume-types/io2.ts IO2_IOPS_TIERS).
 */
const EBS_USAGE_TYPES: Record<string, { key: EbsKey; unit: UnitRule }> = {
  ...Object.fromEntries(
    Object.entries(VOLUME_TYPE_REGISTRY).flatMap(([type, d]) =>
      d.costComponents.map((c) => [
        c.usageType,
        { key: `${type}.${c.key}` as EbsKey, unit: UNIT_RULES[c.priceListUnit] },
      ]),
    ),
  ),
  'EBS:SnapshotUsage': { key: 'snapshot.standard', unit: GB_MONTH },
  'EBS:SnapshotArchiveStorage': { key: 'snapshot.archive', unit: GB_MONTH },
};
const EBS_FAMILIES = new Set(['Storage', 'System Operation', 'Provisioned Throughput', 'Storage Snapshot']);

const ZONE_TYPES: Record<string, string> = {
  'AWS Region': 'region',
  'AWS Local Zone': 'local_zone',
  'AWS Wavelength Zone': 'wavelength_zone',
  'AWS Outposts': 'outposts',
};

/** `APN1-EBS:VolumeUsage.gp3` → `EBS:VolumeUsage.gp3`; null when the prefix is not a region's. */
export function stripRegionPrefix(usagetype: string, marker: string): string | null {
  const at = usagetype.indexOf(marker);
  if (at < 0) return null;
  return /^(?:[A-Z0-9]+-)*$/.test(usagetype.slice(0, at)) ? usagetype.slice(at) : null;
}

type Wanted =
  | { kind: 'ebs'; region: string; key: EbsKey; unit: UnitRule; usagetype: string }
  | { kind: 'ec2'; region: string; instanceType: string; unit: UnitRule; usagetype: string };

type Attributes = Record<string, unknown>;
const text = (a: Attributes, name: string): string | undefined =>
  typeof a[name] === 'string' ? (a[name] as string) : undefined;

/**
 * What a product is to the catalog: an EBS price component, an on-demand Linux shared-tenancy
 * instance hour, or nothing (most of an EC2 offer: Windows, dedicated hosts, reservations…).
 */
export function classifyProduct(product: unknown, fileRegion: string): Wanted | null {
  if (typeof product !== 'object' || product === null) return null;
  const { productFamily, attributes } = product as { productFamily?: unknown; attributes?: unknown };
  if (typeof productFamily !== 'string' || typeof attributes !== 'object' || attributes === null) return null;
  const a = attributes as Attributes;
  const usagetype = text(a, 'usagetype');
  if (usagetype === undefined) return null;
  const region = text(a, 'regionCode') ?? fileRegion;
  if (EBS_FAMILIES.has(productFamily)) {
    const bare = stripRegionPrefix(usagetype, 'EBS:');
    const rule = bare === null ? undefined : EBS_USAGE_TYPES[bare];
    return rule ? { kind: 'ebs', region, key: rule.key, unit: rule.unit, usagetype } : null;
  }
  if (productFamily === 'Compute Instance') {
    const instanceType = text(a, 'instanceType');
    const linuxShared =
      text(a, 'operatingSystem') === 'Linux' &&
      text(a, 'tenancy') === 'Shared' &&
      text(a, 'preInstalledSw') === 'NA' &&
      (text(a, 'capacitystatus') ?? 'Used') === 'Used' &&
      (text(a, 'licenseModel') ?? 'No License required') === 'No License required' &&
      stripRegionPrefix(usagetype, 'BoxUsage:') !== null;
    return instanceType && linuxShared ? { kind: 'ec2', region, instanceType, unit: HOURS, usagetype } : null;
  }
  return null;
}

/** One price dimension, as much of it as the catalog keeps. */
type Dimension = { path: string; unit: string; usd: string | undefined; begin: string; end: string };

/**
 * The price dimensions of `terms.OnDemand[sku]`, or the first malformed field. An OnDemand term
 * is `{ [sku.offerTermCode]: { priceDimensions: { [rateCode]: {...} } } }`.
 */
export function readOnDemandTerms(
  sku: string,
  terms: unknown,
): { ok: true; dimensions: Dimension[] } | { ok: false; path: string; message: string } {
  const base = `terms.OnDemand.${sku}`;
  if (typeof terms !== 'object' || terms === null)
    return { ok: false, path: base, message: 'expected an object of terms' };
  const dimensions: Dimension[] = [];
  for (const [termCode, term] of Object.entries(terms)) {
    const dims = (term as { priceDimensions?: unknown } | null)?.priceDimensions;
    if (typeof dims !== 'object' || dims === null)
      return { ok: false, path: `${base}.${termCode}.priceDimensions`, message: 'missing or not an object' };
    for (const [rateCode, dim] of Object.entries(dims)) {
      const path = `${base}.${termCode}.priceDimensions.${rateCode}`;
      const d = dim as { unit?: unknown; pricePerUnit?: unknown; beginRange?: unknown; endRange?: unknown };
      if (typeof d !== 'object' || d === null) return { ok: false, path, message: 'expected an object' };
      if (typeof d.unit !== 'string') return { ok: false, path: `${path}.unit`, message: 'missing' };
      if (typeof d.pricePerUnit !== 'object' || d.pricePerUnit === null)
        return { ok: false, path: `${path}.pricePerUnit`, message: 'missing or not an object' };
      const usd = (d.pricePerUnit as Record<string, unknown>).USD;
      if (usd !== undefined && typeof usd !== 'string')
        return {
          ok: false,
          path: `${path}.pricePerUnit.USD`,
          message: `expected a string, got ${typeof usd}`,
        };
      dimensions.push({
        path,
        unit: d.unit,
        usd,
        begin: typeof d.beginRange === 'string' ? d.beginRange : '0',
        end: typeof d.endRange === 'string' ? d.endRange : 'Inf',
      });
    }
  }
  return { ok: true, dimensions };
}

const PRICE = /^\d+(?:\.\d+)?$/;
// Float noise from the GiB → MiB division (77.824 / 1024) stays out of the catalog.
const roundPrice = (usd: number) => Math.round(usd * 1e10) / 1e10;

/**
 * The USD price per the catalog's unit, null when the offer has no USD price (the China
 * regions price in CNY), or the field that is wrong. Several dimensions are only accepted
 * when one of them starts at 0 (a first tier); the catalog's prices are flat per usage type.
 */
function priceOf(
  wanted: Wanted,
  dimensions: Dimension[],
): { ok: true; usd: number | null } | { ok: false; path: string; message: string } {
  const first = dimensions.filter((d) => Number(d.begin) === 0);
  if (first.length !== 1) {
    return {
      ok: false,
      path: dimensions[0]?.path ?? `terms.OnDemand (${wanted.usagetype})`,
      message: `${dimensions.length === 0 ? 'no price dimension' : `${first.length} price dimensions starting at 0`} for ${wanted.usagetype}, expected one`,
    };
  }
  const d = first[0]!;
  const unit = d.unit.toLowerCase();
  if (!wanted.unit.units.includes(unit))
    return {
      ok: false,
      path: `${d.path}.unit`,
      message: `"${d.unit}" for ${wanted.usagetype}, expected ${wanted.unit.units.join(' or ')}`,
    };
  if (d.usd === undefined) return { ok: true, usd: null };
  if (!PRICE.test(d.usd))
    return { ok: false, path: `${d.path}.pricePerUnit.USD`, message: `"${d.usd}" is not a price` };
  return { ok: true, usd: roundPrice(wanted.unit.perUnit(Number(d.usd), unit)) };
}

export type OfferRegionPrices = {
  region: string;
  location: string | null;
  zoneType: string | null;
  /** null when the offer has no EBS product for the region (then the catalog keeps what it had). */
  ebs: { rates: EbsRates; snapshot: { standard: number | null; archive: number | null } } | null;
  /** On-demand Linux shared-tenancy USD/hour; null when the offer prices no instance there. */
  ec2: Record<string, number> | null;
};

export type OfferProblem = { path: string; message: string };

/** Every price component of every type, none known yet (the registry's order: the catalog's). */
const emptyRates = (): EbsRates =>
  Object.fromEntries(
    Object.entries(VOLUME_TYPE_REGISTRY).map(([type, d]) => [
      type,
      Object.fromEntries(d.costComponents.map((c) => [c.key, null])),
    ]),
  ) as EbsRates;

type RegionState = {
  location: string | null;
  zoneType: string | null;
  ebs: Map<EbsKey, number | null>;
  ec2: Map<string, number>;
  instanceSkus: number;
};

/**
 * Collects one offer file's prices from its records, in any order: `addProduct` for each
 * `products` entry, `addOnDemand` for each `terms.OnDemand` entry. Products are usually first;
 * when terms come first, their dimensions wait (compact) until the product says what they are.
 */
export class OfferAccumulator {
  private readonly wanted = new Map<string, Wanted>();
  private readonly early = new Map<string, Dimension[]>();
  private readonly regions = new Map<string, RegionState>();
  private productsDone = false;
  private firstProblem: OfferProblem | null = null;
  readonly warnings: string[] = [];
  /** Counts, for the report and for tests of what was kept. */
  products = 0;
  terms = 0;

  constructor(private readonly fileRegion: string) {}

  get problem(): OfferProblem | null {
    return this.firstProblem;
  }

  /** The number of SKUs whose prices the accumulator holds or waits for: what its memory grows with. */
  get held(): number {
    return this.wanted.size + this.early.size;
  }

  private fail(path: string, message: string): void {
    this.firstProblem ??= { path, message };
  }

  private regionState(region: string): RegionState {
    let state = this.regions.get(region);
    if (!state) {
      state = { location: null, zoneType: null, ebs: new Map(), ec2: new Map(), instanceSkus: 0 };
      this.regions.set(region, state);
    }
    return state;
  }

  addProduct(sku: string, product: unknown): void {
    this.products++;
    if (typeof product !== 'object' || product === null) {
      this.fail(`products.${sku}`, 'expected an object');
      return;
    }
    const wanted = classifyProduct(product, this.fileRegion);
    if (!wanted) return;
    // The region becomes a key of the catalog (and text on every page that names it).
    if (!REGION_CODE.test(wanted.region)) {
      this.fail(
        `products.${sku}.attributes.regionCode`,
        `${JSON.stringify(wanted.region.slice(0, 60))} is not an AWS region code (such as us-east-1)`,
      );
      return;
    }
    const state = this.regionState(wanted.region);
    const attributes = (product as { attributes: Attributes }).attributes;
    state.location ??= text(attributes, 'location') ?? null;
    const locationType = text(attributes, 'locationType');
    state.zoneType ??= locationType ? (ZONE_TYPES[locationType] ?? locationType) : null;
    if (wanted.kind === 'ec2') state.instanceSkus++;
    this.wanted.set(sku, wanted);
    const waiting = this.early.get(sku);
    if (waiting) {
      this.early.delete(sku);
      this.price(sku, wanted, waiting);
    }
  }

  addOnDemand(sku: string, terms: unknown): void {
    this.terms++;
    const wanted = this.wanted.get(sku);
    // Products came first (as AWS writes them) and did not want this SKU: nothing to read.
    if (!wanted && this.productsDone) return;
    const read = readOnDemandTerms(sku, terms);
    if (!read.ok) {
      this.fail(read.path, read.message);
      return;
    }
    if (wanted) this.price(sku, wanted, read.dimensions);
    else this.early.set(sku, read.dimensions);
  }

  /**
   * The `products` object is over (the reader saw the next key): terms of SKUs no product
   * wanted are dropped from here on, and those that waited for their product go.
   */
  endProducts(): void {
    this.productsDone = true;
    this.early.clear();
  }

  private price(sku: string, wanted: Wanted, dimensions: Dimension[]): void {
    const price = priceOf(wanted, dimensions);
    if (!price.ok) {
      this.fail(price.path, price.message);
      return;
    }
    const state = this.regionState(wanted.region);
    if (wanted.kind === 'ebs') {
      const had = state.ebs.get(wanted.key);
      if (had != null && price.usd !== null && had !== price.usd)
        this.warnings.push(
          `${wanted.region} ${wanted.key}: two prices (${had}, ${price.usd}, SKU ${sku}); kept the first`,
        );
      if (had == null) state.ebs.set(wanted.key, price.usd);
      if (price.usd === null)
        this.warnings.push(`${wanted.region} ${wanted.usagetype}: no USD price (SKU ${sku})`);
      return;
    }
    // A zero hourly price is not an on-demand price (reservation placeholders): left out.
    if (price.usd === null || price.usd === 0) return;
    if (!state.ec2.has(wanted.instanceType)) state.ec2.set(wanted.instanceType, price.usd);
  }

  /** The prices by region, or the first malformed field. */
  finish(): { ok: true; regions: OfferRegionPrices[] } | { ok: false; problem: OfferProblem } {
    if (this.firstProblem) return { ok: false, problem: this.firstProblem };
    const regions: OfferRegionPrices[] = [];
    for (const [region, state] of [...this.regions].sort(([a], [b]) => (a < b ? -1 : 1))) {
      let ebs: OfferRegionPrices['ebs'] = null;
      if (state.ebs.size > 0) {
        const rates = emptyRates();
        const snapshot = { standard: null as number | null, archive: null as number | null };
        for (const [key, usd] of state.ebs) {
          const [type, component] = key.split('.') as [string, string];
          if (type === 'snapshot') snapshot[component as 'standard' | 'archive'] = usd;
          else (rates[type as keyof EbsRates] as Record<string, number | null>)[component] = usd;
        }
        ebs = { rates, snapshot };
      }
      const ec2 =
        state.ec2.size > 0 ? Object.fromEntries([...state.ec2].sort(([a], [b]) => (a < b ? -1 : 1))) : null;
      if (ebs || ec2) regions.push({ region, location: state.location, zoneType: state.zoneType, ebs, ec2 });
    }
    return { ok: true, regions };
  }
}
