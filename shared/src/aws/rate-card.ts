import { z } from 'zod';
import type { Result } from '../problem.ts';
import { fail, ok } from '../problem.ts';
import { VOLUME_TYPES, type VolumeType } from './volume-types.ts';

/**
 * EBS prices for one region (or a user's own), in USD:
 * storage per GB-month (AWS's "GB" means GiB); gp3 `iops` per IOPS-month above the free 3,000 and
 * `throughput` per MiB/s-month above the free 125; io1 `iops` per IOPS-month (all of them); io2
 * graduated per IOPS-month: `iops` for 1–32,000, `iops2` for 32,001–64,000, `iops3` above.
 * Every card carries its source and date: a cost without them is not defensible.
 */
const rate = z.number().nonnegative().finite();
export const RateCardSchema = z.object({
  region: z.string().nullable(),
  location: z.string().nullable(),
  source: z.string(),
  date: z.string(),
  gp2: z.object({ storage: rate }),
  gp3: z.object({ storage: rate, iops: rate, throughput: rate }),
  io1: z.object({ storage: rate, iops: rate }),
  io2: z.object({ storage: rate, iops: rate, iops2: rate, iops3: rate }),
  st1: z.object({ storage: rate }),
  sc1: z.object({ storage: rate }),
});
export type RateCard = z.infer<typeof RateCardSchema>;

/**
 * The seed guide's example rates ($0.08 per GB, $0.005 per IOPS above 3,000, $0.06 per MB/s above
 * 125): its cost tables are computed with these. They are NOT the real eu-central-1 rates (domain.md
 * §8); only gp3 is defined by the guide, the other types use us-east-1 2022-02-10 rates.
 */
export const SEED_GUIDE_GP3 = { storage: 0.08, iops: 0.005, throughput: 0.06 } as const;

const RATE_KEYS: Record<VolumeType, readonly string[]> = {
  gp2: ['storage'],
  gp3: ['storage', 'iops', 'throughput'],
  io1: ['storage', 'iops'],
  io2: ['storage', 'iops', 'iops2', 'iops3'],
  st1: ['storage'],
  sc1: ['storage'],
};

/**
 * Applies user rates such as `storage=0.08,iops=0.005,throughput=0.06` (keys of `type`), or
 * qualified `gp3.storage=0.08,io2.iops2=0.05` (any type), over a base card. The result's source
 * says the card was edited, so a shared link never passes custom rates off as AWS prices.
 */
export function applyRateOverrides(base: RateCard, text: string, type?: VolumeType): Result<RateCard> {
  const card: RateCard = {
    ...base,
    gp2: { ...base.gp2 },
    gp3: { ...base.gp3 },
    io1: { ...base.io1 },
    io2: { ...base.io2 },
    st1: { ...base.st1 },
    sc1: { ...base.sc1 },
  };
  const pairs = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (pairs.length === 0)
    return fail('rates_invalid', 'expected key=value pairs such as storage=0.08,iops=0.005');
  const applied: string[] = [];
  for (const pair of pairs) {
    const m = /^([a-z0-9]+)(?:\.([a-z0-9]+))?\s*=\s*(\d+(?:\.\d+)?)$/i.exec(pair);
    if (!m)
      return fail(
        'rates_invalid',
        `"${pair}": expected key=value with a non-negative number, e.g. iops=0.005`,
      );
    const [, first, second, value] = m as unknown as [string, string, string | undefined, string];
    const t = (second === undefined ? type : first) as VolumeType | undefined;
    const key = second ?? first;
    if (t === undefined || !VOLUME_TYPES.includes(t)) {
      return fail(
        'rates_invalid',
        `"${pair}": say which volume type the rate is for (e.g. gp3.${key}=${value}) or pass the volume type`,
      );
    }
    if (!RATE_KEYS[t].includes(key)) {
      return fail('rates_invalid', `"${pair}": ${t} has the rates ${RATE_KEYS[t].join(', ')}`);
    }
    (card[t] as Record<string, number>)[key] = Number(value);
    applied.push(`${t}.${key}=${value}`);
  }
  card.source = `custom rates (${applied.join(', ')}) over ${base.source}`;
  return ok(card);
}

export function describeRateCard(card: RateCard): string {
  return `${card.region ?? 'custom'}${card.location ? ` (${card.location})` : ''}, prices as of ${card.date}, source: ${card.source}`;
}
