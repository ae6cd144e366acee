import { parseFio, type FioReport } from '@blockwise/shared/fio';
import { profileFromObserved, type AccessPattern, type IoProfile } from '@blockwise/shared/profile';
// Real fio outputs from fixtures/fio (provenance in fixtures/fio/README.md), read as text by Vite.
import grouped from '../../../fixtures/fio/generated/a_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_grouped.json?raw';
import randread4k from '../../../fixtures/fio/generated/c_randread_4k_libaio_qd32_timebased5s.json?raw';
import seqwrite128k from '../../../fixtures/fio/generated/f_seqwrite_128k_libaio_qd4_timebased5s.json?raw';
import perJob from '../../../fixtures/fio/generated/b_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_perjob.json?raw';
import raid5 from '../../../fixtures/fio/public/fioplot_fio-3.16_raid5_randrw_qd8_nj16_gr.json?raw';
import errorOnly from '../../../fixtures/fio/public/cyberhuey_windows_fio_error_only.json?raw';

export const FIXTURES = { grouped, randread4k, seqwrite128k, perJob, raid5, errorOnly } as const;

/** A fixture parsed with the real parser; throws if the fixture no longer parses (a test bug). */
export function fixtureReport(name: Exclude<keyof typeof FIXTURES, 'errorOnly'>): FioReport {
  const r = parseFio(FIXTURES[name]);
  if (!r.ok) throw new Error(`fixture ${name} does not parse: ${r.error.message}`);
  return r.report;
}

/** A profile from published numbers (MiB/s and IOPS, as published benchmarks (docs/domain.md sources) report them), via the public API. */
export function typedProfile(p: {
  readMiBps: number;
  readIops: number;
  writeMiBps: number;
  writeIops: number;
  readLatencyMs?: Record<string, number>;
  writeLatencyMs?: Record<string, number>;
  /** As the user would state it (absent: unknown, random assumed). */
  access?: AccessPattern;
}): IoProfile {
  const r = profileFromObserved({
    read: {
      iops: p.readIops,
      throughput: p.readMiBps,
      throughputUnit: 'MiB/s',
      ...(p.readLatencyMs ? { latencyMs: p.readLatencyMs } : {}),
    },
    write: {
      iops: p.writeIops,
      throughput: p.writeMiBps,
      throughputUnit: 'MiB/s',
      ...(p.writeLatencyMs ? { latencyMs: p.writeLatencyMs } : {}),
    },
    ...(p.access ? { access: p.access } : {}),
  });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
