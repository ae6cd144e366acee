import { join } from 'node:path';
import Database from 'better-sqlite3';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYSIS_VERSION } from '@blockwise/shared/plan';
import { newId } from '../store/ids.ts';
import { fleetPlanOfInputs } from '../store/testing/fleet-inputs.ts';
import { runInput } from '../store/testing/run-inputs.ts';
import { capturedLogger, makeTestApp, type TestApp } from '../testing/test-app.ts';

/**
 * A row the archive holds but today's readers cannot parse (a hand edit, a bad restore, a newer
 * release's document) is a fault of the server, not of the request: 500 internal_error with no
 * detail in the body, the StoredRecordError (which record, which field) in the log, and the
 * process keeps serving. The rows are written past the routes, straight into the database.
 */
const log = capturedLogger();
let t: TestApp;
let db: Database.Database;
beforeAll(async () => {
  t = await makeTestApp({ logger: log.logger });
  // A second connection on the same file, as an operator's sqlite3 shell would be.
  db = new Database(join(t.dir, 'blockwise.db'));
});
afterAll(async () => {
  db.close();
  await t.close();
});

function insertFleetPlanRow(analysisVersion: string, body: string): string {
  const id = newId();
  db.prepare(
    'INSERT INTO fleet_plans (id, created_at, analysis_version, price_date, body) VALUES (?, ?, ?, ?, ?)',
  ).run(id, Date.now(), analysisVersion, '2022-02-10', body);
  return id;
}

function expectInternalError(res: request.Response, record: string) {
  expect(res.status, String(res.text).slice(0, 300)).toBe(500);
  expect(res.body.error).toMatchObject({ code: 'internal_error' });
  expect(res.text).not.toContain(record);
  expect(res.headers['cache-control'] ?? '').not.toMatch(/immutable/);
  expect(log.text()).toContain(record);
}

describe('corrupt stored rows answer 500 internal_error, the cause in the log', () => {
  it.each([
    ['a body that is not JSON', ANALYSIS_VERSION, '{"region":'],
    ['a body that is not a fleet plan', ANALYSIS_VERSION, '{"region":null}'],
    // A valid plan today, but a newer release wrote it: this build cannot know what it means.
    ['a plan stored by a newer analysis version', '2999.1.1', JSON.stringify(fleetPlanOfInputs())],
  ])('GET /api/fleet/plans/:id of %s', async (_label, version, body) => {
    const id = insertFleetPlanRow(version, body);
    const res = await request(t.app).get(`/api/fleet/plans/${id}`);
    expectInternalError(res, `fleet plan ${id}`);
  });

  it('GET /api/runs/:id and GET /api/runs of a run whose stored summary does not parse', async () => {
    const { run } = await t.store.insertRun(
      runInput({ summary: { headline: 'not a headline' }, analysisVersion: ANALYSIS_VERSION }),
    );
    expectInternalError(await request(t.app).get(`/api/runs/${run.id}`), `run ${run.id}`);
    expectInternalError(await request(t.app).get('/api/runs'), `run ${run.id}`);
  });

  it('keeps serving: a plan stored by this version beside them is still a 200', async () => {
    const id = insertFleetPlanRow(ANALYSIS_VERSION, JSON.stringify(fleetPlanOfInputs()));
    const res = await request(t.app).get(`/api/fleet/plans/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.plan).toEqual(fleetPlanOfInputs());
  });
});
