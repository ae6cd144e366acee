// R12: bounded soak. Equal ingest load cycles against one real server (started with
// --expose-gc); after each cycle a forced GC and process.memoryUsage() over IPC. A leak shows as
// rising post-GC troughs: the last cycle's heap must stay ≤ 1.10 × cycle 2's, RSS ≤ 1.15 ×,
// throughput ≥ 0.85 ×, with 0 errors.
import { QUICK, goal, log, main, round } from '../lib/common.mjs';
import { ciUploadPath, largestPlainFixture } from '../lib/fixtures.mjs';
import { runLoad } from '../lib/load.mjs';
import { startApp } from '../lib/servers.mjs';

const CYCLES = Number(process.env.BENCH_SOAK_CYCLES ?? (QUICK ? 3 : 6));
const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? (QUICK ? 2 : 6));
const MiB = 1024 * 1024;

main('R12', async () => {
  const fixture = largestPlainFixture();
  const app = await startApp({ execArgv: ['--expose-gc'], name: 'soak' });
  try {
    const target = {
      name: 'ingest',
      server: app,
      method: 'POST',
      path: ciUploadPath(0, 'soak'),
      pathFor: (n) => ciUploadPath(n, 'soak'),
      headers: { 'content-type': 'application/json' },
      body: fixture.bytes,
    };
    const rows = [];
    for (let k = 0; k < CYCLES; k++) {
      const r = await runLoad(target, SECONDS);
      const m = await app.memory();
      rows.push({
        cycle: k + 1,
        rps: round(r.rps, 1),
        bad: r.bad,
        heap_used_mib: round(m.heapUsed / MiB, 1),
        external_mib: round(m.external / MiB, 1),
        rss_mib: round(m.rss / MiB, 1),
      });
      log(
        'R12',
        `cycle ${k + 1}/${CYCLES}: ${rows[k].rps} req/s, post-GC heap ${rows[k].heap_used_mib} MiB, RSS ${rows[k].rss_mib} MiB`,
      );
    }
    const base = rows[1] ?? rows[0];
    const last = rows.at(-1);
    const heap = last.heap_used_mib / base.heap_used_mib;
    const rss = last.rss_mib / base.rss_mib;
    const rps = last.rps / base.rps;
    const errors = rows.reduce((s, r) => s + r.bad, 0);
    const pass = heap <= 1.1 && rss <= 1.15 && rps >= 0.85 && errors === 0;
    return [
      {
        ...goal({
          id: 'R12',
          title: 'soak: post-GC heap last/cycle 2',
          value: heap,
          op: '<=',
          target: 1.1,
          unit: '×',
          details: { cycles: rows, seconds_per_cycle: SECONDS },
        }),
        status: pass ? 'PASS' : 'FAIL',
        line: `R12 soak ${CYCLES} × ${SECONDS} s ingest: post-GC heap last/cycle 2 ${round(heap, 2)}× (goal ≤ 1.1×), RSS ${round(rss, 2)}× (≤ 1.15×), req/s ${round(rps, 2)}× (≥ 0.85×), errors ${errors} (0) ${pass ? 'PASS' : 'FAIL'}`,
      },
    ];
  } finally {
    await app.cleanup();
  }
});
