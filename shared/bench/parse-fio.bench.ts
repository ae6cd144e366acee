// parseFio cost relative to a bare JSON.parse of the same text (median of repeated runs).
// Run from the repo root: node --import tsx shared/bench/parse-fio.bench.ts
//
// Figures:
// 1. the largest plain-JSON fixture (fio's usual output), goal ≤ 2.5 × JSON.parse;
// 2. a ~20 MB json+ document synthesized in memory from the real json+ fixture
//    (generated/p_*: jobs replicated, latency bins widened over fio's own bucket grid), goal ≤ 3.5 ×.
// Exit status 1 when a goal is missed, so CI can run it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseFio } from '../src/fio/parse-fio.ts';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/fio');
const JSONPLUS_FIXTURE = join(FIXTURES, 'generated/p_randrw_4k_mix50_jsonplus_nj2_perjob.json');
const TARGET_BYTES = 20 * 1024 * 1024;

/** The largest fixture that is plain JSON output (no json+ bins, nothing around the document). */
function largestPlainFixture(): { name: string; text: string } {
  const candidates = ['generated', 'public'].flatMap((dir) =>
    readdirSync(join(FIXTURES, dir))
      .filter((f) => f.endsWith('.json') && !f.endsWith('.oracle.json'))
      .map((f) => join(dir, f)),
  );
  const plain = candidates
    .map((name) => ({ name, text: readFileSync(join(FIXTURES, name), 'utf8') }))
    .filter(({ text }) => text.trimStart().startsWith('{') && !text.includes('"bins"'));
  plain.sort((a, b) => statSync(join(FIXTURES, b.name)).size - statSync(join(FIXTURES, a.name)).size);
  return plain[0]!;
}

/** fio's latency histogram: bucket index → the value fio prints as a `bins` key (stat.c plat_idx_to_val). */
function platIdxToVal(idx: number): number {
  const PLAT_BITS = 6;
  const PLAT_VAL = 1 << PLAT_BITS;
  if (idx < PLAT_VAL << 1) return idx;
  const errorBits = (idx >> PLAT_BITS) - 1;
  const base = 2 ** (errorBits + PLAT_BITS);
  const k = idx % PLAT_VAL;
  return base + Math.floor((k + 0.5) * 2 ** errorBits);
}
const PLAT_NR = 29 * 64; // FIO_IO_U_PLAT_NR: 1856 buckets
const VALUE_TO_IDX = new Map(Array.from({ length: PLAT_NR }, (_, i) => [platIdxToVal(i), i] as const));

/** A deterministic PRNG, so every run benchmarks the same document. */
function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Widens a real bins map the way a longer run on a noisier device looks: every bucket from the
 * fastest observed one up to a long tail is populated (the observed counts kept, the gaps filled
 * with small counts), staying on fio's bucket grid and under its 1856-bucket limit.
 */
function widenBins(bins: Record<string, number>, random: () => number): Record<string, number> {
  const idx = Object.keys(bins)
    .map((k) => VALUE_TO_IDX.get(Number(k)))
    .filter((i): i is number => i !== undefined);
  const lo = Math.max(0, Math.min(...idx) - 32);
  const hi = Math.min(PLAT_NR - 1, Math.max(...idx) + 400);
  const out: Record<string, number> = {};
  for (let i = lo; i <= hi; i++) {
    const key = String(platIdxToVal(i));
    out[key] = bins[key] ?? 1 + Math.floor(random() * 8);
  }
  return out;
}

function synthesizeJsonPlus(): string {
  const doc = JSON.parse(readFileSync(JSONPLUS_FIXTURE, 'utf8')) as { jobs: Record<string, unknown>[] };
  const random = mulberry32(42);
  const templates = doc.jobs;
  const jobs: Record<string, unknown>[] = [];
  // fio pretty-prints with two-space indents and `"key" : value`; keep that shape.
  const render = () => JSON.stringify({ ...doc, jobs }, null, 2).replace(/": /g, '" : ');
  const addJob = () => {
    const job = structuredClone(templates[jobs.length % templates.length]!) as Record<
      string,
      Record<string, unknown>
    >;
    for (const direction of ['read', 'write']) {
      const clat = job[direction]!.clat_ns as { bins?: Record<string, number> };
      if (clat.bins) clat.bins = widenBins(clat.bins, random);
      // json+ with lat_percentiles=1 carries a second histogram per direction.
      job[direction]!.lat_ns = { ...(job[direction]!.lat_ns as object), bins: clat.bins };
    }
    jobs.push(job);
  };
  // Size one batch, then add what the target needs in one go (rendering is the slow part).
  for (let n = 0; n < 8; n++) addJob();
  const perJob = render().length / jobs.length;
  while (jobs.length * perJob < TARGET_BYTES) addJob();
  return render();
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Interleaves the two so drift (GC, CPU frequency) hits both alike; returns the median of each. */
function measure(text: string, runs: number): { jsonParseMs: number; parseFioMs: number } {
  const jsonTimes: number[] = [];
  const fioTimes: number[] = [];
  // Warm up both into optimized code before measuring (a quarter of the runs, at least 3).
  for (let i = 0; i < Math.max(3, runs / 4); i++) {
    JSON.parse(text);
    if (!parseFio(text).ok) throw new Error('benchmark input did not parse');
  }
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    JSON.parse(text);
    jsonTimes.push(performance.now() - t);
    t = performance.now();
    parseFio(text);
    fioTimes.push(performance.now() - t);
  }
  return { jsonParseMs: median(jsonTimes), parseFioMs: median(fioTimes) };
}

function report(label: string, text: string, runs: number, goal: number): boolean {
  const { jsonParseMs, parseFioMs } = measure(text, runs);
  const ratio = parseFioMs / jsonParseMs;
  const pass = ratio <= goal;
  console.log(
    `${label} (${(text.length / 1024 / 1024).toFixed(2)} MiB): parseFio ${parseFioMs.toFixed(3)} ms / JSON.parse ${jsonParseMs.toFixed(3)} ms = ${ratio.toFixed(2)}× (goal ≤ ${goal}×) ${pass ? 'PASS' : 'FAIL'}`,
  );
  return pass;
}

const plain = largestPlainFixture();
const jsonPlus = synthesizeJsonPlus();
const okPlain = report(`plain json, ${plain.name}`, plain.text, 1000, 2.5);
const okPlus = report('json+, synthesized from generated/p_*', jsonPlus, 15, 3.5);
process.exitCode = okPlain && okPlus ? 0 : 1;
