#!/usr/bin/env node
// `pnpm bench`: performance and reliability evidence for Blockwise (docs/performance.md goals
// P1–P14, R1–R14), one line per goal, the same as JSON in bench/results.json.
//
//   pnpm bench                     everything (≈ 10 minutes on 2 shared cores)
//   pnpm bench -- --only P1,R1     scripts holding these goals (ids or script names)
//   pnpm bench -- --quick          short runs to try the harness (numbers only indicative)
//   node bench/report.mjs          the table of docs/performance.md §6 from bench/results.json
//
// Every comparison is an interleaved ratio or a count measured in the same run, on loopback
// only, each server on a fresh database; each script runs in its own process group with a time
// limit. Exit status: 0 when every script ran (whatever the goals say), 1 on a harness error.
import { spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH, ROOT, TMP_ROOT, loadAverage, rm, round } from './lib/common.mjs';

const SCRIPTS = [
  { script: 'http-ratios.mjs', goals: ['P1', 'P2', 'P3', 'P4', 'P9'], limitSec: 380 },
  { script: 'big-uploads.mjs', goals: ['P5', 'P7'], limitSec: 150 },
  { script: 'hostile.mjs', goals: ['P13'], limitSec: 200 },
  { script: 'parse.mjs', goals: ['P6'], limitSec: 150 },
  { script: 'archive.mjs', goals: ['P8'], limitSec: 240 },
  { script: 'web.mjs', goals: ['P10', 'P11'], limitSec: 300 },
  { script: 'slider.mjs', goals: ['P16'], limitSec: 600 },
  { script: 'compute.mjs', goals: ['P12'], limitSec: 120 },
  { script: 'kill.mjs', goals: ['R1'], limitSec: 180 },
  { script: 'fuzz.mjs', goals: ['R3', 'R5'], limitSec: 180 },
  { script: 'soak.mjs', goals: ['R12'], limitSec: 120 },
  { script: 'refusals.mjs', goals: ['R4'], limitSec: 120 },
  { script: 'catalog.mjs', goals: ['P14'], limitSec: 180 },
  { script: 'slow-clients.mjs', goals: ['R13'], limitSec: 40 },
  { script: 'audit.mjs', goals: ['R14'], limitSec: 100 },
  { script: 'fleet.mjs', goals: ['P15'], limitSec: 300 },
  { script: 'fleet-http.mjs', goals: ['P17'], limitSec: 300 },
  { script: 'package.mjs', goals: ['P21'], limitSec: 300 },
];
const BUDGET_SEC = 600;

function parseArgs(argv) {
  const args = { only: null, quick: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--quick') args.quick = true;
    else if (argv[i] === '--only') args.only = argv[++i].split(',').map((s) => s.trim().toUpperCase());
    else if (argv[i].startsWith('--only='))
      args.only = argv[i]
        .slice(7)
        .split(',')
        .map((s) => s.trim().toUpperCase());
    else if (argv[i] !== '--') throw new Error(`unknown argument ${argv[i]} (use --only IDS, --quick)`);
  }
  return args;
}

function runScript({ script, limitSec }, env) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', join(BENCH, 'goals', script)], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true, // its own process group: a time-out stops the servers it started too
    });
    let stdout = '';
    child.stdout.on('data', (c) => (stdout += c));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, limitSec * 1000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      // Servers left behind by a crashed script share its process group.
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // none left
      }
      const seconds = round((performance.now() - started) / 1000, 1);
      const line = stdout
        .split('\n')
        .reverse()
        .find((l) => l.startsWith('@@BENCH_RESULTS '));
      if (line) return resolve({ results: JSON.parse(line.slice('@@BENCH_RESULTS '.length)), seconds });
      const why = timedOut ? `timed out after ${limitSec} s` : `exited ${code ?? signal} without results`;
      resolve({
        seconds,
        results: [
          {
            id: script,
            title: 'harness error',
            value: null,
            status: 'ERROR',
            line: `${script}: ${why}`,
            details: { stdout: stdout.slice(-2000) },
          },
        ],
      });
    });
  });
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const env = { ...process.env, ...(args.quick ? { BENCH_QUICK: '1' } : {}) };
  const selected = SCRIPTS.filter(
    (s) =>
      !args.only || args.only.some((id) => s.goals.includes(id) || s.script.toUpperCase().startsWith(id)),
  );
  const started = performance.now();
  const loadBefore = loadAverage();
  console.log(
    `Blockwise bench — ${selected.length} script(s), node ${process.version}, ${cpus().length} CPUs, load ${loadBefore?.join(' ')}${args.quick ? ', QUICK (indicative only)' : ''}`,
  );
  rm(join(TMP_ROOT, 'bundle'));
  const { buildAppBundle } = await import('./lib/bundle.mjs');
  const built = await buildAppBundle();
  console.log(`  built the server under test from the working tree in ${built.ms} ms`);

  const goals = [];
  const scripts = [];
  for (const s of selected) {
    console.log(`▶ ${s.script} (${s.goals.join(', ')})`);
    const { results, seconds } = await runScript(s, env);
    scripts.push({ script: s.script, seconds });
    for (const r of results) {
      goals.push(r);
      console.log(`  ${r.line}`);
    }
  }
  const seconds = round((performance.now() - started) / 1000, 1);
  const count = (status) => goals.filter((g) => g.status === status).length;
  console.log(`\n${'─'.repeat(100)}`);
  for (const g of goals) console.log(g.line);
  console.log(
    `${'─'.repeat(100)}\n${count('PASS')} PASS, ${count('FAIL')} FAIL, ${count('SKIP')} SKIP, ${count('INFO')} INFO, ${count('ERROR')} ERROR in ${seconds} s${seconds > BUDGET_SEC && !args.only ? ` (over the ${BUDGET_SEC} s budget)` : ''}`,
  );
  const results = {
    generatedAt: new Date().toISOString(),
    seconds,
    quick: args.quick,
    only: args.only,
    machine: {
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? null,
      loadBefore,
      loadAfter: loadAverage(),
    },
    scripts,
    goals,
  };
  writeFileSync(join(BENCH, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log('wrote bench/results.json (node bench/report.mjs prints the table of docs/performance.md §6)');
  process.exitCode = count('ERROR') > 0 ? 1 : 0;
}

await main();
