import { escapeMarkdown, escapeText } from '../escape-text.ts';
import { displayUnit, formatDeltaPct, formatMetricNumber } from './format-value.ts';
import type { MetricCheck, RegressionReport, RegressionVerdict } from './regression-report.schema.ts';

/**
 * Regression reports as a CI log prints them (aligned text) and as a pull-request comment
 * (GitHub/GitLab-flavoured markdown). Pure string building: the CLI and the web app share it.
 * Every string of the report is printed through escapeText / escapeMarkdown: labels come from
 * uploads, and the text report lands in a CI log where a raw newline or escape sequence could
 * forge a line (`::error::…`) or rewrite the screen.
 */

export type RegressionLinks = {
  /** The frozen comparison of the latest baseline run and this run (`/c/:id`). */
  comparison?: string | null;
  /** This run's page. */
  run?: string | null;
};

const HEADLINES: Record<RegressionVerdict, string> = {
  pass: 'PASS',
  regression: 'REGRESSION',
  'insufficient-history': 'PASS (insufficient history)',
  'no-base': 'NOT CHECKED (no base branch)',
};

/** The metric's label (and unit), unescaped: each output escapes it for its own format. */
const metricName = (m: MetricCheck) => (m.unit === 'IOPS' ? m.label : `${m.label} (${displayUnit(m.unit)})`);
const num = (m: MetricCheck, v: number | null | undefined) =>
  v === null || v === undefined ? '—' : formatMetricNumber(v, m.unit);
const delta = (m: MetricCheck) => (m.deltaPct === null ? '—' : formatDeltaPct(m.deltaPct));
const thresholdsText = (r: RegressionReport) =>
  `${r.method}${r.method === 'sigma' ? ` k=${r.sigmaK}` : ''}; thresholds: IOPS ${r.thresholds.iops}%, throughput ${r.thresholds.throughput}%, latency ${r.thresholds.latency}%`;

function textVerdict(m: MetricCheck): string {
  switch (m.verdict) {
    case 'regression':
      return 'REGRESSION';
    case 'improvement':
      return 'better';
    case 'ok':
      return 'ok';
    case 'skipped':
      return `skipped: ${escapeText(m.reason)}`;
  }
}

/** Pads cells into columns: text left-aligned, numbers right-aligned; the last column is free. */
function alignRows(rows: string[][], rightAligned: ReadonlySet<number>): string[] {
  const widths: number[] = [];
  for (const row of rows)
    for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
  return rows.map((row) =>
    row
      .map((cell, i) => {
        if (i === row.length - 1) return cell;
        const w = widths[i] ?? 0;
        return rightAligned.has(i) ? cell.padStart(w) : cell.padEnd(w);
      })
      .join('  ')
      .trimEnd(),
  );
}

function subject(report: RegressionReport): string {
  const who = [
    report.series ? `series ${escapeText(report.series)}` : null,
    report.branch
      ? `${escapeText(report.branch)}${report.commit ? ` @ ${escapeText(report.commit.slice(0, 12))}` : ''}`
      : null,
  ]
    .filter(Boolean)
    .join(' · ');
  const against = report.baseBranch
    ? `vs ${report.baselineRunIds.length === 0 ? 'no earlier run' : `the last ${report.baselineRunIds.length} run${report.baselineRunIds.length === 1 ? '' : 's'}`} on ${escapeText(report.baseBranch)}`
    : 'no base branch';
  return `${who ? `${who} ` : ''}${against} (${thresholdsText(report)})`;
}

/**
 * A compact aligned table for a CI log:
 *
 *     storage regression check: REGRESSION
 *     series pg-data · feature/x @ 1a2b3c4 vs the last 5 runs on main (percent; thresholds: …)
 *
 *     metric                   baseline     new      Δ%  verdict
 *     read IOPS                  10,267   7,187  -30.0%  REGRESSION
 */
export function formatRegressionText(report: RegressionReport, links: RegressionLinks = {}): string {
  const lines = [`storage regression check: ${HEADLINES[report.verdict]}`, subject(report)];
  if (report.metrics.length > 0) {
    const rows = [
      ['metric', 'baseline', 'new', 'Δ%', 'verdict'],
      ...report.metrics.map((m) => [
        escapeText(metricName(m)),
        num(m, m.baseline?.mean),
        num(m, m.value),
        delta(m),
        textVerdict(m),
      ]),
    ];
    lines.push('', ...alignRows(rows, new Set([1, 2, 3])));
  }
  const flagged = report.metrics.filter((m) => m.verdict === 'regression');
  lines.push('', escapeText(report.message));
  for (const m of flagged) lines.push(`  ${escapeText(m.label)}: ${escapeText(m.reason)}`);
  for (const note of report.notes) lines.push(`note: ${escapeText(note)}`);
  if (links.comparison) lines.push(`comparison: ${escapeText(links.comparison)}`);
  if (links.run) lines.push(`run: ${escapeText(links.run)}`);
  return `${lines.join('\n')}\n`;
}

