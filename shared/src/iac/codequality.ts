import { findingMessage, locateFinding, sarifLevel, type SarifOptions } from './sarif.ts';
import type { IacFinding, IacReport } from './schema.ts';

/**
 * check-iac findings as a GitLab Code Quality report (`artifacts:reports:codequality`; GitLab docs,
 * "Code Quality", "Code Quality report format": a JSON array of CodeClimate-style issues with
 * description, check_name, fingerprint, severity and location.path / location.lines.begin). GitLab
 * shows them in the merge request's widget and, on Ultimate, beside the changed lines; it reads no
 * SARIF. Same locations and messages as SARIF (locateFinding, findingMessage).
 */

export type CodeQualitySeverity = 'info' | 'minor' | 'major' | 'critical' | 'blocker';

export type CodeQualityOptions = Pick<SarifOptions, 'relativePath' | 'objectLines' | 'terraformFiles'> & {
  /** The findings that fail the build per --fail-on: critical whatever their kind. */
  failing: readonly IacFinding[];
  /** A stable digest (GitLab compares fingerprints between the branch and its base: same issue, same fingerprint). */
  fingerprint: (key: string) => string;
};

const SEVERITIES = { error: 'major', warning: 'minor', note: 'info' } as const;

export function formatIacCodeQuality(report: IacReport, options: CodeQualityOptions): string {
  const failing = new Set(options.failing);
  const seen = new Map<string, number>();
  // Notes say what was not checked: not an issue in the code.
  const issues = report.findings
    .filter((f) => f.kind !== 'note')
    .map((f) => {
      const at = locateFinding(f, options);
      // Code, file and object: the numbers in the message move with the demand, the issue does not.
      const key = [f.code, at.path, f.subject].join('\u0000');
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      const severity: CodeQualitySeverity = failing.has(f) ? 'critical' : SEVERITIES[sarifLevel(f)];
      return {
        type: 'issue',
        check_name: `blockwise/${f.code}`,
        description: findingMessage(f, report.prices),
        categories: [f.kind === 'over' || f.kind === 'hint' ? 'Performance' : 'Bug Risk'],
        severity,
        fingerprint: options.fingerprint(n === 1 ? key : `${key}\u0000${n}`),
        // A Terraform plan has no lines of the .tf source: line 1 of the plan file stands for it.
        location: { path: at.path, lines: { begin: at.line ?? 1 } },
      };
    });
  return `${JSON.stringify(issues, null, 2)}\n`;
}
