import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSqliteDriver } from './sqlite-driver.ts';
import { newId } from './ids.ts';
import { GROUP_COMMIT_MAX_BYTES, openSqliteStore, takeBatch } from './sqlite-store.ts';
import { runInput } from './testing/run-inputs.ts';
import { WalCheckpointer, type CheckpointResult } from './wal-checkpointer.ts';

const dir = mkdtempSync(join(tmpdir(), 'blockwise-wal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const freshPath = () => join(dir, `${newId()}.db`);

/** A run of about `bytes` (raw upload bytes; the report is the small fixture oracle). */
const bigRun = (bytes: number) => runInput({ rawBytes: Buffer.alloc(bytes, 0x41) });

function nextCheckpoint(results: CheckpointResult[]): Promise<CheckpointResult> {
  const seen = results.length;
  return new Promise((resolve) => {
    const poll = () => (results.length > seen ? resolve(results[seen]!) : setImmediate(poll));
    poll();
  });
}

describe('WAL checkpoints off the event loop (bench P13)', () => {
  it('a file archive checkpoints in its worker once 4 MiB have been committed, copying every frame', async () => {
    const results: CheckpointResult[] = [];
    const store = await openSqliteStore({ path: freshPath(), onCheckpoint: (r) => results.push(r) });
    try {
      expect(store.checkpointsInWorker).toBe(true);
      const done = nextCheckpoint(results);
      // Three runs of a little over 1 MiB each stay under the threshold: no checkpoint requested.
      for (let i = 0; i < 3; i += 1) await store.insertRun(bigRun(1024 * 1024));
      expect(results).toHaveLength(0);
      // The fourth crosses 4 MiB. Nothing is written after it: a commit while the worker copies
      // would add frames the PASSIVE checkpoint may not reach, and how many depends on timing.
      await store.insertRun(bigRun(1024 * 1024));
      const result = await done;
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.logFrames).toBeGreaterThan(0);
      // Nothing else reads or writes in between, so the whole log was copied into the database.
      expect(result.checkpointedFrames).toBe(result.logFrames);
    } finally {
      await store.close();
    }
  });

  it('closing the store ends the worker, checkpoints the rest and removes the WAL', async () => {
    const path = freshPath();
    const store = await openSqliteStore({ path });
    await store.insertRun(bigRun(512 * 1024));
    expect(existsSync(`${path}-wal`)).toBe(true);
    await store.close();
    expect(existsSync(`${path}-wal`)).toBe(false);
    expect(statSync(path).size).toBeGreaterThan(512 * 1024);
  });

  it('close() finishes when nothing else keeps the process alive (what follows a last close runs)', async () => {
    // Its own process: in this one, vitest keeps the event loop alive whatever the store does.
    // Before the fix the worker was unreferenced while close() waited for it to exit, so Node
    // exited with close() pending and printed nothing.
    const storeModule = fileURLToPath(new URL('./sqlite-store.ts', import.meta.url));
    const script = [
      `const { openSqliteStore } = await import(${JSON.stringify(storeModule)});`,
      `const store = await openSqliteStore({ path: ${JSON.stringify(freshPath())} });`,
      'await store.close();',
      "process.stdout.write('closed');",
    ].join('\n');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { timeout: 30_000 },
    );
    expect(stdout).toBe('closed');
  }, 40_000);

  it('an in-memory archive has no worker', async () => {
    const store = await openSqliteStore({ path: ':memory:' });
    expect(store.checkpointsInWorker).toBe(false);
    await store.close();
  });

  it('a worker that cannot open the file hands checkpoints back to the connection', async () => {
    const reasons: string[] = [];
    const checkpointer = new WalCheckpointer({
      path: join(dir, 'missing', 'nope.db'),
      driver: (await loadSqliteDriver()).name,
      onFallback: (reason) => reasons.push(reason),
    });
    await new Promise<void>((resolve) => {
      const poll = () => (reasons.length > 0 ? resolve() : setTimeout(poll, 10));
      poll();
    });
    expect(reasons[0]).toMatch(/checkpoint worker failed/);
    expect(checkpointer.active).toBe(false);
    // Further commits are no-ops for it; closing is harmless.
    checkpointer.committed(10 * 1024 * 1024);
    await checkpointer.close();
  });
});

describe('group commit batches by bytes', () => {
  const queued = (bytes: number) => ({ bytes });
  const MiB = 1024 * 1024;

  it.each([
    { name: 'small runs share one commit', sizes: [100_000, 100_000, 100_000], first: 3 },
    {
      name: 'three 3 MiB runs: two fit in 8 MiB, the third waits',
      sizes: [3 * MiB, 3 * MiB, 3 * MiB],
      first: 2,
    },
    { name: 'one run larger than the cap still goes alone', sizes: [20 * MiB, 1000], first: 1 },
    { name: 'an empty queue gives nothing', sizes: [], first: 0 },
  ])('$name', ({ sizes, first }) => {
    const queue = sizes.map(queued);
    const batch = takeBatch(queue, GROUP_COMMIT_MAX_BYTES);
    expect(batch).toHaveLength(first);
    expect(queue).toHaveLength(sizes.length - first);
  });

  it('concurrent large uploads are all stored, over several commits', async () => {
    const store = await openSqliteStore({ path: freshPath() });
    try {
      const results = await Promise.all([1, 2, 3].map(() => store.insertRun(bigRun(5 * MiB))));
      expect(results.map((r) => r.created)).toEqual([true, true, true]);
      for (const { run } of results) expect((await store.getRunRaw(run.id))?.bytes.length).toBe(5 * MiB);
    } finally {
      await store.close();
    }
  });
});
