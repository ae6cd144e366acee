import { randomInt } from 'node:crypto';
import { expect, type APIRequestContext } from '@playwright/test';
import type { PlanSession } from '../../../shared/src/records/session.ts';
import { planSession } from '../../../shared/src/test-support/plan-session.ts';

/**
 * Seeds the archive through the real HTTP API, the way CI does (`POST /api/runs` with labels as
 * query parameters, `POST /api/comparisons`). Each seeder is its own client: it sends an
 * X-Forwarded-For address (the e2e server trusts it from loopback, see scripts/start-server.mjs)
 * and moves to the next address before the anonymous upload limit (30 per minute) is reached, so
 * seeding never throttles the browser under test.
 */

export type Labels = Record<string, string | number>;
export type CreatedRun = { id: string; url: string };

/** A planning session as the API stores it with a comparison (PlanSessionSchema): the tests' one builder. */
export { planSession };

const WRITES_PER_ADDRESS = 25;

export class Seeder {
  private writes = 0;
  private readonly net = `10.${randomInt(1, 255)}.${randomInt(0, 255)}`;

  constructor(private readonly request: APIRequestContext) {}

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const host = Math.floor(this.writes / WRITES_PER_ADDRESS) + 1;
    return { 'X-Forwarded-For': `${this.net}.${host}`, ...extra };
  }

  async uploadRun(bytes: Buffer | string, labels: Labels, fileName?: string): Promise<CreatedRun> {
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(labels)) params[k] = String(v);
    if (fileName !== undefined) params.filename = fileName;
    const res = await this.request.post('/api/runs', {
      params,
      headers: this.headers({ 'Content-Type': 'application/json' }),
      data: typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes,
    });
    this.writes += 1;
    expect(res.status(), `upload ${fileName ?? ''}: ${await res.text()}`).toBeLessThan(300);
    const body = (await res.json()) as CreatedRun;
    return { id: body.id, url: body.url };
  }

  async createComparison(body: {
    title?: string;
    runIds: string[];
    plan?: PlanSession;
  }): Promise<CreatedRun> {
    const res = await this.request.post('/api/comparisons', {
      headers: this.headers({ 'Content-Type': 'application/json' }),
      data: body,
    });
    this.writes += 1;
    expect(res.status(), `comparison: ${await res.text()}`).toBe(201);
    return (await res.json()) as CreatedRun;
  }
}

/** A short random suffix so each test's series and titles are its own in the shared archive. */
export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${randomInt(0, 36 ** 4).toString(36)}`;
}
