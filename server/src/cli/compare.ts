import {
  compareRunPair,
  describeJobSettings,
  jobSettingsOf,
  type ComparedSetting,
  type RunJobSettings,
  type RunPairComparison,
} from '@blockwise/shared/compare';
import { escapeText } from '@blockwise/shared/escape-text';
import { sortedPercentiles, type LatencyComparison } from '@blockwise/shared/plan';
import { type Warning } from '@blockwise/shared/problem';
import { type RunHeadline } from '@blockwise/shared/records';
import { formatDecimal, formatInt } from '@blockwise/shared/units';
import { summarizeRun } from '@blockwise/shared/analysis';
import { analyzeFile, type AnalyzeFailure, type AnalyzeRun } from './analyze.ts';
import { EXIT, UsageError, parseFlags, type CliIo, type Command } from './io.ts';
import { formatMs, formatTable } from './text.ts';

/**
 * `blockwise compare A.json B.json [--json]`: the comparison the web app's NVMe-vs-EBS view and
 * share links make, from a terminal or CI. Every number and verdict comes from @blockwise/shared
 * (`compareRunPair`); this file only reads the files and lays the result out.
 */

const usage = `Usage: blockwise compare A.json B.json [--json]

  Compares two fio result files. A is the reference (local NVMe, or a baseline), B the run judged
  against it (EBS, or a candidate).

  First the fio jobs: bs, bsrange, bssplit, rw, rwmixread, iodepth, numjobs, direct, ioengine and
  runtime (runtimes within 10 % of each other count as the same). When any differs the comparison
  warns [jobs_differ], names each setting with both values, and withholds its verdict: the numbers
  are printed side by side, but a 4 KiB randwrite against a 4–64 KiB mix measures the job, not the
  storage.

  When the jobs are the same: each rate's delta, (B − A) ÷ A, and the latency verdict for reads and
  for writes (the guide's EBS-vs-NVMe rules, B in the EBS role: p50 no worse, p99 within 20 %, p99.9
  within 2×).

  --json   print {"a":…, "b":…, "comparison":…}: each file's settings, headline numbers and
           warnings, and the comparison (jobsDiffer, differences, rates, verdict, warnings)

  Exit status: 0 when both files were compared (also when the jobs differ: that is a warning),
  1 when a file cannot be read or is not fio output, 2 on usage errors.`;

/** One file as --json prints it: what the comparison looked at, or why it could not be read. */
type OkFile = {
  file: string;
  ok: true;
  fioVersion: string | null;
  settings: { setting: ComparedSetting; value: string }[];
  headline: RunHeadline;
  warnings: Warning[];
};
type ComparedFile = OkFile | AnalyzeFailure;

function comparedFile(run: AnalyzeRun): { file: OkFile; jobSettings: RunJobSettings } {
  const { file, ok: _ok, ...report } = run;
  const summary = summarizeRun(report, {});
  const jobSettings = jobSettingsOf(report);
  return {
    file: {
      file,
      ok: true,
      fioVersion: report.fioVersion,
      settings: describeJobSettings(jobSettings),
      headline: summary.headline,
      warnings: summary.warnings,
    },
    jobSettings,
  };
}

/** Both files read: the comparison, A as the reference and B as the candidate. */
function compareFiles(runA: AnalyzeRun, runB: AnalyzeRun) {
  const [a, b] = [comparedFile(runA), comparedFile(runB)];
  const side = ({ file, jobSettings }: typeof a, role: 'A' | 'B') => ({
    id: file.file,
    name: `${role} (${file.file})`,
    headline: file.headline,
    jobSettings,
  });
  return { a: a.file, b: b.file, comparison: compareRunPair(side(a, 'A'), side(b, 'B')) };
}

export const compareCommand: Command = {
  summary: 'Two fio runs side by side: same job? then the deltas and latency verdicts (reads and writes).',
  usage,
  run: async (argv: string[], io: CliIo) => {
    const { values, positionals } = parseFlags(argv, { json: { type: 'boolean' } });
    if (positionals.length !== 2)
      throw new UsageError(`give exactly two fio result files, A and B (got ${positionals.length})`, 'FILE');
    const [runA, runB] = await Promise.all([
      analyzeFile(positionals[0]!, io.cwd),
      analyzeFile(positionals[1]!, io.cwd),
    ]);
    if (!runA.ok || !runB.ok) {
      const failed = [runA, runB].filter((r): r is AnalyzeFailure => !r.ok);
      if (values.json) {
        const entry = (r: AnalyzeRun | AnalyzeFailure): ComparedFile => (r.ok ? comparedFile(r).file : r);
        io.stdout(`${JSON.stringify({ a: entry(runA), b: entry(runB), comparison: null }, null, 2)}\n`);
      }
      for (const f of failed)
        io.stderr(
          `blockwise compare: ${escapeText(f.file)}: ${escapeText(f.error.message)} [${f.error.code}]\n`,
        );
      return EXIT.failed;
    }
    const { a, b, comparison } = compareFiles(runA, runB);
    io.stdout(values.json ? `${JSON.stringify({ a, b, comparison }, null, 2)}\n` : render(a, b, comparison));
    return EXIT.ok;
  },
};

// ---- the human-readable report ----------------------------------------------------------------

const RATE_TEXT: Record<RunPairComparison['rates'][number]['metric'], string> = {
  'read-throughput': 'read throughput',
  'write-throughput': 'write throughput',
  'read-iops': 'read IOPS',
  'write-iops': 'write IOPS',
};