// ── Markdown ────────────────────────────────────────────────────────────────────────────────

/**
 * Inline code for a label (also stops GitHub turning `@team` in a branch name into a mention):
 * control characters shown as `\uXXXX`, and `|` as `¦` (GitHub splits a table row at a `|` even
 * inside a code span).
 */
function code(text: string): string {
  const noPipe = text.replace(/\|/g, '¦');
  // With a backtick inside, no code span can hold it: escape as markdown text instead.
  if (noPipe.includes('`')) return escapeMarkdown(noPipe);
  return `\`${escapeText(noPipe)}\``;
}

/** Only http(s) links, with the characters that would end a markdown link destination encoded. */
function safeUrl(url: string | null | undefined): string | null {
  if (!url || !/^https?:\/\//i.test(url)) return null;
  // encodeURIComponent leaves ( and ) alone, so percent-encode by hand.
  return url.replace(
    /[\s()<>[\]]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

const MD_VERDICT: Record<MetricCheck['verdict'], string> = {
  regression: '❌ **regression**',
  improvement: '🟢 better',
  ok: '✅ ok',
  skipped: '➖ skipped',
};

const MD_HEADLINE: Record<RegressionVerdict, string> = {
  pass: '✅ Storage check passed',
  regression: '❌ Storage regression',
  'insufficient-history': '⏳ Storage check: not enough history yet',
  'no-base': '⚠️ Storage check: no base branch',
};

/** A marker CI scripts can find to update their previous comment instead of adding another. */
export const REGRESSION_COMMENT_MARKER = '<!-- blockwise:regression-check -->';

/**
 * A markdown report ready to post as a pull/merge-request comment: headline, a table (metric,
 * baseline mean, this run, Δ, verdict), why each regression was flagged, notes, and links to the
 * comparison and the run.
 */
export function formatRegressionMarkdown(report: RegressionReport, links: RegressionLinks = {}): string {
  const out: string[] = [REGRESSION_COMMENT_MARKER];
  out.push(`### ${MD_HEADLINE[report.verdict]}${report.series ? `: ${code(report.series)}` : ''}`, '');
  const n = report.baselineRunIds.length;
  const who = report.branch
    ? `${code(report.branch)}${report.commit ? ` @ ${code(report.commit.slice(0, 12))}` : ''}`
    : 'This run';
  const against = report.baseBranch
    ? `${n === 0 ? 'no earlier run' : `the last ${n} run${n === 1 ? '' : 's'}`} on ${code(report.baseBranch)}`
    : 'no base branch';
  out.push(`${who} vs ${against} · ${escapeMarkdown(thresholdsText(report))}`, '');

  const flagged = report.metrics.filter((m) => m.verdict === 'regression');
  switch (report.verdict) {
    case 'no-base':
      out.push(
        'The run has no branch label, so there is nothing to compare it with. Upload with `--branch` (and `--base-branch` when the base is not the series default).',
        '',
      );
      break;
    case 'insufficient-history':
      out.push(
        `Only ${n} earlier run${n === 1 ? '' : 's'} on the base branch; ${report.minBaselineRuns} are needed before anything is judged. Nothing is flagged until then.`,
        '',
      );
      break;
    case 'regression':
      out.push(
        `**${flagged.length} of ${report.metrics.filter((m) => m.verdict !== 'skipped').length} metrics are worse than the baseline** beyond their threshold.`,
        '',
      );
      break;
    case 'pass':
      break;
  }

  if (report.metrics.length > 0) {
    out.push(
      `| Metric | Baseline (mean of ${n}) | This run | Δ | Verdict |`,
      '| :-- | --: | --: | --: | :-- |',
      ...report.metrics.map(
        (m) =>
          `| ${escapeMarkdown(metricName(m))} | ${num(m, m.baseline?.mean)} | ${num(m, m.value)} | ${delta(m)} | ${MD_VERDICT[m.verdict]}${m.verdict === 'skipped' ? `: ${escapeMarkdown(m.reason)}` : ''} |`,
      ),
      '',
    );
  }
  if (flagged.length > 0) {
    out.push(...flagged.map((m) => `- **${escapeMarkdown(m.label)}**: ${escapeMarkdown(m.reason)}`), '');
  }
  for (const note of report.notes) out.push(`> ${escapeMarkdown(note)}`, '');
  const linkParts = [
    safeUrl(links.comparison)
      ? `[Comparison with the latest baseline run](${safeUrl(links.comparison)})`
      : null,
    safeUrl(links.run) ? `[This run](${safeUrl(links.run)})` : null,
  ].filter(Boolean);
  if (linkParts.length > 0) out.push(linkParts.join(' · '), '');
  return `${out.join('\n').trimEnd()}\n`;
}
