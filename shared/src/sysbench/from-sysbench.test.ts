import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IoProfileSchema, type IoProfile } from '../profile/io-profile.schema.ts';
import { profileFromSysbench } from './from-sysbench.ts';
import { parseSysbench } from './parse-sysbench.ts';

const FIXTURES = new URL('../../../fixtures/sysbench/', import.meta.url);
const MiB = 1024 * 1024;

function profile(name: string): IoProfile {
  const r = parseSysbench(readFileSync(new URL(name, FIXTURES), 'utf8'));
  if (!r.ok) throw new Error(r.error.message);
  const p = profileFromSysbench(r.value);
  if (!p.ok) throw new Error(p.error.message);
  return IoProfileSchema.parse(p.value);
}
const codes = (p: IoProfile) => p.warnings.map((w) => w.code);

describe('profileFromSysbench', () => {
  it('a: rndrw 16 KiB buffered with periodic fsync → per-direction load, one shared approximate latency', () => {
    const p = profile('a_rndrw_16k_fsync100.txt');
    expect(p.source).toBe('sysbench');
    expect(p.label).toBe('sysbench rndrw 16 KiB, 1 thread');
    expect(p.durationSec).toBe(5.0388);
    expect(p.read).toMatchObject({ iops: 6390.7, blockSizeBytes: 16384 });
    expect(p.read.bytesPerSec / MiB).toBeCloseTo(99.85, 2);
    expect(p.write.bytesPerSec / MiB).toBeCloseTo(66.57, 2);
    // sysbench's single distribution: p95 0.10 ms, avg 0.04 ms, for reads and writes alike.
    expect(p.read.latency).toEqual({ percentiles: { '95': 0.1 }, approximate: true, meanMs: 0.04 });
    expect(p.write.latency).toEqual(p.read.latency);
    expect(p.benchmark).toMatchObject({
      tool: 'sysbench',
      version: '1.0.20',
      configuredBlockSize: { read: 16384, write: 16384 },
      blockSizeDefaulted: false,
      direct: false,
      rw: 'rndrw',
      sequential: false,
      ioengine: 'psync',
      outstandingIos: 1,
      timeBased: true,
      syncs: true,
      jobEntries: 1,
      groups: 1,
    });
    expect(codes(p)).toEqual(['sysbench_latency_combined', 'buffered_io', 'sysbench_periodic_fsync']);
  });

  it('d: --file-fsync-freq=0 does not sync: 25.20 fsyncs/s are the end-of-test fsync of 128 files over 5.08 s', () => {
    const p = profile('d_rndwr_4k_direct_nofsync.txt');
    expect(128 / 5.0775).toBeCloseTo(25.2, 1);
    expect(p.benchmark).toMatchObject({ syncs: false, direct: true });
    expect(p.read).toEqual({ iops: 0, bytesPerSec: 0, blockSizeBytes: null, latency: null });
    // 17,655.15 writes/s × 4 KiB = 68.97 MiB/s.
    expect(p.write.bytesPerSec / MiB).toBeCloseTo(68.97, 2);
    expect(codes(p)).toEqual([]);
  });

  it('c: a read-only test prints "Periodic FSYNC enabled" but never syncs (fsyncs/s 0.00)', () => {
    const p = profile('c_rndrd_16k_direct_2threads.txt');
    expect(p.benchmark).toMatchObject({ syncs: false, outstandingIos: 2 });
  });

  it('g: --file-fsync-all (an fsync after each write: fsyncs/s = writes/s) syncs', () => {
    const p = profile('g_rndrw_16k_fsync_all_fdatasync.txt');
    expect(p.benchmark?.syncs).toBe(true);
  });

  it('f: async mode — latency is submission time, so none is reported, and the engine is libaio', () => {
    const p = profile('f_rndrw_8k_async_direct_ratio2.txt');
    expect(p.read.latency).toBeNull();
    expect(p.write.latency).toBeNull();
    expect(p.benchmark).toMatchObject({ ioengine: 'libaio', outstandingIos: null });
    expect(codes(p)).toContain('sysbench_latency_not_io');
    // --file-rw-ratio=2: 28,839.37 / 14,408.71 = 2.00 reads per write.
    expect(p.read.iops / p.write.iops).toBeCloseTo(2, 2);
  });

  it('k: --histogram adds p50/p90/p99/p99.9 from the bins beside sysbench’s own p95', () => {
    const p = profile('k_rndrd_64k_direct_histogram.txt');
    // Half of 34,684 events is 17,342: the cumulative count first reaches it in the 0.122 ms bin;
    // 99% is rank 34,338, reached in the 0.536 ms bin.
    expect(p.read.latency?.percentiles).toMatchObject({ '50': 0.122, '95': 0.22, '99': 0.536 });
    expect(p.read.latency?.percentiles['90']).toBeGreaterThan(0.122);
    expect(p.read.latency?.percentiles['99.9']).toBeGreaterThan(0.536);
    expect(p.read.latency?.approximate).toBe(true);
  });

  it('e: sequential 1 MiB buffered reads at 4.6 GiB/s come from the page cache — flagged', () => {
    const p = profile('e_seqrd_1m.txt');
    expect(p.benchmark).toMatchObject({ sequential: true, direct: false, syncs: false });
    expect(p.read.blockSizeBytes).toBe(MiB);
    expect(codes(p)).toContain('buffered_io');
  });

  it('0.4 reconstructed seed-001 run: 16 threads, O_DIRECT, no periodic fsync, 300 s', () => {
    const p = profile('v0.4/seed001_m1large_piops_rndrw_16k_reconstructed.txt');
    expect(p.durationSec).toBe(300.0213);
    expect(p.read.iops + p.write.iops).toBeCloseTo(3400, 1);
    expect(p.read.blockSizeBytes).toBeCloseTo(16384, 6);
    expect(p.read.latency).toEqual({ percentiles: { '95': 9.86 }, approximate: true, meanMs: 4.7 });
    expect(p.benchmark).toMatchObject({
      version: '0.4.12',
      direct: true,
      syncs: false,
      outstandingIos: 16,
      timeBased: true,
    });
  });

  it('a run without any reads or writes is an error, not an empty plan', () => {
    const r = parseSysbench(
      readFileSync(new URL('b_seqwr_16k_default.txt', FIXTURES), 'utf8')
        .replace('writes/s:                     9040.91', 'writes/s:                     0.00')
        .replace('written, MiB/s:               141.26', 'written, MiB/s:               0.00'),
    );
    expect(r.ok).toBe(true);
    const p = r.ok ? profileFromSysbench(r.value) : null;
    expect(p && !p.ok && p.error.code).toBe('no_io');
  });

  it('a label passed in wins', () => {
    const r = parseSysbench(readFileSync(new URL('c_rndrd_16k_direct_2threads.txt', FIXTURES), 'utf8'));
    const p = r.ok ? profileFromSysbench(r.value, { label: 'db01 data volume' }) : null;
    expect(p?.ok && p.value.label).toBe('db01 data volume');
  });
});
