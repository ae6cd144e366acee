import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PriceStamp, priceStampText } from './PriceStamp.tsx';

const today = new Date('2026-11-24T12:00:00Z');

describe('PriceStamp: the date of the prices beside each cost', () => {
  it.each([
    [{ date: '2026-06-01', region: 'us-east-1' }, 'us-east-1 prices of 2026-06-01', false],
    [{ date: '2025-06-01', region: 'eu-west-1' }, 'eu-west-1 prices of 2025-06-01, over a year old', true],
    [{ date: '2026-11-01', region: null }, 'custom rates prices of 2026-11-01', false],
    [{ date: '2022-02-10' }, 'prices of 2022-02-10, over a year old', true],
  ])('%j → %s', (rates, text, stale) => expect(priceStampText(rates, today)).toEqual({ text, stale }));

  it('marks stale prices and names the source', () => {
    render(
      <PriceStamp
        rates={{ date: '2022-02-10', region: 'us-east-1', source: 'AWS Price List API' }}
        today={today}
      />,
    );
    const stamp = screen.getByTestId('price-stamp');
    expect(stamp.textContent).toBe('(us-east-1 prices of 2022-02-10, over a year old)');
    expect(stamp.className).toContain('price-stamp--stale');
    expect(stamp.getAttribute('title')).toBe('Source: AWS Price List API');
  });
});
