import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../test/fixtures.ts';
import { looksLikeSysbench } from './detect.ts';
import { parseSysbenchFile } from './sysbench-client.ts';
import { sysbenchFacts } from './sysbench-facts.ts';
import { readSysbench } from './sysbench-reader.ts';

// Real sysbench 1.0.20 outputs and the reconstructed 0.4 one (fixtures/sysbench/README.md).
const SYSBENCH = import.meta.glob<string>('../../../../fixtures/sysbench/**/*.txt', {
  query: '?raw',
  import: 'default',
  eager: true,
});
const sysbench = (name: string) => {
  const key = Object.keys(SYSBENCH).find((k) => k.endsWith(`/${name}`));
  if (!key) throw new Error(`no sysbench fixture ${name}`);
  return SYSBENCH[key]!;
};
const FIO_NORMAL_JSON = import.meta.glob<string>(
  '../../../../fixtures/fio/generated/h2_randread_4k_output_normal_json.txt',
  { query: '?raw', import: 'default', eager: true },
);

describe('looksLikeSysbench', () => {
  it('every sysbench fixture (1.0, 0.4, prepare) is told apart from fio output', () => {
    expect(Object.keys(SYSBENCH).length).toBeGreaterThanOrEqual(13);
    for (const [name, text] of Object.entries(SYSBENCH))
      expect([name, looksLikeSysbench(text)]).toEqual([name, true]);
    for (const [name, text] of Object.entries({ ...FIXTURES, ...FIO_NORMAL_JSON }))
      expect([name, looksLikeSysbench(text)]).toEqual([name, false]);
  });

  it('a BOM or a deprecation warning before the banner does not hide it', () => {
    expect(looksLikeSysbench(`\uFEFF${sysbench('a_rndrw_16k_fsync100.txt')}`)).toBe(true);
    expect(sysbench('i_rndrw_16k_legacy_options.txt').startsWith('WARNING')).toBe(true);
    expect(looksLikeSysbench(sysbench('i_rndrw_16k_legacy_options.txt'))).toBe(true);
    expect(looksLikeSysbench('time,read iops\n2026-11-20T00:00:00Z,1\n')).toBe(false);
  });
});

describe('sysbench facts (a_rndrw_16k_fsync100.txt: buffered, fsync every 100 requests)', () => {
  it('states mode, block size, threads, fsync and the measured rates', () => {
    const r = readSysbench(sysbench('a_rndrw_16k_fsync100.txt'));
    if (!r.ok) throw new Error(r.error.message);
    const facts = Object.fromEntries(sysbenchFacts(r.run).map((f) => [f.label, f.value]));
    expect(facts).toMatchObject({
      sysbench: '1.0.20 (1.0 output)',
      Mode: 'rndrw: random read/write',
      'Block size': '16 KiB',
      Threads: '1',
      fsync: 'fsync() every 100 requests; one per file at the end',
      'Operations per second': '6,390.7 reads/s, 4,260.5 writes/s, 13,640.6 fsyncs/s',
      'Reads per write': '1.5',
    });
    expect(facts['Open flags']).toMatch(/^buffered/);
    expect(facts['Latency (all requests together)']).toBe('avg 0.040 ms · p95 0.100 ms · max 6.51 ms');
    // The planning profile: reads/s × 16 KiB, with the trust warnings the card shows.
    expect(r.profile.ok && r.profile.value.read.iops).toBe(6390.7);
    expect(r.profile.ok && r.profile.value.warnings.map((w) => w.code)).toEqual([
      'sysbench_latency_combined',
      'buffered_io',
      'sysbench_periodic_fsync',
    ]);
  });

  it('0.4 output, O_DIRECT as printed bits, 16 threads', () => {
    const r = readSysbench(sysbench('seed001_m1large_piops_rndrw_16k_reconstructed.txt'));
    if (!r.ok) throw new Error(r.error.message);
    const facts = Object.fromEntries(sysbenchFacts(r.run).map((f) => [f.label, f.value]));
    expect(facts).toMatchObject({
      sysbench: '0.4.12 (0.4 output)',
      Threads: '16',
      fsync: 'no periodic fsync; one per file at the end',
    });
    expect(facts['Open flags']).toBe('O_DIRECT (page cache bypassed; printed “16384”)');
  });
});

describe('parseSysbenchFile', () => {
  it('reads a File and refuses a prepare output with the hint', async () => {
    const ok = await parseSysbenchFile(new File([sysbench('c_rndrd_16k_direct_2threads.txt')], 'c.txt'));
    expect(ok.ok && ok.run.threads).toBe(2);
    const prepare = await parseSysbenchFile(new File([sysbench('prepare_256M.txt')], 'prepare.txt'));
    expect(!prepare.ok && prepare.error.code).toBe('not_a_run');
  });
});
