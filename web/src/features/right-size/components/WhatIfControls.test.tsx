import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { WhatIfControls, type WhatIfSettings } from './WhatIfControls.tsx';

const settings: WhatIfSettings = {
  headroom: 0.25,
  nodes: 1,
  gp3Generation: 'current',
  syncCommits: false,
  residency: 'unknown',
  datasetGiB: null,
  candidates: [{ type: 'gp3', sizeGiB: 1000, iops: 3000, throughputMiBps: 125 }],
};

function setup(candidates: WhatIfSettings['candidates'] = settings.candidates) {
  const onCandidate = vi.fn();
  render(
    <WhatIfControls
      settings={{ ...settings, candidates }}
      focusPercentile="99"
      candidateProblems={[[]]}
      recommendations={[]}
      onSettings={vi.fn()}
      onFocusPercentile={vi.fn()}
      onCandidate={onCandidate}
      onAddCandidate={vi.fn()}
      onRemoveCandidate={vi.fn()}
    />,
  );
  return { onCandidate };
}

describe('WhatIfControls: gp3 throughput is provisioned in whole MiB/s', () => {
  it.each([
    // typed in the exact field, MiB/s the candidate gets
    ['500', 500],
    ['125.5', 126],
    ['999.01', 1000],
  ])('typing %s gives the candidate %d MiB/s', (typed, miBps) => {
    const { onCandidate } = setup();
    fireEvent.change(screen.getByLabelText('Candidate 1 throughput'), { target: { value: typed } });
    expect(onCandidate).toHaveBeenLastCalledWith(0, { ...settings.candidates[0], throughputMiBps: miBps });
  });

  it('the slider moves in whole MiB/s and the hint says fractions round up', () => {
    setup();
    expect(screen.getByLabelText('Candidate 1 throughput (slider)').getAttribute('step')).toBe('5');
    expect(screen.getByText(/Whole MiB\/s \(a fraction is rounded up\)/)).toBeDefined();
  });
});

describe('WhatIfControls: st1 and sc1 say their throughput is per TiB of size', () => {
  it.each([
    [
      'st1',
      'st1 throughput follows the size: 40 MiB/s per TiB sustained, 250 MiB/s per TiB on burst credits, at most 500 MiB/s',
    ],
    [
      'sc1',
      'sc1 throughput follows the size: 12 MiB/s per TiB sustained, 80 MiB/s per TiB on burst credits, at most 250 MiB/s',
    ],
  ] as const)('%s', (type, text) => {
    setup([{ type, sizeGiB: 2048 }]);
    expect(screen.getByText((content) => content.startsWith(text))).toBeDefined();
  });
});

describe('WhatIfControls: the dataset as the answer says it', () => {
  it.each([
    [null, undefined, 'Dataset size: not known'],
    [2000, undefined, 'Dataset size: 2,000 GiB'],
    [
      2000,
      { percentPerYear: 30, horizonMonths: 12 },
      'Dataset size: 2,000 GiB today, 2,600 GiB in 12 months at 30 %/year',
    ],
  ] as const)('%s GiB growing by %j → %s', (datasetGiB, datasetGrowth, text) => {
    render(
      <WhatIfControls
        settings={{ ...settings, datasetGiB, ...(datasetGrowth ? { datasetGrowth } : {}) }}
        focusPercentile="99"
        candidateProblems={[[]]}
        recommendations={[]}
        onSettings={vi.fn()}
        onFocusPercentile={vi.fn()}
        onCandidate={vi.fn()}
        onAddCandidate={vi.fn()}
        onRemoveCandidate={vi.fn()}
      />,
    );
    expect(
      screen.getByText(new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} — asked`)).tagName,
    ).toBe('P');
  });
});
