import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FioReportSchema, type FioReport } from './fio-report.schema.ts';
import { PARSE_FIO_ERROR_CODES, parseFio } from './parse-fio.ts';

/** Edge cases from docs/fio-format.md, each on a real fixture (mutated only where no fixture shows the case). */

const FIXTURES = resolve(import.meta.dirname, '../../../fixtures/fio');
const textOf = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
/* eslint-disable @typescript-eslint/no-explicit-any -- fixtures are mutated as plain JSON */
const docOf = (name: string) => JSON.parse(textOf(name)) as Record<string, any>;

function reportOf(input: string | Uint8Array | object): FioReport {
  const result = parseFio(
    typeof input === 'object' && !(input instanceof Uint8Array) ? JSON.stringify(input) : input,
  );
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  // The report always satisfies its own contract.
  expect(FioReportSchema.safeParse(result.report).success).toBe(true);
  return result.report;
}
const codes = (r: FioReport) => r.warnings.map((w) => w.code);

describe('fio 2.x units (public/pkb_fio-2.1.4: io_bytes in KiB, latency in µs, integer iops, "0.00" padding)', () => {
  const raw = docOf('public/pkb_fio-2.1.4_four_stonewall_groups.json');
  const report = reportOf(textOf('public/pkb_fio-2.1.4_four_stonewall_groups.json'));
  const write = report.jobs[0]!.write;
  const rawWrite = raw.jobs[0].write;

  it('io_bytes without io_kbytes is KiB; bw is KiB/s; iops is an integer', () => {
    expect(rawWrite.io_kbytes).toBeUndefined();
    expect(write.ioBytes).toBe(rawWrite.io_bytes * 1024);
    expect(write.bytesPerSec).toBe(rawWrite.bw * 1024);
    expect(write.iops).toBe(133);
  });

  it('no total_ios: block size is bytes/s ÷ IOPS', () => {
    expect(write.totalIos).toBeNull();
    expect(write.blockSizeBytes).toBe((rawWrite.bw * 1024) / 133);
  });

  it('clat in µs → ms; the duplicate "0.00" padding keys are dropped', () => {
    expect(write.clatMs.mean).toBe(rawWrite.clat.mean / 1e3);
    expect(Object.keys(write.clatMs.percentiles!)).toHaveLength(17);
    expect(write.clatMs.percentiles!['0']).toBeUndefined();
    expect(write.clatMs.percentiles!['99.5']).toBe(847.872);
    expect(write.clatMs.samples).toBeNull();
  });

  it('five stonewalled groups: per-group totals, and a warning that the total adds phases', () => {
    expect(report.groups.map((g) => g.groupId)).toEqual([0, 1, 2, 3, 4]);
    expect(codes(report)).toContain('several_groups');
    expect(report.groups[1]!.read.iops).toBe(253);
  });
});

describe('fio 3.1 without bw_bytes (public/fioplot_fio-3.1_*)', () => {
  it('bytes/s is bw × 1024; the block size is bytes/s ÷ IOPS (≈ 4 KiB, within fio’s KiB/s flooring)', () => {
    const raw = docOf('public/fioplot_fio-3.1_randrw_qd16_nj4_gr.json').jobs[0].read;
    const read = reportOf(textOf('public/fioplot_fio-3.1_randrw_qd16_nj4_gr.json')).jobs[0]!.read;
    expect(raw.bw_bytes).toBeUndefined();
    expect(read.bytesPerSec).toBe(raw.bw * 1024);
    expect(read.blockSizeBytes).toBe(read.bytesPerSec / read.iops);
    expect(Math.abs(read.blockSizeBytes! - 4096) / 4096).toBeLessThan(1e-3);
    expect(read.clatMs.mean).toBe(raw.clat_ns.mean / 1e6);
  });
});

describe('streams around the JSON', () => {
  it('status-interval (generated/q): four documents, the last one is the result', () => {
    const text = textOf('generated/q_randread_4k_status_interval1s_multiple_json_docs.json');
    const last = JSON.parse(text.slice(text.lastIndexOf('\n{\n') + 1));
    const report = reportOf(text);
    expect(report.documentsFound).toBe(4);
    expect(report.timestamp).toBe(last.timestamp);
    expect(report.jobs[0]!.read.ioBytes).toBe(last.jobs[0].read.io_bytes);
    expect(codes(report)).toEqual(['multiple_documents']);
  });

  it('normal,json (generated/h2): the JSON between the header lines and the normal results', () => {
    const report = reportOf(textOf('generated/h2_randread_4k_output_normal_json.txt'));
    expect(report.jobs[0]!.read.iops).toBeCloseTo(77283.0, 0);
    expect(codes(report)).toEqual(['text_before_json', 'text_after_json']);
  });
});

