import { escapeMarkdown } from '../escape-text.ts';
import type { Annotation, AnnotationLevel, GithubReport } from '../github-commands.ts';
import { formatUsd } from '../units.ts';
import { formatIacMarkdown, totalWasteUsd } from './format.ts';
import { findingMessage, locateFinding, sarifLevel, type SarifOptions } from './sarif.ts';
import type { IacFinding, IacReport } from './schema.ts';

/**
 * check-iac for GitHub Actions (`--format github`): an annotation per finding on its file (and,
 * for a YAML or JSON manifest, the object's line: the same locations and messages as SARIF, from
 * locateFinding and findingMessage), the markdown report as the job summary under a verdict line,
 * and step outputs a workflow can branch on.
 */

export type IacGithubOptions = Pick<SarifOptions, 'relativePath' | 'objectLines' | 'terraformFiles'> & {
  /** The findings that fail the build per --fail-on (failingFindings). */
  failing: readonly IacFinding[];
  /** The --fail-on flag as given, quoted in the summary. */
  failOn: string;
  /** --fail-on incomplete/any and the demand came from incomplete data: the build fails for that too. */
  failsIncomplete: boolean;
};

const GITHUB_LEVELS = { error: 'error', warning: 'warning', note: 'notice' } as const;

/** A finding that fails the build is an error whatever its kind; the others keep their SARIF level. */
function annotationLevel(f: IacFinding, failing: ReadonlySet<IacFinding>): AnnotationLevel {
  return failing.has(f) ? 'error' : GITHUB_LEVELS[sarifLevel(f)];
}

export function iacGithubReport(report: IacReport, options: IacGithubOptions): GithubReport {
  const failing = new Set(options.failing);
  // Notes say what was not checked: they stay in the summary, not beside the code.
  const annotations: Annotation[] = report.findings
    .filter((f) => f.kind !== 'note')
    .map((f) => {
      const at = locateFinding(f, options);
      return {
        level: annotationLevel(f, failing),
        file: at.path,
        ...(at.line !== undefined ? { line: at.line } : {}),
        title: `blockwise check-iac: ${f.code}`,
        message: findingMessage(f, report.prices),
      };
    });
  const fails = failing.size > 0 || options.failsIncomplete;
  const waste = totalWasteUsd(report.findings);
  const reasons = [
    ...(failing.size > 0 ? [`${failing.size} finding(s) fail the build`] : []),
    ...(options.failsIncomplete ? ['the demand is from incomplete data'] : []),
  ];
  const verdict = fails
    ? `**check-iac: FAIL** — ${reasons.join('; ')} (\`--fail-on ${escapeMarkdown(options.failOn)}\`).`
    : `**check-iac: PASS** — no finding fails the build (\`--fail-on ${escapeMarkdown(options.failOn)}\`).`;
  const money = waste > 0 ? ` Over-provisioning: **${formatUsd(waste)}/month**.` : '';
  return {
    annotations,
    summary: `${verdict}${money}\n\n${formatIacMarkdown(report)}\n`,
    outputs: {
      'iac-verdict': fails ? 'fail' : 'pass',
      findings: String(report.findings.filter((f) => f.kind !== 'note').length),
      'failing-findings': String(failing.size),
      // USD per month at the report's prices (report.prices names them and their date).
      'waste-usd-per-month': waste.toFixed(2),
    },
  };
}
