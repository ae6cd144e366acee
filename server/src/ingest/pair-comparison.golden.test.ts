import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunLabelsSchema, type RunLabels } from '@blockwise/shared/records';
import {
  digestTexts as digest,
  FIO_FIXTURES as FIXTURES,
  goldenFioFiles,
  readGolden,
} from '../../../shared/src/test-support/golden.ts';
import { analyzeUpload } from './analyze-upload.ts';
import { comparedRunOf } from '@blockwise/shared/analysis';
import { buildPairComparison, comparePair, parseStoredRun, type StoredRunText } from './pair-comparison.ts';

/**
 * Byte identity of the regression gate's frozen comparison (the JSON the store writes): for every
 * ordered pair of fio files in fixtures/fio, baseline and upload, compared from what RecentRuns
 * keeps of their stored JSON and, for each file and the next, from the stored JSON itself. The
 * stored-JSON digests in pair-comparison.golden.json were written on 2dced0d (docs/performance.md
 * P2, fifth pass) and are unchanged since. The others were rewritten once, on 2026-11-29, when the
 * gate stopped comparing an upload's in-memory documents (sixth pass): from the stored JSON, the
 * summaries embedded in a comparison have their schemas' key order, not the analysis' own (the
 * values are equal: analyze-upload.test.ts). Rewrite them only for an
 * intended change of output: `BLOCKWISE_WRITE_GOLDEN=1 pnpm exec vitest run <this file>`.
 */

const GOLDEN = resolve(import.meta.dirname, 'pair-comparison.golden.json');

const fioFiles = goldenFioFiles();

/** CI's labels (with a volume: the summary holds a plan) and an NVMe run (an NVMe-vs-EBS verdict). */
const LABELS: Record<string, RunLabels> = {
  ci: RunLabelsSchema.parse({
    name: 'bench-1',
    series: 'bench',
    branch: 'main',
    commit: '0123abc',
    kind: 'ebs',
    instanceType: 'm7i.xlarge',
    volumeType: 'gp3',
    volumeSizeGiB: 500,
    volumeIops: 6000,
    volumeThroughputMiBps: 250,
    region: 'us-east-1',
  }),
  nvme: RunLabelsSchema.parse({
    series: 'bench',
    kind: 'nvme',
    instanceType: 'i4i.2xlarge',
    region: 'eu-west-1',
  }),
};

type Analyzed = {
  name: string;
  labels: string;
  text: StoredRunText;
  run: Parameters<typeof comparePair>[0][number];
};

function analyzedRuns(): Analyzed[] {
  const runs: Analyzed[] = [];
  for (const name of fioFiles) {
    const bytes = readFileSync(join(FIXTURES, name));
    for (const [key, labels] of Object.entries(LABELS)) {
      const analyzed = analyzeUpload(bytes, labels, 50 * 1024 * 1024);
      if (!analyzed.ok) continue;
      const id = `${name}:${key}`;
      const text = { id, labels, reportJson: analyzed.reportJson, summaryJson: analyzed.summaryJson };
      // What RecentRuns keeps of a run the gate read from the store.
      const read = parseStoredRun(text);
      if (!read.ok) throw new Error(`${name}: ${read.error.message}`);
      runs.push({ name, labels: key, text, run: comparedRunOf(read.value) });
    }
  }
  return runs;
}

/** Per baseline (file and labels): the digest of the comparisons with every upload of CI's labels. */
function outcomes(): Record<string, string> {
  const runs = analyzedRuns();
  const uploads = runs.filter((r) => r.labels === 'ci');
  const result: Record<string, string> = {};
  const json = (built: ReturnType<typeof comparePair>) =>
    built.ok ? built.resultJson : `refused ${built.error.code}`;
  for (const baseline of runs) {
    result[`${baseline.name} (${baseline.labels}) vs every upload`] = digest(
      uploads.map((upload) => json(comparePair([baseline.run, upload.run]))),
    );
    const next = uploads[(uploads.findIndex((u) => u.name === baseline.name) + 1) % uploads.length]!;
    result[`${baseline.name} (${baseline.labels}) vs ${next.name}, stored JSON`] = digest([
      json(buildPairComparison([baseline.text, next.text])),
    ]);
  }
  return result;
}

describe('the regression gate comparison of every pair of fio files', () => {
  it('is byte for byte what it was (pair-comparison.golden.json)', () => {
    const actual = outcomes();
    const golden = readGolden(GOLDEN, actual);
    expect(Object.keys(actual).length).toBeGreaterThan(60);
    expect(actual).toStrictEqual(golden);
  });
});
