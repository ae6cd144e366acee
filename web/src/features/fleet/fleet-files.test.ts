import { describe, expect, it } from 'vitest';
import { EMPTY_INPUTS, addFleetFiles, classifyFleetFile, type FleetFile } from './fleet-files.ts';

/** A get-metric-data response as the AWS CLI prints it (one result, two points). */
const metricText = (id: string, values: number[]) =>
  JSON.stringify({
    MetricDataResults: [
      {
        Id: id,
        Label: 'VolumeReadOps',
        Timestamps: ['2026-11-24T10:05:00+00:00', '2026-11-24T10:00:00+00:00'],
        Values: values,
        StatusCode: 'Complete',
      },
    ],
  });

const classified = (name: string, text: string): FleetFile => {
  const r = classifyFleetFile(name, text);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe('addFleetFiles: metric files of the same name', () => {
  it('refuses a different file with a name already added (two folders’ metrics-1.json), keeping the first', () => {
    const first = classified('metrics-1.json', metricText('r_vol_0a', [300, 150]));
    const other = classified('metrics-1.json', metricText('r_vol_0b', [900, 450]));
    const once = addFleetFiles(EMPTY_INPUTS, [first]);
    expect(once.refused).toEqual([]);
    const twice = addFleetFiles(once.inputs, [other]);
    expect(twice.inputs.metrics).toEqual([first]);
    expect(twice.refused).toEqual([
      expect.stringMatching(/^metrics-1\.json: another metric file of this name is already added/),
    ]);
  });

  it('refuses the second of two same-named files dropped together', () => {
    const a = classified('metrics-1.json', metricText('r_vol_0a', [300, 150]));
    const b = classified('metrics-1.json', metricText('r_vol_0a', [301, 150]));
    const added = addFleetFiles(EMPTY_INPUTS, [a, b]);
    expect(added.inputs.metrics).toEqual([a]);
    expect(added.refused).toHaveLength(1);
  });

  it('the same file dropped again replaces its copy, without a message', () => {
    const text = metricText('r_vol_0a', [300, 150]);
    const once = addFleetFiles(EMPTY_INPUTS, [classified('metrics-1.json', text)]);
    const again = addFleetFiles(once.inputs, [classified('metrics-1.json', text)]);
    expect(again.inputs.metrics).toHaveLength(1);
    expect(again.refused).toEqual([]);
  });

  it('metric files of different names accumulate; a newer describe-volumes replaces the old one', () => {
    const volumes1 = classified('volumes.json', '{"Volumes": []}');
    const volumes2 = classified('volumes-new.json', '{"Volumes": [] }');
    const added = addFleetFiles(EMPTY_INPUTS, [
      volumes1,
      classified('metrics-1.json', metricText('r_vol_0a', [1, 2])),
      classified('metrics-2.json', metricText('r_vol_0a', [3, 4])),
      volumes2,
    ]);
    expect(added.inputs.volumes).toBe(volumes2);
    expect(added.inputs.metrics.map((m) => m.name)).toEqual(['metrics-1.json', 'metrics-2.json']);
    expect(added.refused).toEqual([]);
  });
});
