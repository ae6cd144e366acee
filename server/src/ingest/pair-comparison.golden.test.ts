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
import { buildPairComparison, comparePair, type StoredRunText } from './pair-comparison.ts';

/**
 * Byte identity of the regression gate's frozen comparison (the JSON the store writes): for every
 * ordered pair of fio files in fixtures/fio, baseline and upload, compared from the documents an
 * inline analysis keeps (as the gate and RecentRuns do) and, for each file and the next, from the
 * stored JSON. The digests in pair-comparison.golden.json were written before RecentRuns kept only
 * what the comparison reads (docs/performance.md P2, fifth pass: commit 2dced0d); a comparison
 * built from less must reproduce them exactly, key order included. Rewrite them only for an
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
      const analyzed = analyzeUpload(bytes, labels, 50 * 1024 * 1024, { keepDocuments: true });
      if (!analyzed.ok || !analyzed.documents) continue;
      const id = `${name}:${key}`;
      const text = { id, labels, reportJson: analyzed.reportJson, summaryJson: analyzed.summaryJson };
      runs.push({ name, labels: key, text, run: { id, labels, ...analyzed.documents } });
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
