/**
 * Child process for the SQLite crash test (sqlite-store.test.ts): inserts runs as fast as it can
 * and prints `<id> <sha256>` for each insert only after insertRun resolved, i.e. after COMMIT —
 * exactly what a 201 means. The parent SIGKILLs it mid-stream and checks every printed run.
 * stdout to a pipe is synchronous on Linux, so a printed line was acknowledged before the kill.
 * usage: node --import tsx crash-child.ts <db-path>
 */
import { randomBytes } from 'node:crypto';
import { openSqliteStore } from '../sqlite-store.ts';

const path = process.argv[2];
if (!path) throw new Error('usage: crash-child.ts <db-path>');
const store = await openSqliteStore({ path });
for (let i = 0; ; i++) {
  const { run } = await store.insertRun({
    rawBytes: randomBytes(1024 + ((i * 7919) % 65536)),
    mediaType: 'application/octet-stream',
    labels: { name: `crash ${process.pid} ${i}`, series: 'crash' },
    report: { i, pid: process.pid },
    summary: { i },
    analysisVersion: 'crash-test',
  });
  process.stdout.write(`${run.id} ${run.rawSha256}\n`);
}
