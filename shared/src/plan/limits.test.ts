import { describe, expect, it } from 'vitest';
import { utilizationStatus } from './limits.js';

// Utilizations from the scenarios of docs/domain.md (§ physical model worked examples).
describe('utilizationStatus', () => {
  it.each([
    // c6a.xlarge, 625 MiB/s against its 1,192.1 MiB/s bandwidth burst: 52 %.
    { case: 'c6a.xlarge bandwidth burst, 625 / 1,192.1 MiB/s', u: 625 / 1192.1, status: 'ok' },
    // r5d.4xlarge golden run: 9,061 IOPS of the gp3's 16,000.
    { case: 'r5d.4xlarge gp3 IOPS, 9,061 / 16,000', u: 9061 / 16000, status: 'ok' },
    // The same run's 569 MiB/s against the instance's 4,750 Mbps = 566.2 MiB/s: at the ceiling
    // within the 5 % tolerance, so saturated, not over.
    { case: 'r5d.4xlarge instance bandwidth, 569 / 566.2 MiB/s', u: 569 / 566.2, status: 'saturated' },
    { case: 'exactly 95 %', u: 0.95, status: 'saturated' },
    { case: 'just under 95 %', u: 0.9499, status: 'ok' },
    { case: 'exactly the 5 % tolerance', u: 1.05, status: 'saturated' },
    // gp2 500 GiB asked 2,500 IOPS against a 1,500 baseline: 167 %, more than any volume delivered.
    { case: 'gp2 500 GiB, 2,500 / 1,500 IOPS', u: 2500 / 1500, status: 'over' },
    // A number that is not one is never "ok".
    { case: 'NaN', u: Number.NaN, status: 'over' },
  ])('$case → $status', ({ u, status }) => {
    expect(utilizationStatus(u)).toBe(status);
  });
});
