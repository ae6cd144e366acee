// P13: one anonymous client cannot stall the event loop. The largest /healthz latency while that
// client sends everything the anonymous limit lets it (30 uploads a minute, three at a time) of
// ~1 MB fio files built to be as expensive as the parser's limits allow (lib/hostile.mjs), labeled
// with a series and branch, each followed by its regression check and the opening of the check's
// link, which freezes a baseline comparison (two stored reports), as a ratio to the same polling
// of the same server without them. The server runs with its shipped
// rate limits (BENCH_RATE_LIMITS=real), so refused uploads (429) count as what the client could do.
//
// Rounds as in bench/README.md: a fresh server per round (a fresh rate-limit window and database),
// the two sides interleaved with the order flipped every round, each side polled for as long as
// the uploads of that round took; the result is the median of the per-round ratios.
import http from 'node:http';
import { QUICK, goal, log, main, median, round, sleep } from '../lib/common.mjs';
import { synthesizeHostile, synthesizePercentileKeys } from '../lib/hostile.mjs';
import { request, startApp } from '../lib/servers.mjs';

// BENCH_P13_FILE=keys: the file of issue 12 (56,000 percentile keys), which the parser now refuses.
const body = process.env.BENCH_P13_FILE === 'keys' ? synthesizePercentileKeys() : synthesizeHostile();
const UPLOADS = 30; // the anonymous limit per minute (server/src/app.ts DEFAULT_RATE_LIMITS)
const CONCURRENCY = 3;
const ROUNDS = QUICK ? 1 : 5;
/**
 * Rounds start only while another one fits in this budget (ms since the script started, bundling
 * included), estimated from the longest round so far: bench/run.mjs stops P13 at 200 s, and on
 * two loaded cores one round (30 uploads, then as long again without them) can take 60 s and
 * more. Fewer rounds are reported as such (details.rounds_planned, the note); the bound is not changed.
 */
const BUDGET_MS = Number(process.env.BENCH_P13_BUDGET_SEC ?? 170) * 1000;
/**
 * The polling without uploads lasts as long as the uploads did, up to this: on a loaded machine
 * the 30 uploads alone can take 100 s and more. A shorter quiet window can only lower its maximum,
 * so the cap never flatters the ratio.
 */
const CONTROL_MAX_MS = 20_000;

/** Polls /healthz one request at a time, 5 ms apart, until `during` settles (or for `forMs`). */
async function pollHealth(url, during) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies = [];
  const statuses = {};
  let done = false;
  const poller = (async () => {
    while (!done) {
      const r = await request(`${url}/healthz`, { agent });
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      latencies.push(r.ms);
      await sleep(5);
    }
  })();
  const started = performance.now();
  const result = await during();
  const ms = performance.now() - started;
  done = true;
  await poller;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    result,
    ms,
    maxMs: latencies.at(-1),
    p50Ms: latencies[latencies.length >> 1],
    p99Ms: latencies[Math.floor(latencies.length * 0.99)],
    polls: latencies.length,
    statuses,
  };
}

/**
 * 30 uploads from one address, three at a time; statuses counted. Each is labeled as a run of
 * one series on its base branch, and each stored one is followed by its regression check and the
 * opening of the comparison link the check gives: every upload after the first also freezes the
 * gate's comparison with the run before it, two stored reports of ~2 MB parsed and compared (at
 * upload until 2026-11-29; since, when that link is opened, which a hostile client does at once).
 */
