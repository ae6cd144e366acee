import { escapeMarkdown, escapeXml, escapeXmlText, markdownCode } from '../escape-text.ts';
import type { Annotation, GithubReport } from '../github-commands.ts';
import { BLOCKWISE_REPOSITORY_URL } from '../iac/sarif.ts';
import { junitDocument, type JunitSuite } from '../junit-document.ts';
import { displayUnit, formatDeltaPct, formatMetricNumber } from './format-value.ts';
import { formatRegressionMarkdown, type RegressionLinks } from './format.ts';
import type { MetricCheck, RegressionReport } from './regression-report.schema.ts';

/**
 * The regression gate's outcome (`blockwise upload --series …`) as SARIF 2.1.0 (GitHub code
 * scanning) and JUnit XML (GitLab test reports, Jenkins), like check-iac's (iac/sarif.ts,
 * iac/junit.ts). The gate judges uploaded fio result files: each result points at its file.
 */

/** One uploaded file: its upload failed, its gate could not run, or the gate's report. */
export type GateOutcome = {
  file: string;
  uploadError?: { code: string; message: string };
  gateError?: { code: string; message: string };
  report?: RegressionReport;
  /** The run's page and the frozen comparison, absolute (the GitHub summary and outputs link them). */
  links?: RegressionLinks;
};

type Level = 'error' | 'warning' | 'note';
type Rule = { id: string; text: string; section: string; level: Level };

/** Stable rule ids: the verdicts of docs/ci.md ("How the gate decides") and the two ways it cannot run. */
const RULES = [
  {
    id: 'metric_regression',
    text: "A metric is worse than the base branch's recent runs by more than the series' threshold.",
    section: 'how-the-gate-decides',
    level: 'error',
  },
  {
    id: 'regression_check_failed',
    text: 'The regression check could not run (the server refused or could not be reached).',
    section: 'the-command',
    level: 'error',
  },
  {
    id: 'upload_failed',
    text: 'The result file could not be uploaded.',
    section: 'the-command',
    level: 'error',
  },
  {
    id: 'insufficient_history',
    text: 'Too few runs on the base branch to judge: the run passes unjudged.',
    section: 'how-the-gate-decides',
    level: 'note',
  },
  {
    id: 'no_base',
    text: 'No base branch could be picked for the run: not checked.',
    section: 'how-the-gate-decides',
    level: 'note',
  },
] as const satisfies readonly Rule[];

const fileUri = (file: string) => file.replaceAll('\\', '/').split('/').map(encodeURIComponent).join('/');
const metricName = (m: MetricCheck) => (m.unit === 'IOPS' ? m.label : `${m.label} (${displayUnit(m.unit)})`);

/** "read IOPS: 7,187 vs a baseline mean of 10,267 (-30.0%, limit 8,727)". */
function metricLine(m: MetricCheck): string {
  const base = m.baseline ? ` vs a baseline mean of ${formatMetricNumber(m.baseline.mean, m.unit)}` : '';
  const delta = m.deltaPct === null ? '' : ` (${formatDeltaPct(m.deltaPct)}`;
  const limit = m.limit === null ? '' : `, limit ${formatMetricNumber(m.limit, m.unit)}`;
  const value = m.value === null ? '—' : formatMetricNumber(m.value, m.unit);
  return `${metricName(m)}: ${value}${base}${delta}${delta ? `${limit})` : ''}: ${m.reason}`;
}

const who = (r: RegressionReport) =>
  `series ${r.series ?? '(none)'}${r.branch ? ` · ${r.branch}` : ''}${r.commit ? ` @ ${r.commit}` : ''}`;

export type GateSarifOptions = {
  toolVersion: string;
  relativePath: (file: string) => string;
  repositoryUrl?: string | null;
};

/** One thing the gate reports on a file: a regressed metric, a run it could not judge, an upload or check that failed. */
export type GateResult = {
  ruleId: GateRuleId;
  level: Level;
  file: string;
  text: string;
  /** What the result is about: the series, branch and commit, and the metric. */
  name: string;
  properties: Record<string, unknown>;
};
type GateRuleId = (typeof RULES)[number]['id'];

