// Load generation with autocannon (programmatic) and the interleaved A/B method of
// docs/performance.md §1: on 2 shared cores absolute req/s drift 2× between
// runs, so targets are measured in alternating short runs and compared round by round.
import autocannon from 'autocannon';
import { QUICK, cpuMs, log, median, round } from './common.mjs';

/**
 * A load target: `server` (a handle from servers.mjs: its pid is charged the CPU time), `path`,
 * `method`, `body`, `headers`, and optionally `pathFor(n)` to vary the path per request (e.g. a
 * distinct run name per upload, so every upload is a new run rather than an idempotent repeat).
 */
export async function runLoad(target, seconds, { connections = 10 } = {}) {
  const requests = [
    {
      method: target.method ?? 'GET',
      path: target.path,
      headers: target.headers,
      body: target.body,
      ...(target.pathFor
        ? {
            // The counter lives on the target: names stay distinct across warm-up and rounds.
            setupRequest: (req) => {
              target.sent = (target.sent ?? 0) + 1;
              return { ...req, path: target.pathFor(target.sent) };
            },
          }
        : {}),
    },
  ];
  const cpu0 = cpuMs(target.server.pid);
  const result = await autocannon({
    url: target.server.url,
    connections,
    pipelining: 1,
    duration: seconds,
    requests,
  });
  const cpu1 = cpuMs(target.server.pid);
  const ok = result['2xx'];
  return {
    rps: ok / result.duration,
    ok,
    bad: result.non2xx + result.errors + result.timeouts,
    statusCodes: result.statusCodeStats,
    cpuUsPerReq: ((cpu1 - cpu0) * 1000) / Math.max(ok, 1),
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
  };
}

/** Round count and seconds per run: 5 × 4 s (the method), or 2 × 1.5 s with BENCH_QUICK=1. */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 2 : 5));
export const SECONDS = Number(process.env.BENCH_SECONDS ?? (QUICK ? 1.5 : 4));

/**
 * Every target once to warm up (JIT, caches, worker threads), then `rounds` rounds of one run per
 * target; the order flips every round so no target always runs right after the same neighbour.
 * Returns the samples per target name.
 */
export async function interleave(
  targets,
  { rounds = ROUNDS, seconds = SECONDS, warmup = 1.5, scope = 'load' } = {},
) {
  for (const t of targets) await runLoad(t, warmup);
  const samples = Object.fromEntries(targets.map((t) => [t.name, []]));
  for (let i = 0; i < rounds; i++) {
    const order = i % 2 === 0 ? targets : [...targets].reverse();
    for (const t of order) samples[t.name].push(await runLoad(t, seconds));
    log(
      scope,
      `round ${i + 1}/${rounds}: ${targets.map((t) => `${t.name} ${Math.round(samples[t.name][i].rps)} req/s`).join(', ')}`,
    );
  }
  return samples;
}

/** Round-by-round ratio a/b of one metric: median, min, max. */
export function ratio(a, b, metric, { floor = 0 } = {}) {
  const values = a.map((x, i) => x[metric] / Math.max(b[i][metric], floor));
  return {
    median: median(values),
    min: Math.min(...values),
    max: Math.max(...values),
    rounds: values.map((v) => round(v, 3)),
  };
}

/** A compact summary of one target's samples for results.json. */
export function summarize(samples) {
  return {
    rps_median: round(median(samples.map((s) => s.rps)), 0),
    cpu_us_per_req_median: round(median(samples.map((s) => s.cpuUsPerReq)), 0),
    p99_ms_median: median(samples.map((s) => s.p99)),
    bad: samples.reduce((sum, s) => sum + s.bad, 0),
  };
}
