import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../testing/run-cli.ts';
import { parseAllDocuments } from 'yaml';
import { IAC_INPUT_LIMITS, isStackOverflow, jsonTooDeep, scanYaml } from './iac-input.ts';

/**
 * check-iac's input bounds (issue 24): what the scan counts on real manifests, and where it stops
 * on hostile ones — the work a hostile file gets is bounded by the limit, not by the file.
 */
const MANIFESTS = readFileSync(join(REPO_ROOT, 'fixtures/iac/ebs-csi.yaml'), 'utf8');
const PLAN = readFileSync(join(REPO_ROOT, 'fixtures/iac/over-provisioned-gp3.plan.json'), 'utf8');

describe('scanYaml', () => {
  it('the EBS CSI manifests of fixtures/iac: within every limit, nested as they are', () => {
    expect(scanYaml(MANIFESTS)).toEqual({ ok: true, nodes: 136, aliases: 0, maxDepth: 5 });
  });

  it('a 50 MB one-line YAML is refused by its size before a token is lexed', () => {
    const text = `kind: List\nitems: [${'a,'.repeat(25_000_000)}b]\n`;
    expect(scanYaml(text)).toMatchObject({
      ok: false,
      bound: { code: 'input_too_large', message: expect.stringContaining('over the 8388608-byte limit') },
      bytesScanned: 0,
      nodes: 0,
    });
  });

  it('a flow sequence of 4 million scalars (8 MB) stops at the node limit, a quarter of the way in', () => {
    const text = `kind: List\nitems: [${'a,'.repeat(4_000_000)}b]\n`;
    const scan = scanYaml(text);
    expect(scan).toMatchObject({ ok: false, bound: { code: 'input_too_large' } });
    if (scan.ok) return;
    expect(scan.nodes).toBe(IAC_INPUT_LIMITS.yamlNodes + 1);
    expect(scan.bytesScanned).toBeLessThan(text.length / 3);
  });

  it.each([
    ['flow brackets', `kind: X\nspec: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`, 'line 2'],
    ['compact sequences', `kind: X\nspec:\n  ${'- '.repeat(100_000)}a\n`, 'line 3'],
    [
      'block indentation',
      `kind: X\nspec:\n${Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i + 1)}k:\n`).join('')}`,
      'line 257',
    ],
    [
      'indentation hidden behind comment lines',
      `kind: X\nspec:\n${Array.from({ length: 2000 }, (_, i) => `# c\n${' '.repeat(i + 1)}k:\n`).join('')}`,
      'line 512',
    ],
  ])('nesting through %s: input_too_deep where it passes the limit', (_, text, where) => {
    const scan = scanYaml(text);
    expect(scan).toMatchObject({
      ok: false,
      bound: {
        code: 'input_too_deep',
        message: `nested deeper than 256 levels (${where}); real plans and manifests nest a few dozen at most`,
      },
    });
    if (!scan.ok) expect(scan.nodes).toBeLessThanOrEqual(IAC_INPUT_LIMITS.depth + 2);
  });

  it('aliases are counted before any is expanded', () => {
    const text = `a: &a x\nb: [${'*a,'.repeat(20_000)}*a]\n`;
    expect(scanYaml(text)).toMatchObject({
      ok: false,
      bound: { code: 'input_too_large', message: 'more than 10000 YAML aliases (line 2)' },
    });
  });
});

describe('jsonTooDeep', () => {
  it('a real plan passes; brackets inside strings do not count', () => {
    expect(jsonTooDeep(PLAN, 256)).toBeNull();
    expect(jsonTooDeep(`{"a":"${'['.repeat(1000)}\\"${'{'.repeat(1000)}"}`, 256)).toBeNull();
  });

  it('stops at the first level past the limit', () => {
    expect(jsonTooDeep(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`, 256)).toEqual({
      code: 'input_too_deep',
      message:
        'nested deeper than 256 levels (at character 257); real plans and manifests nest a few dozen at most',
    });
  });
});

describe('isStackOverflow', () => {
  const deepYamlError = () => {
    const docs = parseAllDocuments(`${'['.repeat(20_000)}${']'.repeat(20_000)}`);
    return (Array.isArray(docs) ? docs : [docs])[0]!.errors[0];
  };
  it.each([
    ['a RangeError V8 throws on overflow', () => new RangeError('Maximum call stack size exceeded'), true],
    ['the yaml parser reporting an overflow among its errors', deepYamlError, true],
    ['another RangeError', () => new RangeError('Invalid array length'), false],
    ['a plain YAML syntax error', () => parseAllDocuments('a: [')[0]?.errors?.[0], false],
    ['no error', () => undefined, false],
  ])('%s', (_, error, expected) => {
    expect(isStackOverflow(error())).toBe(expected);
  });
});
