// R4 (timings): how long the bounded refusals take. The tests assert the bound itself (where the
// scan stopped, the rows read, the bytes inflated); the time it takes depends on the machine, so
// it is reported here and gates nothing.
//   R4a  a fio document nested 10^6 levels deep → too_deep, from the byte scan
//   R4b  a metrics CSV of 1,000,001 rows → too_many_points, at the row past the bound
//   R4c  20 MiB of gzip'd spaces against a 1 MiB limit → 413 after inflating 1 MiB + one chunk
import { gzipSync } from 'node:zlib';
import { info, log, main, median } from '../lib/common.mjs';
import { parseFio } from '../../shared/src/fio/parse-fio.ts';
import { importMetrics } from '../../shared/src/timeseries/import-metrics.ts';
import { gunzipLimited } from '../../server/src/http/read-body.ts';

const MiB = 1024 * 1024;
const RUNS = 3;

async function medianMs(run) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return median(times);
}

main('R4', async () => {
  const deep = new TextEncoder().encode(
    `{"fio version":"fio-3.33","jobs":${'['.repeat(1e6)}${']'.repeat(1e6)}}`,
  );
  log('R4', 'a fio document nested 10^6 levels deep');
  const deepMs = await medianMs(() => {
    const r = parseFio(deep);
    if (r.ok || r.error.code !== 'too_deep') throw new Error(`expected too_deep, got ${JSON.stringify(r)}`);
  });

  const rows = `Timestamp,VolumeReadOps (Sum 1 min)\n${`${Date.UTC(2026, 0, 1) / 1000},60\n`.repeat(1_000_001)}`;
  log('R4', 'a metrics CSV of 1,000,001 rows');
  const rowsMs = await medianMs(() => {
    const r = importMetrics(rows);
    if (r.ok || r.error.code !== 'too_many_points') throw new Error(`expected too_many_points, got ${r.ok}`);
  });

  const bomb = gzipSync(Buffer.alloc(20 * MiB, 0x20));
  log('R4', `a ${(bomb.length / 1024).toFixed(0)} KiB gzip of 20 MiB against a 1 MiB limit`);
  let inflatedBytes = 0;
  const bombMs = await medianMs(async () => {
    const refused = await gunzipLimited(bomb, MiB, (n) => (inflatedBytes = n)).then(
      () => false,
      (error) => error?.status === 413,
    );
    if (!refused) throw new Error('expected a 413');
  });

  return [
    info({
      id: 'R4a',
      title: 'a fio document nested 10^6 levels deep refused (too_deep) in',
      value: deepMs,
      unit: ' ms',
      digits: 1,
    }),
    info({
      id: 'R4b',
      title: 'a metrics CSV of 1,000,001 rows refused (too_many_points) in',
      value: rowsMs,
      unit: ' ms',
      digits: 0,
    }),
    info({
      id: 'R4c',
      title: 'a gzip bomb (20 MiB inflated) refused at the 1 MiB limit in',
      value: bombMs,
      unit: ' ms',
      digits: 1,
      note: `${inflatedBytes} bytes inflated before the 413`,
      details: { inflatedBytes },
    }),
  ];
});
