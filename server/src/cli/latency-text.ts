import { judgeLatencyPromise, type MeasuredLatency, type PromiseVerdict } from '@blockwise/shared/demand';
import type { VolumeType } from '@blockwise/shared/aws';

const ms = (v: number) => `${v < 1 ? v.toFixed(2) : v.toFixed(1)} ms`;

/**
 * The measured latency beside a plan (`blockwise metrics`, `blockwise plan --metrics`): where it
 * comes from, the fio verdict rules on its percentiles, and each type's promise against it
 * (shared demand/measured-latency.ts); a type whose promise is slower than today is marked.
 */
export function measuredLatencyLines(
  measured: MeasuredLatency | null,
  types: readonly VolumeType[],
): string[] {
  if (!measured) return [];
  const percentiles = Object.entries(measured.percentilesMs)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([p, v]) => `p${p} ${ms(v)}`)
    .join(', ');
  const out = [
    `Measured latency (${measured.source}): ${measured.statistic} ${ms(measured.ms)}${measured.direction === 'both' ? '' : ` (${measured.direction}s, the slower direction)`}${percentiles ? `; ${measured.span} ${percentiles}` : ''}`,
    // A fio run's verdicts are the plan's own, printed above it ("Latency (write, … load)").
    ...(measured.span === 'whole run' ? [] : measured.verdicts).map(
      (v) =>
        `  p${v.percentile} ${ms(v.valueMs)}: ${v.verdict} (${measured.load} load: ok below ${v.okBelowMs} ms, a concern above ${v.concernAboveMs} ms)`,
    ),
  ];
  for (const v of promiseVerdicts(measured, types))
    out.push(`  ${v.verdict === 'slower-than-today' ? '! ' : ''}${v.message}`);
  return out;
}

/** Each distinct type's promise against the measured latency, in the order given. */
export const promiseVerdicts = (measured: MeasuredLatency, types: readonly VolumeType[]): PromiseVerdict[] =>
  [...new Set(types)].map((t) => judgeLatencyPromise(measured, t));
