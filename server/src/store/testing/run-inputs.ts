/**
 * Test-data builders for store tests, fed with the real fio fixtures in /fixtures (raw uploads)
 * and their independent summaries (.oracle.json, used as an opaque "report" document).
 */
import { readFileSync } from 'node:fs';
import type { RunSummary } from '@blockwise/shared/records';
import type { InsertRunInput, RunLabels, StoreResult } from '../run-store.ts';

const FIXTURES = new URL('../../../../fixtures/fio/generated/', import.meta.url);

export function fixtureBytes(name: string): Buffer {
  return readFileSync(new URL(name, FIXTURES));
}

/** fio 3.33 json+ output, two jobs (64 KB). */
export const FIO_JSON = fixtureBytes('p_randrw_4k_mix50_jsonplus_nj2_perjob.json');
/** fio `--output-format=normal,json`: text before the JSON, served as text/plain. */
export const FIO_NORMAL_JSON = fixtureBytes('h2_randread_4k_output_normal_json.txt');
/** A real, nested JSON document standing in for the normalized report. */
export const REPORT = JSON.parse(
  readFileSync(new URL('p_randrw_4k_mix50_jsonplus_nj2_perjob.json.oracle.json', FIXTURES), 'utf8'),
) as Record<string, unknown>;

let sequence = 0;

/**
 * A summary the versioned reader accepts (RunSummarySchema, no plan): the routes read stored
 * summaries through it, so runs stored directly by tests must hold one.
 */
export function storedSummary(readIops: number): RunSummary {
  return {
    analysisVersion: '2026.11.0',
    fioVersion: 'fio-3.33',
    jobCount: 1,
    groupCount: 1,
    headline: {
      readIops,
      writeIops: 990,
      readBytesPerSec: readIops * 4096,
      writeBytesPerSec: 990 * 4096,
      readBlockSizeBytes: 4096,
      writeBlockSizeBytes: 4096,
      readClatMs: { '99': 1.2 },
      writeClatMs: { '99': 2.5 },
      clatApproximate: false,
      runtimeSec: 60,
    },
    plan: null,
    warnings: [],
  };
}

/**
 * A valid upload. Each call gets a distinct label name, hence a distinct idempotency key: two
 * builder calls are two runs; reuse one object to upload the same run twice.
 */
export function runInput(
  overrides: Partial<InsertRunInput> = {},
  labels: Partial<RunLabels> = {},
): InsertRunInput {
  sequence += 1;
  return {
    rawBytes: FIO_JSON,
    mediaType: 'application/json',
    fileName: 'randrw-4k.json',
    labels: {
      name: `run ${sequence}`,
      kind: 'ebs',
      instanceType: 'm7i.xlarge',
      volumeType: 'gp3',
      volumeSizeGiB: 500,
      volumeIops: 6000,
      volumeThroughputMiBps: 250,
      region: 'eu-west-1',
      series: 'nightly-gp3',
      branch: 'main',
      ...labels,
    },
    report: REPORT,
    summary: storedSummary(1000 + sequence),
    analysisVersion: '2026.11.0',
    fioVersion: 'fio-3.33',
    ...overrides,
  };
}

/** A small upload (tiny bytes, tiny report) for tests that insert hundreds of runs. */
export function smallRunInput(labels: Partial<RunLabels> = {}): InsertRunInput {
  sequence += 1;
  return {
    rawBytes: Buffer.from(`{"fio version":"fio-3.33","jobs":[],"n":${sequence}}`),
    mediaType: 'application/json',
    fileName: null,
    labels: { name: `small ${sequence}`, ...labels },
    report: { jobs: [] },
    summary: storedSummary(sequence),
    analysisVersion: '2026.11.0',
    fioVersion: null,
  };
}

/** A wall clock the test moves by hand (ms epoch). */
export interface ManualClock {
  now: () => number;
  set: (ms: number) => void;
  advance: (ms: number) => void;
}

export function manualClock(start = Date.UTC(2026, 10, 22, 9, 0, 0)): ManualClock {
  let current = start;
  return {
    now: () => current,
    set: (ms) => {
      current = ms;
    },
    advance: (ms) => {
      current += ms;
    },
  };
}

/** The value of an ok result; fails the test with the problem otherwise. */
export function unwrap<T>(result: StoreResult<T>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`);
  return result.value;
}

/** Newest-first order of the store: createdAt desc, then id desc (byte order). */
export function newestFirst<T extends { createdAt: number; id: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) =>
    a.createdAt !== b.createdAt ? b.createdAt - a.createdAt : a.id < b.id ? 1 : a.id > b.id ? -1 : 0,
  );
}
