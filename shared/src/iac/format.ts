import { escapeMarkdown, escapeText, markdownCode } from '../escape-text.ts';
import { describeVolume } from '../plan/volume.ts';
import { formatDecimal, formatInt, formatUsd, roundCents } from '../units.ts';
import type { IacFinding, IacFindingKind, IacReport } from './schema.ts';

/**
 * The check's report as plain text (a CI log) and as markdown (a pull-request comment). Every
 * name and message passes through escapeText / escapeMarkdown: they hold resource addresses and
 * object names taken from the files. The demand's source and the price source are quoted as code
 * in markdown (markdownCode): they must read exactly (`ebs-pricing@d76ed276`, a run's address).
 */

/** First line of the markdown comment: a bot updates its earlier comment instead of adding one. */
export const IAC_COMMENT_MARKER = '<!-- blockwise:check-iac -->';

const LABELS: Record<IacFindingKind, string> = {
  over: 'over-provisioned',
  under: 'under-provisioned',
  'instance-cap': 'instance cap',
  invalid: 'invalid',
  driver: 'CSI driver',
  note: 'note',
};

function counts(findings: readonly IacFinding[]): string {
  const by = new Map<IacFindingKind, number>();
  for (const f of findings) by.set(f.kind, (by.get(f.kind) ?? 0) + 1);
  const parts = [...by].filter(([k]) => k !== 'note').map(([k, n]) => `${n} ${LABELS[k]}`);
  return parts.length > 0 ? parts.join(', ') : 'no findings';
}

export function totalWasteUsd(findings: readonly IacFinding[]): number {
  return roundCents(findings.reduce((sum, f) => sum + (f.wasteUsdPerMonth ?? 0), 0));
}

/** `quote`: how the demand's source (a file name, a run's address) is written in this format. */
function demandLine(report: IacReport, quote: (source: string) => string): string {
  const d = report.demand;
  if (!d)
    return 'No demand given (--series, --metrics or --fio): only the rules that need none were applied.';
  return `Demand (${quote(d.source)}): peak ${formatInt(d.peakIops)} IOPS / ${formatDecimal(d.peakThroughputMiBps, 1)} MiB/s; sized for ${formatInt(d.targetIops)} IOPS / ${formatInt(d.targetThroughputMiBps)} MiB/s (+${Math.round(d.headroom * 100)}% headroom).`;
}

export function formatIacText(report: IacReport): string {
  const out = [`blockwise check-iac: ${report.volumes.length} volume(s), ${counts(report.findings)}`];
  const waste = totalWasteUsd(report.findings);
  if (waste > 0) out.push(`Over-provisioning: ${formatUsd(waste)}/month in total`);
  out.push(demandLine(report, escapeText), `Prices: ${escapeText(report.prices)}`, '');
  for (const v of report.volumes) {
    const cost = v.monthlyUsd ? `, ${formatUsd(v.monthlyUsd.total)}/month` : '';
    out.push(
      `${escapeText(v.subject)} (${escapeText(v.file)}): ${describeVolume(v.volume, { performance: true })}${cost}`,
    );
  }
  if (report.findings.length > 0) out.push('');
  for (const f of report.findings)
    out.push(
      `${LABELS[f.kind]} [${f.code}] ${escapeText(f.subject)} (${escapeText(f.file)}): ${escapeText(f.message)}`,
    );
  return `${out.join('\n')}\n`;
}

export function formatIacMarkdown(report: IacReport): string {
  const out = [IAC_COMMENT_MARKER, `### Blockwise infrastructure check: ${counts(report.findings)}`, ''];
  const waste = totalWasteUsd(report.findings);
  if (waste > 0) out.push(`**${formatUsd(waste)}/month** of over-provisioning.`, '');
  out.push(demandLine(report, markdownCode), '', `Prices: ${markdownCode(report.prices)}`, '');
  if (report.volumes.length > 0) {
    out.push('| Volume | File | Provisioned | Monthly | Right-sized |', '| :-- | :-- | :-- | --: | :-- |');
    for (const v of report.volumes)
      out.push(
        `| ${escapeMarkdown(v.subject)} | ${escapeMarkdown(v.file)} | ${escapeMarkdown(describeVolume(v.volume, { performance: true }))} | ${v.monthlyUsd ? formatUsd(v.monthlyUsd.total) : '—'} | ${v.rightSized ? `${escapeMarkdown(describeVolume(v.rightSized.volume, { performance: true }))}, ${formatUsd(v.rightSized.monthlyUsd.total)}` : '—'} |`,
      );
    out.push('');
  }
  const shown = report.findings.filter((f) => f.kind !== 'note');
  const notes = report.findings.filter((f) => f.kind === 'note');
  if (shown.length > 0) {
    out.push('| Finding | Volume | What |', '| :-- | :-- | :-- |');
    for (const f of shown)
      out.push(
        `| **${LABELS[f.kind]}** \`${f.code}\` | ${escapeMarkdown(f.subject)} | ${escapeMarkdown(f.message)}${f.wasteUsdPerMonth ? ` **${formatUsd(f.wasteUsdPerMonth)}/month**` : ''} |`,
      );
    out.push('');
  }
  if (notes.length > 0) {
    out.push('<details><summary>Not checked</summary>', '');
    for (const f of notes) out.push(`- ${escapeMarkdown(f.subject)}: ${escapeMarkdown(f.message)}`);
    out.push('', '</details>', '');
  }
  out.push('Rules and their sources: docs/iac.md.');
  return `${out.join('\n')}\n`;
}
