import { expect, test } from '@playwright/test';
import { fixtureBytes } from './support/fixtures.ts';

test('the server is up with its archive, and serves the CLI to CI machines', async ({ request }) => {
  const health = await request.get('/healthz');
  expect(health.status()).toBe(200);
  expect(await health.json()).toMatchObject({ status: 'ok', store: { kind: 'sqlite', ok: true } });
  const cli = await request.get('/cli/blockwise.mjs');
  expect(cli.status()).toBe(200);
  expect((await cli.text()).startsWith('#!/usr/bin/env node')).toBe(true);
});

test('an upload through HTTP is archived and readable', async ({ request }) => {
  const res = await request.post('/api/runs?name=e2e-smoke&kind=ebs', {
    headers: { 'Content-Type': 'application/json' },
    data: fixtureBytes('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json'),
  });
  expect(res.status()).toBe(201);
  const { id } = await res.json();
  const run = await request.get(`/api/runs/${id}`);
  expect((await run.json()).labels.name).toBe('e2e-smoke');
});
