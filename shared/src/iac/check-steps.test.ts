import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { regionRateCardFor } from '../aws/ebs-prices.ts';
import { findInstanceType } from '../aws/instances.ts';
import { censoringOfSeries } from '../demand/demand.ts';
import { rightSize } from '../plan/right-size.ts';
import type { VolumeConfig } from '../plan/volume.ts';
import type { IoProfile } from '../profile/io-profile.schema.ts';
import { publishedProfile } from '../test-support/profiles.ts';
import { importMetrics } from '../timeseries/import-metrics.ts';
import { profileFromSeries } from '../timeseries/sizing.ts';
import { formatInt, mbps, mbpsToMiBps, formatDecimal } from '../units.ts';
import {
  checkCensoring,
  checkInstanceCap,
  checkOverProvisioned,
  checkShortfalls,
  instanceOf,
  priceOf,
  type DemandContext,
  type Emit,
} from './check.ts';
import type { IacFinding, IacVolume } from './schema.ts';

// checkVolume's steps (iac/check.ts), each on its own: what it emits and what it answers.
const card = regionRateCardFor('us-east-1')!;
const collect = () => {
  const found: Pick<IacFinding, 'kind' | 'code' | 'message' | 'wasteUsdPerMonth'>[] = [];
  const emit: Emit = (kind, code, message, waste) =>
    found.push({ kind, code, message, wasteUsdPerMonth: waste ?? null });
  return { found, emit };
};
const vol = (volume: VolumeConfig, extra: Partial<IacVolume> = {}): IacVolume => ({
  file: 'plan.json',
  subject: 'aws_ebs_volume.x',
  origin: 'terraform',
  volume,
  instanceType: null,
  ...extra,
});
const demandOf = (
  v: IacVolume,
  profile: IoProfile,
  headroom = 0.25,
): DemandContext & { found: unknown[] } => {
  const { found, emit } = collect();
  const instance = v.instanceType ? (findInstanceType(v.instanceType) ?? null) : null;
  const rs = rightSize({
    profile,
    headroom,
    minSizeGiB: v.volume.sizeGiB,
    instance,
    rateCard: card,
    gp3Generation: 'current',
  });
  const input = { volumes: [v], profile, headroom, rateCard: card, findInstance: findInstanceType };
  return { v, config: v.volume, instance, input, rs, emit, found };
};
/** 12,000 random 4 KiB reads per second (iac.test.ts's done-means case). */
const demand12k = publishedProfile({ readIops: 12_000, readMiBps: 46.875, writeIops: 0, writeMiBps: 0 });

describe('instanceOf', () => {
  it('none in the code: null, nothing said', () => {
    const { found, emit } = collect();
    expect(instanceOf(vol({ type: 'gp3', sizeGiB: 10 }), findInstanceType, emit)).toBeNull();
    expect(found).toEqual([]);
  });

  it('a catalog type: its spec; an unknown one: null and the note naming it', () => {
    const { found, emit } = collect();
    expect(
      instanceOf(vol({ type: 'gp3', sizeGiB: 10 }, { instanceType: 'm5.large' }), findInstanceType, emit),
    ).toBe(findInstanceType('m5.large'));
    expect(
      instanceOf(vol({ type: 'gp3', sizeGiB: 10 }, { instanceType: 'x9.huge' }), findInstanceType, emit),
    ).toBeNull();
    expect(found).toEqual([
      {
        kind: 'note',
        code: 'instance_unknown',
        message: 'instance type x9.huge is not in the catalog: its EBS caps are not checked',
        wasteUsdPerMonth: null,
      },
    ]);
  });
});

