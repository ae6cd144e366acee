import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ParsePool } from './parse-pool.ts';
import { BACKGROUND_NICENESS, lowerThisThreadPriority } from './thread-priority.ts';

const linux = existsSync('/proc/self/task');

/** The niceness of every thread of this process, from /proc (field 19 of stat). */
function threadNiceness(): number[] {
  return readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return [Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
    } catch {
      return []; // the thread ended while we listed them
    }
  });
}

const FIO = readFileSync(
  new URL('../../../fixtures/fio/generated/p_randrw_4k_mix50_jsonplus_nj2_perjob.json', import.meta.url),
);

describe('background threads yield the core to the event loop (bench P13)', () => {
  let pool: ParsePool | null = null;
  afterEach(async () => {
    await pool?.close();
    pool = null;
  });

  it('never renices the main thread (that would slow the event loop itself)', () => {
    expect(lowerThisThreadPriority()).toBe(false);
    if (linux) expect(threadNiceness()[0]).toBe(0);
  });

  it.runIf(linux)('the parse pool’s worker runs at niceness 10; the main thread stays at 0', async () => {
    const before = threadNiceness().filter((n) => n === BACKGROUND_NICENESS).length;
    pool = new ParsePool({ size: 1, maxQueue: 1, timeoutMs: 60_000 });
    const result = await pool.analyze(new Uint8Array(FIO), {}, 50 * 1024 * 1024);
    expect(result.ok).toBe(true);
    // A small job keeps its worker warm, so the thread is still there to look at.
    expect(threadNiceness().filter((n) => n === BACKGROUND_NICENESS).length).toBe(before + 1);
    expect(threadNiceness()[0]).toBe(0);
  });
});
