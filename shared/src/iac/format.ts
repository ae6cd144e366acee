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
  hint: 'hint',
  note: 'note',
};

function counts(findings: readonly IacFinding[]): string {
  const by = new Map<IacFindingKind, number>();
  for (const f of findings) by.set(f.kind, (by.get(f.kind) ?? 0) + 1);
  const parts = [...by].filter(([k]) => k !== 'note' && k !== 'hint').map(([k, n]) => `${n} ${LABELS[k]}`);
  return parts.length > 0 ? parts.join(', ') : 'no findings';
}

/** Over-provisioning only: a hint's saving is at equal performance, another kind of money. */
export function totalWasteUsd(findings: readonly IacFinding[]): number {
  return roundCents(
    findings.reduce((sum, f) => sum + (f.kind === 'over' ? (f.wasteUsdPerMonth ?? 0) : 0), 0),
  );
}

/** What the hints save at equal performance (gp2 → gp3), in total. */
function hintSavingUsd(findings: readonly IacFinding[]): number {
  return roundCents(
    findings.reduce((sum, f) => sum + (f.kind === 'hint' ? (f.wasteUsdPerMonth ?? 0) : 0), 0),
  );
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
  const saving = hintSavingUsd(report.findings);
  if (saving > 0) out.push(`Equal performance for less (hints): ${formatUsd(saving)}/month in total`);
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
  const saving = hintSavingUsd(report.findings);
  if (saving > 0) out.push(`**${formatUsd(saving)}/month** to save at equal performance (hints).`, '');
  const notes = report.findings.filter((f) => f.kind === 'note');
  if (shown.length > 0) {
    out.push('| Finding | Volume | What |', '| :-- | :-- | :-- |');
    for (const f of shown)
      out.push(
        `| **${LABELS[f.kind]}** \`${f.code}\` | ${escapeMarkdown(f.subject)} | ${escapeMarkdown(f.message)}${f.wasteUsdPerMonth ? ` **${formatUsd(f.wasteUsdPerMonth)}/month${f.kind === 'hint' ? ' saved' : ''}**` : ''} |`,
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
