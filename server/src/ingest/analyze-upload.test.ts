import { readdirSync, readFileSync } from 'node:fs';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { fixture, makeTestApp } from '../testing/test-app.ts';
import { RunLabelsSchema } from '@blockwise/shared/records';
import {
  analyzeUpload,
  maxReportBytes,
  movableAnalysis,
  MAX_REPORT_TO_INPUT,
  REPORT_BYTES_SLACK,
} from './analyze-upload.ts';
import { buildComparison, type ComparisonRun } from '@blockwise/shared/analysis';
import { parseFio } from '@blockwise/shared/fio';
import { buildPairComparison, parseStoredRun, type StoredRunText } from './pair-comparison.ts';

const MiB = 1024 * 1024;
const FIO = new URL('../../../fixtures/fio/', import.meta.url);

/** Every real fio file in fixtures/fio (not the oracles, scripts and notes beside them). */
function realFioFiles(): { name: string; bytes: Buffer }[] {
  return ['generated', 'public', 'derived'].flatMap((dir) =>
    readdirSync(new URL(`${dir}/`, FIO))
      .filter((f) => /\.(json|txt)$/.test(f) && !f.endsWith('.oracle.json'))
      .map((f) => ({ name: `${dir}/${f}`, bytes: readFileSync(new URL(`${dir}/${f}`, FIO)) })),
  );
}

/**
 * Valid fio JSON built to grow: `jobs` minimal entries (every field the parser needs, nothing
 * else) under `options` global options. Each job of the report carries all three directions, its
 * settings and the global options, ~1.6 KB from ~70 bytes of input.
 */
function growingFile(jobs: number, options = 0): Buffer {
  const global = Object.fromEntries(Array.from({ length: options }, (_, i) => [`opt${i}`, 'x'.repeat(40)]));
  const job = (i: number) => `{"jobname":"j${i}","read":{"io_bytes":0,"bw":0,"iops":0,"runtime":0}}`;
  return Buffer.from(
    `{"fio version":"fio-3.33","global options":${JSON.stringify(global)},"jobs":[${Array.from({ length: jobs }, (_, i) => job(i)).join(',')}]}`,
  );
}

describe('the stored report is capped relative to the input', () => {
  it(`every real fio file passes, pretty-printed as fio writes it and minified (≤ ${MAX_REPORT_TO_INPUT} × + ${REPORT_BYTES_SLACK / 1024} KiB)`, () => {
    const files = realFioFiles();
    expect(files.length).toBeGreaterThan(30);
    for (const { name, bytes } of files) {
      const analyzed = analyzeUpload(bytes, {}, 50 * MiB);
      if (name.includes('cyberhuey')) continue; // fio's error text only, no JSON (not_fio_json)
      expect(analyzed.ok, name).toBe(true);
      let minified: string;
      try {
        minified = JSON.stringify(JSON.parse(bytes.toString('utf8')));
      } catch {
        continue; // text around the JSON (normal,json output; warnings before it)
      }
      const small = Buffer.from(minified);
      const again = analyzeUpload(small, {}, 50 * MiB);
      expect(again.ok, `${name} minified`).toBe(true);
      // Real files stay well inside the cap, with no help from the slack.
      if (again.ok) expect(Buffer.byteLength(again.reportJson) / small.length).toBeLessThan(1.5);
    }
  });

  it('a valid file of many minimal jobs is refused with report_too_large before its jobs are normalized', () => {
    const hostile = growingFile(2000);
    expect(hostile.length).toBeLessThan(150_000);
    const analyzed = analyzeUpload(hostile, {}, 50 * MiB);
    expect(analyzed).toMatchObject({ ok: false, error: { code: 'report_too_large' } });
    if (!analyzed.ok) {
      // parseFio's lower bound (1,024 bytes a job) already exceeds the cap.
      expect(analyzed.error.message).toContain('at least 2048000 bytes to store (2000 jobs');
      expect(analyzed.error.message).toContain(`more than the ${maxReportBytes(hostile.length)} allowed`);
    }
  });

  it('one the estimate lets through is refused once the report is serialized (its exact size)', () => {
    // 60 bare jobs: at least 61,440 bytes estimated, under the cap of ~74 KB; ~96 KB serialized.
    const hostile = growingFile(60);
    const analyzed = analyzeUpload(hostile, {}, 50 * MiB);
    expect(analyzed).toMatchObject({ ok: false, error: { code: 'report_too_large' } });
    if (!analyzed.ok) {
      expect(analyzed.error.message).toContain(`this ${hostile.length}-byte file would take`);
      expect(analyzed.error.message).toContain(`(${maxReportBytes(hostile.length)})`);
    }
    // The same shape, few jobs: the slack lets small files through.
    expect(analyzeUpload(growingFile(20), {}, 50 * MiB).ok).toBe(true);
  });

  it('global options repeated into every job do not get past the cap either', () => {
    // 1,000 options × 200 jobs: 60 KB in, ~10 MB if stored.
    const analyzed = analyzeUpload(growingFile(200, 1000), {}, 50 * MiB);
    expect(analyzed).toMatchObject({ ok: false, error: { code: 'report_too_large' } });
  });

  it('over HTTP: 422 report_too_large, and nothing is stored', async () => {
    const t = await makeTestApp();
    try {
      const hostile = growingFile(2000);
      const res = await request(t.app)
        .post('/api/runs?name=grows')
        .set('Content-Type', 'application/json')
        .serialize((b: unknown) => b as string)
        .send(hostile);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('report_too_large');
      const page = await t.store.listRuns({ limit: 10 });
      expect(page.ok && page.value.items).toEqual([]);
      // A real file through the same route is stored.
      const ok = await request(t.app)
        .post('/api/runs?name=real')
        .set('Content-Type', 'application/json')
        .serialize((b: unknown) => b as string)
        .send(fixture('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json'));
      expect(ok.status).toBe(201);
    } finally {
      await t.close();
    }
  });
});