describe('client/server (generated/o)', () => {
  const raw = docOf('generated/o_client_server_loopback_randread_nj2.json');
  const report = reportOf(textOf('generated/o_client_server_loopback_randread_nj2.json'));

  it('reads client_stats, keeps "All clients" aside and never sums it', () => {
    expect(report.clientMode).toBe(true);
    expect(report.jobs).toHaveLength(2);
    expect(report.fioAllClients!.name).toBe('All clients');
    const perJob = raw.client_stats[0].read.iops + raw.client_stats[1].read.iops;
    expect(report.total.read.iops).toBeCloseTo(perJob, 6); // 89 044: the per-job sum…
    expect(report.fioAllClients!.read.iops).toBe(raw.client_stats[2].read.iops); // …not fio's 88 802,
    expect(report.total.read.iops).not.toBeCloseTo(report.fioAllClients!.read.iops + perJob, 0); // …and not both.
  });

  it('entries have no job options: the global options apply; hostname is kept', () => {
    expect(report.jobs[0]!.options).toMatchObject({ bs: '4k', rw: 'randread', iodepth: '8' });
    expect(report.jobs[0]!.hostname).toBe('127.0.0.1');
    expect(report.timestamp).toBe(raw.timestamp);
  });

  it('several clients print "global options" as an array: the first applies', () => {
    const doc = structuredClone(raw);
    doc['global options'] = [raw['global options'], { ...raw['global options'], bs: '64k' }];
    expect(reportOf(doc).jobs[0]!.options.bs).toBe('4k');
  });

  it('a file with only the "All clients" entry uses it as the job, and says so', () => {
    const doc = structuredClone(raw);
    doc.client_stats = [raw.client_stats[2]];
    const only = reportOf(doc);
    expect(only.jobs.map((j) => j.name)).toEqual(['All clients']);
    expect(only.fioAllClients).toBeNull();
    expect(codes(only)).toContain('all_clients_only');
  });
});

describe('unified_rw_reporting (docs/fio-format.md §5)', () => {
  const raw = docOf('generated/k_randrw_4k_unified_rw_reporting_both.json');

  it('=both (generated/k): mixed is kept separately and never added to read + write', () => {
    const report = reportOf(raw);
    const job = report.jobs[0]!;
    expect(job.mixed!.iops).toBe(raw.jobs[0].mixed.iops);
    expect(report.total.read.iops).toBe(raw.jobs[0].read.iops);
    expect(report.total.write.iops).toBe(raw.jobs[0].write.iops);
    expect(report.total.mixed!.iops).toBe(raw.jobs[0].mixed.iops);
    // mixed is read + write as fio merged them, so it equals their sum rather than adding to it.
    expect(job.mixed!.ioBytes).toBe(job.read.ioBytes + job.write.ioBytes);
  });

  it('=mixed (only "mixed" is written): read/write/trim are zero and a warning says where the numbers are', () => {
    const doc = structuredClone(raw);
    for (const key of ['read', 'write', 'trim', 'sync']) delete doc.jobs[0][key];
    doc.jobs[0]['job options'].unified_rw_reporting = 'mixed';
    const report = reportOf(doc);
    expect(report.total.read).toMatchObject({ iops: 0, bytesPerSec: 0, blockSizeBytes: null });
    expect(report.total.mixed!.iops).toBe(raw.jobs[0].mixed.iops);
    expect(report.total.mixed!.clatMs.method).toBe('reported');
    expect(codes(report)).toEqual(['mixed_only']);
  });

  it('the fixture without unified_rw_reporting has no mixed anywhere', () => {
    const report = reportOf(textOf('generated/c_randread_4k_libaio_qd32_timebased5s.json'));
    expect(report.jobs[0]!.mixed).toBeNull();
    expect(report.total.mixed).toBeNull();
  });
});