describe('priceOf', () => {
  it('gp3 1,000 GiB at the included 3,000 IOPS / 125 MiB/s: 1,000 × $0.08 = $80.00 (us-east-1)', () => {
    const { found, emit } = collect();
    expect(card.gp3.storage).toBe(0.08);
    expect(priceOf({ type: 'gp3', sizeGiB: 1000, iops: 3000, throughputMiBps: 125 }, card, emit)!.total).toBe(
      80,
    );
    expect(found).toEqual([]);
  });

  it('a card without the type’s price (sa-east-1 has no io2): null and price_missing', () => {
    const { found, emit } = collect();
    const sa = regionRateCardFor('sa-east-1')!;
    expect(priceOf({ type: 'io2', sizeGiB: 100, iops: 3000 }, sa, emit)).toBeNull();
    expect(found.map((f) => [f.kind, f.code])).toEqual([['note', 'price_missing']]);
    expect(found[0]!.message).toMatch(/^no io2 price in .*: its cost is not judged$/);
  });
});

describe('checkInstanceCap', () => {
  const m5large = findInstanceType('m5.large')!;
  const big: VolumeConfig = { type: 'gp3', sizeGiB: 1000, iops: 16_000, throughputMiBps: 1000 };

  it('a volume above the instance’s EBS cap in IOPS and MiB/s: both named, with the instance’s figures', () => {
    const { found, emit } = collect();
    checkInstanceCap(vol(big, { instanceType: 'm5.large' }), big, m5large, false, emit);
    expect(found.map((f) => [f.kind, f.code])).toEqual([['instance-cap', 'instance_cap_below_volume']]);
    const mibps = mbpsToMiBps(mbps(m5large.ebs!.baselineBandwidthMbps));
    expect(found[0]!.message).toContain(
      `16,000 IOPS (the instance sustains ${formatInt(m5large.ebs!.baselineIops)})`,
    );
    expect(found[0]!.message).toContain(
      `${formatDecimal(1000, 1)} MiB/s (the instance sustains ${formatInt(m5large.ebs!.baselineBandwidthMbps)} Mbps = ${formatDecimal(mibps, 1)} MiB/s`,
    );
  });

  it('within the cap: nothing', () => {
    const { found, emit } = collect();
    const small: VolumeConfig = { type: 'gp3', sizeGiB: 100, iops: 3000, throughputMiBps: 125 };
    checkInstanceCap(
      vol(small, { instanceType: 'm5.4xlarge' }),
      small,
      findInstanceType('m5.4xlarge')!,
      true,
      emit,
    );
    expect(found).toEqual([]);
  });

  it.each([
    ['terraform', true, ['instance_not_in_code']],
    ['terraform', false, []],
    ['kubernetes', true, []],
  ] as const)('no instance in the code (%s, demand %s): %j', (origin, demand, want) => {
    const { found, emit } = collect();
    checkInstanceCap(vol(big, { origin }), big, null, demand, emit);
    expect(found.map((f) => f.code)).toEqual(want);
  });
});

describe('checkCensoring', () => {
  // iostat every 10 s for 2 h at 2,950–3,000 IOPS (fixtures/demand/README.md).
  const series = (() => {
    const r = importMetrics(
      readFileSync(resolve(import.meta.dirname, '../../../fixtures/demand/iostat_10s_pinned_3000.txt')),
    );
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  })();
  const profile = (() => {
    const p = profileFromSeries(series);
    if (!p.ok) throw new Error(p.error.message);
    return p.value;
  })();
  const at3000: VolumeConfig = { type: 'gp3', sizeGiB: 500, iops: 3000, throughputMiBps: 125 };
  const at16000: VolumeConfig = { type: 'gp3', sizeGiB: 500, iops: 16_000, throughputMiBps: 250 };
  const withSeries = (d: DemandContext) => ({ ...d, input: { ...d.input, deliveredSeries: series } });

  it('pinned at the limit the code provisions: under, and the pinned IOPS answered', () => {
    const d = demandOf(vol(at3000), profile);
    const censoring = checkCensoring(withSeries(d), censoringOfSeries(series));
    expect(censoring.map((c) => [c.quantity, c.limit])).toEqual([['iops', 3000]]);
    expect(d.found).toMatchObject([{ kind: 'under', code: 'demand_censored' }]);
  });

  it('a plan raising the pinned limit (current 3,000 → 16,000): a note, asking to measure once applied', () => {
    const d = demandOf(vol(at16000, { current: at3000 }), profile);
    expect(checkCensoring(withSeries(d), censoringOfSeries(series))).toHaveLength(1);
    expect(d.found).toMatchObject([{ kind: 'note', code: 'demand_censored' }]);
    expect((d.found[0] as IacFinding).message).toContain(
      'this plan raises the limit: measure again once it is applied',
    );
  });

  it('no delivered series, or the points below the volume’s limit: nothing', () => {
    const d = demandOf(vol(at3000), profile);
    expect(checkCensoring(d, null)).toEqual([]);
    const e = demandOf(vol(at16000), profile);
    expect(checkCensoring(withSeries(e), censoringOfSeries(series))).toEqual([]);
    expect([...d.found, ...e.found]).toEqual([]);
  });
});

