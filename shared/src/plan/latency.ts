import { z } from 'zod';
import type { PercentilesMs } from '../fio/fio-report.schema.ts';
import type { LatencySummary } from '../profile/io-profile.schema.ts';

/**
 * Latency verdicts (docs/domain.md §9), on completion-latency (clat) percentiles in ms. Compare runs
 * only under identical test conditions; the thresholds below are for SATURATED tests (high
 * iodepth × numjobs) and halve for synchronous-commit workloads (every write waits on fsync).
 */
export const SATURATED_THRESHOLDS_MS: Record<string, { okBelow: number; concernAbove: number }> = {
  '50': { okBelow: 100, concernAbove: 150 },
  '99': { okBelow: 200, concernAbove: 300 },
  '99.9': { okBelow: 250, concernAbove: 500 },
  '99.99': { okBelow: 500, concernAbove: 1000 },
};
/** Under light load a p50 above this means something is wrong (docs/domain.md §9). */
export const LIGHT_LOAD_P50_CONCERN_MS = 10;

export const LatencyVerdictSchema = z.object({
  percentile: z.string(),
  valueMs: z.number(),
  okBelowMs: z.number(),
  concernAboveMs: z.number(),
  verdict: z.enum(['ok', 'watch', 'concern']),
});
export type LatencyVerdict = z.infer<typeof LatencyVerdictSchema>;

export type LoadLevel = 'saturated' | 'light';

/**
 * Percentile keys in numeric order ("50" < "99" < "99.9" < "99.99"). Each key is read as a number
 * once, and entries already in order (fio's, and every object percentiles.ts builds) are not
 * sorted: the result is that of a stable sort by `Number(a) - Number(b)`.
 */
export function sortedPercentiles(p: PercentilesMs): [string, number][] {
  const entries = Object.entries(p);
  const numbers = entries.map(([key]) => Number(key));
  let ordered = true;
  for (let i = 1; i < numbers.length && ordered; i++) ordered = numbers[i - 1]! <= numbers[i]!;
  if (ordered) return entries;
  const order = entries.map((_, i) => i).sort((a, b) => numbers[a]! - numbers[b]!);
  return order.map((i) => entries[i]!);
}

/** Judges each percentile the guide has a threshold for. */
export function judgeLatency(
  percentiles: PercentilesMs,
  options: { load: LoadLevel; syncCommits: boolean },
): LatencyVerdict[] {
  const scale = options.syncCommits ? 0.5 : 1;
  const verdicts: LatencyVerdict[] = [];
  for (const [key, value] of sortedPercentiles(percentiles)) {
    let t = SATURATED_THRESHOLDS_MS[key];
    if (options.load === 'light') {
      if (key !== '50') continue;
      t = { okBelow: LIGHT_LOAD_P50_CONCERN_MS, concernAbove: LIGHT_LOAD_P50_CONCERN_MS };
    }
    if (!t) continue;
    const okBelow = t.okBelow * scale;
    const concernAbove = t.concernAbove * scale;
    verdicts.push({
      percentile: key,
      valueMs: value,
      okBelowMs: okBelow,
      concernAboveMs: concernAbove,
      verdict: value < okBelow ? 'ok' : value > concernAbove ? 'concern' : 'watch',
    });
  }
  return verdicts;
}

export const CliffSchema = z.object({
  from: z.string(),
  to: z.string(),
  fromMs: z.number(),
  toMs: z.number(),
  ratio: z.number(),
});
export type Cliff = z.infer<typeof CliffSchema>;

/** A jump of at least this factor between successive percentiles is a cliff… */
export const CLIFF_RATIO = 3;
/** …when it is also at least this large in absolute terms (µs-scale jitter is not a stall). */
export const CLIFF_MIN_JUMP_MS = 1;

/**
 * Cliffs: a sudden jump between successive percentiles (60 → 80 → 130 → 160 → 900 ms) means
 * stalls — queuing, instance throttling, credit exhaustion — not a smooth tail.
 */
export function detectCliffs(percentiles: PercentilesMs): Cliff[] {
  const sorted = sortedPercentiles(percentiles);
  const cliffs: Cliff[] = [];
  for (let i = 1; i < sorted.length; i += 1) {
    const [from, fromMs] = sorted[i - 1]!;
    const [to, toMs] = sorted[i]!;
    if (fromMs > 0 && toMs / fromMs >= CLIFF_RATIO && toMs - fromMs >= CLIFF_MIN_JUMP_MS) {
      cliffs.push({ from, to, fromMs, toMs, ratio: toMs / fromMs });
    }
  }
  return cliffs;
}