describe('latency percentiles', () => {
  it('fio 3.4–3.17 with lat_percentiles=1: clat_ns.percentile holds TOTAL latency, and is flagged', () => {
    const doc = docOf('public/arau_fio-3.12_randrw50_32k.json');
    expect(reportOf(doc).jobs[0]!.read.clatMs.isTotalLatency).toBe(false);
    doc['global options'].lat_percentiles = '1';
    const report = reportOf(doc);
    expect(report.jobs[0]!.read.clatMs.isTotalLatency).toBe(true);
    expect(report.jobs[0]!.write.clatMs.isTotalLatency).toBe(true);
    expect(report.total.read.clatMs.isTotalLatency).toBe(true);
  });

  // fio 3.13–3.17 with lat_percentiles=1 put the percentiles under lat_ns and none under clat_ns
  // (axboe/fio e5eb6fbf, first in fio-3.13). derived/fio_3.16_* is a real fio-3.16 file laid out
  // that way (see fixtures/fio/README.md); the others edit real files where no fixture shows the case.
  const LAT_DERIVED = 'derived/fio_3.16_lat_percentiles_randrw.json';
  const SOURCE_316 = 'public/fioplot_fio-3.16_raid5_randrw_qd8_nj16_gr.json';
  /** The fio-3.14 file with its read percentiles moved from clat_ns to lat_ns, options and version as given. */
  const movedToLat = (version: string | null, options: Record<string, string>) => {
    const doc = docOf('public/fioplot_fio-3.14-git_randread_qd32.json');
    if (version === null) delete doc['fio version'];
    else doc['fio version'] = version;
    Object.assign(doc.jobs[0]['job options'], options);
    for (const d of ['read', 'write', 'trim']) {
      doc.jobs[0][d].lat_ns.percentile = doc.jobs[0][d].clat_ns.percentile;
      delete doc.jobs[0][d].clat_ns.percentile;
    }
    return doc;
  };

  it.each([
    ['derived fio-3.16, lat_percentiles=1', docOf(LAT_DERIVED), 'read', 'lat_ns', true],
    ['derived fio-3.16, lat_percentiles=1', docOf(LAT_DERIVED), 'write', 'lat_ns', true],
    [
      'fio-3.13 (first with e5eb6fbf)',
      movedToLat('fio-3.13', { lat_percentiles: '1' }),
      'read',
      'lat_ns',
      true,
    ],
    ['fio-3.17 (last before 3.18)', movedToLat('fio-3.17', { lat_percentiles: '1' }), 'read', 'lat_ns', true],
    [
      'fio-3.33 with clat_percentiles=0',
      movedToLat('fio-3.33', { clat_percentiles: '0', lat_percentiles: '1' }),
      'read',
      'lat_ns',
      true,
    ],
    ['no "fio version", no option: the key alone decides', movedToLat(null, {}), 'read', 'lat_ns', true],
    ['the real fio-3.16 file (clat_percentiles on)', docOf(SOURCE_316), 'read', 'clat_ns', false],
  ] as const)('%s: %s percentiles come from %s, total latency: %s', (_, doc, direction, key, total) => {
    const raw = doc.jobs[0][direction];
    const report = reportOf(doc);
    const clat = report.jobs[0]![direction].clatMs;
    expect(clat.method).toBe('reported');
    expect(clat.isTotalLatency).toBe(total);
    expect(Object.keys(clat.percentiles!)).toHaveLength(17);
    expect(clat.percentiles!['99']).toBe(raw[key].percentile['99.000000'] / 1e6);
    // The mean is clat's in every case: completion latency.
    expect(clat.mean).toBe(raw.clat_ns.mean / 1e6);
    expect(report.total[direction].clatMs.isTotalLatency).toBe(total);
    const warning = report.warnings.find((w) => w.code === 'total_latency_percentiles');
    if (total) {
      expect(warning?.message).toContain(`under ${key}`);
      expect(warning?.message).toContain('total latency (submission + completion)');
      expect(warning?.subject).toMatch(/^jobs\.0\.(read|write)\.clatMs$/);
    } else expect(warning).toBeUndefined();
  });

  it('derived fio-3.16: zero-I/O trim and the unsampled sync have no latency; one warning for the job', () => {
    const report = reportOf(docOf(LAT_DERIVED));
    expect(report.fioVersion).toBe('fio-3.16');
    expect(report.jobs[0]!.trim.clatMs).toMatchObject({ percentiles: null, method: 'none' });
    expect(report.jobs[0]!.sync).toBeNull();
    expect(codes(report).filter((c) => c === 'total_latency_percentiles')).toHaveLength(1);
  });

  it('json+ bins under lat_ns (fio 3.13–3.17 put them there too) are merged across jobs', () => {
    // generated/p: two jobs without group_reporting, json+; move each direction's clat objects to lat_ns.
    const name = 'generated/p_randrw_4k_mix50_jsonplus_nj2_perjob.json';
    const doc = docOf(name);
    for (const job of doc.jobs) {
      for (const d of ['read', 'write']) {
        job[d].lat_ns.percentile = job[d].clat_ns.percentile;
        job[d].lat_ns.bins = job[d].clat_ns.bins;
        delete job[d].clat_ns.percentile;
        delete job[d].clat_ns.bins;
      }
    }
    const original = reportOf(textOf(name)).total.read.clatMs;
    const moved = reportOf(doc).total.read.clatMs;
    expect(moved.method).toBe('merged-bins');
    expect(moved.percentiles).toEqual(original.percentiles);
    expect(moved.isTotalLatency).toBe(true);
    expect(original.isTotalLatency).toBe(false);
  });

  it('fio ≥ 3.18 with lat_percentiles=1 (generated/i1): clat percentiles are clat, custom list kept', () => {
    const read = reportOf(textOf('generated/i1_randread_4k_percentile_list_lat_clat_percentiles.json'))
      .jobs[0]!.read;
    expect(read.clatMs.isTotalLatency).toBe(false);
    expect(Object.keys(read.clatMs.percentiles!)).toEqual(['50', '90', '95', '99', '99.5', '99.9', '99.99']);
  });

  it('clat_percentiles=0 (generated/i2): no percentiles, method none; the mean is still there', () => {
    const write = reportOf(textOf('generated/i2_randwrite_4k_clat_percentiles_off.json')).jobs[0]!.write;
    expect(write.clatMs).toMatchObject({ percentiles: null, method: 'none' });
    expect(write.clatMs.mean).toBeGreaterThan(0);
  });

  it('an empty percentile object (fio 3.4–3.17 with both options off) → null', () => {
    const doc = docOf('public/arau_fio-3.12_randrw50_32k.json');
    doc.jobs[0].read.clat_ns.percentile = {};
    expect(reportOf(doc).jobs[0]!.read.clatMs).toMatchObject({ percentiles: null, method: 'none' });
  });

  it('fsync latency lands in sync (generated/l)', () => {
    const raw = docOf('generated/l_randwrite_4k_psync_fsync1_sync_section.json').jobs[0].sync;
    const sync = reportOf(textOf('generated/l_randwrite_4k_psync_fsync1_sync_section.json')).jobs[0]!.sync!;
    expect(sync.totalIos).toBe(raw.total_ios);
    expect(sync.latMs.mean).toBe(raw.lat_ns.mean / 1e6);
    expect(sync.latMs.percentiles!['99']).toBe(raw.lat_ns.percentile['99.000000'] / 1e6);
  });
});

