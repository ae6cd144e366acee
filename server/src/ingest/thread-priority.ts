import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Niceness given to background worker threads (upload parsing, WAL checkpoints): 10, so that when
 * they compete with the event loop for a core — a 2-core machine with a parse running and a client
 * sending — Linux's scheduler gives the event loop ~9 of every 10 slices (CFS weights 1024 vs
 * 110, kernel.org sched-nice-design) and /healthz and small requests stay prompt (bench P13).
 * The work still uses every idle core.
 */
export const BACKGROUND_NICENESS = 10;

/**
 * Lowers the CALLING thread's priority. On Linux a thread is a task with its own id, and
 * setpriority(PRIO_PROCESS, tid) changes that thread only (setpriority(2), "BUGS"/NPTL notes);
 * /proc/thread-self names it. Elsewhere (macOS, Windows), or without /proc, nothing changes:
 * returns false, as this is an optimization, never a requirement.
 */
export function lowerThisThreadPriority(niceness = BACKGROUND_NICENESS): boolean {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0 || tid === process.pid) return false;
    setPriority(tid, niceness);
    return true;
  } catch {
    return false;
  }
}
