import { describe, expect, it } from 'vitest';
import { profileFromObserved } from './observed.ts';

describe('profileFromObserved: the implausible block size warning', () => {
  it('names the size in a readable unit', () => {
    // A per-period total typed as a rate: 10 TiB/s over 1,000 IOPS is 10.2 GiB per I/O (was "10737418 KiB").
    const r = profileFromObserved({
      read: { iops: 1000, throughput: 10 * 1024, throughputUnit: 'GiB/s' },
      write: { iops: 0, throughput: 0, throughputUnit: 'MiB/s' },
    });
    if (!r.ok) throw new Error(r.error.message);
    const w = r.value.warnings.find((x) => x.code === 'implausible_block_size');
    expect(w?.message).toMatch(/^read: 10.2 GiB per I\/O is implausible/);
    expect(w?.message).not.toContain('KiB');
  });

  it('says nothing for a plausible 64 KiB', () => {
    const r = profileFromObserved({
      read: { iops: 3000, throughput: 187.5, throughputUnit: 'MiB/s' },
      write: { iops: 0, throughput: 0, throughputUnit: 'MiB/s' },
    });
    expect(r.ok && r.value.warnings.some((x) => x.code === 'implausible_block_size')).toBe(false);
  });
});
