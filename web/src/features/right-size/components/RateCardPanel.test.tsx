import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RateMeta } from './RateCardPanel.tsx';

describe('RateMeta: date and source beside the costs', () => {
  const today = new Date('2026-11-24T12:00:00Z');
  it('warns when the prices are over a year old', () => {
    render(
      <RateMeta
        rates={{ region: 'us-east-1', source: 'AWS Price List …', date: '2022-02-10' }}
        catalog="built-in catalog"
        today={today}
      />,
    );
    expect(screen.getByText('built-in catalog')).toBeTruthy();
    expect(screen.getByTestId('stale-prices').textContent).toMatch(
      /over a year old.*blockwise catalog update/,
    );
  });

  it('says nothing more for prices of this year', () => {
    render(
      <RateMeta
        rates={{ region: 'us-east-1', source: 'AWS Price List …', date: '2026-11-01' }}
        today={today}
      />,
    );
    expect(screen.queryByTestId('stale-prices')).toBeNull();
    expect(screen.getByText('2026-11-01')).toBeTruthy();
  });
});
