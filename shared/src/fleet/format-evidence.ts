import type { FleetPlan, FleetVolumePlan } from './schema.ts';

/**
 * AWS's evidence (exceeded checks, latency, burst balance; evidence.ts) in the plan's outputs.
 * A missing figure is "no data" in words and an empty cell in the CSV — never 0.
 */

/** CSV columns after the instance columns: minutes, ms and percent; empty = no data. */
export const EVIDENCE_CSV_COLUMNS = [
  'binding_check',
  'throttled_minutes',
  'iops_exceeded_minutes',
  'throughput_exceeded_minutes',
  'throttled_days',
  'instance_throttled_minutes',
  'read_latency_ms',
  'write_latency_ms',
  'latency_promise',
  'burst_balance_min_pct',
  'burst_empty_days',
] as const;

export function evidenceCsvCells(v: FleetVolumePlan): (string | number | null)[] {
  const e = v.evidence;
  if (!e) return EVIDENCE_CSV_COLUMNS.map(() => null);
  return [
    e.bindingCheck,
    e.throttledMinutes,
    e.iopsExceededMinutes,
    e.throughputExceededMinutes,
    e.throttledDays === null ? null : e.throttledDays.length,
    e.instanceThrottledMinutes,
    e.readLatency?.typicalMs ?? null,
    e.writeLatency?.typicalMs ?? null,
    e.latencyPromise?.text ?? null,
    e.burstBalanceMinPct,
    e.burstEmptyDays,
  ];
}

const withEvidence = (plan: FleetPlan) =>
  plan.volumes.filter((v) => v.evidence && v.evidence.findings.length > 0);
const instancesWithEvidence = (plan: FleetPlan) =>
  (plan.instances ?? []).filter((r) => r.evidence && r.evidence.findings.length > 0);

/** The terminal block: one line per finding, per volume and per instance. */
export function evidenceText(plan: FleetPlan): string[] {
  const volumes = withEvidence(plan);
  const instances = instancesWithEvidence(plan);
  if (volumes.length === 0 && instances.length === 0) return [];
  return [
    '',
    "AWS's evidence (CloudWatch exceeded checks, latency, burst balance):",
    ...volumes.flatMap((v) => [`  ${v.volumeId}:`, ...v.evidence!.findings.map((f) => `    ${f}`)]),
    ...instances.flatMap((r) => [`  ${r.instanceId}:`, ...r.evidence!.findings.map((f) => `    ${f}`)]),
  ];
}

/** As format.ts: a pipe would end a table cell, a newline the item. */
const md = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** The markdown section. */
export function evidenceMarkdown(plan: FleetPlan): string[] {
  const volumes = withEvidence(plan);
  const instances = instancesWithEvidence(plan);
  if (volumes.length === 0 && instances.length === 0) return [];
  return [
    '',
    "### AWS's evidence",
    '',
    ...volumes.flatMap((v) => v.evidence!.findings.map((f) => `- ${md(v.volumeId)}: ${md(f)}`)),
    ...instances.flatMap((r) => r.evidence!.findings.map((f) => `- ${md(r.instanceId)}: ${md(f)}`)),
  ];
}
