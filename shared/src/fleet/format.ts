import { EVIDENCE_CSV_COLUMNS, evidenceCsvCells, evidenceMarkdown, evidenceText } from './format-evidence.ts';
import { formatInt, formatUsd } from '../units.ts';
import {
  INSTANCE_CSV_COLUMNS,
  instanceCsvCells,
  instancesMarkdown,
  instancesText,
  volumeExtras,
} from './format-instances.ts';
import type { FleetConfig, FleetPlan, FleetVolumePlan } from './schema.ts';

/** -$7.50 rather than $-7.50: a negative saving is an extra cost. */
const signedUsd = (n: number) => (n < 0 ? `-${formatUsd(-n)}` : formatUsd(n));

/** `2 volumes unpriced (not in the sums)`; '' when every volume is priced. */
export function unpricedText(count: number): string {
  if (count === 0) return '';
  return `${count} volume${count === 1 ? '' : 's'} unpriced (not in the sums)`;
}

/** Spreadsheet-safe CSV cell: quoted when needed; a leading = + - @ is prefixed with ' (formula injection). */
function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const FLEET_CSV_COLUMNS = [
  'volume_id',
  'name',
  'instance_id',
  'instance_type',
  'status',
  'type',
  'size_gib',
  'iops',
  'throughput_mibps',
  'usd_per_month',
  'peak_read_iops',
  'peak_write_iops',
  'peak_read_mibps',
  'peak_write_mibps',
  'points',
  'days',
  'binding',
  'recommended_type',
  'recommended_size_gib',
  'recommended_iops',
  'recommended_throughput_mibps',
  'recommended_usd_per_month',
  'saving_usd_per_month',
  'risk',
  'modify_command',
  ...INSTANCE_CSV_COLUMNS,
  ...EVIDENCE_CSV_COLUMNS,
] as const;

/**
 * One row per volume (every volume, whatever its status), then one `TOTAL` row with the fleet's
 * sums (status `total`; its `risk` cell says how many volumes are unpriced, left out of the sums);
 * money in USD per month.
 */
export function fleetPlanToCsv(plan: FleetPlan): string {
  const rows = plan.volumes.map((v) => {
    const r = v.recommended;
    return [
      v.volumeId,
      v.name,
      v.instanceId,
      v.instanceType,
      v.status,
      v.current.type,
      v.current.sizeGib,
      v.current.iops,
      v.current.throughputMibps,
      v.current.usdPerMonth,
      v.observed?.readIops ?? null,
      v.observed?.writeIops ?? null,
      v.observed?.readMibps ?? null,
      v.observed?.writeMibps ?? null,
      v.observed?.points ?? null,
      v.observed?.days ?? null,
      v.binding?.id ?? null,
      r?.type ?? null,
      r?.sizeGib ?? null,
      r?.iops ?? null,
      r?.throughputMibps ?? null,
      r?.usdPerMonth ?? null,
      v.savingUsdPerMonth,
      v.risk,
      v.commands.modify[0] ?? null,
      ...instanceCsvCells(plan, v),
      ...evidenceCsvCells(v),
    ]
      .map(csvCell)
      .join(',');
  });
  const f = plan.totals.fleet;
  const total: Record<string, string | number | null> = {
    volume_id: 'TOTAL',
    status: 'total',
    usd_per_month: f.currentUsdPerMonth,
    recommended_usd_per_month: f.recommendedUsdPerMonth,
    saving_usd_per_month: f.savingUsdPerMonth,
    risk: [`${f.volumes} volumes, ${f.riskCount} under-provisioned`, unpricedText(f.unpricedCount)]
      .filter(Boolean)
      .join('; '),
  };
  const totalRow = FLEET_CSV_COLUMNS.map((c) => csvCell(total[c] ?? null)).join(',');
  return [FLEET_CSV_COLUMNS.join(','), ...rows, totalRow].join('\n') + '\n';
}