describe('failed jobs and odd numbers', () => {
  it('a job error (generated/m) is a warning naming the job and the errno; the numbers are all zero', () => {
    const report = reportOf(textOf('generated/m_randtrim_on_file_error.json'));
    const warning = report.warnings.find((w) => w.code === 'job_error')!;
    expect(warning.message).toContain('"trim_err"');
    expect(warning.message).toContain('error 25 (ENOTTY)');
    expect(report.jobs[0]!.error).toBe(25);
    // The failed trim counted one I/O of 0 bytes: no block size, no latency.
    expect(report.jobs[0]!.trim).toMatchObject({ totalIos: 1, ioBytes: 0, blockSizeBytes: null });
    expect(report.total.trim.clatMs.method).toBe('none');
  });

  it('a bare nan for iops is recomputed from total_ios and runtime, with a warning', () => {
    const text = textOf('generated/c_randread_4k_libaio_qd32_timebased5s.json').replace(
      '"iops" : 77896.220756',
      '"iops" : -nan',
    );
    const report = reportOf(text);
    expect(report.jobs[0]!.read.iops).toBeCloseTo((389559 * 1000) / 5001, 9);
    expect(codes(report)).toEqual(['non_finite_numbers', 'iops_recomputed']);
  });

  it.each([
    ['no jobs at all', (d: any): unknown => delete d.jobs],
    ['an empty jobs array', (d: any): unknown => (d.jobs = [])],
    [
      'a job with no direction',
      (d: any): unknown => ['read', 'write', 'trim'].forEach((k) => delete d.jobs[0][k]),
    ],
  ])('%s → unsupported_fio_output', (_, mutate) => {
    const doc = docOf('generated/c_randread_4k_libaio_qd32_timebased5s.json');
    mutate(doc);
    expect(parseFio(JSON.stringify(doc))).toMatchObject({
      ok: false,
      error: { code: 'unsupported_fio_output' },
    });
  });

  it('UTF-16LE with a BOM (PowerShell 5) gives the same report, and says how it was decoded', () => {
    const text = textOf('generated/n_two_groups_numjobs2_group_reporting.json');
    const bytes = new Uint8Array((text.length + 1) * 2);
    const units = `\ufeff${text}`;
    for (let i = 0; i < units.length; i++) {
      bytes[2 * i] = units.charCodeAt(i) & 0xff;
      bytes[2 * i + 1] = units.charCodeAt(i) >> 8;
    }
    const utf16 = reportOf(bytes);
    expect(utf16.encoding).toBe('utf-16le');
    expect({ ...utf16, encoding: 'utf-8' }).toEqual(reportOf(text));
  });
});

