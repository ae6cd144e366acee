// P5: one 20 MiB json+ upload must not freeze other requests. P7: memory under 8 concurrent
// 20 MiB uploads is bounded (admission control: 503 + Retry-After when the parse pool is full).
// Each against bare Express parsing the same bytes in the same run.
import http from 'node:http';
import { QUICK, fixture, goal, log, main, median, round, sleep, statusMiB } from '../lib/common.mjs';
import { synthesizeJsonPlus } from '../lib/jsonplus.mjs';
import { postJson, request, startApp, startReference } from '../lib/servers.mjs';

const big = synthesizeJsonPlus();
const MiB = 1024 * 1024;

/** Max/p50 latency of small GETs sent one after another (5 ms apart) while `during` runs. */
async function pollWhile(url, during) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies = [];
  let done = false;
  const poller = (async () => {
    while (!done) {
      const r = await request(url, { agent });
      if (r.status !== 200) throw new Error(`poll GET ${url} → ${r.status}`);
      latencies.push(r.ms);
      await sleep(5);
    }
  })();
  const result = await during();
  done = true;
  await poller;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    result,
    maxMs: latencies.at(-1),
    p50Ms: latencies[latencies.length >> 1],
    polls: latencies.length,
  };
}

const postBig = (url) =>
  request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': big.length },
    body: big,
  });

async function p5() {
  log(
    'P5',
    `small GETs every 5 ms during one ${round(big.length / MiB, 1)} MiB json+ upload: app vs Express parse-only`,
  );
  const app = await startApp();
  const ref = await startReference();
  try {
    const small = await postJson(
      `${app.url}/api/runs?name=p5-small`,
      fixture('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json'),
    );
    const appGet = `${app.url}/api/runs/${small.json.id}`;
    const refGet = `${ref.url}/small`;
    // Warm-up: worker thread started, JIT warm, both sides.
    const warm = await postBig(`${app.url}/api/runs?name=p5-warm`);
    if (warm.status !== 201) throw new Error(`warm-up upload → ${warm.status} ${warm.body}`);
    await postBig(`${ref.url}/ack`);
    const appRuns = [];
    const refRuns = [];
    const repeats = QUICK ? 1 : 3;
    for (let i = 0; i < repeats; i++) {
      appRuns.push(await pollWhile(appGet, () => postBig(`${app.url}/api/runs?name=p5-${i}`)));
      refRuns.push(await pollWhile(refGet, () => postBig(`${ref.url}/ack`)));
      log(
        'P5',
        `repeat ${i + 1}: app max ${round(appRuns[i].maxMs, 0)} ms (upload ${appRuns[i].result.status} in ${round(appRuns[i].result.ms, 0)} ms), parse-only max ${round(refRuns[i].maxMs, 0)} ms`,
      );
    }
    const ratios = appRuns.map((a, i) => a.maxMs / refRuns[i].maxMs);
    const appMax = median(appRuns.map((a) => a.maxMs));
    const details = {
      body_bytes: big.length,
      app: appRuns.map((a) => ({
        max_ms: round(a.maxMs, 1),
        p50_ms: round(a.p50Ms, 1),
        polls: a.polls,
        status: a.result.status,
        upload_ms: round(a.result.ms, 0),
      })),
      parse_only: refRuns.map((a) => ({
        max_ms: round(a.maxMs, 1),
        p50_ms: round(a.p50Ms, 1),
        polls: a.polls,
        status: a.result.status,
        upload_ms: round(a.result.ms, 0),
      })),
      ratios: ratios.map((r) => round(r, 2)),
    };
    const failedUploads = appRuns.filter((a) => a.result.status !== 201).length;
    return [
      goal({
        id: 'P5a',
        title: 'max small-GET latency during a 20 MiB upload, app/parse-only',
        value: failedUploads ? NaN : median(ratios),
        op: '<=',
        target: 1.5,
        unit: '×',
        details,
        note: `${round(appMax, 0)} vs ${round(median(refRuns.map((a) => a.maxMs)), 0)} ms`,
      }),
      goal({
        id: 'P5b',
        title: 'max small-GET latency during a 20 MiB upload',
        value: appMax,
        op: '<=',
        target: 500,
        unit: ' ms',
        digits: 0,
        details: {},
      }),
    ];
  } finally {
    await app.cleanup();
    await ref.cleanup();
  }
}

/** 8 concurrent uploads into a fresh server; VmHWM (peak RSS) of the server process. */
async function concurrentUploads(server, path, count) {
  const startRss = statusMiB(server.pid, 'VmRSS');
  const started = performance.now();
  const responses = await Promise.all(
    Array.from({ length: count }, (_, i) => postBig(`${server.url}${path}${i}`)),
  );
  const hwm = statusMiB(server.pid, 'VmHWM');
  const statuses = {};
  for (const r of responses) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  const retryAfter = responses.filter((r) => r.status === 503 && r.headers['retry-after']).length;
  return { startRss, hwm, statuses, retryAfter, wallMs: performance.now() - started };
}

async function p7() {
  const count = 8;
  log(
    'P7',
    `${count} concurrent ${round(big.length / MiB, 1)} MiB uploads: peak RSS of the app vs Express parse+ack`,
  );
  const app = await startApp();
  let a;
  try {
    a = await concurrentUploads(app, '/api/runs?name=p7-', count);
  } finally {
    await app.cleanup();
  }
  const ref = await startReference();
  let r;
  try {
    r = await concurrentUploads(ref, '/ack?n=', count);
  } finally {
    await ref.cleanup();
  }
  const busy = a.statuses[503] ?? 0;
  const unexpected = Object.entries(a.statuses).filter(([s]) => s !== '201' && s !== '503');
  log(
    'P7',
    `app: peak ${round(a.hwm, 0)} MiB, statuses ${JSON.stringify(a.statuses)}; Express: peak ${round(r.hwm, 0)} MiB`,
  );
  return [
    goal({
      id: 'P7',
      title: 'peak RSS, 8 concurrent 20 MiB uploads, app/Express parse',
      value: unexpected.length || busy !== a.retryAfter ? NaN : a.hwm / r.hwm,
      op: '<=',
      target: 0.6,
      unit: '×',
      details: {
        app: {
          start_rss_mib: round(a.startRss, 0),
          peak_rss_mib: round(a.hwm, 0),
          statuses: a.statuses,
          busy_503_with_retry_after: a.retryAfter,
          wall_ms: round(a.wallMs, 0),
        },
        express: {
          start_rss_mib: round(r.startRss, 0),
          peak_rss_mib: round(r.hwm, 0),
          statuses: r.statuses,
          wall_ms: round(r.wallMs, 0),
        },
      },
      note: `${round(a.hwm, 0)} vs ${round(r.hwm, 0)} MiB; app answered ${a.statuses[201] ?? 0}×201, ${busy}×503 (Retry-After on ${a.retryAfter})`,
    }),
  ];
}

main('big', async () => {
  const only = (process.env.BENCH_PARTS ?? 'P5,P7').split(',');
  const results = [];
  if (only.includes('P5')) results.push(...(await p5()));
  if (only.includes('P7')) results.push(...(await p7()));
  return results;
});
