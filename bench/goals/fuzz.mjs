// R3: 10,000 fast-check uploads (real fio files mutated; see
// server/src/reliability/testing/upload-arbitraries.ts) through HTTP into the real server — 0
// answers ≥ 500, 0 dropped connections, the server still up — and the same 10,000 bodies through
// the CLI (`blockwise analyze FILE --json`, in process) — 0 internal errors. R5: Object.prototype
// unchanged in this process afterwards. Failing cases are saved to fixtures/regressions/, which
// the Vitest suite replays.
import http from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, QUICK, fixture, freshDir, goal, log, main, rm, round } from '../lib/common.mjs';
import { serverRequire } from '../lib/deps.mjs';
import { request, startApp } from '../lib/servers.mjs';
import {
  FUZZ_BASE_FIXTURES,
  toRegressionFile,
  uploadCaseArbitrary,
} from '../../server/src/reliability/testing/upload-arbitraries.ts';
import { main as cli } from '../../server/src/cli/main.ts';
import { memoryIo } from '../../server/src/cli/io.ts';

const fc = serverRequire('fast-check');
const RUNS = Number(process.env.BENCH_FUZZ_RUNS ?? (QUICK ? 1000 : 10_000));
const SEED = Number(process.env.BENCH_FUZZ_SEED ?? 42);
const CONCURRENCY = 4;

function save(c, index, status) {
  const dir = join(FIXTURES, 'regressions');
  mkdirSync(dir, { recursive: true });
  const name = `r3-bench-${SEED}-${index}.json`;
  writeFileSync(
    join(dir, name),
    `${JSON.stringify(toRegressionFile(c, `pnpm bench R3 seed ${SEED} case ${index}`, status), null, 2)}\n`,
  );
  return name;
}

async function throughHttp(cases) {
  const app = await startApp({ name: 'fuzz' });
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const statuses = {};
  const failures = [];
  let next = 0;
  const t = performance.now();
  try {
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < cases.length) {
          const i = next++;
          const c = cases[i];
          const r = await request(`${app.url}/api/runs${c.query ? `?${c.query}` : ''}`, {
            method: 'POST',
            agent,
            headers: {
              'content-type': c.contentType,
              'content-length': c.body.length,
              ...(c.encoding === 'gzip' ? { 'content-encoding': 'gzip' } : {}),
            },
            body: c.body,
          });
          statuses[r.status] = (statuses[r.status] ?? 0) + 1;
          if (r.status === 0 || r.status >= 500)
            failures.push({ index: i, status: r.status, file: save(c, i, r.status) });
        }
      }),
    );
    const health = await request(`${app.url}/healthz`);
    const alive = app.alive && health.status === 200;
    return { statuses, failures, alive, seconds: (performance.now() - t) / 1000 };
  } finally {
    agent.destroy();
    await app.cleanup();
  }
}

async function throughCli(cases) {
  const dir = freshDir('fuzz-cli');
  const exits = {};
  const failures = [];
  const t = performance.now();
  try {
    for (const [i, c] of cases.entries()) {
      const file = join(dir, 'upload.json');
      writeFileSync(file, c.body);
      const { io, stderr } = memoryIo(dir, {});
      const code = await cli(['analyze', file, '--json'], io);
      exits[code] = (exits[code] ?? 0) + 1;
      if ((code !== 0 && code !== 1) || /internal error/.test(stderr())) {
        failures.push({ index: i, code, stderr: stderr().slice(0, 300), file: save(c, i, 500) });
      }
    }
    return { exits, failures, seconds: (performance.now() - t) / 1000 };
  } finally {
    rm(dir);
  }
}

main('R3', async () => {
  const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort().join(',');
  const arbitrary = uploadCaseArbitrary(FUZZ_BASE_FIXTURES.map((f) => fixture(f)));
  const cases = fc.sample(arbitrary, { numRuns: RUNS, seed: SEED });
  log('R3', `${RUNS} cases (seed ${SEED}) through HTTP, ${CONCURRENCY} connections`);
  const h = await throughHttp(cases);
  log('R3', `HTTP: ${JSON.stringify(h.statuses)} in ${round(h.seconds, 1)} s; now through the CLI`);
  const c = await throughCli(cases);
  const prototypeAfter = Object.getOwnPropertyNames(Object.prototype).sort().join(',');
  const polluted = prototypeAfter !== prototypeBefore || {}.polluted !== undefined;
  return [
    goal({
      id: 'R3http',
      title: `${RUNS} fuzzed uploads through HTTP (seed ${SEED}): answers ≥ 500 or none`,
      value: h.failures.length + (h.alive ? 0 : 1),
      op: '==',
      target: 0,
      digits: 0,
      details: {
        statuses: h.statuses,
        failures: h.failures.slice(0, 20),
        server_alive: h.alive,
        seconds: round(h.seconds, 1),
      },
      note: `statuses ${JSON.stringify(h.statuses)}; server ${h.alive ? 'up' : 'DOWN'}${h.failures.length ? `; saved to fixtures/regressions/` : ''}`,
    }),
    goal({
      id: 'R3cli',
      title: `the same ${RUNS} bodies through \`blockwise analyze --json\`: internal errors`,
      value: c.failures.length,
      op: '==',
      target: 0,
      digits: 0,
      details: { exit_codes: c.exits, failures: c.failures.slice(0, 20), seconds: round(c.seconds, 1) },
      note: `exit codes ${JSON.stringify(c.exits)}`,
    }),
    goal({
      id: 'R5',
      title: 'Object.prototype keys added/removed in the fuzzing process (CLI) ',
      value: polluted ? 1 : 0,
      op: '==',
      target: 0,
      digits: 0,
      details: {},
      note: 'server side: asserted in server/src/reliability/*.test.ts (in-process app)',
    }),
  ];
});
