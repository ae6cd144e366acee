import { describe, expect, it } from 'vitest';
import { RunLabelsSchema, RunListQuerySchema, SeriesRunsQuerySchema } from './api/contract.ts';
import { SeriesConfigSchema } from './history/series-config.ts';
import { isStorableText } from './storable-text.ts';

describe('isStorableText', () => {
  it.each([
    ['main', true],
    ['release-🚀', true],
    ['', true],
    ['a\u0000b', false],
    ['\ud800', false],
    ['x\udc00', false],
    ['\udc00\ud800', false],
  ])('%j → %s', (text, storable) => {
    expect(isStorableText(text)).toBe(storable);
  });
});

describe('schemas refuse what the archive cannot store', () => {
  it('series settings: baseBranch', () => {
    expect(SeriesConfigSchema.safeParse({ baseBranch: 'main\u0000' }).success).toBe(false);
    expect(SeriesConfigSchema.safeParse({ baseBranch: 'main\ud800' }).success).toBe(false);
    expect(SeriesConfigSchema.parse({ baseBranch: ' develop ' }).baseBranch).toBe('develop');
  });

  it('labels: free text and tag values', () => {
    expect(RunLabelsSchema.safeParse({ branch: 'a\u0000' }).success).toBe(false);
    expect(RunLabelsSchema.safeParse({ name: '\udfff' }).success).toBe(false);
    expect(RunLabelsSchema.safeParse({ tags: { env: 'x\u0000' } }).success).toBe(false);
    expect(RunLabelsSchema.safeParse({ branch: 'feature/ü', tags: { env: 'prod' } }).success).toBe(true);
  });

  it('list filters', () => {
    expect(RunListQuerySchema.safeParse({ branch: 'a\u0000' }).success).toBe(false);
    expect(SeriesRunsQuerySchema.safeParse({ branch: 'a\ud800' }).success).toBe(false);
  });
});

describe('page limits in query strings: digits only', () => {
  it.each([
    ['50', 50],
    ['007', 7],
    [undefined, 50],
  ])('%j → %s', (limit, value) => {
    expect(RunListQuerySchema.parse({ limit }).limit).toBe(value);
  });

  it.each([['0x10'], ['1e1'], [' 5'], ['5.0'], [''], ['0'], ['201'], ['-1']])('%j is refused', (limit) => {
    expect(RunListQuerySchema.safeParse({ limit }).success).toBe(false);
    expect(SeriesRunsQuerySchema.safeParse({ limit }).success).toBe(false);
  });
});
