import { bottleneckStateOf, volumeOfRecommendation } from '@blockwise/shared/plan';
import { type ComparisonResult, type PlanSession } from '@blockwise/shared/records';
import { toCsv, type CsvCell } from '../../lib/csv.ts';
import type { CapacityAnswerExport } from './capacity-export.ts';

/**
 * The numbers a session or a share view shows, flattened for a spreadsheet: one row per number,
 * with where it belongs (section, item), its metric and its unit. Strings from uploads (run names,
 * labels) go through the CSV writer's formula defusing.
 */

export const CSV_HEADER = ['section', 'item', 'metric', 'value', 'unit', 'note'] as const;

type Row = [section: string, item: string, metric: string, value: CsvCell, unit: string, note?: string];

export function exportRows(result: ComparisonResult, names: Record<string, string> = {}): Row[] {
  const rows: Row[] = [];
  rows.push([
    'rates',
    result.rates.region ?? 'custom',
    'prices as of',
    result.rates.date,
    '',
    result.rates.source,
  ]);
  result.runs.forEach((r, i) => {
    const name = r.labels.name ?? names[r.id] ?? `run ${i + 1}`;
    const h = r.summary.headline;
    const item = `${name}${r.labels.kind ? ` (${r.labels.kind})` : ''}`;
    rows.push(
      ['run', item, 'read IOPS', h.readIops, 'IOPS'],
      ['run', item, 'write IOPS', h.writeIops, 'IOPS'],
      ['run', item, 'read throughput', h.readBytesPerSec, 'B/s'],
      ['run', item, 'write throughput', h.writeBytesPerSec, 'B/s'],
      ['run', item, 'read block size', h.readBlockSizeBytes, 'bytes'],
      ['run', item, 'write block size', h.writeBlockSizeBytes, 'bytes'],
      ['run', item, 'runtime', h.runtimeSec, 's'],
    );
    for (const [dir, clat] of [
      ['read', h.readClatMs],
      ['write', h.writeClatMs],
    ] as const) {
      for (const [p, ms] of Object.entries(clat ?? {})) {
        rows.push([
          'run',
          item,
          `${dir} clat p${p}`,
          ms,
          'ms',
          h.clatApproximate ? 'approximate (per-job upper bound)' : undefined,
        ]);
      }
    }
    for (const w of r.summary.warnings) rows.push(['run warning', item, w.code, w.message, '', w.subject]);
  });
  for (const { title, plan } of result.plans) {
    for (const l of plan.limits) {
      const b = plan.bottleneck;
      const note = [
        l.sustained ? 'sustained' : 'burst',
        b?.id === l.id ? `bottleneck (${bottleneckStateOf(b)})` : null,
        b?.sustained?.id === l.id ? 'sustained fallback' : null,
        l.native ? `AWS quotes ${l.native.capacity} ${l.native.unit}` : null,
      ]
        .filter(Boolean)
        .join('; ');
      rows.push(
        ['limit', title, `${l.label} demand`, l.demand, l.unit],
        ['limit', title, `${l.label} capacity`, l.capacity, l.unit, note],
        ['limit', title, `${l.label} utilization`, l.utilization, 'ratio'],
      );
      if (l.demandUnmerged !== undefined)
        rows.push([
          'limit',
          title,
          `${l.label} demand if not merged`,
          l.demandUnmerged,
          l.unit,
          'worst case: every sequential I/O counted alone',
        ]);
    }
    const c = plan.cost.current;
    if (c) {
      rows.push(
        ['cost', title, 'storage per month', c.monthlyUsd.storage, 'USD'],
        ['cost', title, 'IOPS per month', c.monthlyUsd.iops, 'USD'],
        ['cost', title, 'throughput per month', c.monthlyUsd.throughput, 'USD'],
        ['cost', title, 'total per month', c.monthlyUsd.total, 'USD'],
        ['cost', title, `cluster total per month (${c.nodes} nodes)`, c.clusterMonthlyUsd.total, 'USD'],
        ['cost', title, 'per provisioned IOPS-month', c.usdPerIops, 'USD'],
        ['cost', title, 'per provisioned MiB/s-month', c.usdPerMiBps, 'USD'],
      );
    }
    const n = plan.cost.nvme;
    if (n) {
      rows.push(
        ['cost', title, 'NVMe premium per month', n.monthlyPremiumUsd, 'USD'],
        ['cost', title, 'per read IOPS-month (AWS 4 KiB spec)', n.usdPerReadIops, 'USD'],
        ['cost', title, 'per write IOPS-month (AWS 4 KiB spec)', n.usdPerWriteIops, 'USD'],
        ['cost', title, 'per measured MiB/s-month', n.usdPerMiBps, 'USD'],
      );
    }
    const t = plan.rightSizing.target;
    rows.push(
      ['right-size', title, `target IOPS (headroom ${t.headroom})`, t.iops, 'IOPS'],
      ['right-size', title, `target throughput (headroom ${t.headroom})`, t.throughputMiBps, 'MiB/s'],
    );
    if (t.iopsUnmerged !== undefined)
      rows.push([
        'right-size',
        title,
        `target IOPS if not merged (headroom ${t.headroom})`,
        t.iopsUnmerged,
        'IOPS',
        'worst case: every sequential I/O counted alone',
      ]);
    for (const rec of plan.rightSizing.recommendations) {
      const item = `${title} → ${rec.type}`;
      rows.push(['right-size', item, 'status', rec.status, '', rec.reasons.join(' | ')]);
      // Not viable: no configuration, so no size and no cost (never "0 GiB / $0").
      if (rec.status === 'not-viable') continue;
      const v = volumeOfRecommendation(rec);
      const count = v.count ?? 1;
      rows.push(
        ['right-size', item, 'volumes (RAID 0)', count, 'volumes'],
        ['right-size', item, 'size per volume', v.sizeGiB, 'GiB'],
      );
      if (v.iops !== undefined)
        rows.push(['right-size', item, 'provisioned IOPS per volume', v.iops, 'IOPS']);
      if (v.throughputMiBps !== undefined)
        rows.push(['right-size', item, 'provisioned throughput per volume', v.throughputMiBps, 'MiB/s']);
      rows.push(
        ['right-size', item, 'size', rec.sizeGiB, 'GiB', count > 1 ? `total of ${count} volumes` : undefined],
        ['right-size', item, 'IOPS', rec.iops, 'IOPS', 'delivered on this instance'],
        ['right-size', item, 'throughput', rec.throughputMiBps, 'MiB/s', 'delivered on this instance'],
      );
      if (rec.status === 'unpriced')
        rows.push(
          ['right-size', item, 'total per month', null, 'USD', 'no price in this region'],
          ['right-size', item, 'cluster total per month', null, 'USD', 'no price in this region'],
        );
      else
        rows.push(
          ['right-size', item, 'total per month', rec.monthlyUsd.total, 'USD'],
          ['right-size', item, 'cluster total per month', rec.clusterMonthlyUsd.total, 'USD'],
        );
    }
    for (const dir of ['read', 'write'] as const) {
      for (const v of plan.latency[dir]?.verdicts ?? []) {
        rows.push(['latency verdict', `${title} (${dir})`, `p${v.percentile}`, v.valueMs, 'ms', v.verdict]);
      }
      for (const c of plan.latency[dir]?.cliffs ?? []) {
        rows.push([
          'latency cliff',
          `${title} (${dir})`,
          `p${c.from} → p${c.to}`,
          c.ratio,
          'ratio',
          `${c.fromMs} → ${c.toMs} ms`,
        ]);
      }
    }
    for (const w of plan.warnings) rows.push(['plan warning', title, w.code, w.message, '', w.subject]);
  }
  if (result.latency) {
    for (const r of result.latency.rows) {
      rows.push(
        ['latency EBS vs NVMe', `p${r.percentile}`, 'EBS', r.ebsMs, 'ms'],
        ['latency EBS vs NVMe', `p${r.percentile}`, 'NVMe', r.nvmeMs, 'ms'],
        ['latency EBS vs NVMe', `p${r.percentile}`, 'delta', r.delta, 'ratio'],
      );
    }
    rows.push(['latency EBS vs NVMe', 'overall', 'verdict', result.latency.overall, '']);
  }
  // jobs_differ: the runs ran different fio jobs, so the comparison gives no verdict.
  for (const w of result.warnings ?? [])
    rows.push(['comparison warning', 'NVMe vs EBS', w.code, w.message, '', w.subject]);
  if (result.nvmeVsEbs?.verdict.status === 'withheld')
    rows.push([
      'latency EBS vs NVMe',
      'overall',
      'verdict',
      `withheld: ${result.nvmeVsEbs.verdict.reason}`,
      '',
    ]);
  return rows;
}

