// A ~1 MB fio file that every limit of the parser still accepts, built to cost the server as much
// per byte as those limits allow (P13): many jobs without group_reporting, each direction with
// 32 percentiles (MAX_PERCENTILES) drawn from 4 different lists (128 distinct, the file's
// MAX_DISTINCT_PERCENTILES), and enough global options — which the report copies into every job —
// to bring the stored report close to its cap of 2 × the input (server/src/ingest/analyze-upload.ts).
// Compact JSON, so that as many jobs as possible fit in the bytes. Deterministic.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from './common.mjs';

const TEMPLATE = join('fio', 'generated', 'b_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_perjob.json');
const PERCENTILES = 32;
const LISTS = 4;

/** 32 percentile keys in fio's "%f" form, list `n` of 4 (disjoint, so together 128 distinct). */
function percentileObject(n, scale) {
  const out = {};
  for (let i = 0; i < PERCENTILES; i++) {
    const p = 1 + (i * LISTS + n) * 0.75; // 1 … 96.25, interleaved between the lists
    out[p.toFixed(6)] = Math.round(scale * (1 + i / 4)) * 1000;
  }
  return out;
}

/**
 * `targetBytes` of compact fio JSON, with `globalOptions` options of 24 characters each (the
 * default is what fills the report to ~1.9 × the input).
 */
export function synthesizeHostile(targetBytes = 1_000_000, globalOptions = 165) {
  const doc = JSON.parse(readFileSync(join(FIXTURES, TEMPLATE), 'utf8'));
  const templates = doc.jobs;
  doc['global options'] = Object.fromEntries(
    Array.from({ length: globalOptions }, (_, i) => [
      `hostile_option_${String(i).padStart(3, '0')}`,
      'x'.repeat(8),
    ]),
  );
  const jobs = [];
  const addJob = () => {
    const job = structuredClone(templates[jobs.length % templates.length]);
    job.jobname = `hostile-${jobs.length}`;
    for (const direction of ['read', 'write']) {
      job[direction].clat_ns.percentile = percentileObject(jobs.length % LISTS, 50 + jobs.length);
    }
    jobs.push(job);
  };
  const render = () => Buffer.from(JSON.stringify({ ...doc, jobs }));
  for (let n = 0; n < 4; n++) addJob();
  const four = render().length;
  for (let n = 0; n < 4; n++) addJob();
  const perJob = (render().length - four) / 4;
  const fixed = four - 4 * perJob;
  while (fixed + (jobs.length + 1) * perJob <= targetBytes) addJob();
  return render();
}

/**
 * The file of issue 12: one job whose read latency has 56,000 percentile keys (~1 MB). Before the
 * parser bounded percentile objects it was accepted and stored as a 3.5 MB report; now it is
 * refused (422 fio_invalid) once its keys are counted. `BENCH_P13_FILE=keys` sends it instead.
 */
export function synthesizePercentileKeys(keys = 56_000) {
  const doc = JSON.parse(
    readFileSync(join(FIXTURES, 'fio', 'generated', 'c_randread_4k_libaio_qd32_timebased5s.json'), 'utf8'),
  );
  const percentile = {};
  for (let i = 0; i < keys; i++) percentile[((i * 100) / keys + 0.000001).toFixed(6)] = 1000 + i;
  doc.jobs[0].read.clat_ns.percentile = percentile;
  return Buffer.from(JSON.stringify(doc));
}
