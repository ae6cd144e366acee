import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { HistoryPoint } from '../history-view.ts';
import { RunsHistoryTable } from './RunsHistoryTable.tsx';

const point = (n: number, createdAt: string): HistoryPoint => ({
  id: `R${String(n).padStart(21, '0')}`,
  t: Date.parse(createdAt),
  createdAt,
  branch: 'main',
  commit: `c0ffee${n}`.padEnd(40, '0'),
  name: null,
  metrics: { 'read.iops': 15_840, 'write.iops': 7_920, 'read.clat.p99': 1.9 },
});

describe('RunsHistoryTable on a phone', () => {
  it('puts the gate verdict right after the run, before the numbers that scroll sideways', () => {
    render(
      <RunsHistoryTable
        points={[point(2, '2026-02-10T14:03:41Z'), point(1, '2026-02-10T14:03:02Z')]}
        reports={new Map()}
        wanted={new Set([`R${'2'.padStart(21, '0')}`])}
        selected={null}
        onSelect={() => {}}
        runLink={(_id, text) => <a href="#run">{text}</a>}
        caption="2 runs, newest first"
      />,
    );
    const table = screen.getByRole('table', { name: '2 runs, newest first' });
    expect(table.className).toContain('history-runs__table');
    const heads = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(heads.slice(0, 3)).toEqual(['Uploaded (UTC)', 'Gate', 'Branch @ commit']);
    const [, first] = within(table).getAllByRole('row');
    expect(within(first!).getAllByRole('cell')[0]!.textContent).toBe('checking…');
  });
});
