import { fleetCatalogFor } from '@blockwise/shared/analysis';
import {
  concurrencyGroupsOf,
  fleetPlanToCsv,
  parseFleetInstances,
  parseFleetVolumes,
  parseMetricData,
  planFleet,
  type FleetPlan,
} from '@blockwise/shared/fleet';
import type * as FleetModule from '@blockwise/shared/fleet';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
// The generated fleet with known peaks (fixtures/fleet/README.md), as the user drops it.
import instancesText from '../../../../../fixtures/fleet/instances.json?raw';
import metrics1Text from '../../../../../fixtures/fleet/metrics-1.json?raw';
import metrics2Text from '../../../../../fixtures/fleet/metrics-2.json?raw';
import volumesText from '../../../../../fixtures/fleet/volumes.json?raw';
// 14 days of 5-minute Sums, ~1,300 IOPS except 8,200 IOPS daily 01:30–01:40 UTC (fixtures/demand/README.md).
import nightlyMetricsText from '../../../../../fixtures/demand/gmd_nightly_batch_14d.json?raw';
import nightlyVolumesText from '../../../../../fixtures/demand/volumes_nightly.json?raw';
import FleetPage from '../../../app/routes/FleetPage.tsx';
import { fmtUsd } from '../../../lib/format.ts';
import type * as FleetViewModule from '../fleet-view.ts';
import { TEXT_IDLE_MS } from './FleetFilters.tsx';
import { FleetPlanView } from './FleetPlanView.tsx';

const ID = 'FFFFFFFFFFFFFFFFFFFFFF';

// Counts how often the metric files are read (addMetricData), to prove an option change does not re-read them.
// …and how often the filter choices are counted (filterChoices), to prove typing does not recount them.
const reads = vi.hoisted(() => ({ addMetricData: 0, filterChoices: 0 }));
vi.mock('@blockwise/shared/fleet', async (importOriginal) => {
  const actual = await importOriginal<typeof FleetModule>();
  return {
    ...actual,
    addMetricData: (...args: Parameters<typeof actual.addMetricData>) => {
      reads.addMetricData++;
      return actual.addMetricData(...args);
    },
  };
});

vi.mock('../fleet-view.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof FleetViewModule>();
  return {
    ...actual,
    filterChoices: (...args: Parameters<typeof actual.filterChoices>) => {
      reads.filterChoices++;
      return actual.filterChoices(...args);
    },
  };
});

/** The plan the shared planner makes of the fixture files (what the page must show). */
function expectedPlan(): FleetPlan {
  const volumes = parseFleetVolumes(JSON.parse(volumesText));
  const instances = parseFleetInstances(JSON.parse(instancesText));
  if (!volumes.ok) throw new Error('the fleet fixtures do not parse');
  // As the page reads them: the volumes of each instance summed point by point.
  const metrics = parseMetricData([JSON.parse(metrics1Text), JSON.parse(metrics2Text)], {
    concurrency: concurrencyGroupsOf(volumes.value),
  });
  const catalog = fleetCatalogFor('us-east-1');
  if (!instances.ok || !metrics.ok || !catalog.ok) throw new Error('the fleet fixtures do not parse');
  return planFleet({
    volumes: volumes.value,
    instances: instances.value,
    metrics: metrics.value,
    catalog: catalog.value,
    headroom: 0.25,
    statistic: 'max',
    region: 'us-east-1',
  });
}

const files = () => [
  new File([volumesText], 'volumes.json', { type: 'application/json' }),
  new File([instancesText], 'instances.json', { type: 'application/json' }),
  new File([metrics1Text], 'metrics-1.json', { type: 'application/json' }),
  new File([metrics2Text], 'metrics-2.json', { type: 'application/json' }),
];

