import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { fixture, makeTestApp } from './testing/test-app.ts';

describe('durability across a restart', () => {
  it('uploads, restarts the server on the same SQLite file, and reads the run back byte-identical', async () => {
    const bytes = fixture('fio/public/pkb_fio-2.1.4_four_stonewall_groups.json');
    const first = await makeTestApp();
    const res = await request(first.app)
      .post('/api/runs?name=restart')
      .set('Content-Type', 'application/json')
      .serialize((b: unknown) => b as string)
      .send(bytes);
    expect(res.status).toBe(201);
    const before = (await request(first.app).get(`/api/runs/${res.body.id}`)).body;
    await first.close({ keepDir: true });

    const second = await makeTestApp({ dir: first.dir });
    try {
      const raw = await request(second.app)
        .get(`/api/runs/${res.body.id}/raw`)
        .buffer(true)
        .parse((r, cb) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => cb(null, Buffer.concat(chunks)));
        });
      expect(Buffer.compare(raw.body as Buffer, bytes)).toBe(0);
      expect(raw.headers['x-content-sha256']).toBe(createHash('sha256').update(bytes).digest('hex'));
      const after = (await request(second.app).get(`/api/runs/${res.body.id}`)).body;
      expect({ ...after, url: null, rawUrl: null }).toEqual({ ...before, url: null, rawUrl: null });
    } finally {
      await second.close();
      rmSync(first.dir, { recursive: true, force: true });
    }
  });
});
