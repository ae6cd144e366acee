import { formatInt, formatUsd } from '../units.ts';
import type { FleetAlternative, FleetInstanceRow, FleetPlan, FleetVolumePlan } from './schema.ts';

/**
 * The per-instance rows and the cheaper alternatives in each output of `fleet plan` (format.ts
 * calls these): text, markdown, and the CSV's per-volume columns.
 */

const md = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** `gp3 500 GiB 5,500 IOPS 125 MiB/s $52.50/month (saves $367.50)`. */
export function describeAlternative(a: FleetAlternative): string {
  const c = a.config;
  const parts = [c.type, `${formatInt(c.sizeGib)} GiB`];
  if (c.iops !== null) parts.push(`${formatInt(c.iops)} IOPS`);
  if (c.throughputMibps !== null) parts.push(`${formatInt(c.throughputMibps)} MiB/s`);
  const price = c.usdPerMonth === null ? 'unpriced' : `${formatUsd(c.usdPerMonth)}/month`;
  const saves =
    a.savingUsdPerMonth === null
      ? ''
      : a.savingUsdPerMonth >= 0
        ? ` (saves ${formatUsd(a.savingUsdPerMonth)} on today)`
        : ` (costs ${formatUsd(-a.savingUsdPerMonth)} more than today)`;
  return `${parts.join(' ')} ${price}${saves}`;
}

const minutesText = (r: FleetInstanceRow) =>
  r.minutesAboveBaselinePerDay === null ? '—' : `${formatInt(r.minutesAboveBaselinePerDay)} min/day`;

const baselineText = (r: FleetInstanceRow) =>
  r.baselineIops === null ? '—' : `${formatInt(r.baselineIops)} IOPS, ${formatInt(r.baselineMibps!)} MiB/s`;

/** Lines for the terminal: one per instance, its verdict under it. */
export function instancesText(plan: FleetPlan): string[] {
  const rows = plan.instances ?? [];
  if (rows.length === 0) return [];
  return [
    '',
    'Instances (volumes summed point by point; caps: DescribeInstanceTypes baseline, maximum 30 min per 24 h):',
    ...rows.flatMap((r) => [
      `  ${r.instanceId}${r.instanceType ? ` ${r.instanceType}` : ''}  ${r.volumeIds.length} volume${r.volumeIds.length === 1 ? '' : 's'}  peak ${formatInt(r.peakIops)} IOPS, ${r.peakMibps} MiB/s  baseline ${baselineText(r)}  above: ${minutesText(r)}  burst ${r.burst}${r.sustainedBy ? `  sustained by ${r.sustainedBy.instanceType}` : ''}`,
      `    ${r.verdict}`,
    ]),
  ];
}

/** The markdown section: one table row per instance. */
export function instancesMarkdown(plan: FleetPlan): string[] {
  const rows = plan.instances ?? [];
  if (rows.length === 0) return [];
  return [
    '',
    '### Instances',
    '',
    'Volumes of one instance share its EBS caps: their rates summed point by point (DescribeInstanceTypes baseline; the maximum lasts 30 minutes per 24 hours).',
    '',
    '| Instance | Volumes | Peak together | Baseline | Above baseline | Burst | Headroom | Sustained by | Verdict |',
    '|---|---|---|---|---|---|---:|---|---|',
    ...rows.map(
      (r) =>
        `| ${md(r.instanceType ? `${r.instanceId} (${r.instanceType})` : r.instanceId)} | ${md(r.volumeIds.join(', '))} | ${formatInt(r.peakIops)} IOPS, ${r.peakMibps} MiB/s | ${baselineText(r)} | ${minutesText(r)} | ${r.burst} | ${r.headroomPct ? `${Math.min(r.headroomPct.iops, r.headroomPct.mibps)}%` : '—'} | ${r.sustainedBy ? md(r.sustainedBy.instanceType) : '—'} | ${md(r.verdict)} |`,
    ),
  ];
}

/** Per volume: its alternatives and instance flag, as note lines (text and markdown). */
export function volumeExtras(v: FleetVolumePlan): string[] {
  const out = (v.alternatives ?? []).map(
    (a) => `cheaper: ${describeAlternative(a)} — ${a.trade}; ${a.modify}`,
  );
  if (v.instanceFlag)
    out.push(
      `instance: ${v.instanceFlag.sustainedBy ? `move to ${v.instanceFlag.sustainedBy}` : `${v.instanceFlag.instanceType} binds`} (${v.instanceFlag.cappingGivesUp})`,
    );
  return out;
}

export const INSTANCE_CSV_COLUMNS = [
  'instance_peak_iops',
  'instance_peak_mibps',
  'instance_minutes_above_baseline_per_day',
  'instance_burst',
  'instance_sustained_by',
  'alternative',
  'alternative_usd_per_month',
  'alternative_trade',
  'instance_flag',
] as const;

/** The CSV cells of INSTANCE_CSV_COLUMNS for one volume (its first instance's row). */
export function instanceCsvCells(plan: FleetPlan, v: FleetVolumePlan): (string | number | null)[] {
  const r = (plan.instances ?? []).find(
    (x) => x.volumeIds.includes(v.volumeId) && x.instanceId === v.instanceId,
  );
  const a = v.alternatives?.[0];
  return [
    r?.peakIops ?? null,
    r?.peakMibps ?? null,
    r?.minutesAboveBaselinePerDay ?? null,
    r?.burst ?? null,
    r?.sustainedBy?.instanceType ?? null,
    a ? describeAlternative(a) : null,
    a?.config.usdPerMonth ?? null,
    a?.trade ?? null,
    v.instanceFlag ? `${v.instanceFlag.reason}; ${v.instanceFlag.cappingGivesUp}` : null,
  ];
}