const rowOf = (table: HTMLElement, volumeId: string) =>
  within(table)
    .getAllByRole('row')
    .find((row) => row.getAttribute('data-volume-id') === volumeId) ?? expect.fail(`no row for ${volumeId}`);

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Fleet page: drop the AWS CLI outputs → the plan', () => {
  it('shows every volume with its status, the fleet saving, and sorts by column with aria-sort', async () => {
    const user = userEvent.setup();
    render(<FleetPage />);
    await user.upload(screen.getByLabelText('Choose files'), files());
    const plan = expectedPlan();

    const table = await screen.findByRole('table', { name: /Volumes of the fleet/ });
    // Every volume is listed, the one without data too.
    expect(within(table).getAllByRole('row')).toHaveLength(plan.volumes.length + 1);
    expect(within(rowOf(table, 'vol-0under')).getByText('Under-provisioned (risk)')).toBeTruthy();
    expect(within(rowOf(table, 'vol-0nodata')).getByText('No data')).toBeTruthy();
    const capped = plan.volumes.find((v) => v.volumeId === 'vol-0capped')!;
    expect(capped.binding?.id).toMatch(/^instance-/);
    expect(rowOf(table, 'vol-0capped').textContent).toContain(capped.binding!.explanation);
    expect(screen.getByTestId('fleet-saving').textContent).toBe(
      `${fmtUsd(plan.totals.fleet.savingUsdPerMonth)}/month`,
    );
    // The known numbers of the fixture fleet (fixtures/fleet/README.md), not the planner's own output.
    expect(screen.getByTestId('fleet-saving').textContent).toBe('$764.50/month');
    const io2 = rowOf(table, 'vol-0io2').textContent;
    expect(io2).toContain('$1,362.50/month');
    expect(io2).toContain('$712.50/month');
    expect(rowOf(table, 'vol-0over').textContent).toContain('saves $70.00/month');
    // Unused and no-data volumes are not "no change": see the Unused table, or no recommendation.
    expect(within(rowOf(table, 'vol-0unattached')).getByText('see Unused')).toBeTruthy();
    expect(within(rowOf(table, 'vol-0nodata')).queryByText('no change')).toBeNull();
    // Prices name their date, source, and that the built-in ones are over a year old.
    const stamp = screen.getAllByTestId('price-stamp')[0]!;
    expect(stamp.textContent).toBe(`(us-east-1 prices of ${plan.priceDate}, over a year old)`);
    expect(stamp.className).toContain('price-stamp--stale');
    expect(screen.getByText('Prices').nextElementSibling?.textContent).toContain(plan.priceSource);

    const savingHeader = within(table).getByRole('columnheader', { name: /Saving \/ risk/ });
    expect(savingHeader.getAttribute('aria-sort')).toBe('none');
    await user.click(within(savingHeader).getByRole('button'));
    expect(savingHeader.getAttribute('aria-sort')).toBe('descending');
    const first = within(table).getAllByRole('row')[1]!;
    const best = [...plan.volumes].sort((a, b) => b.savingUsdPerMonth - a.savingUsdPerMonth)[0]!;
    expect(first.getAttribute('data-volume-id')).toBe(best.volumeId);
    await user.click(within(savingHeader).getByRole('button'));
    expect(savingHeader.getAttribute('aria-sort')).toBe('ascending');
  });

  it('expands a volume to its modify-volume, rollback and Terraform commands', async () => {
    const user = userEvent.setup();
    render(<FleetPage />);
    await user.upload(screen.getByLabelText('Choose files'), files());
    const table = await screen.findByRole('table', { name: /Volumes of the fleet/ });
    const toggle = within(rowOf(table, 'vol-0over')).getByRole('button', { name: /Commands/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const over = expectedPlan().volumes.find((v) => v.volumeId === 'vol-0over')!;
    expect(over.commands.modify.length).toBeGreaterThan(0);
    expect(table.textContent).toContain(over.commands.modify[0]);
    expect(table.textContent).toContain(over.commands.terraform.split('\n')[0]);
  });

  it('names a file that is not an AWS CLI output', async () => {
    const user = userEvent.setup();
    render(<FleetPage />);
    await user.upload(screen.getByLabelText('Choose files'), [
      new File(['{"foo": 1}'], 'notes.json', { type: 'application/json' }),
    ]);
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /notes\.json: expected the JSON output of aws ec2 describe-volumes/,
    );
  });

  it('Save & share posts the files and shows the link; the link renders the stored plan read-only', async () => {
    const plan = expectedPlan();
    const posted: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = String(input);
        if (url.endsWith('/api/fleet/plans') && init?.method === 'POST') {
          posted.push(JSON.parse(String(init.body)));
          return Response.json({ id: ID, url: `/fleet/${ID}`, plan }, { status: 201 });
        }
        if (url.endsWith(`/api/fleet/plans/${ID}`))
          return Response.json({
            id: ID,
            url: `/fleet/${ID}`,
            plan,
            createdAt: '2026-11-24T12:00:00.000Z',
            analysisVersion: 'test',
          });
        return new Response(null, { status: 404 });
      }),
    );
    const user = userEvent.setup();
    const page = render(<FleetPage />);
    await user.upload(screen.getByLabelText('Choose files'), files());
    await user.click(await screen.findByRole('button', { name: 'Save & share' }));
    const link = await screen.findByRole('link', { name: new RegExp(`/fleet/${ID}$`) });
    // One absolute URL: the href (what "Copy link address" copies), the text and the Copy link button.
    const absolute = `${window.location.origin}/fleet/${ID}`;
    expect(link.getAttribute('href')).toBe(absolute);
    expect(link.textContent).toBe(absolute);
    await user.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(await screen.findByText('Copied.', { exact: false })).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe(absolute);
    expect(posted).toEqual([
      expect.objectContaining({
        headroom: 0.25,
        statistic: 'max',
        region: 'us-east-1',
        metrics: expect.any(Array),
      }),
    ]);
    page.unmount();

    render(<FleetPage id={ID} />);
    expect(
      await screen.findByRole('heading', { name: `Fleet plan: ${plan.totals.fleet.volumes} volumes` }),
    ).toBeTruthy();
    expect(screen.getByText('Shared fleet plan · read-only')).toBeTruthy();
    expect(screen.getByTestId('fleet-saving').textContent).toBe(
      `${fmtUsd(plan.totals.fleet.savingUsdPerMonth)}/month`,
    );
    expect(screen.queryByRole('button', { name: 'Save & share' })).toBeNull();
  });

  it('Export CSV downloads the plan: the known fixture numbers, in a file named by region and date', async () => {
    const blobs: Blob[] = [];
    const names: string[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:fleet-plan';
    });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const user = userEvent.setup();
    render(<FleetPage />);
    await user.upload(screen.getByLabelText('Choose files'), files());
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    expect(names).toEqual([expect.stringMatching(/^fleet-plan-us-east-1-\d{4}-\d{2}-\d{2}\.csv$/)]);
    const csv = await blobs[0]!.text();
    expect(csv).toBe(fleetPlanToCsv(expectedPlan()));
    const io2 = csv.split(/\r?\n/).find((line) => line.startsWith('vol-0io2'));
    expect(io2).toMatch(/1362\.5/);
    expect(io2).toMatch(/712\.5/);
  });

  it('a link to a plan that does not exist says so', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json(
          { error: { code: 'fleet_plan_not_found', message: 'no fleet plan with this id' } },
          { status: 404 },
        ),
      ),
    );
    render(<FleetPage id={ID} />);
    await waitFor(() => expect(screen.getByText('No fleet plan at this link')).toBeTruthy());
  });

  it('an option change re-plans without re-reading the metric files', async () => {
    const user = userEvent.setup();
    render(<FleetPage />);
    const before = reads.addMetricData;
    await user.upload(screen.getByLabelText('Choose files'), files());
    await screen.findByRole('table', { name: /Volumes of the fleet/ });
    const afterDrop = reads.addMetricData;
    // Two metric files, each read once.
    expect(afterDrop - before).toBe(2);
    const headroom = screen.getByLabelText('Headroom (% above the peak)');
    await user.clear(headroom);
    await user.type(headroom, '50');
    await user.selectOptions(screen.getByLabelText('Statistic'), 'p99');
    await screen.findByRole('table', { name: /Volumes of the fleet/ });
    expect(reads.addMetricData).toBe(afterDrop);
  });

  it('an invalid headroom hides the plan (never the last valid one) and Save & share', async () => {
    const user = userEvent.setup();
    render(<FleetPage />);
    await user.upload(screen.getByLabelText('Choose files'), files());
    await screen.findByRole('table', { name: /Volumes of the fleet/ });
    const headroom = screen.getByLabelText('Headroom (% above the peak)');
    await user.clear(headroom);
    await user.type(headroom, '25x');
    expect(headroom.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('table', { name: /Volumes of the fleet/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save & share' })).toBeNull();
    expect(screen.getByText('No plan for this headroom')).toBeTruthy();
    await user.clear(headroom);
    await user.type(headroom, '25');
    expect(await screen.findByRole('table', { name: /Volumes of the fleet/ })).toBeTruthy();
  });

  it('headroom is in percent: "0.25" is planned as 0.25 % and asks "did you mean 25 %?"', async () => {
    const user = userEvent.setup();
    render(<FleetPage />);
    const headroom = screen.getByLabelText('Headroom (% above the peak)');
    await user.clear(headroom);
    await user.type(headroom, '0.25');
    expect(
      screen.getByText(/Headroom is in percent: 0\.25 means 0\.25 % above the peak\. Did you mean 25 %\?/),
    ).toBeTruthy();
  });

  it('offers only regions with a complete EBS price table (as the planning page)', async () => {
    render(<FleetPage />);
    const select = (await screen.findByLabelText('Region (prices)')) as HTMLSelectElement;
    await waitFor(() => expect(select.options.length).toBeGreaterThan(1));
    const codes = [...select.options].map((o) => o.value);
    expect(codes).toContain('us-east-1');
    // sa-east-1 has no io2 price in the built-in catalog: a plan there would price io2 volumes at nothing.
    expect(codes).not.toContain('sa-east-1');
  });

  it('a volume type the rate card cannot price reads "no price", never $0.00; the fleet says how many are left out', () => {
    const plan = expectedPlan();
    const standard = {
      type: 'standard',
      volumes: 2,
      currentUsdPerMonth: 0,
      recommendedUsdPerMonth: 0,
      savingUsdPerMonth: 0,
      riskCount: 0,
      unpricedCount: 2,
    };
    render(
      <FleetPlanView
        plan={{
          ...plan,
          totals: {
            ...plan.totals,
            byVolumeType: [...plan.totals.byVolumeType, standard],
            fleet: { ...plan.totals.fleet, unpricedCount: 2 },
          },
        }}
      />,
    );
    const byType = screen.getByRole('table', { name: 'Totals per volume type' });
    const row = within(byType).getByRole('rowheader', { name: 'standard' }).closest('tr')!;
    expect(within(row).getAllByText('no price')).toHaveLength(3);
    expect(row.textContent).not.toContain('$0.00');
    expect(screen.getByTestId('fleet-unpriced').textContent).toBe('2 volumes unpriced: not in the sums');
  });

  it('a plan from incomplete data says so before any number, naming each volume and why', () => {
    const plan = expectedPlan();
    expect(plan.complete).toBe(true);
    expect(screen.queryByTestId('fleet-incomplete')).toBeNull();
    render(
      <FleetPlanView
        plan={{
          ...plan,
          complete: false,
          incomplete: [
            { volumeId: 'vol-0over', reason: 'metrics-1.json has a NextToken (more pages exist)' },
          ],
        }}
      />,
    );
    const banner = screen.getByTestId('fleet-incomplete');
    expect(banner.getAttribute('role')).toBe('alert');
    expect(banner.textContent).toContain('Incomplete data for 1 volume(s)');
    expect(banner.textContent).toContain('vol-0over: metrics-1.json has a NextToken (more pages exist)');
  });

  it('p99 keeps a recurring peak and says so; "Ignore recurring peaks" sizes on p99, states the risk and is saved', async () => {
    const posted: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        if (String(input).endsWith('/api/fleet/plans') && init?.method === 'POST') {
          posted.push(JSON.parse(String(init.body)));
          return Response.json({ id: ID, url: `/fleet/${ID}`, plan: expectedPlan() }, { status: 201 });
        }
        return new Response(null, { status: 404 });
      }),
    );
    const user = userEvent.setup();
    render(<FleetPage />);
    await user.upload(screen.getByLabelText('Choose files'), [
      new File([nightlyVolumesText], 'volumes_nightly.json', { type: 'application/json' }),
      new File([nightlyMetricsText], 'gmd_nightly_batch_14d.json', { type: 'application/json' }),
    ]);
    await screen.findByRole('table', { name: /Volumes of the fleet/ });
    const ignore = screen.getByRole('checkbox', { name: /Ignore recurring peaks/ });
    // The maximum keeps every peak: nothing to ignore.
    expect((ignore as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByTestId('fleet-recurring')).toBeNull();

    await user.selectOptions(screen.getByLabelText('Statistic'), 'p99');
    const kept = await screen.findByTestId('fleet-recurring');
    expect(kept.textContent).toContain('kept: the p99 alone would drop them');
    expect(kept.textContent).toMatch(/recurring peak, max 4,100 IOPS at 01:30–01:40 UTC on 14 of 14 days/);

    await user.click(ignore);
    expect(
      screen.getByText(/Risk: a peak that recurs .* is throttled to what the p99 provisions/),
    ).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByTestId('fleet-recurring').textContent).toContain(
        'ignored as asked: the p99 sizes below them, and they will be throttled every time they recur',
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Save & share' }));
    await screen.findByRole('link', { name: new RegExp(`/fleet/${ID}$`) });
    expect(posted).toEqual([expect.objectContaining({ statistic: 'p99', ignoreRecurring: true })]);
  });

  it('filters the volumes by status, type, instance and text, in the address; the totals stay the whole fleet’s', async () => {
    const user = userEvent.setup();
    render(<FleetPage />);
    await user.upload(screen.getByLabelText('Choose files'), files());
    const plan = expectedPlan();
    const all = plan.volumes.length;
    const table = await screen.findByRole('table', { name: /Volumes of the fleet/ });
    const shown = () => screen.getByTestId('fleet-shown').textContent;
    const rows = () => within(table).getAllByRole('row').slice(1);
    expect(shown()).toBe(`${all} of ${all} volumes shown`);

    await user.selectOptions(screen.getByLabelText('Status'), 'over');
    const over = plan.volumes.filter((v) => v.status === 'over');
    expect(over.length).toBeGreaterThan(0);
    expect(over.length).toBeLessThan(all);
    expect(rows().map((r) => r.getAttribute('data-volume-id'))).toEqual(
      expect.arrayContaining(over.map((v) => v.volumeId)),
    );
    expect(rows()).toHaveLength(over.length);
    expect(shown()).toBe(
      `${over.length} of ${all} volumes shown · the Fleet totals above are of all ${all}, not only these`,
    );
    // The totals are the whole fleet's, and say so.
    expect(screen.getByTestId('fleet-saving').textContent).toBe('$764.50/month');
    expect(screen.getByText('Volumes (whole fleet)')).toBeTruthy();
    expect(window.location.search).toContain('status=over');

    await user.selectOptions(screen.getByLabelText('Status'), '');
    await user.selectOptions(screen.getByLabelText('Instance'), 'i-0app1');
    const app1 = plan.volumes.filter((v) => v.instanceId === 'i-0app1');
    expect(rows()).toHaveLength(app1.length);
    await user.selectOptions(screen.getByLabelText('Instance'), 'i-0gp2');
    await user.selectOptions(screen.getByLabelText('Volume type'), 'gp2');
    const gp2 = plan.volumes.filter((v) => v.instanceId === 'i-0gp2' && v.current.type === 'gp2');
    expect(gp2.length).toBeGreaterThan(0);
    expect(rows().map((r) => r.getAttribute('data-volume-id'))).toEqual(gp2.map((v) => v.volumeId));

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    // The text applies after a pause in typing (TEXT_IDLE_MS); a loaded machine may take longer
    // than waitFor's default second to get there.
    const applied = { timeout: 10_000 };
    await user.type(screen.getByLabelText('Volume id or name'), 'VOL-0IO2');
    await waitFor(
      () => expect(rows().map((r) => r.getAttribute('data-volume-id'))).toEqual(['vol-0io2']),
      applied,
    );
    expect(window.location.search).toContain('q=VOL-0IO2');
    await user.type(screen.getByLabelText('Volume id or name'), 'x');
    await waitFor(() => expect(shown()).toContain(`0 of ${all} volumes shown`), applied);
    expect(within(table).getByText(/No volume matches these filters/)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(rows()).toHaveLength(all);
    expect(window.location.search).toBe('');
  });
  it('typing in the text filter writes the address once per pause, not once a keystroke, and does not recount the choices', async () => {
    const plan = expectedPlan();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json({
          id: ID,
          url: `/fleet/${ID}`,
          plan,
          createdAt: '2026-11-24T12:00:00.000Z',
          analysisVersion: 'test',
        }),
      ),
    );
    render(<FleetPage id={ID} />);
    const field = await screen.findByLabelText<HTMLInputElement>('Volume id or name');
    const table = screen.getByRole('table', { name: /Volumes of the fleet/ });
    const ids = () =>
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.getAttribute('data-volume-id'));
    const counted = reads.filterChoices;
    const replace = vi.spyOn(window.history, 'replaceState');
    const push = vi.spyOn(window.history, 'pushState');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // One change event a character, as typing makes (userEvent waits on a real setTimeout between
    // keys, which the fake timers hold).
    const type = (text: string) => {
      for (const ch of text) fireEvent.change(field, { target: { value: `${field.value}${ch}` } });
    };

    const typed = 'vol-0io2';
    type(typed);
    expect(field.value).toBe(typed);
    // Typing: no address written yet, one history entry at most afterwards (never one per key).
    expect(replace).not.toHaveBeenCalled();
    expect(push).not.toHaveBeenCalled();
    expect(ids()).toHaveLength(plan.volumes.length);

    await act(async () => {
      vi.advanceTimersByTime(TEXT_IDLE_MS);
    });
    expect(replace).toHaveBeenCalledTimes(1);
    expect(push).not.toHaveBeenCalled();
    expect(window.location.search).toBe(`?q=${typed}`);
    expect(ids()).toEqual(['vol-0io2']);
    // The plan's volumes did not change: their filter choices were not counted again.
    expect(reads.filterChoices).toBe(counted);

    // Leaving the field applies what was typed at once.
    type('x');
    expect(replace).toHaveBeenCalledTimes(1);
    fireEvent.blur(field);
    expect(replace).toHaveBeenCalledTimes(2);
    expect(window.location.search).toBe(`?q=${typed}x`);
    expect(screen.getByTestId('fleet-shown').textContent).toContain(
      `0 of ${plan.volumes.length} volumes shown`,
    );
  });
});
