// Shared helpers of the bench: paths, statistics, /proc readers, temp dirs and the goal format.
// Everything here is loopback-only and bounded; nothing reaches outside this machine.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BENCH = join(ROOT, 'bench');
export const FIXTURES = join(ROOT, 'fixtures');
export const TMP_ROOT = join(BENCH, '.tmp');

/** `BENCH_QUICK=1`: shorter runs for iterating on the harness (numbers are then only indicative). */
export const QUICK = process.env.BENCH_QUICK === '1';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export const round = (value, digits = 2) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : value);

/** A fresh directory under bench/.tmp (gitignored); removed by the caller with `rm`. */
export function freshDir(prefix) {
  mkdirSync(TMP_ROOT, { recursive: true });
  return mkdtempSync(join(TMP_ROOT, `${prefix}-`));
}

export function rm(path) {
  rmSync(path, { recursive: true, force: true });
}

/** A port nobody listens on right now (bound to 127.0.0.1 and released). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// ── /proc (Linux) ────────────────────────────────────────────────────────────────────────────

const CLOCK_TICKS_PER_SEC = 100; // getconf CLK_TCK on Linux x86-64 and arm64

/** CPU time (user + system, all threads incl. worker threads) of a process, in ms. */
export function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After "pid (comm) ": field 3 is state; utime and stime are fields 14 and 15 (1-based).
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SEC;
}

/** A field of /proc/<pid>/status in MiB (VmRSS, VmHWM). */
export function statusMiB(pid, field) {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return m ? Number(m[1]) / 1024 : NaN;
}

export function loadAverage() {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);
  } catch {
    return null;
  }
}

// ── Goals ────────────────────────────────────────────────────────────────────────────────────

/**
 * One measured goal. `status`: PASS / FAIL against `op target`; INFO (reported, no gate);
 * SKIP (could not be measured here, `reason` says why); ERROR (the harness failed).
 */
export function goal({ id, title, value, op, target, unit = '', digits = 2, details = {}, note }) {
  const checks = {
    '>=': () => value >= target,
    '<=': () => value <= target,
    '<': () => value < target,
    '>': () => value > target,
    '==': () => value === target,
  };
  const pass = checks[op] ? checks[op]() : null;
  const status =
    !Number.isFinite(value) && op !== '==' ? 'FAIL' : pass === null ? 'INFO' : pass ? 'PASS' : 'FAIL';
  const shown = typeof value === 'number' ? `${round(value, digits)}${unit}` : String(value);
  const targetShown = op ? ` (goal ${op.replace('>=', '≥').replace('<=', '≤')} ${target}${unit})` : '';
  return {
    id,
    title,
    value: typeof value === 'number' ? round(value, 4) : value,
    unit,
    op: op ?? null,
    target: target ?? null,
    status,
    line: `${id} ${title} ${shown}${targetShown} ${status}${note ? ` — ${note}` : ''}`,
    details,
  };
}

export function info({ id, title, value, unit = '', digits = 2, details = {}, note }) {
  return { ...goal({ id, title, value, unit, digits, details, note }), status: 'INFO' };
}

export function skip({ id, title, reason, details = {} }) {
  return {
    id,
    title,
    value: null,
    unit: '',
    op: null,
    target: null,
    status: 'SKIP',
    line: `${id} ${title} — SKIP: ${reason}`,
    details: { reason, ...details },
  };
}

/**
 * The end of every goal script: the results as one machine-readable line on stdout (progress
 * goes to stderr). The runner reads the last such line.
 */
export function emit(results) {
  process.stdout.write(`@@BENCH_RESULTS ${JSON.stringify(results)}\n`);
}

/** Runs a goal script's main and always emits something, also when it throws. */
export async function main(name, body) {
  const started = performance.now();
  try {
    const results = await body();
    for (const r of results) r.details.seconds ??= round((performance.now() - started) / 1000, 1);
    emit(results);
  } catch (error) {
    log(name, `failed: ${error?.stack ?? error}`);
    emit([
      {
        id: name,
        title: 'harness error',
        value: null,
        status: 'ERROR',
        line: `${name} harness error: ${String(error?.message ?? error).split('\n')[0]}`,
        details: { error: String(error?.stack ?? error) },
      },
    ]);
    process.exitCode = 1;
  }
}

export function log(scope, message) {
  process.stderr.write(`  [${scope}] ${message}\n`);
}

export function fixture(path) {
  return readFileSync(join(FIXTURES, path));
}

export { existsSync, join };