describe('movableAnalysis: what the parse worker sends back', () => {
  it('the report as the UTF-8 bytes of its JSON, in memory of their own, and that memory to move', () => {
    // A job name outside ASCII: bytes, not UTF-16 units.
    const file = Buffer.from(
      fixture('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json')
        .toString('utf8')
        .replace(/"jobname"\s*:\s*"[^"]*"/, '"jobname" : "読み取り — ü"'),
    );
    const analyzed = analyzeUpload(file, { name: 'x' }, MiB);
    if (!analyzed.ok || typeof analyzed.reportJson !== 'string') throw new Error('expected a report');
    expect(analyzed.reportJson).toContain('読み取り — ü');
    const { result, transfer } = movableAnalysis(analyzed);
    if (!result.ok || typeof result.reportJson === 'string') throw new Error('expected bytes');
    expect(transfer).toEqual([result.reportJson.buffer]);
    expect(result.reportJson.byteOffset).toBe(0);
    expect(result.reportJson.byteLength).toBe(result.reportJson.buffer.byteLength);
    expect(Buffer.from(result.reportJson).toString('utf8')).toBe(analyzed.reportJson);
    expect({ ...result, reportJson: analyzed.reportJson }).toEqual(analyzed);
  });

  it('a refusal, or a report already in bytes, goes as it is with nothing to move', () => {
    const refused = analyzeUpload(Buffer.from('{"not":"fio"}'), {}, MiB);
    expect(refused.ok).toBe(false);
    expect(movableAnalysis(refused)).toEqual({ result: refused, transfer: [] });
    const analyzed = analyzeUpload(
      fixture('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json'),
      {},
      MiB,
    );
    const moved = movableAnalysis(analyzed).result;
    expect(movableAnalysis(moved)).toEqual({ result: moved, transfer: [] });
  });
});

describe('what an analysis stores parses back to its documents, and compares as they do', () => {
  // The regression gate compares runs from their stored JSON, and keeps in RecentRuns only what
  // the comparison reads of them (comparedRunOf): it must build the comparison of the whole runs.
  const labelSets = [
    {},
    // What CI sends (bench/lib/fixtures.mjs ciUploadPath): with a volume, the summary holds a plan.
    {
      name: 'ci',
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
    },
    { name: 'nvme', kind: 'nvme', instanceType: 'i4i.xlarge' },
  ] as const;

  it('for every real fio file and the labels CI sends, the same documents and the same comparison', () => {
    let compared = 0;
    // Each run is also compared with the one before it (another file, often another kind).
    let previous: { text: StoredRunText; whole: ComparisonRun } | null = null;
    for (const { name, bytes } of realFioFiles()) {
      for (const raw of labelSets) {
        const labels = RunLabelsSchema.parse(raw);
        const analyzed = analyzeUpload(bytes, labels, 50 * MiB);
        if (!analyzed.ok) continue; // refused files store nothing (tested above)
        expect(analyzed.summaryJson).toBe(JSON.stringify(analyzed.summary));
        const text = {
          id: `run-${compared}`,
          labels,
          reportJson: analyzed.reportJson,
          summaryJson: analyzed.summaryJson,
        };
        const read = parseStoredRun(text);
        expect(read.ok, name).toBe(true);
        if (!read.ok) continue;
        // The analysis' own report and summary, as stored and read back.
        const parsed = parseFio(bytes, { maxBytes: 50 * MiB });
        if (!parsed.ok) return expect.fail(name);
        expect(read.value.report, name).toStrictEqual(parsed.report);
        expect(read.value.summary, name).toStrictEqual(analyzed.summary);
        const wholeRun: ComparisonRun = {
          id: text.id,
          labels,
          report: parsed.report,
          summary: analyzed.summary,
        };
        const other = previous ?? { text, whole: wholeRun };
        // From the stored JSON, reading only what RecentRuns keeps (readComparedRun).
        const fromText = buildPairComparison([other.text, text]);
        previous = { text, whole: wholeRun };
        expect(fromText.ok, name).toBe(true);
        if (!fromText.ok) continue;
        // The comparison of the whole runs (their reports, not what the gate keeps of them).
        const whole = buildComparison([other.whole, wholeRun], null);
        expect(whole.ok, name).toBe(true);
        if (!whole.ok) continue;
        expect(JSON.parse(fromText.resultJson), name).toStrictEqual(JSON.parse(JSON.stringify(whole.value)));
        expect(fromText.priceTableDate).toBe(whole.value.rates.date);
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(90);
  });
});
