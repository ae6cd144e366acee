// How long the SQLite store itself holds the event loop while it stores large runs: the
// event-loop delay (monitorEventLoopDelay, 1 ms resolution) while 30 runs of 1 MB raw bytes and a
// 1.3 MB report — about what bench P13's hostile uploads store — are stored three at a time.
// `--no-store` runs the same loop (random bytes, the SHA-256 insertRun computes) without a store:
// the baseline of the machine. Informational (docs/performance.md, "The writer thread"); P13 is
// the goal. Usage: node --import tsx server/scripts/store-loop-delay.ts [--no-store]
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { JsonObjectText, type InsertRunInput } from '../src/store/run-store.ts';
import { openSqliteStore } from '../src/store/sqlite-store.ts';

const withStore = !process.argv.includes('--no-store');
const dir = mkdtempSync(join(tmpdir(), 'bw-loop-delay-'));
const store = withStore ? await openSqliteStore({ path: join(dir, 'blockwise.db') }) : null;
const insert = async (input: InsertRunInput) => {
  if (store) return store.insertRun(input);
  createHash('sha256').update(input.rawBytes).digest('hex');
  await new Promise((resolve) => setImmediate(resolve));
};
const jobs = Array.from({ length: 280 }, (_, i) => ({ i, pad: randomBytes(3400).toString('base64') }));
const report = new JsonObjectText(JSON.stringify({ jobs }));

const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
const started = performance.now();
for (let round = 0; round < 10; round += 1) {
  await Promise.all(
    [0, 1, 2].map((j) =>
      insert({
        rawBytes: randomBytes(1024 * 1024),
        mediaType: 'application/json',
        labels: { name: `run ${round}-${j}`, series: 'loop-delay', branch: 'main' },
        report,
        summary: { round },
        analysisVersion: 'loop-delay',
      }),
    ),
  );
}
const ms = performance.now() - started;
delay.disable();
await store?.close();
rmSync(dir, { recursive: true, force: true });
const msOf = (ns: number) => (ns / 1e6).toFixed(1);
console.log(
  `${withStore ? 'store' : 'no store'}: event-loop delay max ${msOf(delay.max)} ms, p99 ${msOf(delay.percentile(99))} ms, ` +
    `mean ${msOf(delay.mean)} ms; 30 runs (1 MB raw + ${(report.json.length / 1e6).toFixed(1)} MB report) in ${ms.toFixed(0)} ms`,
);