describe('checkShortfalls', () => {
  it('12,000 IOPS + 25 % on a gp3 at 3,000: the volume’s IOPS binds (answered), the m5.4xlarge does not', () => {
    const d = demandOf(
      vol({ type: 'gp3', sizeGiB: 1000, iops: 3000, throughputMiBps: 125 }, { instanceType: 'm5.4xlarge' }),
      demand12k,
    );
    const short = checkShortfalls(d);
    expect(short.map((l) => [l.scope, l.unit, l.capacity])).toEqual([['volume', 'IOPS', 3000]]);
    expect(d.found).toMatchObject([{ kind: 'under', code: 'under_provisioned' }]);
    expect((d.found[0] as IacFinding).message).toContain(
      'demand 12,000 IOPS + 25% headroom = 15,000 IOPS, above the 3,000 IOPS provisioned',
    );
  });

  it('an instance below the demand (m5.large, 3,600 IOPS baseline): instance_limit_binds', () => {
    const d = demandOf(
      vol({ type: 'gp3', sizeGiB: 1000, iops: 16_000, throughputMiBps: 125 }, { instanceType: 'm5.large' }),
      demand12k,
    );
    expect(checkShortfalls(d)).toEqual([]);
    expect(d.found).toMatchObject([{ kind: 'under', code: 'instance_limit_binds' }]);
  });
});

describe('checkOverProvisioned', () => {
  const maxed: VolumeConfig = { type: 'gp3', sizeGiB: 1000, iops: 80_000, throughputMiBps: 1000 };

  it('the done-means case: $500.00 provisioned, $140.00 right-sized → over by $360.00, right-sized gp3 15,000 IOPS', () => {
    const d = demandOf(vol(maxed), demand12k);
    const rightSized = checkOverProvisioned(d, priceOf(maxed, card, d.emit), []);
    expect(rightSized).toMatchObject({
      type: 'gp3',
      volume: { sizeGiB: 1000, iops: 15_000, throughputMiBps: 125 },
    });
    expect(d.found).toMatchObject([{ kind: 'over', code: 'over_provisioned', wasteUsdPerMonth: 360 }]);
  });

  it('a volume limit short, no price, or waste under the minimum: right-sized, not said to be over', () => {
    const d = demandOf(vol(maxed), demand12k);
    const short = checkShortfalls(demandOf(vol({ ...maxed, iops: 3000 }), demand12k));
    expect(checkOverProvisioned(d, priceOf(maxed, card, d.emit), short)).not.toBeNull();
    expect(checkOverProvisioned(d, null, [])).not.toBeNull();
    const rich = { ...d, input: { ...d.input, minWasteUsd: 361 } };
    expect(checkOverProvisioned(rich, priceOf(maxed, card, d.emit), [])).not.toBeNull();
    expect(d.found).toEqual([]);
  });
});