const usdOrDash = (n: number | null) => (n === null ? '—' : formatUsd(n));

/** `gp3 500 GiB 16,000 IOPS 250 MiB/s`. */
export function describeFleetConfig(c: FleetConfig): string {
  const parts = [c.type, `${formatInt(c.sizeGib)} GiB`];
  if (c.iops !== null) parts.push(`${formatInt(c.iops)} IOPS`);
  if (c.throughputMibps !== null) parts.push(`${formatInt(c.throughputMibps)} MiB/s`);
  return parts.join(' ');
}

function peakOf(v: FleetVolumePlan): string {
  const o = v.observed;
  if (!o) return '—';
  return `${formatInt(o.readIops + o.writeIops)} IOPS, ${formatInt(o.readMibps + o.writeMibps)} MiB/s`;
}

/** Markdown escaping of a table cell: pipes and newlines. */
const md = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** Heading, fleet totals, the per-volume table, commands, unused volumes and the modification rule. */
export function fleetPlanToMarkdown(plan: FleetPlan): string {
  const f = plan.totals.fleet;
  const out: string[] = [
    '## Blockwise fleet plan',
    '',
    `${f.volumes} volumes · ${plan.statistic} of ${plan.periodSeconds}-second points · headroom ${Math.round(plan.headroom * 100)}% · prices ${md(plan.priceSource)} (${plan.priceDate})${plan.region ? ` · ${plan.region}` : ''}`,
    '',
    ...(plan.complete === false
      ? [
          `> **Incomplete data** for ${(plan.incomplete ?? []).length} volume(s): ${(plan.incomplete ?? []).map((i) => `${md(i.volumeId)} (${md(i.reason)})`).join('; ')}`,
          '',
        ]
      : []),
    `**Now ${formatUsd(f.currentUsdPerMonth)}/month → ${formatUsd(f.recommendedUsdPerMonth)}/month: saving ${signedUsd(f.savingUsdPerMonth)}/month**; ${f.riskCount} under-provisioned; ${f.unpricedCount > 0 ? `${unpricedText(f.unpricedCount)}; ` : ''}deleting unused volumes after a snapshot: ${formatUsd(f.unusedSavingUsdPerMonth)}/month.`,
    '',
    '| Volume | Instance | Status | Current | $/month | Peak | Binding | Recommended | $/month | Saving |',
    '|---|---|---|---|---:|---|---|---|---:|---:|',
    ...plan.volumes.map(
      (v) =>
        `| ${md(v.volumeId)} | ${md(v.instanceType ? `${v.instanceId} (${v.instanceType})` : (v.instanceId ?? '—'))} | ${v.status} | ${md(describeFleetConfig(v.current))} | ${usdOrDash(v.current.usdPerMonth)} | ${peakOf(v)} | ${md(v.binding?.explanation ?? '—')} | ${v.recommended ? md(describeFleetConfig(v.recommended)) : '—'} | ${v.recommended ? usdOrDash(v.recommended.usdPerMonth) : '—'} | ${signedUsd(v.savingUsdPerMonth)} |`,
    ),
    '',
    '### By volume type',
    '',
    '| Type | Volumes | Now $/month | Recommended $/month | Saving | Under | Unpriced |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...plan.totals.byVolumeType.map(
      (t) =>
        `| ${md(t.type)} | ${t.volumes} | ${formatUsd(t.currentUsdPerMonth)} | ${formatUsd(t.recommendedUsdPerMonth)} | ${signedUsd(t.savingUsdPerMonth)} | ${t.riskCount} | ${t.unpricedCount} |`,
    ),
  ];
  out.push(...instancesMarkdown(plan));
  out.push(...evidenceMarkdown(plan));
  const extras = plan.volumes.filter((v) => volumeExtras(v).length > 0);
  if (extras.length > 0) {
    out.push('', '### Cheaper types and instance flags', '');
    for (const v of extras) out.push(...volumeExtras(v).map((e) => `- ${md(v.volumeId)}: ${md(e)}`));
  }
  const changed = plan.volumes.filter((v) => v.commands.modify.length > 0);
  if (changed.length > 0) {
    out.push('', '### Commands', '');
    for (const v of changed)
      out.push(
        `**${md(v.volumeId)}**${v.risk ? ` — risk: ${md(v.risk)}` : ''}`,
        '',
        ...v.notes.map((n) => `- ${md(n)}`),
        ...(v.notes.length > 0 ? [''] : []),
        '```sh',
        ...v.commands.modify,
        '# rollback:',
        ...v.commands.rollback,
        '```',
        '',
        '```diff',
        v.commands.terraform,
        '```',
        '',
      );
  }
  if (plan.unused.length > 0) {
    out.push(
      '',
      '### Unused volumes',
      '',
      '| Volume | Why | $/month | Snapshot $/month | Saving |',
      '|---|---|---:|---:|---:|',
    );
    for (const u of plan.unused)
      out.push(
        `| ${md(u.volumeId)} | ${u.reason === 'unattached' ? 'unattached' : `instance ${u.instanceId} stopped`} | ${usdOrDash(u.usdPerMonth)} | ${usdOrDash(u.snapshotUsdPerMonth)} | ${usdOrDash(u.savingUsdPerMonth)} |`,
      );
  }
  if (plan.noData.length > 0) {
    out.push('', '### Not planned', '');
    for (const n of plan.noData) out.push(`- ${md(n.volumeId)}: ${n.status} — ${md(n.reason)}`);
  }
  out.push('', `> ${md(plan.modificationRule)}`);
  for (const n of plan.notes) out.push(`> ${md(n)}`);
  return out.join('\n') + '\n';
}

