import type { FleetVolumePlan } from '@blockwise/shared/fleet';
import { describe, expect, it } from 'vitest';
import { addFleetFiles, classifyFleetFile, EMPTY_INPUTS, removeFleetFile } from './fleet-files.ts';
import {
  activeFilters,
  describeVolumeSaving,
  filterChoices,
  filterVolumes,
  isFleetVolumeStatus,
  nextSort,
  NO_FILTER,
  NO_INSTANCE,
  savingsBars,
  shownNote,
  sortVolumes,
  unpricedNote,
  type FleetFilter,
  type Sort,
} from './fleet-view.ts';

const volume = (
  volumeId: string,
  status: FleetVolumePlan['status'],
  savingUsdPerMonth: number,
  readIops: number | null,
): FleetVolumePlan => ({
  volumeId,
  name: null,
  instanceId: null,
  instanceType: null,
  status,
  current: { type: 'gp3', sizeGib: 100, iops: 3000, throughputMibps: 125, usdPerMonth: 8 },
  observed:
    readIops === null
      ? null
      : {
          readIops,
          writeIops: 0,
          readMibps: 0,
          writeMibps: 0,
          points: 4032,
          periodSeconds: 300,
          days: 14,
          exact: true,
        },
  target: null,
  binding: null,
  recommended: null,
  savingUsdPerMonth,
  risk: null,
  commands: { modify: [], rollback: [], terraform: '' },
  notes: [],
});

const fleet = [
  volume('vol-a', 'ok', 0, 700),
  volume('vol-b', 'over', 100, 2000),
  volume('vol-c', 'no_data', 0, null),
  volume('vol-d', 'under', -22.5, 6000),
  volume('vol-e', 'over', 250, 900),
];

describe('sortVolumes', () => {
  it.each<[string, Sort, string[]]>([
    [
      'risks first, then the largest saving',
      { key: 'status', direction: 'ascending' },
      ['vol-d', 'vol-e', 'vol-b', 'vol-a', 'vol-c'],
    ],
    [
      'largest saving first',
      { key: 'saving', direction: 'descending' },
      ['vol-e', 'vol-b', 'vol-a', 'vol-c', 'vol-d'],
    ],
    [
      'smallest saving first',
      { key: 'saving', direction: 'ascending' },
      ['vol-d', 'vol-a', 'vol-c', 'vol-b', 'vol-e'],
    ],
    [
      'peaks ascending, no data last',
      { key: 'peaks', direction: 'ascending' },
      ['vol-a', 'vol-e', 'vol-b', 'vol-d', 'vol-c'],
    ],
    [
      'peaks descending, no data still last',
      { key: 'peaks', direction: 'descending' },
      ['vol-d', 'vol-b', 'vol-e', 'vol-a', 'vol-c'],
    ],
  ])('%s', (_what, sort, order) => {
    expect(sortVolumes(fleet, sort).map((v) => v.volumeId)).toEqual(order);
  });

  it('does not reorder the plan itself', () => {
    sortVolumes(fleet, { key: 'saving', direction: 'descending' });
    expect(fleet.map((v) => v.volumeId)).toEqual(['vol-a', 'vol-b', 'vol-c', 'vol-d', 'vol-e']);
  });
});

describe('nextSort', () => {
  it.each<[Sort, Parameters<typeof nextSort>[1], Sort]>([
    [{ key: 'status', direction: 'ascending' }, 'volume', { key: 'volume', direction: 'ascending' }],
    [{ key: 'volume', direction: 'ascending' }, 'volume', { key: 'volume', direction: 'descending' }],
    [{ key: 'status', direction: 'ascending' }, 'saving', { key: 'saving', direction: 'descending' }],
  ])('%j then %s → %j', (current, key, next) => {
    expect(nextSort(current, key)).toEqual(next);
  });
});

