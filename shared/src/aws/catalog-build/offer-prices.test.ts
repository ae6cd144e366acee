import { describe, expect, it } from 'vitest';
import { OfferAccumulator, classifyProduct, stripRegionPrefix } from './offer-prices.ts';

const product = (productFamily: string, attributes: Record<string, string>) => ({
  sku: 'S',
  productFamily,
  attributes,
});
const linux = {
  instanceType: 'm5.large',
  operatingSystem: 'Linux',
  tenancy: 'Shared',
  preInstalledSw: 'NA',
  capacitystatus: 'Used',
  usagetype: 'BoxUsage:m5.large',
};

describe('AWS Price List records', () => {
  it.each([
    ['EBS:VolumeUsage.gp3', 'EBS:VolumeUsage.gp3'], // us-east-1: no prefix
    ['APN1-EBS:VolumeUsage.gp3', 'EBS:VolumeUsage.gp3'],
    ['USW2-LAX1-EBS:VolumeP-IOPS.io2.tier2', 'EBS:VolumeP-IOPS.io2.tier2'], // a Local Zone
    ['apn1-EBS:VolumeUsage.gp3', null], // not a region prefix
  ])('usage type %s → %s', (usagetype, bare) => {
    expect(stripRegionPrefix(usagetype, 'EBS:')).toBe(bare);
  });

  it('keeps on-demand Linux shared-tenancy hours only', () => {
    expect(classifyProduct(product('Compute Instance', linux), 'us-east-1')).toMatchObject({
      kind: 'ec2',
      instanceType: 'm5.large',
    });
    for (const other of [
      { operatingSystem: 'Windows' },
      { tenancy: 'Dedicated' },
      { preInstalledSw: 'SQL Web' },
      { capacitystatus: 'UnusedCapacityReservation' },
      { usagetype: 'Reservation:m5.large' },
    ])
      expect(classifyProduct(product('Compute Instance', { ...linux, ...other }), 'us-east-1')).toBeNull();
  });

  it('a component the offer lacks stays null; the others are priced (sa-east-1 without io2)', () => {
    const acc = new OfferAccumulator('sa-east-1');
    acc.addProduct(
      'A',
      product('Storage', { usagetype: 'SAE1-EBS:VolumeUsage.gp3', regionCode: 'sa-east-1' }),
    );
    acc.endProducts();
    acc.addOnDemand('A', {
      'A.T': {
        priceDimensions: {
          'A.T.R': { unit: 'GB-Mo', beginRange: '0', endRange: 'Inf', pricePerUnit: { USD: '0.1520000000' } },
        },
      },
    });
    const done = acc.finish();
    expect(done.ok && done.regions[0]!.ebs!.rates).toMatchObject({
      gp3: { storage: 0.152, iops: null, throughput: null },
      io2: { storage: null, iops: null, iops2: null, iops3: null },
    });
  });
});
