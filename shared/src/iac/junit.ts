import { escapeXml, escapeXmlText } from '../escape-text.ts';
import { junitDocument, type JunitSuite } from '../junit-document.ts';
import type { IacFinding, IacReport } from './schema.ts';

/**
 * The check as a JUnit XML report, the test-report format GitLab (`artifacts:reports:junit`) and
 * Jenkins (the JUnit plugin) read: one <testsuite> per input file, one <testcase> per volume
 * checked (and per other object a finding names: a StorageClass, an instance), a <failure> for
 * the findings that fail the build per --fail-on, <skipped> for a volume that could not be
 * checked (only notes saying why). Other findings go to the test case's <system-out>.
 * Element and attribute names follow the schema Jenkins and GitLab parse (the JUnit 4/Ant one).
 */

const describe = (f: IacFinding) =>
  `[${f.code}] ${f.kind}: ${f.message}${f.wasteUsdPerMonth ? ` (USD ${f.wasteUsdPerMonth.toFixed(2)} per month)` : ''}`;

type Case = { subject: string; volume: boolean; findings: IacFinding[] };

/** `inputFiles`: every file given, so a file with nothing to check still has its (empty) suite. */
export function formatIacJunit(
  report: IacReport,
  failing: readonly IacFinding[],
  inputFiles: readonly string[],
): string {
  const fails = new Set(failing);
  const files = [
    ...new Set([...inputFiles, ...report.volumes.map((v) => v.file), ...report.findings.map((f) => f.file)]),
  ];
  const suites: JunitSuite[] = [];
  for (const file of files) {
    const cases = new Map<string, Case>();
    for (const v of report.volumes.filter((v) => v.file === file))
      cases.set(v.subject, { subject: v.subject, volume: true, findings: [] });
    for (const f of report.findings.filter((f) => f.file === file)) {
      const c = cases.get(f.subject) ?? { subject: f.subject, volume: false, findings: [] };
      c.findings.push(f);
      cases.set(f.subject, c);
    }
    const body: string[] = [];
    let failures = 0;
    let skipped = 0;
    for (const c of cases.values()) {
      const failed = c.findings.filter((f) => fails.has(f));
      const notChecked = !c.volume && c.findings.every((f) => f.kind === 'note');
      const open = `    <testcase name="${escapeXml(c.subject)}" classname="${escapeXml(file)}">`;
      const out = c.findings.filter((f) => !fails.has(f)).map(describe);
      const lines = [open];
      if (failed.length > 0) {
        failures += 1;
        const first = failed[0]!;
        lines.push(
          `      <failure message="${escapeXml(`${failed.length} finding(s) fail the build: ${first.code}${failed.length > 1 ? ', …' : ''}`)}" type="${escapeXml(first.code)}">${escapeXmlText(failed.map(describe).join('\n'))}</failure>`,
        );
      } else if (notChecked) {
        skipped += 1;
        lines.push(`      <skipped message="${escapeXml(c.findings.map((f) => f.message).join('; '))}"/>`);
      }
      if (out.length > 0 && !(notChecked && failed.length === 0))
        lines.push(`      <system-out>${escapeXmlText(out.join('\n'))}</system-out>`);
      lines.push('    </testcase>');
      body.push(lines.join('\n'));
    }
    suites.push({ name: file, failures, errors: 0, skipped, cases: body });
  }
  return junitDocument('blockwise check-iac', suites);
}