/** The gate's results, in the order of the files: what SARIF and GitHub annotations both print. */
export function gateResults(outcomes: readonly GateOutcome[]): GateResult[] {
  const results: GateResult[] = [];
  const push = (id: GateRuleId, r: Omit<GateResult, 'ruleId' | 'level'>) =>
    results.push({ ruleId: id, level: RULES.find((x) => x.id === id)!.level, ...r });
  for (const o of outcomes) {
    if (o.uploadError)
      push('upload_failed', {
        file: o.file,
        text: `${o.uploadError.code}: ${o.uploadError.message}`,
        name: o.file,
        properties: { code: o.uploadError.code },
      });
    else if (o.gateError)
      push('regression_check_failed', {
        file: o.file,
        text: `${o.gateError.code}: ${o.gateError.message}`,
        name: o.file,
        properties: { code: o.gateError.code },
      });
    const r = o.report;
    if (!r) continue;
    if (r.verdict === 'insufficient-history' || r.verdict === 'no-base')
      push(r.verdict === 'no-base' ? 'no_base' : 'insufficient_history', {
        file: o.file,
        text: `${who(r)}: ${r.message}`,
        name: who(r),
        properties: { runId: r.runId },
      });
    for (const m of r.metrics.filter((x) => x.verdict === 'regression'))
      push('metric_regression', {
        file: o.file,
        text: `${who(r)} vs ${r.baseBranch ?? 'its base'}: ${metricLine(m)}`,
        name: `${who(r)} / ${m.label}`,
        properties: {
          runId: r.runId,
          metric: m.metric,
          value: m.value,
          limit: m.limit,
          deltaPct: m.deltaPct,
        },
      });
  }
  return results;
}

export function formatGateSarif(outcomes: readonly GateOutcome[], options: GateSarifOptions): string {
  const repositoryUrl =
    options.repositoryUrl === undefined ? BLOCKWISE_REPOSITORY_URL : options.repositoryUrl;
  const results = gateResults(outcomes);
  const used = RULES.filter((r) => results.some((x) => x.ruleId === r.id));
  const help = (r: Rule) => `docs/ci.md#${r.section}`;
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'blockwise',
            version: options.toolVersion,
            ...(repositoryUrl ? { informationUri: repositoryUrl } : {}),
            rules: used.map((r) => ({
              id: r.id,
              name: r.id,
              shortDescription: { text: r.text },
              ...(repositoryUrl
                ? { helpUri: `${repositoryUrl.replace(/\/+$/, '')}/blob/HEAD/${help(r)}` }
                : {}),
              help: { text: `Rule ${r.id}: ${help(r)}` },
              defaultConfiguration: { level: r.level },
            })),
          },
        },
        results: results.map((x) => ({
          ruleId: x.ruleId,
          ruleIndex: used.findIndex((r) => r.id === x.ruleId),
          level: x.level,
          message: { text: x.text },
          locations: [
            {
              physicalLocation: { artifactLocation: { uri: fileUri(options.relativePath(x.file)) } },
              logicalLocations: [{ fullyQualifiedName: x.name, kind: 'object' }],
            },
          ],
          properties: x.properties,
        })),
        columnKind: 'utf16CodeUnits',
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

/**
 * One <testsuite> per uploaded file, one <testcase> per metric checked: a <failure> for a
 * regression when --fail-on-regression makes it fail the build, <skipped> for a metric the gate
 * skipped or a run it could not judge (too little history, no base branch); an upload that failed
 * or a gate that could not run is an <error> (it fails the build either way, or with the flag).
 */
export function formatGateJunit(outcomes: readonly GateOutcome[], failOnRegression: boolean): string {
  const suites = outcomes.map((o): JunitSuite => {
    const cases: string[] = [];
    let f = 0;
    let e = 0;
    let s = 0;
    const open = (name: string) =>
      `    <testcase name="${escapeXml(name)}" classname="${escapeXml(o.file)}">`;
    if (o.uploadError || o.gateError) {
      const err = (o.uploadError ?? o.gateError)!;
      const name = o.uploadError ? 'upload' : 'regression check';
      e += o.uploadError || failOnRegression ? 1 : 0;
      cases.push(
        [
          open(name),
          o.uploadError || failOnRegression
            ? `      <error message="${escapeXml(err.message)}" type="${escapeXml(err.code)}"/>`
            : `      <skipped message="${escapeXml(`${err.code}: ${err.message}`)}"/>`,
          '    </testcase>',
        ].join('\n'),
      );
      if (!(o.uploadError || failOnRegression)) s += 1;
    }
    const r = o.report;
    const unjudged = r && (r.verdict === 'insufficient-history' || r.verdict === 'no-base');
    for (const m of r?.metrics ?? []) {
      const lines = [open(metricName(m))];
      if (m.verdict === 'regression' && failOnRegression) {
        f += 1;
        lines.push(
          `      <failure message="${escapeXml(`regression: ${metricName(m)} ${m.deltaPct === null ? '' : formatDeltaPct(m.deltaPct)}`.trim())}" type="metric_regression">${escapeXmlText(`${who(r!)}: ${metricLine(m)}`)}</failure>`,
        );
      } else if (m.verdict === 'skipped' || unjudged) {
        s += 1;
        lines.push(`      <skipped message="${escapeXml(unjudged ? r!.message : m.reason)}"/>`);
      } else lines.push(`      <system-out>${escapeXmlText(`${m.verdict}: ${metricLine(m)}`)}</system-out>`);
      lines.push('    </testcase>');
      cases.push(lines.join('\n'));
    }
    const properties: JunitSuite['properties'] = r
      ? [
          ['series', r.series ?? ''],
          ['branch', r.branch ?? ''],
          ['commit', r.commit ?? ''],
          ['baseBranch', r.baseBranch ?? ''],
          ['verdict', r.verdict],
        ]
      : undefined;
    return { name: o.file, failures: f, errors: e, skipped: s, cases, ...(properties ? { properties } : {}) };
  });
  return junitDocument('blockwise regression gate', suites);
}