/** `compareLatency`'s overall verdicts, with A and B in the NVMe and EBS roles. */
const OVERALL_TEXT: Record<LatencyComparison['overall'], string> = {
  'ebs-as-good': 'B is as good as A for typical load',
  'ebs-acceptable': 'B is acceptable (p99 within 20 % of A)',
  investigate: 'investigate: B’s tail latency is notably worse than A’s',
  'insufficient-data': 'not enough percentiles to compare',
};

const int = (v: number) => formatInt(Math.round(v));
const mib = (v: number) => `${formatDecimal(v, 1, 1)} MiB/s`;
const pct = (delta: number) => `${delta >= 0 ? '+' : '−'}${Math.abs(delta * 100).toFixed(0)}%`;

function clatRows(a: RunHeadline, b: RunHeadline): string[][] {
  const rows: string[][] = [];
  for (const direction of ['read', 'write'] as const) {
    const pa = direction === 'read' ? a.readClatMs : a.writeClatMs;
    const pb = direction === 'read' ? b.readClatMs : b.writeClatMs;
    if (!pa && !pb) continue;
    for (const p of ['50', '99', '99.9']) {
      const va = pa?.[p];
      const vb = pb?.[p];
      if (va === undefined && vb === undefined) continue;
      rows.push([
        `${direction} clat p${p} (ms)`,
        va === undefined ? '–' : formatMs(va),
        vb === undefined ? '–' : formatMs(vb),
      ]);
    }
  }
  return rows;
}

/** The percentiles the guide's latency rules look at, and the tail beyond. */
const SHOWN_PERCENTILES = new Set(['50', '90', '99', '99.9', '99.99']);

function latencyLines(direction: 'read' | 'write', c: LatencyComparison | null): string[] {
  if (!c) return [`  latency, ${direction}s: no percentiles on both sides`];
  const deltas = sortedPercentiles(Object.fromEntries(c.rows.map((r) => [r.percentile, r.delta])))
    .filter(([p]) => SHOWN_PERCENTILES.has(p))
    .map(([p, d]) => `p${p} ${pct(d)}`)
    .join(' · ');
  return [
    `  latency, ${direction}s: ${OVERALL_TEXT[c.overall]}${c.approximate ? ' (approximate: per-job upper bounds)' : ''}`,
    ...(deltas ? [`    B vs A by percentile: ${deltas}`] : []),
    ...c.findings.map((f) => `    [${f.code}] ${escapeText(f.message)}`),
  ];
}

/** File names, fio's strings (job options, version) and messages quoting them are escaped. */
function render(a: OkFile, b: OkFile, c: RunPairComparison): string {
  const out = [
    `A: ${escapeText(a.file)} (${escapeText(a.fioVersion ?? 'fio version unknown')})`,
    `B: ${escapeText(b.file)} (${escapeText(b.fioVersion ?? 'fio version unknown')})`,
    '',
  ];

  const differing = new Set(c.differences.map((d) => d.setting));
  out.push('fio job settings');
  out.push(
    ...formatTable(
      [
        ['', 'A', 'B', ''],
        ...a.settings.map((s, i) => [
          s.setting,
          escapeText(s.value),
          escapeText(b.settings[i]!.value),
          differing.has(s.setting) ? '≠ differs' : '',
        ]),
      ],
      'left',
    ).map((l) => `  ${l}`),
  );
  if (c.jobsDiffer === null)
    out.push('  (a file records no job options: whether both ran the same job cannot be checked)');
  // The comparison's own warning (jobs_differ) right under the settings it is about.
  for (const w of c.warnings) out.push('', `warning [${w.code}]: ${escapeText(w.message)}`);
  out.push('');

  const given = c.verdict.status === 'given' ? c.verdict : null;
  out.push('Measured');
  out.push(
    ...formatTable(
      [
        ['', 'A', 'B', given ? 'B vs A' : ''],
        ...c.rates.map((r) => {
          const v = given?.rates.find((x) => x.metric === r.metric);
          const f = r.unit === 'IOPS' ? int : mib;
          return [
            RATE_TEXT[r.metric],
            f(r.reference),
            f(r.candidate),
            !v ? '' : v.delta === null ? 'A measured none' : v.faster === 'equal' ? 'equal' : pct(v.delta),
          ];
        }),
        ...clatRows(a.headline, b.headline),
      ],
      'left',
    ).map((l) => `  ${l}`),
  );
  out.push('');

  if (given) {
    out.push('Verdict (B judged against A; latency findings in the guide’s words: B = EBS, A = NVMe)');
    out.push(...latencyLines('read', given.latency.read), ...latencyLines('write', given.latency.write));
  } else {
    out.push('Verdict: withheld: jobs differ');
  }
  const fileWarnings = [
    ...a.warnings.map((w) => ({ side: 'A', warning: w })),
    ...b.warnings.map((w) => ({ side: 'B', warning: w })),
  ];
  if (fileWarnings.length > 0) {
    out.push('', 'Warnings about the runs');
    // `side` is our own letter; the warning's text (and subject, if any) came from the file.
    for (const { side, warning } of fileWarnings)
      out.push(`  ${side}: warning [${warning.code}]: ${escapeText(warning.message)}`);
  }
  return `${out.join('\n')}\n`;
}