async function hostileUploads(url) {
  const statuses = {};
  let next = 0;
  const client = async () => {
    while (next < UPLOADS) {
      const n = next++;
      const commit = `c0ffee${String(n).padStart(2, '0')}`;
      const r = await request(
        `${url}/api/runs?name=hostile-${n}&series=hostile&branch=main&commit=${commit}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': body.length },
          body,
        },
      );
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      if (r.status !== 201) continue;
      const { id } = JSON.parse(r.body.toString());
      const check = await request(`${url}/api/runs/${id}/regression`);
      const link = check.status === 200 ? JSON.parse(check.body.toString()).comparisonUrl : null;
      if (!link) continue;
      const opened = await request(new URL(link, url).href);
      const key = `link ${opened.status}`;
      statuses[key] = (statuses[key] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  return statuses;
}

const summary = (side) => ({
  max_ms: round(side.maxMs, 1),
  p99_ms: round(side.p99Ms, 1),
  p50_ms: round(side.p50Ms, 1),
  polls: side.polls,
  window_ms: round(side.ms, 0),
  healthz_statuses: side.statuses,
});

main('P13', async () => {
  log(
    'P13',
    `/healthz every 5 ms while ${UPLOADS} uploads of a ${round(body.length / 1e6, 2)} MB hostile fio file go in ${CONCURRENCY} at a time, vs the same polling without them`,
  );
  const rounds = [];
  let windowMs = 5000; // the control's window until a round has measured the uploads
  let longestRoundMs = 0;
  for (let i = 0; i < ROUNDS; i++) {
    if (i > 0 && performance.now() + longestRoundMs > BUDGET_MS) {
      log(
        'P13',
        `stopping after ${i} of ${ROUNDS} rounds: another would end past the ${BUDGET_MS / 1000} s budget`,
      );
      break;
    }
    const roundStarted = performance.now();
    const app = await startApp({ env: { BENCH_RATE_LIMITS: 'real' }, name: `p13-${i}` });
    try {
      // Warm-up: JIT and connections for the poll path, nothing the uploads would reuse.
      await pollHealth(app.url, () => sleep(500));
      const control = () => pollHealth(app.url, () => sleep(Math.min(windowMs, CONTROL_MAX_MS)));
      const hostile = () => pollHealth(app.url, () => hostileUploads(app.url));
      let c;
      let h;
      if (i % 2 === 0) {
        h = await hostile();
        windowMs = h.ms;
        c = await control();
      } else {
        c = await control();
        h = await hostile();
        windowMs = h.ms;
      }
      rounds.push({ control: c, hostile: h });
      log(
        'P13',
        `round ${i + 1}: healthz max ${round(h.maxMs, 1)} ms (p50 ${round(h.p50Ms, 1)}) during uploads ${JSON.stringify(h.result)} in ${round(h.ms, 0)} ms, vs max ${round(c.maxMs, 1)} ms (p50 ${round(c.p50Ms, 1)}) without`,
      );
    } finally {
      await app.cleanup();
    }
    longestRoundMs = Math.max(longestRoundMs, performance.now() - roundStarted);
  }
  const ratios = rounds.map((r) => r.hostile.maxMs / r.control.maxMs);
  const stored = rounds.map((r) => r.hostile.result[201] ?? 0);
  const healthFailures = rounds.reduce(
    (n, r) =>
      n +
      Object.entries({ ...r.hostile.statuses })
        .filter(([s]) => s !== '200')
        .reduce((a, [, k]) => a + k, 0),
    0,
  );
  return [
    goal({
      id: 'P13',
      title: 'max /healthz latency during hostile uploads at the anonymous limit, ratio to none',
      // A /healthz that failed during the uploads is a failure whatever its latency.
      value: healthFailures > 0 ? NaN : median(ratios),
      op: '<=',
      target: 2,
      unit: '×',
      details: {
        file: process.env.BENCH_P13_FILE === 'keys' ? '56,000 percentile keys' : 'lib/hostile.mjs',
        body_bytes: body.length,
        uploads: UPLOADS,
        concurrency: CONCURRENCY,
        rounds_planned: ROUNDS,
        control_max_ms: CONTROL_MAX_MS,
        ratios: ratios.map((r) => round(r, 2)),
        rounds: rounds.map((r) => ({
          upload_statuses: r.hostile.result,
          hostile: summary(r.hostile),
          control: summary(r.control),
        })),
      },
      note: `${round(median(rounds.map((r) => r.hostile.maxMs)), 1)} vs ${round(median(rounds.map((r) => r.control.maxMs)), 1)} ms (min–max ${round(Math.min(...ratios), 2)}–${round(Math.max(...ratios), 2)}×); ${median(stored)} of ${UPLOADS} uploads stored per round, ${median(rounds.map((r) => r.hostile.result['link 303'] ?? 0))} comparisons frozen${rounds.length < ROUNDS ? `; ${rounds.length} of ${ROUNDS} rounds (the rest would not fit the ${BUDGET_MS / 1000} s budget)` : ''}`,
    }),
  ];
});
