import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FleetPlanSchema } from '../fleet/schema.ts';
import { ANALYSIS_VERSION } from '../plan/plan.ts';
import { READABLE_FLEET_PLAN_VERSIONS, readStoredFleetPlan } from './stored-fleet-plan.ts';

const FIXTURES = resolve(import.meta.dirname, '../../../fixtures');

/** A fleet plan stored by analysis version 2026.11.2 (fixtures/stored/README.md says how it was made). */
const stored = JSON.parse(readFileSync(resolve(FIXTURES, 'stored/fleet-plan-2026.11.2.json'), 'utf8')) as {
  analysisVersion: string;
  body: unknown;
};
const storedJson = JSON.stringify(stored.body);

describe('readStoredFleetPlan', () => {
  it('reads a plan stored by 2026.11.2, as SQLite text and as a decoded value, into today’s shape', () => {
    expect(READABLE_FLEET_PLAN_VERSIONS).toContain(stored.analysisVersion);
    for (const json of [storedJson, stored.body]) {
      const read = readStoredFleetPlan(json, stored.analysisVersion);
      if (!read.ok) throw new Error(read.error.message);
      expect(FleetPlanSchema.parse(read.value.value)).toEqual(read.value.value);
      expect(read.value.value.totals).toEqual((stored.body as { totals: unknown }).totals);
      expect(read.value.upgradedFrom).toBe(
        stored.analysisVersion === ANALYSIS_VERSION ? null : stored.analysisVersion,
      );
    }
  });

  it('keeps a 2026.11.2 plan as stored: what 2026.11.3 adds stays absent (not looked for), not made up', () => {
    expect(stored.analysisVersion).toBe('2026.11.2');
    expect(ANALYSIS_VERSION).not.toBe('2026.11.2');
    const read = readStoredFleetPlan(storedJson, '2026.11.2');
    if (!read.ok) throw new Error(read.error.message);
    expect(read.value).toEqual({ value: stored.body, upgradedFrom: '2026.11.2' });
    const plan = read.value.value;
    expect([plan.instances, plan.complete, plan.incomplete, plan.ignoreRecurring]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    for (const v of plan.volumes) {
      expect([v.alternatives, v.instanceFlag, v.censored, v.incomplete, v.observed?.peakIops]).toEqual([
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
    }
  });

  it.each([
    [
      'a newer analysis version',
      storedJson,
      '2999.1.1',
      /^analysisVersion: .*"2999\.1\.1", newer than this build's 2026\.11\.3/,
    ],
    [
      'an older version without an upcaster',
      storedJson,
      '2026.11.1',
      /^analysisVersion: .*"2026\.11\.1", not one this build reads \(2026\.11\.2, 2026\.11\.3\)$/,
    ],
    ['a body that is not JSON', '{"region":', ANALYSIS_VERSION, /^body: not JSON/],
    ['a body that is not a plan', '{"region":null}', ANALYSIS_VERSION, /^body\.statistic: /],
    [
      'a plan missing its totals',
      JSON.stringify({ ...(stored.body as object), totals: undefined }),
      ANALYSIS_VERSION,
      /^body\.totals: /,
    ],
  ])(
    '%s is a stored_record_invalid problem naming the field, not a throw',
    (_label, json, version, message) => {
      const read = readStoredFleetPlan(json, version);
      expect(read.ok).toBe(false);
      if (read.ok) return;
      expect(read.error.code).toBe('stored_record_invalid');
      expect(read.error.message).toMatch(message);
    },
  );
});
