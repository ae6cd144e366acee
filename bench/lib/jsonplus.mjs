// A ~20 MiB json+ document synthesized from the real json+ fixture, the same way as
// shared/bench/parse-fio.bench.ts (P6): jobs replicated, latency bins widened over fio's own
// bucket grid (stat.c plat_idx_to_val) with the observed counts kept — what a long run on a noisy
// device with many jobs looks like. Deterministic (seeded), so every run sends the same bytes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from './common.mjs';
import { JSONPLUS_FIXTURE } from './fixtures.mjs';

function platIdxToVal(idx) {
  const PLAT_BITS = 6;
  const PLAT_VAL = 1 << PLAT_BITS;
  if (idx < PLAT_VAL << 1) return idx;
  const errorBits = (idx >> PLAT_BITS) - 1;
  const base = 2 ** (errorBits + PLAT_BITS);
  const k = idx % PLAT_VAL;
  return base + Math.floor((k + 0.5) * 2 ** errorBits);
}
const PLAT_NR = 29 * 64; // FIO_IO_U_PLAT_NR: 1856 buckets
const VALUE_TO_IDX = new Map(Array.from({ length: PLAT_NR }, (_, i) => [platIdxToVal(i), i]));

export function mulberry32(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function widenBins(bins, random) {
  const idx = Object.keys(bins)
    .map((k) => VALUE_TO_IDX.get(Number(k)))
    .filter((i) => i !== undefined);
  const lo = Math.max(0, Math.min(...idx) - 32);
  const hi = Math.min(PLAT_NR - 1, Math.max(...idx) + 400);
  const out = {};
  for (let i = lo; i <= hi; i++) {
    const key = String(platIdxToVal(i));
    out[key] = bins[key] ?? 1 + Math.floor(random() * 8);
  }
  return out;
}

/** fio's pretty-printed json+ (two-space indent, `"key" : value`) of about `targetBytes`. */
export function synthesizeJsonPlus(targetBytes = 20 * 1024 * 1024, seed = 42) {
  const doc = JSON.parse(readFileSync(join(FIXTURES, JSONPLUS_FIXTURE), 'utf8'));
  const random = mulberry32(seed);
  const templates = doc.jobs;
  const jobs = [];
  const render = () => JSON.stringify({ ...doc, jobs }, null, 2).replace(/": /g, '" : ');
  const addJob = () => {
    const job = structuredClone(templates[jobs.length % templates.length]);
    job.jobname = `${job.jobname}-${jobs.length}`;
    for (const direction of ['read', 'write']) {
      const clat = job[direction].clat_ns;
      if (clat.bins) clat.bins = widenBins(clat.bins, random);
      job[direction].lat_ns = { ...job[direction].lat_ns, bins: clat.bins };
    }
    jobs.push(job);
  };
  for (let n = 0; n < 8; n++) addJob();
  const perJob = render().length / jobs.length;
  while (jobs.length * perJob < targetBytes) addJob();
  return Buffer.from(render());
}
