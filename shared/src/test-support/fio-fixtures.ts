import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FioReport } from '../fio/fio-report.schema.ts';
import { parseFio } from '../fio/parse-fio.ts';

/** The repository's real fio outputs (fixtures/fio/README.md says where each comes from). */
const FIXTURES = resolve(import.meta.dirname, '../../../fixtures/fio');

/** A fixture parsed; throws when it does not parse (a test bug, not a case). */
export function fixtureReport(name: string): FioReport {
  const r = parseFio(readFileSync(join(FIXTURES, name)));
  if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
  return r.report;
}

/** randrw, bsrange 4k-16k (reads) / 64k (writes), 33 % reads, 4 jobs × iodepth 16, libaio, 10 s. */
export const MIX33_GROUPED = 'generated/a_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_grouped.json';
/** The same job without group_reporting: four job entries. */
export const MIX33_PERJOB = 'generated/b_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_perjob.json';
/** 4k randwrite on an NVMe drive, 16 jobs × iodepth 4, io_uring, 60 s (issue #11's "4 KiB randwrite NVMe run"). */
export const NVME_RANDWRITE_4K = 'public/samyaple_fio-3.33_randwrite_nj16_perjob.json';
/** fio 2.1.4: no job options in the file at all. */
export const NO_OPTIONS = 'public/pkb_fio-2.1.4_four_stonewall_groups.json';

/** One 4k randwrite job (libaio, iodepth 16, 3 s), as is: 22,130 IOPS (fixtures/fio/settings/README.md). */
export const UNPACED_4K = 'settings/s1_randwrite_4k_unpaced.json';
/** The same job with rate_iops=500 and thinktime=100 (µs): 500 IOPS, the cap rather than the disk. */
export const RATE_IOPS_500 = 'settings/s2_randwrite_4k_rate_iops500_thinktime100.json';
/** The same job with size=16M, fdatasync=8, sync=dsync and verify=crc32c, not time_based. */
export const SYNCED_VERIFIED = 'settings/s3_randwrite_4k_fdatasync8_dsync_verify.json';
/** The same job with size=32M, filesize=32M and rate=2m. */
export const RATE_2M = 'settings/s4_randwrite_4k_rate2m_size32m.json';
/** The same job with rate_min=256k. */
export const RATE_MIN_256K = 'settings/s5_randwrite_4k_ratemin256k.json';
