import { fleetCatalogFor } from '@blockwise/shared/analysis';
import {
  parseFleetInstances,
  parseFleetVolumes,
  parseMetricData,
  planFleet,
  type FleetPlan,
} from '@blockwise/shared/fleet';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EvidenceCallout } from './EvidenceCallout.tsx';
import volumesText from '../../../../../fixtures/fleet-evidence/volumes.json?raw';
import instancesText from '../../../../../fixtures/fleet-evidence/instances.json?raw';
import metricsText from '../../../../../fixtures/fleet-evidence/metrics.json?raw';

// fixtures/fleet-evidence (its generate.mjs and README), planned by the shared planner as the page does.
const FILES: Record<string, string> = {
  'volumes.json': volumesText,
  'instances.json': instancesText,
  'metrics.json': metricsText,
};
const json = (name: string): unknown => JSON.parse(FILES[name]!);
function unwrap<T>(r: { ok: true; value: T } | { ok: false; error: unknown }): T {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

function plan(): FleetPlan {
  const catalog = fleetCatalogFor('us-east-1');
  if (!catalog.ok) throw new Error(catalog.error.message);
  return planFleet({
    volumes: unwrap(parseFleetVolumes(json('volumes.json'))),
    instances: unwrap(parseFleetInstances(json('instances.json'))),
    metrics: unwrap(parseMetricData([json('metrics.json')])),
    catalog: catalog.value,
    headroom: 0.25,
    statistic: 'max',
  });
}

describe('EvidenceCallout', () => {
  const p = plan();

  it.each([
    ['vol-0pinned', 'Throttled 415 min'],
    ['vol-0confirmed', 'Throttled 36 min'],
    ['vol-0contra', 'Checks contradict the model'],
    ['vol-0quiet', 'No data'],
    ['vol-0gp2', 'Never throttled'],
  ])('%s: %s, with its findings', (id, badge) => {
    render(<EvidenceCallout plan={p} />);
    const item = screen.getByTestId('fleet-evidence').querySelector(`li[data-evidence-id="${id}"]`);
    expect(item).not.toBeNull();
    expect(within(item as HTMLElement).getByText(badge)).toBeTruthy();
    const findings = within(item as HTMLElement)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(findings).toEqual(p.volumes.find((v) => v.volumeId === id)!.evidence!.findings);
  });

  it('renders nothing for a plan without evidence', () => {
    const { container } = render(
      <EvidenceCallout
        plan={{ ...p, volumes: p.volumes.map((v) => ({ ...v, evidence: undefined })), instances: [] }}
      />,
    );
    expect(container.innerHTML).toBe('');
  });
});
