import { describe, expect, it } from 'vitest';
import { HttpError } from '../http/errors.ts';
import { labelsFrom, parseDecimal, type LabelSource, type QueryLabels } from './labels.ts';

function refusal(query: QueryLabels, headers: LabelSource = {}): { message: string; path?: string } {
  try {
    labelsFrom(query, headers);
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    const e = error as HttpError;
    expect(e.status).toBe(400);
    expect(e.code).toBe('labels_invalid');
    return { message: e.message, path: e.path };
  }
  throw new Error(`accepted ${JSON.stringify(query)} ${JSON.stringify(headers)}`);
}

describe('number labels: decimal only', () => {
  it.each([
    ['3000', 3000],
    ['12.5', 12.5],
    ['0.5', 0.5],
    // Scientific notation is still decimal and unambiguous (what JSON and String(n) write).
    ['1e3', 1000],
    ['1.5E+4', 15000],
    ['16e-1', 1.6],
  ])('%j → %s', (text, value) => {
    expect(parseDecimal(text)).toBe(value);
    expect(labelsFrom({ volumeIops: text }).volumeIops).toBe(value);
  });

  it.each([
    ['0x10', 'hexadecimal'],
    ['0X10', 'hexadecimal'],
    ['0b1', 'binary'],
    ['0o7', 'octal'],
    ['010', 'a leading zero (octal in some languages)'],
    ['Infinity', 'not finite'],
    ['-Infinity', 'not finite'],
    ['NaN', 'not a number'],
    ['1e400', 'too large to be finite'],
    [' 12', 'whitespace'],
    ['12 ', 'whitespace'],
    ['1 000', 'whitespace'],
    ['\t5', 'whitespace'],
    ['1_000', 'a separator'],
    ['1,5', 'a comma'],
    ['.5', 'no leading digit'],
    ['5.', 'no digit after the point'],
    ['+5', 'a plus sign'],
    ['3000iops', 'a unit'],
  ])('%j is refused (%s), naming the label', (text) => {
    expect(parseDecimal(text)).toBeNull();
    const e = refusal({ volumeIops: text });
    expect(e.path).toBe('labels.volumeIops');
    expect(e.message).toMatch(/^volumeIops: expected a decimal number such as 3000, 12\.5 or 1e3, got /);
  });

  it('the same rule for headers and every number label', () => {
    expect(refusal({}, { 'x-blockwise-volume-size-gib': '0x10' }).path).toBe('labels.volumeSizeGiB');
    expect(refusal({ volumeCount: '0b10' }).path).toBe('labels.volumeCount');
    expect(refusal({ volumeThroughput: 'Infinity' }).path).toBe('labels.volumeThroughputMiBps');
  });
});

describe('a label given twice is refused, not read once', () => {
  // A repeated query parameter (?kind=ebs&kind=nvme) is refused before labels are read, by the
  // one check on /api (refuseRepeatedQuery): routes/query-params.test.ts.

  it('a label under two of its names (instance and instanceType)', () => {
    expect(refusal({ instance: 'r5d.4xlarge', instanceType: 'm5.large' })).toEqual({
      message: 'instanceType: given twice (as instanceType and instance); send it once',
      path: 'labels.instanceType',
    });
  });

  it('a repeated header, as headersDistinct gives it', () => {
    expect(refusal({}, { 'x-blockwise-branch': ['main', 'feature/x'] }).path).toBe('labels.branch');
    // One value in an array is one header.
    expect(labelsFrom({}, { 'x-blockwise-branch': ['main'] }).branch).toBe('main');
  });

  it('the tag header may repeat (a list), but not name a tag twice; the query wins over it', () => {
    expect(labelsFrom({}, { 'x-blockwise-tag': ['env=prod', 'team=db, az=a'] }).tags).toEqual({
      env: 'prod',
      team: 'db',
      az: 'a',
    });
    expect(refusal({}, { 'x-blockwise-tag': ['env=prod', 'env=dev'] }).path).toBe('labels.tags.env');
    expect(labelsFrom({ 'tag.env': 'prod' }, { 'x-blockwise-tag': 'env=dev' }).tags).toEqual({ env: 'prod' });
  });

  it('one value per label still reads as before; the query wins over a header', () => {
    expect(
      labelsFrom(
        { kind: 'ebs', instance: 'r5d.4xlarge', volumeIops: '3000' },
        { 'x-blockwise-kind': 'nvme' },
      ),
    ).toEqual({ kind: 'ebs', instanceType: 'r5d.4xlarge', volumeIops: 3000 });
  });
});

describe('text the archive cannot store', () => {
  it.each([
    ['branch', 'feat\u0000x'],
    ['baseBranch', 'main\ud800'],
    ['name', '\udc00'],
  ])('%s with U+0000 or a lone surrogate is refused', (label, value) => {
    expect(refusal({ [label]: value }).path).toBe(`labels.${label}`);
  });
});
