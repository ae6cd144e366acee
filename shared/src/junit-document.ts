import { escapeXml } from './escape-text.ts';

/**
 * The JUnit XML envelope both CI reports write (the regression gate's `--format junit`,
 * check-iac's): the JUnit 4/Ant schema Jenkins' JUnit plugin and GitLab's
 * `artifacts:reports:junit` parse. One <testsuite> per input file; the totals on <testsuites> are
 * the sums of the suites', so they cannot disagree.
 */
export type JunitSuite = {
  name: string;
  failures: number;
  errors: number;
  skipped: number;
  /** <property> elements, in order (the gate: series, branch, commit, …). */
  properties?: ReadonlyArray<readonly [string, string]>;
  /** Each <testcase> element, already written (indented four spaces). */
  cases: readonly string[];
};

/** The document: XML declaration, <testsuites name=…> with the totals, the suites. */
export function junitDocument(name: string, suites: readonly JunitSuite[]): string {
  const total = (count: (s: JunitSuite) => number) => suites.reduce((sum, s) => sum + count(s), 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(name)}" tests="${total((s) => s.cases.length)}" failures="${total((s) => s.failures)}" errors="${total((s) => s.errors)}" skipped="${total((s) => s.skipped)}">`,
    ...suites.map(junitSuite),
    '</testsuites>',
    '',
  ].join('\n');
}

function junitSuite(s: JunitSuite): string {
  const properties = s.properties
    ? [
        '    <properties>',
        ...s.properties.map(([k, v]) => `      <property name="${escapeXml(k)}" value="${escapeXml(v)}"/>`),
        '    </properties>',
      ]
    : [];
  return [
    `  <testsuite name="${escapeXml(s.name)}" tests="${s.cases.length}" failures="${s.failures}" errors="${s.errors}" skipped="${s.skipped}">`,
    ...properties,
    ...s.cases,
    '  </testsuite>',
  ].join('\n');
}
