import type { ParseFioResult } from '@blockwise/shared/fio';
import type { ObservedMetrics } from '@blockwise/shared/profile';
import type { RunLabels } from '@blockwise/shared/records';
// Two real fio 3.33 results (fixtures/fio/generated/MANIFEST.md): the same job (randrw, 33% reads
// of 4k–16k, 64k writes, 4 jobs × iodepth 16), once with group_reporting and once per job. The
// repository holds no fio run captured on AWS, so the example labels the faster one as the NVMe
// instance store and the other as a gp3 volume, as the end-to-end journeys do. This module is
// loaded only when "Try an example" is pressed (a chunk of its own: the first load does not grow).
import nvmeText from '../../../../fixtures/fio/generated/a_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_grouped.json?raw';
import ebsText from '../../../../fixtures/fio/generated/b_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_perjob.json?raw';
import {
  initialSession,
  refOf,
  type FioInput,
  type ObservedInput,
  type SessionState,
} from './session-state.ts';

export const EXAMPLE_INSTANCE = 'r6i.4xlarge';
/** The instance-store variant of the same family and size (r6i has no instance store). */
export const EXAMPLE_NVME_INSTANCE = 'r6id.4xlarge';
export const EXAMPLE_GP3 = { type: 'gp3', sizeGiB: 1000, iops: 16_000, throughputMiBps: 1000 } as const;
export const EXAMPLE_REGION = 'us-east-1';

/**
 * The guide's write-heavy NoSQL primary ("EBS gp3 vs Local NVMe", I. Vari; the same numbers as
 * the right-size tests): ~10,000 write IOPS at ~500 MiB/s, few reads, with read latency
 * percentiles.
 */
export const EXAMPLE_PROFILE: ObservedMetrics = {
  label: 'Example: write-heavy NoSQL primary (the guide’s profile)',
  read: {
    iops: 500,
    throughput: 20,
    throughputUnit: 'MiB/s',
    latencyMs: { '50': 57, '99': 133, '99.9': 159 },
  },
  write: { iops: 10_000, throughput: 500, throughputUnit: 'MiB/s' },
};

const NVME_LABELS: RunLabels = {
  name: 'Example NVMe instance store',
  kind: 'nvme',
  instanceType: EXAMPLE_NVME_INSTANCE,
  region: EXAMPLE_REGION,
};

const EBS_LABELS: RunLabels = {
  name: 'Example gp3 volume',
  kind: 'ebs',
  instanceType: EXAMPLE_INSTANCE,
  volumeType: 'gp3',
  volumeSizeGiB: EXAMPLE_GP3.sizeGiB,
  volumeIops: EXAMPLE_GP3.iops,
  volumeThroughputMiBps: EXAMPLE_GP3.throughputMiBps,
  region: EXAMPLE_REGION,
};

type Parse = (file: Blob) => Promise<ParseFioResult>;

async function exampleRun(
  id: string,
  fileName: string,
  text: string,
  labels: RunLabels,
  parse: Parse,
): Promise<FioInput> {
  const blob = new Blob([text], { type: 'application/json' });
  const parsed = await parse(blob);
  return {
    kind: 'fio',
    id,
    origin: 'file',
    fileName,
    sizeBytes: blob.size,
    // The bytes stay with the run: "Save & share" uploads them like a dropped file.
    blob,
    serverRunId: null,
    status: parsed.ok ? 'ready' : 'error',
    report: parsed.ok ? parsed.report : null,
    error: parsed.ok ? null : parsed.error,
    labels,
  };
}

/**
 * The example session: the guide's profile planned on an r6i.4xlarge with a gp3 candidate, and
 * an NVMe and an EBS fio run to compare. Ids are fixed (one example at a time).
 */
export async function exampleSession(parse: Parse): Promise<SessionState> {
  const profile: ObservedInput = { kind: 'observed', id: 'example-nosql', metrics: EXAMPLE_PROFILE };
  const [nvme, ebs] = await Promise.all([
    exampleRun('exampleNvmeRun000000000', 'example-nvme-instance-store.json', nvmeText, NVME_LABELS, parse),
    exampleRun('exampleGp3Run0000000000', 'example-gp3-volume.json', ebsText, EBS_LABELS, parse),
  ]);
  return {
    ...initialSession,
    inputs: [profile, nvme, ebs],
    settings: {
      ...initialSession.settings,
      profileRef: refOf(profile),
      instanceType: EXAMPLE_INSTANCE,
      region: EXAMPLE_REGION,
      candidates: [{ ...EXAMPLE_GP3, count: 1 }],
    },
    notice: {
      tone: 'info',
      text: 'Loaded an example: the guide’s write-heavy NoSQL profile on an r6i.4xlarge, with an NVMe and a gp3 fio run. “New session” clears it.',
    },
  };
}
