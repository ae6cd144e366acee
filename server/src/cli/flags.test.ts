import { priceAvailable } from '@blockwise/shared/aws';
import { describe, expect, it } from 'vitest';
import { parseThroughputMiBps, resolveRateCard } from './flags.ts';
import { UsageError } from './io.ts';

/** Calls `fn`, returning the UsageError it throws (or failing when it throws nothing). */
function usageErrorOf(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('expected a UsageError');
}

describe('parseThroughputMiBps: gp3 throughput in whole MiB/s', () => {
  it.each([
    // text, MiB/s provisioned, note written
    ['125', 125, false],
    ['1000', 1000, false],
    ['500 MiB/s', 500, false],
    ['2GiB/s', 2048, false],
    ['128000KiB/s', 125, false],
    ['125.1', 126, true],
    ['999.999MiB/s', 1000, true],
    ['1000KiB/s', 1, true],
  ] as const)('%s → %d MiB/s', (text, miBps, noted) => {
    const notes: string[] = [];
    expect(parseThroughputMiBps(text, '--throughput', { stderr: (t) => void notes.push(t) })).toBe(miBps);
    expect(notes.length > 0).toBe(noted);
    // Without an io (a caller that prints no notes) the value is the same.
    expect(parseThroughputMiBps(text, '--throughput')).toBe(miBps);
  });

  it.each([
    ['125MB/s', '125MB/s = 119.2 MiB/s', '120MiB/s'],
    ['1000Mbps', '1000Mbps = 119.2 MiB/s', '120MiB/s'],
    ['4000Mbps', '4000Mbps = 476.8 MiB/s', '477MiB/s'],
    ['1GB/s', '1GB/s = 953.7 MiB/s', '954MiB/s'],
    ['131072KB/s', '131072KB/s = 125 MiB/s', '125MiB/s'],
  ])('%s is refused with the conversion and a whole MiB/s to give', (text, conversion, suggestion) => {
    const error = usageErrorOf(() => parseThroughputMiBps(text, '--throughput'));
    expect(error.flag).toBe('--throughput');
    expect(error.message).toBe(
      `--throughput: gp3 throughput is provisioned in MiB/s (${conversion}): give e.g. ${suggestion}`,
    );
  });
});

describe('resolveRateCard for planning: a region missing one price still prices the others', () => {
  it.each([
    // region, measured volume type, io2 priced
    ['us-east-1', undefined, true],
    ['sa-east-1', undefined, false],
    ['sa-east-1', 'gp3', false],
  ] as const)('%s (measured %s): a card, io2 priced: %s', (region, type, io2) => {
    const card = resolveRateCard(region, undefined, type);
    expect(card.region).toBe(region);
    expect(priceAvailable(card, 'gp3')).toBe(true);
    expect(priceAvailable(card, 'io2')).toBe(io2);
  });

  it('the measured volume itself must be priced: its cost is reported as is', () => {
    const error = usageErrorOf(() => resolveRateCard('sa-east-1', undefined, 'io2'));
    expect(error.flag).toBe('--region');
    expect(error.message).toMatch(/^--region: no io2 price for sa-east-1 in the catalog/);
  });
});
