import { describe, expect, it } from 'vitest';
import { regionRateCardFor } from '../aws/ebs-prices.ts';
import { fleetCatalogFor } from './fleet-catalog.ts';

describe('fleetCatalogFor', () => {
  it('us-east-1: the region card, instance limits by type, the snapshot price of the built-in catalog', () => {
    const catalog = fleetCatalogFor('us-east-1');
    if (!catalog.ok) throw new Error(catalog.error.message);
    expect(catalog.value.rateCard.region).toBe('us-east-1');
    // r5.4xlarge: 4,750 Mbps baseline EBS bandwidth (DescribeInstanceTypes).
    expect(catalog.value.findInstance('r5.4xlarge')?.ebs?.baselineBandwidthMbps).toBe(4750);
    expect(catalog.value.findInstance('no-such.type')).toBeUndefined();
    expect(catalog.value.snapshotUsdPerGibMonth === null || catalog.value.snapshotUsdPerGibMonth > 0).toBe(
      true,
    );
  });

  it('a card the caller loaded (the CLI --rates file) wins over the region lookup', () => {
    const card = { ...regionRateCardFor('us-east-1')!, source: 'my rates' };
    const catalog = fleetCatalogFor('us-east-1', card);
    expect(catalog.ok && catalog.value.rateCard.source).toBe('my rates');
  });

  it('an unknown region is a problem naming the field, never a guessed price', () => {
    const catalog = fleetCatalogFor('mars-north-1');
    expect(catalog).toMatchObject({ ok: false, error: { code: 'region_unknown', path: 'region' } });
  });
});
