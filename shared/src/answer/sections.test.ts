import { describe, expect, it } from 'vitest';
import { sectionsOf, type AnswerSection } from './sections.ts';

const list = (s: ReadonlySet<AnswerSection>) => [...s].sort();

describe('sectionsOf: which sections a page’s answer lines link down to (web and the share HTML ask here)', () => {
  it.each([
    [{ kind: 'planning' } as const, ['compare', 'instance', 'limits', 'profile', 'rates', 'right-size']],
    // ComparisonView's regions: a stored comparison has no instance picker.
    [{ kind: 'share', plans: 2 } as const, ['compare', 'limits', 'profile', 'rates', 'right-size']],
    [{ kind: 'share', plans: 1 } as const, ['compare', 'limits', 'profile', 'rates', 'right-size']],
    // Runs without a configuration: the share page shows what a run page shows.
    [{ kind: 'share', plans: 0 } as const, ['limits', 'profile']],
    [{ kind: 'run' } as const, ['limits', 'profile']],
    [{ kind: 'fleet' } as const, []],
  ])('%o shows %o', (page, sections) => {
    expect(list(sectionsOf(page))).toEqual(sections);
  });

  it('every page’s sections are the planning page’s or fewer', () => {
    const planning = sectionsOf({ kind: 'planning' });
    for (const page of [{ kind: 'share', plans: 1 }, { kind: 'run' }, { kind: 'fleet' }] as const)
      for (const s of sectionsOf(page)) expect(planning.has(s)).toBe(true);
  });
});
