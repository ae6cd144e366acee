import { pricesOlderThanAYear } from '@blockwise/shared/aws';

/** "prices of 2025-06-01", and "over a year old" when they are: the words PriceStamp shows. */
export function priceStampText(
  rates: { date: string; region?: string | null },
  today: Date,
): {
  text: string;
  stale: boolean;
} {
  const stale = pricesOlderThanAYear(rates.date, today);
  const where = rates.region === undefined ? '' : ` ${rates.region ?? 'custom rates'}`;
  return {
    text: `${where ? `${where.trim()} ` : ''}prices of ${rates.date}${stale ? ', over a year old' : ''}`,
    stale,
  };
}

/**
 * The date (and region) of the prices beside a cost, so every figure says when it was true (the
 * rate card section says where from). Red when the prices are over a year old.
 */
export function PriceStamp({
  rates,
  today = new Date(),
}: {
  rates: { date: string; source?: string; region?: string | null };
  today?: Date;
}) {
  const { text, stale } = priceStampText(rates, today);
  return (
    <span
      className={`price-stamp${stale ? ' price-stamp--stale' : ''}`}
      {...(rates.source ? { title: `Source: ${rates.source}` } : {})}
      data-testid="price-stamp"
    >
      ({text})
    </span>
  );
}