describe('untrusted option names (prototype pollution)', () => {
  it('job options named __proto__ and constructor survive as data; Object.prototype is untouched', () => {
    const text = textOf('generated/c_randread_4k_libaio_qd32_timebased5s.json').replace(
      '"job options" : {',
      '"job options" : {\n        "__proto__" : "polluted",\n        "constructor" : "x",\n        "toString" : "y",',
    );
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    const report = reportOf(text);
    const options = report.jobs[0]!.options;
    expect(Object.getPrototypeOf(options)).toBe(Object.prototype);
    expect(Object.keys(options)).toEqual(
      expect.arrayContaining(['__proto__', 'constructor', 'toString', 'bs']),
    );
    expect(Object.getOwnPropertyDescriptor(options, '__proto__')?.value).toBe('polluted');
    expect(JSON.parse(JSON.stringify(options)).constructor).toBe('x');
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a "__proto__" key in global options is copied as data as well', () => {
    const doc = docOf('generated/h1_jobfile_two_sections_stonewall.json');
    const text = JSON.stringify(doc).replace(
      '"global options":{',
      '"global options":{"__proto__":{"polluted":true},',
    );
    const result = parseFio(text);
    // Options must be strings: the object value is refused, with its path, and nothing is polluted.
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'fio_invalid', path: 'global options.__proto__' },
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('bounded keys per object (fio prints at most 20 percentiles and 1856 bins)', () => {
  const C = 'generated/c_randread_4k_libaio_qd32_timebased5s.json';
  const P = 'generated/p_randrw_4k_mix50_jsonplus_nj2_perjob.json';
  /** `n` percentile keys in fio's "%f" form, 0.001 … (all distinct, all valid). */
  const percentiles = (n: number, from = 0) =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [((from + i + 1) / 1000).toFixed(6), 1000 + i]));
  const refusal = (doc: object) => {
    const result = parseFio(JSON.stringify(doc));
    if (result.ok) throw new Error('expected a refusal');
    return result.error;
  };

  it('a percentile object with more than 32 keys is refused, naming the path, the limit and the count', () => {
    const doc = docOf(C);
    doc.jobs[0].read.clat_ns.percentile = percentiles(56_000);
    expect(refusal(doc)).toEqual({
      code: 'fio_invalid',
      path: 'jobs.0.read.clat_ns.percentile',
      message:
        'jobs.0.read.clat_ns.percentile: expected at most 32 percentiles (fio prints at most 20, FIO_IO_U_LIST_MAX_LEN), got 56000',
    });
  });

  it('the keys are counted before any is read: a bad key among too many still reports the count', () => {
    const doc = docOf(C);
    doc.jobs[0].read.clat_ns.percentile = { ...percentiles(32), fast: 1 };
    expect(refusal(doc).message).toContain('expected at most 32 percentiles');
    doc.jobs[0].read.clat_ns.percentile = percentiles(32); // at the limit: accepted
    expect(Object.keys(reportOf(doc).jobs[0]!.read.clatMs.percentiles!)).toHaveLength(32);
  });

  it('json+ bins: more than 2048 buckets in one direction are refused before any is read', () => {
    const doc = docOf(P);
    const bins = Object.fromEntries(Array.from({ length: 2049 }, (_, i) => [String(1000 + i), 1]));
    doc.jobs[1].write.clat_ns.bins = { ...bins, fast: 1 };
    expect(refusal(doc)).toMatchObject({
      code: 'fio_invalid',
      path: 'jobs.1.write.clat_ns.bins',
      message: expect.stringContaining('expected at most 2048 latency buckets (fio prints at most 1856'),
    });
    // fio's own maximum, FIO_IO_U_PLAT_NR = 1856 buckets, is read.
    const full = Object.fromEntries(Array.from({ length: 1856 }, (_, i) => [String(1000 + i), 1]));
    doc.jobs[1].write.clat_ns.bins = full;
    expect(reportOf(doc).total.write.clatMs.method).toBe('merged-bins');
  });

  it('job options and global options with more than 1024 keys are refused with their path', () => {
    const many = Object.fromEntries(Array.from({ length: 1025 }, (_, i) => [`opt${i}`, '1']));
    const doc = docOf(C);
    doc.jobs[0]['job options'] = many;
    expect(refusal(doc)).toMatchObject({
      code: 'fio_invalid',
      path: 'jobs.0.job options',
      message: expect.stringMatching(/^jobs\.0\.job options: expected at most 1024 options .*got 1025$/),
    });
    const global = docOf(C);
    global['global options'] = many;
    expect(refusal(global)).toMatchObject({ path: 'global options' });
  });

  it('over all jobs, at most 128 distinct percentiles: each job with a list of its own is refused at the 5th', () => {
    const doc = docOf(P);
    const job = doc.jobs[0];
    doc.jobs = Array.from({ length: 6 }, (_, i) => {
      const j = structuredClone(job);
      j.read.clat_ns.percentile = percentiles(30, i * 30);
      j.write.clat_ns.percentile = percentiles(30, i * 30);
      return j;
    });
    expect(refusal(doc)).toMatchObject({
      code: 'fio_invalid',
      path: 'jobs.4.read.clat_ns.percentile',
      message: expect.stringContaining('expected at most 128 distinct percentiles'),
    });
    // The same list in every job (the normal case) counts once.
    doc.jobs = Array.from({ length: 6 }, () => structuredClone(doc.jobs[0]));
    expect(reportOf(doc).jobs).toHaveLength(6);
  });

  it('maxReportBytes: a file whose report would clearly be larger is refused before normalizing', () => {
    const doc = docOf(C);
    doc['global options'] = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`o${i}`, 'v']));
    doc.jobs = Array.from({ length: 50 }, (_, i) => ({ ...doc.jobs[0], jobname: `j${i}` }));
    const text = JSON.stringify(doc);
    // 50 jobs × (1,024 + 100 options × ~9 bytes) ≈ 96 KB at least.
    const result = parseFio(text, { maxReportBytes: 90_000 });
    expect(result).toMatchObject({ ok: false, error: { code: 'report_too_large' } });
    if (!result.ok) expect(result.error.message).toMatch(/at least \d+ bytes to store \(50 jobs/);
    expect(PARSE_FIO_ERROR_CODES).toContain('report_too_large');
    expect(parseFio(text, { maxReportBytes: 200_000 }).ok).toBe(true);
    expect(parseFio(text).ok).toBe(true); // no limit by default (the CLI and the browser)
  });
});

