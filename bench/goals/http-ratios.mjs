// P1 P2 P4 (ingest), P2durable, P3 P4 (run read), P9 (synchronous FULL vs NORMAL): interleaved A/B load
// runs of the real app against bare Express doing only the JSON part of the same request.
import { goal, info, log, main, round } from '../lib/common.mjs';
import { ciUploadPath, largestPlainFixture } from '../lib/fixtures.mjs';
import { interleave, ratio, summarize } from '../lib/load.mjs';
import { postJson, request, startApp, startReference } from '../lib/servers.mjs';

const fixture = largestPlainFixture();
const json = { 'content-type': 'application/json' };

function uploadTarget(name, server, prefix) {
  return {
    name,
    server,
    method: 'POST',
    path: ciUploadPath(0, prefix),
    pathFor: (n) => ciUploadPath(n, prefix),
    headers: json,
    body: fixture.bytes,
  };
}

function referenceTarget(name, server, path) {
  // Same per-request path rewrite as the uploads, so client-side cost is identical on both sides.
  return {
    name,
    server,
    method: 'POST',
    path,
    pathFor: (n) => `${path}?name=bench-${n}&series=bench&branch=main`,
    headers: json,
    body: fixture.bytes,
  };
}

/** Runs `body` against a fresh app (its own database) and bare Express, stopping both after. */
async function withAppAndReference(body) {
  const app = await startApp({ name: 'app' });
  const ref = await startReference();
  try {
    return await body(app, ref);
  } finally {
    await app.cleanup();
    await ref.cleanup();
  }
}

async function ingestVsReferences() {
  log(
    'P1',
    `ingest vs Express echo / parse-and-ack of ${fixture.name} (${fixture.bytes.length} B), fresh database`,
  );
  return withAppAndReference(async (app, ref) => {
    const s = await interleave(
      [
        uploadTarget('ingest', app, 'p1'),
        referenceTarget('echo', ref, '/echo'),
        referenceTarget('ack', ref, '/ack'),
      ],
      { scope: 'P1' },
    );
    const rps = ratio(s.ingest, s.echo, 'rps');
    const cpu = ratio(s.ingest, s.ack, 'cpuUsPerReq');
    const p99 = ratio(s.ingest, s.ack, 'p99', { floor: 1 });
    const details = {
      fixture: fixture.name,
      bytes: fixture.bytes.length,
      ingest: summarize(s.ingest),
      echo: summarize(s.echo),
      ack: summarize(s.ack),
      ingest_status_codes: s.ingest.map((x) => x.statusCodes),
    };
    const bad = details.ingest.bad + details.echo.bad + details.ack.bad;
    return [
      goal({
        id: 'P1',
        title: 'ingest/echo req/s ratio',
        value: bad === 0 ? rps.median : NaN,
        op: '>=',
        target: 0.5,
        details: { ...details, ratio: rps },
        note: `[${round(rps.min)}–${round(rps.max)}] ingest ${details.ingest.rps_median} vs echo ${details.echo.rps_median} req/s${bad ? `; ${bad} non-2xx/errors` : ''}`,
      }),
      goal({
        id: 'P2',
        title: 'ingest/ack server CPU per request',
        value: cpu.median,
        op: '<=',
        target: 3,
        unit: '×',
        details: { ratio: cpu },
        note: `[${round(cpu.min)}–${round(cpu.max)}] ${details.ingest.cpu_us_per_req_median} vs ${details.ack.cpu_us_per_req_median} µs/req`,
      }),
      goal({
        id: 'P4a',
        title: 'ingest/ack p99 latency ratio',
        value: p99.median,
        op: '<=',
        target: 5,
        unit: '×',
        details: { ratio: p99 },
        note: `p99 ${details.ingest.p99_ms_median} vs ${details.ack.p99_ms_median} ms`,
      }),
    ];
  });
}

/**
 * P2durable (informational): the upload's CPU against bare Express keeping the same bytes durably
 * and analyzing nothing, in an interleaved run of its own (a fresh app and reference): the
 * durable reference's fsync per request must not sit between P1's targets and move their p99.
 */
async function ingestVsDurableStore() {
  log('P2durable', `ingest vs the same bytes kept durably by bare Express + SQLite, and parse-and-ack`);
  return withAppAndReference(async (app, ref) => {
    const s = await interleave(
      [
        uploadTarget('ingest', app, 'p2d'),
        referenceTarget('durable', ref, '/store'),
        referenceTarget('ack', ref, '/ack'),
      ],
      { scope: 'P2durable' },
    );
    const durableCpu = ratio(s.ingest, s.durable, 'cpuUsPerReq');
    const floorCpu = ratio(s.durable, s.ack, 'cpuUsPerReq');
    const details = { ingest: summarize(s.ingest), durable: summarize(s.durable), ack: summarize(s.ack) };
    const bad = details.ingest.bad + details.durable.bad + details.ack.bad;
    return [
      info({
        id: 'P2durable',
        title: 'ingest/durable-store server CPU per request (the store alone, analyzing nothing)',
        value: bad === 0 ? durableCpu.median : NaN,
        unit: '×',
        details: { ...details, ratio: durableCpu, durable_vs_ack: floorCpu },
        note: `[${round(durableCpu.min)}–${round(durableCpu.max)}] ${details.ingest.cpu_us_per_req_median} vs ${details.durable.cpu_us_per_req_median} µs/req; the durable store alone is ${round(floorCpu.median)}× parse-and-ack (${details.ack.cpu_us_per_req_median} µs/req)${bad ? `; ${bad} non-2xx/errors` : ''}`,
      }),
    ];
  });
}

