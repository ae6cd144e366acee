import { fleetCatalogFor } from '@blockwise/shared/analysis';
import {
  concurrencyGroupsOf,
  parseFleetInstances,
  parseFleetVolumes,
  parseMetricData,
  planFleet,
} from '@blockwise/shared/fleet';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { InstancesTable } from './InstancesTable.tsx';

/**
 * Two gp3 on one r6i.large (3,600 baseline IOPS), 2,500 IOPS each together 02:00–02:15 UTC, 500
 * otherwise, one day of 5-minute Sums; and an io1 500 GiB / 20,000 IOPS peaking at 4,400 IOPS.
 */
function scenario() {
  const stamps = Array.from({ length: 288 }, (_, i) =>
    new Date(Date.UTC(2026, 10, 1) + i * 300_000).toISOString(),
  );
  const iops = (i: number, peak: number, at: number) => (i >= at && i < at + 3 ? peak : 500);
  const results = (id: string, peak: number, at: number) =>
    (['VolumeReadOps', 'VolumeWriteOps', 'VolumeReadBytes', 'VolumeWriteBytes'] as const).map((m) => ({
      Id: `x${id.replace(/\W/g, '')}${m}`,
      Label: `${id} ${m}`,
      Timestamps: stamps,
      Values: stamps.map((_, i) => ((iops(i, peak, at) * 300) / 2) * (m.endsWith('Bytes') ? 8192 : 1)),
    }));
  const volumesJson = {
    Volumes: [
      ...['vol-0a', 'vol-0b'].map((id) => ({
        VolumeId: id,
        VolumeType: 'gp3',
        Size: 100,
        Iops: 3000,
        Throughput: 125,
        State: 'in-use',
        Attachments: [{ InstanceId: 'i-0r6' }],
      })),
      {
        VolumeId: 'vol-0io1',
        VolumeType: 'io1',
        Size: 500,
        Iops: 20000,
        State: 'in-use',
        Attachments: [{ InstanceId: 'i-0db' }],
      },
    ],
  };
  const volumes = parseFleetVolumes(volumesJson);
  const instances = parseFleetInstances({
    Reservations: [
      { Instances: [{ InstanceId: 'i-0r6', InstanceType: 'r6i.large', State: { Name: 'running' } }] },
      { Instances: [{ InstanceId: 'i-0db', InstanceType: 'r6i.4xlarge', State: { Name: 'running' } }] },
    ],
  });
  if (!volumes.ok || !instances.ok) throw new Error('fixture');
  const metrics = parseMetricData(
    [
      {
        MetricDataResults: [
          ...results('vol-0a', 2500, 24),
          ...results('vol-0b', 2500, 24),
          ...results('vol-0io1', 4400, 100),
        ],
      },
    ],
    { concurrency: concurrencyGroupsOf(volumes.value) },
  );
  const catalog = fleetCatalogFor('us-east-1');
  if (!metrics.ok || !catalog.ok) throw new Error('fixture');
  return planFleet({
    volumes: volumes.value,
    instances: instances.value,
    metrics: metrics.value,
    catalog: catalog.value,
    headroom: 0.25,
    statistic: 'max',
  });
}

describe('Fleet page: instances and cheaper types', () => {
  it('shows the r6i.large row (5,000 IOPS together, 15 min/day, burst carries it, r6in.large) and gp3 beside io2', () => {
    render(<InstancesTable plan={scenario()} />);
    const row = within(screen.getByTestId('fleet-instances'))
      .getAllByRole('row')
      .find((r) => r.getAttribute('data-instance-id') === 'i-0r6')!;
    const cells = within(row)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.slice(0, 6)).toEqual([
      'vol-0a, vol-0b',
      '5,000',
      '39.1',
      '3,600 IOPS, 77 MiB/s',
      '15',
      'carries it',
    ]);
    expect(cells[6]).toBe('r6in.large');
    expect(screen.getByTestId('fleet-alternatives').textContent).toContain(
      'vol-0io1: cheaper gp3 500 GiB 5,500 IOPS 125 MiB/s $52.50/month',
    );
  });
});