export const LatencyComparisonSchema = z.object({
  rows: z.array(
    z.object({
      percentile: z.string(),
      ebsMs: z.number(),
      nvmeMs: z.number(),
      /** (EBS − NVMe) ÷ NVMe: +0.2 = EBS 20% slower. */
      delta: z.number(),
    }),
  ),
  findings: z.array(
    z.object({
      code: z.enum(['p50_as_good', 'p50_slower', 'p99_within_20pct', 'p99_worse', 'p999_jitter', 'p999_ok']),
      message: z.string(),
    }),
  ),
  overall: z.enum(['ebs-as-good', 'ebs-acceptable', 'investigate', 'insufficient-data']),
  approximate: z.boolean(),
});
export type LatencyComparison = z.infer<typeof LatencyComparisonSchema>;

const fmtMs = (v: number) => `${v < 1 ? v.toFixed(3) : v.toFixed(2)} ms`;

/**
 * EBS vs NVMe, percentile by percentile (docs/domain.md §9): EBS p50 ≤ NVMe p50 → as good for typical
 * load; EBS p99 within 20% → acceptable; EBS p99.9 > 2 × NVMe → investigate jitter.
 */
export function compareLatency(ebs: LatencySummary, nvme: LatencySummary): LatencyComparison {
  const rows = sortedPercentiles(ebs.percentiles)
    .filter(([key]) => nvme.percentiles[key] !== undefined)
    .map(([key, ebsMs]) => {
      const nvmeMs = nvme.percentiles[key]!;
      return { percentile: key, ebsMs, nvmeMs, delta: nvmeMs > 0 ? (ebsMs - nvmeMs) / nvmeMs : 0 };
    });
  const row = (k: string) => rows.find((r) => r.percentile === k);
  const findings: LatencyComparison['findings'] = [];
  const p50 = row('50');
  const p99 = row('99');
  const p999 = row('99.9');
  if (p50)
    findings.push(
      p50.ebsMs <= p50.nvmeMs
        ? {
            code: 'p50_as_good',
            message: `EBS p50 ${fmtMs(p50.ebsMs)} ≤ NVMe ${fmtMs(p50.nvmeMs)}: as good for typical load`,
          }
        : {
            code: 'p50_slower',
            message: `EBS p50 ${fmtMs(p50.ebsMs)} vs NVMe ${fmtMs(p50.nvmeMs)} (+${(p50.delta * 100).toFixed(0)}%): typical requests are slower on EBS`,
          },
    );
  if (p99)
    findings.push(
      p99.delta <= 0.2
        ? {
            code: 'p99_within_20pct',
            message: `EBS p99 ${fmtMs(p99.ebsMs)} within 20% of NVMe ${fmtMs(p99.nvmeMs)}: acceptable`,
          }
        : {
            code: 'p99_worse',
            message: `EBS p99 ${fmtMs(p99.ebsMs)} is ${(p99.delta * 100).toFixed(0)}% above NVMe ${fmtMs(p99.nvmeMs)}: more than the 20% the guide accepts`,
          },
    );
  if (p999)
    findings.push(
      p999.ebsMs > 2 * p999.nvmeMs
        ? {
            code: 'p999_jitter',
            message: `EBS p99.9 ${fmtMs(p999.ebsMs)} is more than twice NVMe's ${fmtMs(p999.nvmeMs)}: investigate jitter`,
          }
        : {
            code: 'p999_ok',
            message: `EBS p99.9 ${fmtMs(p999.ebsMs)} within 2× NVMe's ${fmtMs(p999.nvmeMs)}`,
          },
    );
  const has = (code: string) => findings.some((f) => f.code === code);
  const overall: LatencyComparison['overall'] =
    !p50 && !p99
      ? 'insufficient-data'
      : has('p99_worse') || has('p999_jitter')
        ? 'investigate'
        : has('p50_as_good')
          ? 'ebs-as-good'
          : 'ebs-acceptable';
  return { rows, findings, overall, approximate: ebs.approximate || nvme.approximate };
}