describe('parseFio error codes', () => {
  it.each([
    ['', 'empty_input'],
    [new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0]), 'binary_input'],
    ['{"a":1}', 'not_fio_json'],
    [textOf('public/cyberhuey_windows_fio_error_only.json'), 'not_fio_json'],
    [textOf('generated/c_randread_4k_libaio_qd32_timebased5s.json').slice(0, 500), 'invalid_json'],
    [`{"jobs":${'['.repeat(65)}${']'.repeat(65)}}`, 'too_deep'],
    ['{"fio version":"fio-3.33","jobs":[{"jobname":7}]}', 'fio_invalid'],
    ['{"fio version":"fio-3.33","jobs":[]}', 'unsupported_fio_output'],
  ] as const)('%#: → %s', (input, code) => {
    const result = parseFio(input);
    expect(result).toMatchObject({ ok: false, error: { code } });
    expect(PARSE_FIO_ERROR_CODES).toContain(code);
    if (!result.ok) expect(result.error.message.length).toBeGreaterThan(10);
  });

  it('too_large honours maxBytes', () => {
    const text = textOf('generated/c_randread_4k_libaio_qd32_timebased5s.json');
    expect(parseFio(text, { maxBytes: 1000 })).toMatchObject({ ok: false, error: { code: 'too_large' } });
  });
});
/* eslint-enable @typescript-eslint/no-explicit-any */
