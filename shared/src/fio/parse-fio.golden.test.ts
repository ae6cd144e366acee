import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarizeRun } from '../analysis/summarize-run.ts';
import type { RunLabels } from '../records/run.ts';
import { digestTexts, FIO_FIXTURES as FIXTURES, goldenFioFiles, readGolden } from '../test-support/golden.ts';
import {
  FioRawDirectionSchema,
  FioRawDocumentSchema,
  FioRawJobSchema,
  FioRawLatencySchema,
} from './fio-raw.schema.ts';
import { parseFio } from './parse-fio.ts';

/**
 * Byte identity of what an upload stores: `JSON.stringify` of `parseFio` and of `summarizeRun`,
 * for every fio file in fixtures/ (as bytes, as the server passes them, and as text) and for
 * every refusal a mutation of a real file at a path the raw schema reads can cause. The digests
 * in parse-fio.golden.json were written by the parser before issue 24's speed-ups (commit
 * 8f79abe); a faster parser must reproduce them exactly, key order included. Rewrite them only
 * for an intended change of output: `BLOCKWISE_WRITE_GOLDEN=1 pnpm exec vitest run <this file>`.
 */

const GOLDEN = resolve(import.meta.dirname, 'parse-fio.golden.json');

const fioFiles = goldenFioFiles();

/** No labels, CI's (the bench's: instance, gp3 volume, region) and an NVMe instance store. */
const LABELS: Record<string, RunLabels> = {
  none: {},
  ci: {
    name: 'bench-1',
    kind: 'ebs',
    instanceType: 'm7i.xlarge',
    volumeType: 'gp3',
    volumeSizeGiB: 500,
    volumeIops: 6000,
    volumeThroughputMiBps: 250,
    region: 'us-east-1',
  },
  nvme: { kind: 'nvme', instanceType: 'i4i.2xlarge', region: 'eu-west-1' },
};

/** The digest of the values' JSON texts. */
const digest = (...values: unknown[]) => digestTexts(values.map((value) => JSON.stringify(value)));