const pad = (s: string, w: number) => (s.length >= w ? s : s + ' '.repeat(w - s.length));

/** The terminal table (the CLI's default output). */
/**
 * The recurring-peak notes of a plan's volumes (demand/fleet.ts writes them, kept or ignored as
 * asked), one per volume and metric: the text report and the web Fleet page list the same ones.
 */
export function recurringPeakNotes(plan: FleetPlan): { volumeId: string; note: string }[] {
  return plan.volumes.flatMap((v) =>
    v.notes.filter((n) => n.includes('recurring peak')).map((note) => ({ volumeId: v.volumeId, note })),
  );
}

export function fleetPlanToText(plan: FleetPlan): string {
  const head = [
    'VOLUME',
    'INSTANCE',
    'STATUS',
    'CURRENT',
    '$/MONTH',
    'PEAK',
    'RECOMMENDED',
    '$/MONTH',
    'SAVING',
  ];
  const rows = plan.volumes.map((v) => [
    v.volumeId,
    v.instanceType ? `${v.instanceId} ${v.instanceType}` : (v.instanceId ?? '—'),
    v.status,
    describeFleetConfig(v.current),
    usdOrDash(v.current.usdPerMonth),
    peakOf(v),
    v.recommended ? describeFleetConfig(v.recommended) : '—',
    v.recommended ? usdOrDash(v.recommended.usdPerMonth) : '—',
    signedUsd(v.savingUsdPerMonth),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => pad(c, widths[i]!))
      .join('  ')
      .trimEnd();
  const f = plan.totals.fleet;
  const out = [
    `Fleet plan: ${f.volumes} volumes, ${plan.statistic} of ${plan.periodSeconds} s points, headroom ${Math.round(plan.headroom * 100)}%, prices: ${plan.priceSource} (${plan.priceDate})`,
    '',
    line(head),
    ...rows.map(line),
    '',
    'By volume type (USD per month):',
    ...plan.totals.byVolumeType.map(
      (t) =>
        `  ${pad(t.type, 9)} ${t.volumes} volumes  now ${formatUsd(t.currentUsdPerMonth)}  recommended ${formatUsd(t.recommendedUsdPerMonth)}  saving ${signedUsd(t.savingUsdPerMonth)}  under ${t.riskCount}${t.unpricedCount > 0 ? `  ${unpricedText(t.unpricedCount)}` : ''}`,
    ),
    'By instance (USD per month):',
    ...plan.totals.byInstance.map(
      (t) =>
        `  ${pad(t.instanceId ? `${t.instanceId}${t.instanceType ? ` ${t.instanceType}` : ''}` : '(none)', 28)} ${t.volumes} volumes  now ${formatUsd(t.currentUsdPerMonth)}  saving ${signedUsd(t.savingUsdPerMonth)}  under ${t.riskCount}${t.unpricedCount > 0 ? `  ${unpricedText(t.unpricedCount)}` : ''}`,
    ),
    `Fleet: now ${formatUsd(f.currentUsdPerMonth)}/month, recommended ${formatUsd(f.recommendedUsdPerMonth)}/month, saving ${signedUsd(f.savingUsdPerMonth)}/month; ${f.riskCount} under-provisioned; ${f.unpricedCount > 0 ? `${unpricedText(f.unpricedCount)}; ` : ''}unused volumes (delete after snapshot): ${formatUsd(f.unusedSavingUsdPerMonth)}/month`,
  ];
  const risky = plan.volumes.filter((v) => v.risk);
  if (risky.length > 0) out.push('', 'Risks:', ...risky.map((v) => `  ${v.volumeId}: ${v.risk}`));
  out.push(...instancesText(plan));
  out.push(...evidenceText(plan));
  const extras = plan.volumes.filter((v) => volumeExtras(v).length > 0);
  if (extras.length > 0)
    out.push(
      '',
      'Cheaper types and instance flags:',
      ...extras.flatMap((v) => volumeExtras(v).map((e) => `  ${v.volumeId}: ${e}`)),
    );
  // The demand model's findings a reader must not miss (demand/fleet.ts): beside the savings.
  const recurring = recurringPeakNotes(plan).map((r) => `  ${r.volumeId}: ${r.note}`);
  if (recurring.length > 0) out.push('', 'Recurring peaks:', ...recurring);
  if (plan.complete === false)
    out.push(
      '',
      'INCOMPLETE DATA (the plan for these volumes is from part of their data):',
      ...(plan.incomplete ?? []).map((i) => `  ${i.volumeId}: ${i.reason}`),
    );
  const changed = plan.volumes.filter((v) => v.commands.modify.length > 0);
  if (changed.length > 0) {
    out.push('', 'Commands (one modification per volume; rollback after it completes):');
    for (const v of changed)
      out.push(
        `  ${v.volumeId}:`,
        ...v.notes.map((n) => `    note: ${n}`),
        ...v.commands.modify.map((c) => `    ${c}`),
        '    rollback:',
        ...v.commands.rollback.map((c) => `    ${c}`),
        '    terraform (aws_ebs_volume):',
        ...v.commands.terraform.split('\n').map((c) => `      ${c}`),
      );
  }
  if (plan.unused.length > 0) {
    out.push('', 'Unused volumes (saving if deleted after a snapshot, USD per month):');
    for (const u of plan.unused)
      out.push(
        `  ${u.volumeId} (${u.reason === 'unattached' ? 'unattached' : `instance ${u.instanceId} stopped`}): volume ${usdOrDash(u.usdPerMonth)}, snapshot ${usdOrDash(u.snapshotUsdPerMonth)}, saving ${usdOrDash(u.savingUsdPerMonth)}`,
        ...u.commands.map((c) => `    ${c}`),
      );
  }
  if (plan.noData.length > 0)
    out.push('', 'Not planned:', ...plan.noData.map((n) => `  ${n.volumeId}: ${n.status} — ${n.reason}`));
  out.push('', ...plan.notes.map((n) => `Note: ${n}`), `Rule: ${plan.modificationRule}`);
  return out.join('\n') + '\n';
}