/**
 * The answer a page opens with, in its own words (the planning page's answer box): the CSV starts
 * with it, so a spreadsheet reads like the page. `for`: which configuration it answers for.
 */
export type AnswerExport = PlanAnswerExport | CapacityAnswerExport;

type PlanAnswerExport = {
  for: string;
  needs: string;
  binds: string | null;
  instance: string | null;
  provision: string | null;
  nvme: string | null;
  prices: string;
};

export function answerRows(a: AnswerExport): Row[] {
  if ('delivered' in a) return capacityRows(a);
  const lines: [metric: string, text: string | null][] = [
    ['needs', a.needs],
    ['what binds', a.binds],
    ['instance', a.instance],
    ['what to buy', a.provision],
    ['NVMe alternative', a.nvme],
    ['prices', a.prices],
  ];
  return lines.flatMap(([metric, text]) =>
    text === null ? [] : [['answer', a.for, metric, text, ''] as Row],
  );
}

function capacityRows(a: CapacityAnswerExport): Row[] {
  const row = (item: string, metric: string, text: string): Row => ['answer', item, metric, text, ''];
  return [
    row(a.for, 'lead', a.lead),
    ...a.delivered.map((d) => row(d.storage, 'delivered', d.text)),
    ...(a.comparison === null ? [] : [row(a.for, 'comparison', a.comparison)]),
    row(a.for, 'ask', a.ask),
    ...(a.plansNote === null ? [] : [row(a.for, 'plans note', a.plansNote)]),
    row(a.for, 'prices', a.prices),
  ];
}

export function exportCsv(
  result: ComparisonResult,
  names?: Record<string, string>,
  answer?: AnswerExport,
): string {
  return toCsv(CSV_HEADER, [...(answer ? answerRows(answer) : []), ...exportRows(result, names)]);
}

export function exportJson(
  result: ComparisonResult,
  meta: { analysisVersion: string; session: PlanSession | null; exportedAt: string },
): string {
  return JSON.stringify({ ...meta, result }, null, 2);
}
