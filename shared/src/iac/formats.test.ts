import { describe, expect, it } from 'vitest';
import { escapeXml } from '../escape-text.ts';
import { formatIacSarif, ruleHelpPath, sarifLevel, terraformAddress } from './sarif.ts';
import type { IacReport } from './schema.ts';

/** The pieces of the SARIF and JUnit formats; the CLI's tests validate whole outputs (check-iac-formats.test.ts). */

describe('sarifLevel: the finding kind as a SARIF level', () => {
  it.each([
    ['invalid', 'volume_invalid', 'error'],
    ['under', 'under_provisioned', 'error'],
    ['driver', 'iops_and_iops_per_gb', 'error'],
    ['driver', 'iops_capped', 'warning'],
    ['driver', 'iops_raised', 'warning'],
    ['over', 'over_provisioned', 'warning'],
    ['instance-cap', 'instance_cap_below_volume', 'warning'],
    ['hint', 'gp2_to_gp3', 'note'],
    ['note', 'storage_class_unknown', 'note'],
  ] as const)('%s %s → %s', (kind, code, level) => {
    expect(sarifLevel({ kind, code })).toBe(level);
  });
});

describe('terraformAddress: the resource address a finding subject starts with', () => {
  it.each([
    ['aws_ebs_volume.logs', 'aws_ebs_volume.logs'],
    ['aws_instance.db root_block_device', 'aws_instance.db'],
    ['aws_instance.legacy_db ebs_block_device /dev/sdf', 'aws_instance.legacy_db'],
    [
      'module.workers.aws_launch_template.node block_device_mappings /dev/xvda',
      'module.workers.aws_launch_template.node',
    ],
    ['aws_ebs_volume.d["a b"] ', 'aws_ebs_volume.d["a b"]'],
    ['aws_instance.x["]"] root_block_device', 'aws_instance.x["]"]'],
    ['module.m[0].aws_ebs_volume.v[1]', 'module.m[0].aws_ebs_volume.v[1]'],
  ])('%s → %s', (subject, address) => {
    expect(terraformAddress(subject)).toBe(address);
  });
});

describe('escapeXml', () => {
  it.each([
    ['a<b>&"c\'', 'a&lt;b&gt;&amp;&quot;c&apos;'],
    ['line\nbreak\ttab\r', 'line&#10;break&#9;tab&#13;'],
    ['bell\u0007 nul\u0000 lone\ud800 ok\u00e9', 'bell\ufffd nul\ufffd lone\ufffd ok\u00e9'],
    ['&amp;', '&amp;amp;'],
  ])('%j → %j', (text, xml) => {
    expect(escapeXml(text)).toBe(xml);
  });
});

const report: IacReport = {
  volumes: [],
  findings: [
    {
      kind: 'driver',
      code: 'unknown_parameter',
      file: 'k8s/sc.yaml',
      subject: 'StorageClass fast',
      message: 'parameter fsTypes is not one the driver knows',
      wasteUsdPerMonth: null,
    },
    {
      kind: 'instance-cap',
      code: 'instance_cap_below_volumes',
      file: 'plan.json',
      subject: 'aws_instance.db',
      message: 'm',
      wasteUsdPerMonth: null,
    },
  ],
  demand: null,
  prices: 'test prices',
};

describe('formatIacSarif: help links', () => {
  const options = {
    toolVersion: '1.2.3',
    relativePath: (f: string) => f,
    objectLines: new Map([['k8s/sc.yaml', new Map([['StorageClass fast', 7]])]]),
    terraformFiles: new Set(['plan.json']),
  };
  it('with a repository URL: absolute helpUri per rule (its docs section) and informationUri', () => {
    const log = JSON.parse(
      formatIacSarif(report, { ...options, repositoryUrl: 'https://example.org/o/blockwise/' }),
    );
    const driver = log.runs[0].tool.driver;
    expect(driver.informationUri).toBe('https://example.org/o/blockwise/');
    expect(driver.rules.map((r: { helpUri: string }) => r.helpUri)).toEqual([
      'https://example.org/o/blockwise/blob/HEAD/docs/iac.md#volumes-of-one-instance',
      'https://example.org/o/blockwise/blob/HEAD/docs/iac.md#findings',
    ]);
    expect(log.runs[0].results[0].locations[0].physicalLocation.region).toEqual({ startLine: 7 });
  });
  it('without one: no helpUri (it must be absolute), the relative docs path in the help text', () => {
    const log = JSON.parse(formatIacSarif(report, { ...options, repositoryUrl: null }));
    const rules = log.runs[0].tool.driver.rules;
    expect(rules.every((r: object) => !('helpUri' in r))).toBe(true);
    expect(rules[0].help.text).toContain('docs/iac.md#volumes-of-one-instance');
    expect(ruleHelpPath('over_provisioned', null)).toBe('docs/iac.md#findings');
  });
});
