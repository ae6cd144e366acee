import { describe, expect, it } from 'vitest';
import { findInstanceType } from '../aws/instances.ts';
import { regionRateCardFor } from '../aws/ebs-prices.ts';
import { publishedProfile } from '../test-support/profiles.ts';
import { checkIac } from './check.ts';

describe('check-iac: an io1 over-provisioned against gp3 names the trade', () => {
  it('io1 500 GiB / 20,000 IOPS where demand peaks at 4,400: $1,362.50 → gp3 $52.50, durability and consistency named', () => {
    const r = checkIac({
      volumes: [
        {
          file: 'plan.json',
          subject: 'aws_ebs_volume.db',
          origin: 'terraform',
          volume: { type: 'io1', sizeGiB: 500, iops: 20000 },
          instanceType: 'r6i.4xlarge',
        },
      ],
      profile: publishedProfile({ readIops: 2200, readMiBps: 17.2, writeIops: 2200, writeMiBps: 17.2 }),
      headroom: 0.25,
      rateCard: regionRateCardFor('us-east-1')!,
      findInstance: findInstanceType,
    });
    const over = r.findings.find((f) => f.code === 'over_provisioned')!;
    // 500 × $0.125 + 20,000 × $0.065 = $62.50 + $1,300; gp3 500 GiB 5,500 IOPS: $40 + $12.50
    expect(over.message).toContain('costs $1,362.50/month');
    expect(over.message).toContain('for $52.50/month');
    expect(over.message).toContain(
      "The trade: io1 → gp3 gives up io1's ≥ 90 % of provisioned IOPS 99.9 % of the time",
    );
    expect(over.message).toContain('benchmark p99');
  });
});
