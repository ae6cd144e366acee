import { describe, expect, it } from 'vitest';
import { csvCell, defuseCell, toCsv } from './csv.ts';

describe('defuseCell (formula injection)', () => {
  it.each([
    ['=HYPERLINK("http://evil","x")', `'=HYPERLINK("http://evil","x")`],
    ['+1+1', `'+1+1`],
    ['-2+3', `'-2+3`],
    ['@SUM(A1)', `'@SUM(A1)`],
    ['\tcmd', `'\tcmd`],
    ['\r=1', `'\r=1`],
    ['r5d.4xlarge', 'r5d.4xlarge'],
    ['randrw 4k', 'randrw 4k'],
    ['', ''],
    [' =1', ' =1'],
  ])('%j → %j', (input, expected) => {
    expect(defuseCell(input)).toBe(expected);
  });
});

describe('csvCell', () => {
  it('quotes separators, quotes and line breaks (RFC 4180)', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });
  it('defuses and quotes together', () => {
    expect(csvCell('=1,2')).toBe(`"'=1,2"`);
    expect(csvCell('\r=cmd|calc')).toBe(`"'\r=cmd|calc"`);
  });
  it('writes numbers as numbers, even negative ones, and blanks for missing values', () => {
    expect(csvCell(-12.5)).toBe('-12.5');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(Number.NaN)).toBe('');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(true)).toBe('true');
  });
});

describe('toCsv', () => {
  it('builds CRLF lines with a header', () => {
    expect(
      toCsv(
        ['section', 'item', 'value', 'unit'],
        [
          ['limits', 'Volume IOPS', 16_000, 'IOPS'],
          ['run', '=evil()', null, ''],
        ],
      ),
    ).toBe("section,item,value,unit\r\nlimits,Volume IOPS,16000,IOPS\r\nrun,'=evil(),,\r\n");
  });
});

describe('toCsv padding', () => {
  it('pads short rows to the header width', () => {
    expect(toCsv(['a', 'b', 'c'], [[1]])).toBe('a,b,c\r\n1,,\r\n');
  });
});
