import { describe, expect, it } from 'vitest';
import { junitDocument } from './junit-document.ts';

const testcase = (name: string, inner: string) =>
  [`    <testcase name="${name}" classname="a.json">`, `      ${inner}`, '    </testcase>'].join('\n');

describe('junitDocument', () => {
  it('sums the suites into the totals, escapes names and writes properties in order', () => {
    const xml = junitDocument('blockwise regression gate', [
      {
        name: 'runs/a&b.json',
        failures: 1,
        errors: 0,
        skipped: 1,
        properties: [
          ['series', 'db <main>'],
          ['verdict', 'regression'],
        ],
        cases: [
          testcase('read iops', '<failure message="x" type="metric_regression"/>'),
          testcase('p99', '<skipped/>'),
        ],
      },
      { name: 'b.json', failures: 0, errors: 1, skipped: 0, cases: [testcase('upload', '<error/>')] },
    ]);
    expect(xml.split('\n')).toEqual([
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<testsuites name="blockwise regression gate" tests="3" failures="1" errors="1" skipped="1">',
      '  <testsuite name="runs/a&amp;b.json" tests="2" failures="1" errors="0" skipped="1">',
      '    <properties>',
      '      <property name="series" value="db &lt;main&gt;"/>',
      '      <property name="verdict" value="regression"/>',
      '    </properties>',
      '    <testcase name="read iops" classname="a.json">',
      '      <failure message="x" type="metric_regression"/>',
      '    </testcase>',
      '    <testcase name="p99" classname="a.json">',
      '      <skipped/>',
      '    </testcase>',
      '  </testsuite>',
      '  <testsuite name="b.json" tests="1" failures="0" errors="1" skipped="0">',
      '    <testcase name="upload" classname="a.json">',
      '      <error/>',
      '    </testcase>',
      '  </testsuite>',
      '</testsuites>',
      '',
    ]);
  });

  it('an empty report is an empty <testsuites> with zero totals', () => {
    expect(junitDocument('blockwise check-iac', [])).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="blockwise check-iac" tests="0" failures="0" errors="0" skipped="0">\n</testsuites>\n',
    );
  });
});