/** The gate's verdict over every file: the least reassuring one wins. */
export type GateVerdict =
  'upload-failed' | 'check-failed' | 'regression' | 'no-base' | 'insufficient-history' | 'pass';
const VERDICT_ORDER: readonly GateVerdict[] = [
  'upload-failed',
  'check-failed',
  'regression',
  'no-base',
  'insufficient-history',
  'pass',
];

function outcomeVerdict(o: GateOutcome): GateVerdict {
  if (o.uploadError) return 'upload-failed';
  if (o.gateError || !o.report) return 'check-failed';
  return o.report.verdict;
}

export function gateVerdict(outcomes: readonly GateOutcome[]): GateVerdict {
  const found = new Set(outcomes.map(outcomeVerdict));
  return VERDICT_ORDER.find((v) => found.has(v)) ?? 'check-failed';
}

/** Whether the gate fails the build: the CLI's exit status, as a verdict. */
const failsBuild = (v: GateVerdict, failOnRegression: boolean) =>
  v === 'upload-failed' || (failOnRegression && (v === 'check-failed' || v === 'regression'));

export type GateGithubOptions = {
  failOnRegression: boolean;
  relativePath: (file: string) => string;
};

/**
 * The gate for GitHub Actions (`upload --format github`): an annotation per gateResults entry on
 * its result file (a regressed metric, a check or upload that failed: errors when they fail the
 * build, else warnings; a run too new to judge: a notice), the markdown report per file as the job
 * summary under one verdict line, and step outputs (`verdict`, `run-url`, `comparison-url`,
 * `regressed-metrics`).
 */
export function gateGithubReport(outcomes: readonly GateOutcome[], options: GateGithubOptions): GithubReport {
  const annotations: Annotation[] = gateResults(outcomes).map((x) => ({
    level:
      x.level === 'note'
        ? 'notice'
        : x.ruleId === 'upload_failed' || options.failOnRegression
          ? 'error'
          : 'warning',
    file: options.relativePath(x.file),
    title: `blockwise gate: ${x.ruleId}`,
    message: x.text,
  }));
  const verdict = gateVerdict(outcomes);
  const regressed = outcomes.reduce(
    (n, o) => n + (o.report?.metrics.filter((m) => m.verdict === 'regression').length ?? 0),
    0,
  );
  const fails = failsBuild(verdict, options.failOnRegression);
  const head = `**storage regression gate: ${verdict.toUpperCase()}**${
    fails
      ? ' — fails the build'
      : verdict === 'regression'
        ? ' — not failing (fail-on-regression is off)'
        : ''
  }${regressed > 0 ? ` · ${regressed} metric(s) regressed` : ''}`;
  const sections = outcomes.map((o) => {
    const name = markdownCode(options.relativePath(o.file));
    if (o.uploadError)
      return `${name}: upload failed: ${escapeMarkdown(`${o.uploadError.code}: ${o.uploadError.message}`)}\n`;
    if (o.gateError)
      return `${name}: the regression check could not run: ${escapeMarkdown(`${o.gateError.code}: ${o.gateError.message}`)}\n`;
    if (!o.report) return `${name}: uploaded, not checked.\n`;
    return `${name}\n\n${formatRegressionMarkdown(o.report, o.links)}`;
  });
  const runUrls = outcomes.flatMap((o) => (o.links?.run ? [o.links.run] : []));
  const comparison = outcomes.find((o) => o.links?.comparison)?.links?.comparison;
  return {
    annotations,
    summary: `${head}\n\n${sections.join('\n---\n\n')}\n`,
    outputs: {
      verdict,
      'run-url': runUrls[0] ?? '',
      // Every file's run, one a line (several result files in one step).
      'run-urls': runUrls.join('\n'),
      'comparison-url': comparison ?? '',
      'regressed-metrics': String(regressed),
    },
  };
}