async function runReadVsConstantGet() {
  log('P3', 'GET /api/runs/:id (share link data) vs Express constant GET, fresh database');
  return withAppAndReference(async (app, ref) => {
    const created = await postJson(`${app.url}${ciUploadPath(1, 'p3')}`, fixture.bytes);
    if (created.status !== 201) throw new Error(`upload for P3 failed: ${created.status} ${created.body}`);
    const id = created.json.id;
    // The same document served by bare Express from memory: what the size of the answer costs.
    const doc = await request(`${app.url}/api/runs/${id}`);
    const put = await request(`${ref.url}/stored`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'content-length': doc.body.length },
      body: doc.body,
    });
    if (put.status !== 200) throw new Error(`could not store the reference document: ${put.status}`);
    // The same bytes the app answers, sent as they are: what the app adds to serving its answer.
    const putBytes = await request(`${ref.url}/bytes`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', 'content-length': doc.body.length },
      body: doc.body,
    });
    const check = await request(`${ref.url}/bytes`);
    if (putBytes.status !== 200 || !check.body.equals(doc.body))
      throw new Error(`could not store the reference bytes: ${putBytes.status}`);
    const s = await interleave(
      [
        { name: 'run_get', server: app, path: `/api/runs/${id}` },
        { name: 'const_get', server: ref, path: '/small' },
        { name: 'same_json', server: ref, path: '/stored' },
        { name: 'same_bytes', server: ref, path: '/bytes' },
      ],
      { scope: 'P3' },
    );
    const rps = ratio(s.run_get, s.const_get, 'rps');
    const p99 = ratio(s.run_get, s.const_get, 'p99', { floor: 1 });
    const same = ratio(s.run_get, s.same_json, 'rps');
    const bytes = ratio(s.run_get, s.same_bytes, 'rps');
    const details = {
      response_bytes: doc.body.length,
      run_get: summarize(s.run_get),
      const_get: summarize(s.const_get),
      same_json: summarize(s.same_json),
      same_bytes: summarize(s.same_bytes),
    };
    const bad = details.run_get.bad + details.const_get.bad;
    return [
      goal({
        id: 'P3',
        title: 'run read/constant GET req/s ratio',
        value: bad === 0 ? rps.median : NaN,
        op: '>=',
        target: 0.7,
        details: { ...details, ratio: rps },
        note: `[${round(rps.min)}–${round(rps.max)}] ${details.run_get.rps_median} vs ${details.const_get.rps_median} req/s; the answer is ${Math.round(doc.body.length / 1024)} KiB${bad ? `; ${bad} non-2xx/errors` : ''}`,
      }),
      goal({
        id: 'P3bytes',
        title: 'run read/Express sending the same bytes from memory, req/s ratio',
        value: bad + details.same_bytes.bad === 0 ? bytes.median : NaN,
        op: '>=',
        target: 0.9,
        details: { ratio: bytes },
        note: `[${round(bytes.min)}–${round(bytes.max)}] ${details.run_get.rps_median} vs ${details.same_bytes.rps_median} req/s for the same ${Math.round(doc.body.length / 1024)} KiB`,
      }),
      info({
        id: 'P3same',
        title: 'run read/Express GET of the same JSON from memory, req/s ratio',
        value: same.median,
        details: { ratio: same },
        note: `[${round(same.min)}–${round(same.max)}] ${details.run_get.rps_median} vs ${details.same_json.rps_median} req/s for a ${Math.round(doc.body.length / 1024)} KiB answer`,
      }),
      goal({
        id: 'P4b',
        title: 'run read/constant GET p99 latency ratio',
        value: p99.median,
        op: '<=',
        target: 2,
        unit: '×',
        details: { ratio: p99 },
        note: `p99 ${details.run_get.p99_ms_median} vs ${details.const_get.p99_ms_median} ms (1 ms floor)`,
      }),
    ];
  });
}

async function fullVsNormal() {
  log('P9', 'ingest with synchronous=FULL (ships) vs NORMAL, two fresh databases');
  const full = await startApp({ name: 'app-full' });
  const normal = await startApp({ name: 'app-normal', env: { BENCH_SQLITE_SYNC: 'NORMAL' } });
  try {
    const s = await interleave([uploadTarget('full', full, 'p9'), uploadTarget('normal', normal, 'p9')], {
      scope: 'P9',
    });
    const rps = ratio(s.full, s.normal, 'rps');
    const details = { full: summarize(s.full), normal: summarize(s.normal) };
    return [
      goal({
        id: 'P9',
        title: 'ingest synchronous=FULL/NORMAL req/s ratio',
        value: details.full.bad + details.normal.bad === 0 ? rps.median : NaN,
        op: '>=',
        target: 0.85,
        details: { ...details, ratio: rps },
        note: `[${round(rps.min)}–${round(rps.max)}] ${details.full.rps_median} vs ${details.normal.rps_median} req/s; FULL ships`,
      }),
    ];
  } finally {
    await full.cleanup();
    await normal.cleanup();
  }
}

const parts = {
  P1: ingestVsReferences,
  P2durable: ingestVsDurableStore,
  P3: runReadVsConstantGet,
  P9: fullVsNormal,
};

main('http', async () => {
  const only = (process.env.BENCH_PARTS ?? 'P1,P2durable,P3,P9').split(',');
  const results = [];
  for (const [name, part] of Object.entries(parts)) {
    if (!only.includes(name)) continue;
    try {
      results.push(...(await part()));
    } catch (error) {
      log(name, `failed: ${error.stack}`);
      results.push({
        ...info({ id: name, title: 'harness error', value: NaN }),
        status: 'ERROR',
        line: `${name} harness error: ${error.message}`,
      });
    }
  }
  return results;
});