describe('savingsBars', () => {
  it('plots the per-type totals as the planner summed them', () => {
    const byVolumeType = [
      {
        type: 'io2',
        volumes: 1,
        currentUsdPerMonth: 1350,
        recommendedUsdPerMonth: 284,
        savingUsdPerMonth: 1066,
        riskCount: 1,
      },
      {
        type: 'gp3',
        volumes: 3,
        currentUsdPerMonth: 164,
        recommendedUsdPerMonth: 86.5,
        savingUsdPerMonth: 77.5,
        riskCount: 1,
      },
    ];
    const plan = { totals: { byVolumeType } } as unknown as Parameters<typeof savingsBars>[0];
    expect(savingsBars(plan)).toEqual([
      { type: 'io2', savingUsdPerMonth: 1066, volumes: 1 },
      { type: 'gp3', savingUsdPerMonth: 77.5, volumes: 3 },
    ]);
  });
});

describe('classifyFleetFile / addFleetFiles', () => {
  it.each([
    ['volumes.json', '{"Volumes": []}', 'volumes'],
    ['instances.json', '{"Reservations": []}', 'instances'],
    ['page-2.json', '{"MetricDataResults": [], "NextToken": null}', 'metrics'],
  ])('%s is %s output', (name, text, kind) => {
    expect(classifyFleetFile(name, text)).toEqual({
      ok: true,
      value: { name, kind, json: JSON.parse(text), fingerprint: expect.any(String) },
    });
  });

  it.each([
    ['notes.txt', 'not json', 'invalid_json'],
    ['other.json', '{"Reservation": []}', 'fleet_file_unknown'],
    ['list.json', '[]', 'fleet_file_unknown'],
  ])('%s is refused with %s, naming the file', (name, text, code) => {
    const r = classifyFleetFile(name, text);
    expect(r).toMatchObject({ ok: false, error: { code, path: name } });
    expect(r.ok ? '' : r.error.message).toMatch(new RegExp(`^${name.replace('.', '\\.')}: `));
  });

  it('keeps one describe-volumes (the newest), accumulates metric pages, refuses another page of a listed name', () => {
    const file = (name: string, text: string) => {
      const r = classifyFleetFile(name, text);
      if (!r.ok) throw new Error(r.error.message);
      return r.value;
    };
    let inputs = addFleetFiles(EMPTY_INPUTS, [
      file('v1.json', '{"Volumes": []}'),
      file('m1.json', '{"MetricDataResults": []}'),
      file('m2.json', '{"MetricDataResults": []}'),
    ]).inputs;
    const added = addFleetFiles(inputs, [
      file('v2.json', '{"Volumes": [1]}'),
      file('m1.json', '{"MetricDataResults": [1]}'),
    ]);
    inputs = added.inputs;
    expect(added.refused).toHaveLength(1);
    expect(inputs.volumes?.name).toBe('v2.json');
    expect(inputs.metrics.map((m) => [m.name, m.json])).toEqual([
      ['m1.json', { MetricDataResults: [] }],
      ['m2.json', { MetricDataResults: [] }],
    ]);
    expect(removeFleetFile(inputs, 'm2.json').metrics.map((m) => m.name)).toEqual(['m1.json']);
  });
});

describe('describeVolumeSaving: the Saving / risk cell', () => {
  it.each([
    ['over', 70, 'saves $70.00/month'],
    ['under', -7.5, 'costs $7.50/month more'],
    ['ok', 0, 'no change'],
    // Deleting them is what saves (the Unused table); resizing them is not the question.
    ['unattached', 0, 'see Unused'],
    ['stopped_instance', 0, 'see Unused'],
    // No recommendation without data: no saving either.
    ['no_data', 0, '—'],
    ['too_little_history', 0, '—'],
  ] as const)('%s, %d → %s', (status, saving, text) =>
    expect(describeVolumeSaving(volume('vol-x', status, saving, null))).toBe(text),
  );
});

describe('unpricedNote: volumes the rate card has no price for', () => {
  it.each([
    [2, '2 volumes unpriced'],
    [1, '1 volume unpriced'],
    [0, null],
  ])('%d → %s', (count, text) => expect(unpricedNote(count)).toBe(text));
});

