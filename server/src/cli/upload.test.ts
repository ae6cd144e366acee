import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken, hashToken } from '../http/auth.ts';
import { makeTestApp, type TestApp } from '../testing/test-app.ts';
import { runCli } from '../testing/run-cli.ts';

const fio = (name: string) => join('fixtures/fio/generated', name);

let t: TestApp;
let server: Server;
let url: string;
beforeAll(async () => {
  t = await makeTestApp();
  server = createServer(t.app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await t.close();
});

const run = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, { env });

describe('blockwise upload', () => {
  it('uploads files with labels and prints each run URL (exit 0)', async () => {
    const r = await run([
      'upload',
      fio('a_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_grouped.json'),
      fio('p_randrw_4k_mix50_jsonplus_nj2_perjob.json'),
      '--server',
      url,
      '--label',
      'kind=ebs',
      '--label',
      'instanceType=r5d.4xlarge',
      '--series',
      'ci-upload',
      '--branch',
      'main',
      '--commit',
      'deadbeef',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(new RegExp(`: ${url}/runs/[A-Za-z0-9_-]{22}$`));
    const list = await t.store.listRuns({ series: 'ci-upload' });
    expect(list.ok && list.value.items.map((i) => i.labels)).toEqual([
      expect.objectContaining({
        kind: 'ebs',
        instanceType: 'r5d.4xlarge',
        branch: 'main',
        commit: 'deadbeef',
        name: 'p_randrw_4k_mix50_jsonplus_nj2_perjob.json',
      }),
      expect.objectContaining({ name: 'a_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_grouped.json' }),
    ]);
  });

  it('a second identical upload reports the existing run', async () => {
    const args = [
      'upload',
      fio('c_randread_4k_libaio_qd32_timebased5s.json'),
      '--server',
      url,
      '--label',
      'name=same',
    ];
    const first = await run(args);
    const second = await run(args);
    expect(second.stdout).toBe(first.stdout.replace('\n', ' (already uploaded)\n'));
  });

  it('exit 1 when a file is rejected or missing (the others are still uploaded), with --json details', async () => {
    const r = await run([
      'upload',
      'fixtures/fio/public/cyberhuey_windows_fio_error_only.json',
      'no/such/file.json',
      fio('d_randwrite_16k_psync_timebased5s.json'),
      '--server',
      url,
      '--json',
    ]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as {
      runs: { ok: boolean; status: number | null; error?: { code: string } }[];
    };
    expect(out.runs.map((x) => (x.ok ? 'ok' : `${x.status}:${x.error!.code}`))).toEqual([
      '422:not_fio_json',
      'null:read_failed',
      'ok',
    ]);
  });

  it('prints absolute links, resolved against --server, when the server answers relative ones', async () => {
    const series = ['--server', url, '--series', 'cli-links', '--branch', 'main'];
    const base = await run([
      'upload',
      fio('e_seqread_1m_libaio_qd8_timebased5s.json'),
      ...series,
      '--commit',
      'aaaa01',
    ]);
    expect(base.code, base.stderr).toBe(0);
    const r = await run([
      'upload',
      fio('c_randread_4k_libaio_qd32_timebased5s.json'),
      ...series,
      '--commit',
      'aaaa02',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const [out] = JSON.parse(r.stdout).runs;
    const id = /[A-Za-z0-9_-]{22}/.source;
    expect(out.run.url).toMatch(new RegExp(`^${url}/runs/${id}$`));
    expect(out.regression.report.runUrl).toBe(out.run.url);
    // The link to the comparison with the baseline, frozen when first opened.
    expect(out.regression.report.comparisonUrl).toMatch(new RegExp(`^${url}/c/pair/${id}/${id}$`));
  });

  it('uses BLOCKWISE_TOKEN when tokens are required', async () => {
    // An archive of its own: once it has held a token it stays closed (revoking does not re-open it).
    const own = await makeTestApp();
    const ownServer = createServer(own.app);
    await new Promise<void>((r) => ownServer.listen(0, '127.0.0.1', r));
    const ownUrl = `http://127.0.0.1:${(ownServer.address() as AddressInfo).port}`;
    const token = generateToken();
    await own.store.createToken({ name: 'cli', tokenSha256: hashToken(token) });
    try {
      const denied = await run([
        'upload',
        fio('e_seqread_1m_libaio_qd8_timebased5s.json'),
        '--server',
        ownUrl,
      ]);
      expect(denied.code).toBe(1);
      expect(denied.stderr).toMatch(/401 unauthorized/);
      const ok = await run(['upload', fio('e_seqread_1m_libaio_qd8_timebased5s.json'), '--server', ownUrl], {
        BLOCKWISE_TOKEN: token,
      });
      expect(ok.code, ok.stderr).toBe(0);
    } finally {
      await new Promise((r) => ownServer.close(r));
      await own.close();
    }
  });

  it.each([
    [['upload', 'x.json'], /--server URL is required/],
    [['upload', '--server', 'http://x'], /at least one fio result file/],
    [['upload', 'x.json', '--server', 'not a url'], /--server: expected a URL/],
    [['upload', 'x.json', '--server', 'http://x', '--label', 'color=blue'], /unknown label "color"/],
    [['upload', 'x.json', '--server', 'http://x', '--bogus'], /Unknown option '--bogus'/],
  ])('usage error %j → exit 2', async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('a server that cannot be reached is a failure (exit 1), not a crash', async () => {
    const r = await run(
      [
        'upload',
        fio('c_randread_4k_libaio_qd32_timebased5s.json'),
        '--server',
        'http://127.0.0.1:9',
        '--json',
      ],
      { BLOCKWISE_RETRY_BASE_MS: '5' },
    );
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).runs[0].error.code).toBe('network_error');
  });
});