/** Per case: the result's code (or "ok"), the digest of its JSON and, for a report, of its summaries. */
function outcome(input: string | Uint8Array): string {
  const result = parseFio(input);
  if (!result.ok) return `${result.error.code} ${digest(result)}`;
  const summaries = Object.values(LABELS).map((labels) => summarizeRun(result.report, labels));
  return `ok ${digest(result)} ${digest(...summaries)}`;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- fixtures are mutated as plain JSON */
/** The keys the raw schema names at each level: the paths mutated below. */
const DOCUMENT_KEYS = Object.keys(FioRawDocumentSchema.shape);
const JOB_KEYS = Object.keys(FioRawJobSchema.shape);
const DIRECTION_KEYS = Object.keys(FioRawDirectionSchema.shape);
const LATENCY_KEYS = Object.keys(FioRawLatencySchema.shape);
const BAD_VALUES: [string, unknown][] = [
  ['missing', undefined],
  ['string', '5'],
  ['null', null],
  ['array', []],
  ['object', {}],
  ['negative', -1],
  ['fraction', 1.5],
  ['boolean', true],
];

/** Every path the raw schema or the normalizer reads in the first job of a document, with every bad value. */
function mutations(name: string): [string, string][] {
  const doc = JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Record<string, any>;
  const list = doc.jobs ? 'jobs' : 'client_stats';
  const job = doc[list][0];
  const paths: (string | number)[][] = [
    ...DOCUMENT_KEYS.map((k) => [k]),
    ...JOB_KEYS.map((k) => [list, 0, k]),
  ];
  // One direction: the others go through the same code.
  for (const d of ['read', 'write', 'mixed'].filter((k) => job[k]).slice(0, 1)) {
    paths.push(...DIRECTION_KEYS.map((k) => [list, 0, d, k]));
    for (const l of ['clat_ns', 'lat_ns', 'clat', 'lat']) {
      if (job[d][l]) paths.push(...LATENCY_KEYS.map((k) => [list, 0, d, l, k]));
    }
  }
  if (job.sync) paths.push([list, 0, 'sync', 'total_ios'], [list, 0, 'sync', 'lat_ns']);
  if (job['job options']) paths.push([list, 0, 'job options', Object.keys(job['job options'])[0]!]);
  const cases: [string, string][] = [];
  for (const path of paths) {
    for (const [label, value] of BAD_VALUES) {
      const copy = structuredClone(doc);
      let parent = copy;
      for (const key of path.slice(0, -1)) parent = parent[key];
      const last = path[path.length - 1]!;
      if (value === undefined) delete parent[last];
      else parent[last] = value;
      cases.push([`${name} ${path.join('.')}=${label}`, JSON.stringify(copy, null, 2)]);
    }
  }
  return cases;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

const MUTATED = [
  'generated/c_randread_4k_libaio_qd32_timebased5s.json',
  'generated/l_randwrite_4k_psync_fsync1_sync_section.json',
  'generated/o_client_server_loopback_randread_nj2.json',
  'generated/p_randrw_4k_mix50_jsonplus_nj2_perjob.json',
  'generated/k_randrw_4k_unified_rw_reporting_both.json',
  'public/pkb_fio-2.1.4_four_stonewall_groups.json',
];

/** Refusals before the schema: the malformed inputs of parse-fio.test.ts and extract-documents.test.ts. */
function malformed(): [string, string | Uint8Array][] {
  const c = readFileSync(join(FIXTURES, MUTATED[0]!), 'utf8');
  return [
    ['empty', ''],
    ['gzip bytes', new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0])],
    ['not fio', '{"a":1}'],
    ['cut off', c.slice(0, 500)],
    ['65 deep', `{"jobs":${'['.repeat(65)}${']'.repeat(65)}}`],
    ['70 deep inside jobs', c.replace('"jobs" : [', `"jobs" : [${'['.repeat(70)}${']'.repeat(70)},`)],
    ['100000 deep', `{"jobs":${'['.repeat(100_000)}`],
    ['wrong bracket', c.replace('"jobs" : [', '"jobs" : {')],
    ['bad number', c.replace('77896.220756', '77896.220756.5')],
    ['jobname 7', '{"fio version":"fio-3.33","jobs":[{"jobname":7}]}'],
    ['no jobs', '{"fio version":"fio-3.33","jobs":[]}'],
    ['nan mean', c.replace('"mean" : 401976.932442', '"mean" : -nan')],
    ['raw tab', c.replace('"jobname" : "randread_4k"', '"jobname" : "randread\t4k"')],
    ['escaped brackets', c.replace('"jobname" : "randread_4k"', '"jobname" : "a \\"}]{[\\\\"')],
    ['text around', `fio: warning\n${c}\nRun status group 0\n`],
  ];
}

function allCases(): [string, string | Uint8Array][] {
  const cases: [string, string | Uint8Array][] = [];
  for (const name of fioFiles) {
    const bytes = readFileSync(join(FIXTURES, name));
    cases.push([`${name} (bytes)`, new Uint8Array(bytes)], [`${name} (text)`, bytes.toString('utf8')]);
  }
  for (const name of MUTATED) cases.push(...mutations(name));
  cases.push(...malformed());
  return cases;
}

describe('parseFio and summarizeRun: byte-identical to the recorded outputs', () => {
  const cases = allCases();
  const actual = Object.fromEntries(cases.map(([name, input]) => [name, outcome(input)]));

  const golden = readGolden(GOLDEN, actual);

  it('covers every fio fixture, refusals of every kind and every summary label set', () => {
    expect(Object.keys(golden).sort()).toEqual(Object.keys(actual).sort());
    const codes = new Set(Object.values(golden).map((line) => line.split(' ')[0]));
    expect([...codes].sort()).toEqual(
      [
        'binary_input',
        'empty_input',
        'fio_invalid',
        'invalid_json',
        'not_fio_json',
        'ok',
        'too_deep',
        'unsupported_fio_output',
      ].sort(),
    );
  });

  it.each(cases.map(([name]) => name))('%s', (name) => {
    expect(actual[name]).toEqual(golden[name]);
  });
});