describe('the volume table’s filters', () => {
  const at = (v: FleetVolumePlan, patch: Partial<FleetVolumePlan>): FleetVolumePlan => ({ ...v, ...patch });
  const gp2 = { type: 'gp2', sizeGib: 100, iops: 300, throughputMibps: 128, usdPerMonth: 10 };
  const volumes = [
    at(fleet[0]!, { name: 'DB primary', instanceId: 'i-0app1', instanceType: 'm6i.large' }),
    at(fleet[1]!, { instanceId: 'i-0app1', instanceType: 'm6i.large', current: gp2 }),
    fleet[2]!,
    at(fleet[3]!, { name: 'db-replica', instanceId: 'i-0db', instanceType: 'r6i.xlarge' }),
    at(fleet[4]!, { instanceId: 'i-0db', instanceType: 'r6i.xlarge' }),
  ];
  const ids = (filter: Partial<FleetFilter>) =>
    filterVolumes(volumes, { ...NO_FILTER, ...filter }).map((v) => v.volumeId);

  it.each<[string, Partial<FleetFilter>, string[]]>([
    ['no filter: every volume', {}, ['vol-a', 'vol-b', 'vol-c', 'vol-d', 'vol-e']],
    ['by status', { status: 'over' }, ['vol-b', 'vol-e']],
    ['by volume type', { volumeType: 'gp2' }, ['vol-b']],
    ['by instance', { instance: 'i-0db' }, ['vol-d', 'vol-e']],
    ['attached to no instance', { instance: NO_INSTANCE }, ['vol-c']],
    ['text in the Name tag, any case, spaces around ignored', { text: '  db ' }, ['vol-a', 'vol-d']],
    ['text in the volume id', { text: 'VOL-C' }, ['vol-c']],
    ['filters narrow together', { status: 'over', instance: 'i-0db' }, ['vol-e']],
    ['a type the plan has none of: nothing', { volumeType: 'io1' }, []],
  ])('%s', (_, filter, expected) => {
    expect(ids(filter)).toEqual(expected);
  });

  it('counts the filters that narrow (blank text does not)', () => {
    expect(activeFilters(NO_FILTER)).toBe(0);
    expect(activeFilters({ ...NO_FILTER, text: '   ' })).toBe(0);
    expect(activeFilters({ status: 'under', volumeType: 'gp3', instance: NO_INSTANCE, text: 'db' })).toBe(4);
  });

  it('offers what the plan has, with counts: statuses in reading order, "not attached" last', () => {
    const choices = filterChoices(volumes);
    expect(choices.statuses.map((c) => [c.value, c.volumes])).toEqual([
      ['under', 1],
      ['over', 2],
      ['ok', 1],
      ['no_data', 1],
    ]);
    expect(choices.statuses[0]?.label).toBe('Under-provisioned (risk)');
    expect(choices.volumeTypes.map((c) => [c.value, c.volumes])).toEqual([
      ['gp2', 1],
      ['gp3', 4],
    ]);
    expect(choices.instances.map((c) => [c.value, c.label, c.volumes])).toEqual([
      ['i-0app1', 'i-0app1 (m6i.large)', 2],
      ['i-0db', 'i-0db (r6i.xlarge)', 2],
      [NO_INSTANCE, 'not attached', 1],
    ]);
  });

  it('reads a status from outside only when the plan has it', () => {
    expect(isFleetVolumeStatus('stopped_instance')).toBe(true);
    expect(isFleetVolumeStatus('toString')).toBe(false);
    expect(isFleetVolumeStatus('Over')).toBe(false);
  });

  it('says how many are shown', () => {
    expect(shownNote(3, 12)).toBe('3 of 12 volumes shown');
    expect(shownNote(1, 1)).toBe('1 of 1 volume shown');
    expect(shownNote(0, 1200)).toBe('0 of 1,200 volumes shown');
  });
});
