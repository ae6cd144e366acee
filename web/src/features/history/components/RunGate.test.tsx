import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixtureReport } from '../../../test/fixtures.ts';
import { regressionOf, runId, seriesHistory } from '../history-fixtures.ts';
import { RunGate } from './RunGate.tsx';

const items = seriesHistory(fixtureReport('grouped'));

function serveRegression(index: number) {
  const fetch = vi.fn(async (input: string) => {
    const url = new URL(input, 'http://localhost');
    if (url.pathname === `/api/runs/${runId(index + 1)}/regression`)
      return new Response(JSON.stringify(regressionOf(items, index)), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    return new Response(JSON.stringify({ error: { code: 'not_found', message: 'no route' } }), {
      status: 404,
    });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const renderGate = (index: number) =>
  render(
    <RunGate
      runId={runId(index + 1)}
      historyLink={<a href="/history/pg-data-volume">History of pg-data-volume</a>}
      link={(to, text) => <a href={to}>{text}</a>}
    />,
  );

afterEach(() => vi.unstubAllGlobals());

describe('RunGate: the gate verdict on the run page', () => {
  it('a branch 30% slower than main: gate failed, with the metrics that regressed', async () => {
    serveRegression(7);
    renderGate(7);
    const gate = await screen.findByRole('region', { name: 'Regression gate' });
    expect(await screen.findByText('Gate failed')).toBeDefined();
    expect(gate.getAttribute('data-verdict')).toBe('regression');
    expect(gate.textContent).toMatch(/regression: .* vs /);
    expect(screen.getByRole('link', { name: 'Compare with its baseline' }).getAttribute('href')).toMatch(
      /^\/c\//,
    );
  });

  it('the first run of a series: passes with no baseline, and says why', async () => {
    serveRegression(0);
    renderGate(0);
    expect(await screen.findByText('Gate passed: no baseline yet')).toBeDefined();
    expect(screen.getByText(/insufficient history: 0 earlier runs/)).toBeDefined();
    expect(screen.queryByRole('link', { name: 'Compare with its baseline' })).toBeNull();
  });

  it('a run within the noise: gate passed', async () => {
    serveRegression(6);
    renderGate(6);
    expect(await screen.findByText('Gate passed')).toBeDefined();
  });
});
