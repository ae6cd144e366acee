// P15: fleet right-sizing at account scale. 5,000 volumes × 14 days of 5-minute points (4 metrics
// × 4,032 points each: 80.6 M points) as ~800 GetMetricData response files of ≤ 100,800 points
// (as AWS pages them, ~3 GB of compact JSON), read the way `blockwise fleet plan` reads them
// (server/src/cli/fleet-metrics.ts: worker threads, one per core, each scanning and summarizing
// whole files, merged in file order), then planFleet, in < 10 s with bounded memory.
//
// The files are generated (fixtures/fleet/generate.mjs) and written to bench/.tmp first, not timed;
// the measurement (bench/lib/fleet-measure.mjs) is bundled with the fleet worker as the CLI build
// bundles them and runs in a child process, so that its peak RSS is the reader's and planner's
// alone (worker threads included: they share the process). The load average at the start of the
// measurement is reported beside every number: the machine is shared, and 2 busy cores at load 12
// make every time here 2–4× what a quiet machine gives. When server/dist/blockwise.mjs is built,
// the built CLI is also timed end to end on the same files (its text output included).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import {
  describeInstances,
  describeVolumes,
  metricPages,
  syntheticFleet,
} from '../../fixtures/fleet/generate.mjs';
import { serverRequire } from '../lib/deps.mjs';
import {
  QUICK,
  BENCH,
  ROOT,
  existsSync,
  freshDir,
  goal,
  info,
  join,
  loadAverage,
  log,
  main,
  rm,
  round,
} from '../lib/common.mjs';

const VOLUMES = QUICK ? 500 : 5_000;

main('P15', async () => {
  const dir = freshDir('fleet');
  try {
    const written = await writeFiles(dir);
    log('P15', `${written.files} files, ${round(written.bytes / 1e6, 0)} MB written to ${dir}; measuring`);
    const m = await runMeasure(dir);
    const cli = runBuiltCli(dir, written.files);
    return results(written, m, cli);
  } finally {
    rm(dir);
  }
});

/** The responses and the describe-* outputs as files, as the aws cli would leave them. */
async function writeFiles(dir) {
  log('P15', `${VOLUMES} volumes × 14 days of 5-minute points: writing the responses (not timed)`);
  const fleet = syntheticFleet(VOLUMES);
  writeFileSync(join(dir, 'volumes.json'), JSON.stringify(describeVolumes(fleet)));
  writeFileSync(join(dir, 'instances.json'), JSON.stringify(describeInstances(fleet)));
  let files = 0;
  let bytes = 0;
  for (const page of metricPages(fleet)) {
    const text = JSON.stringify(page);
    bytes += text.length;
    writeFileSync(join(dir, metricsName(++files)), text);
  }
  return { files, bytes };
}

function metricsName(i) {
  return `metrics-${String(i).padStart(4, '0')}.json`;
}

/** bench/lib/fleet-measure.mjs and the fleet worker, bundled side by side (as in server/dist). */
async function bundleMeasure(dir) {
  const { build } = serverRequire('esbuild');
  const common = {
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    legalComments: 'none',
    banner: {
      js: "import { createRequire as __bwCreateRequire } from 'node:module'; const require = __bwCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
    absWorkingDir: ROOT,
  };
  const outdir = join(dir, 'bundle');
  await build({
    ...common,
    entryPoints: [join(BENCH, 'lib', 'fleet-measure.mjs')],
    outfile: join(outdir, 'fleet-measure.mjs'),
  });
  await build({
    ...common,
    entryPoints: [join(ROOT, 'server', 'src', 'cli', 'fleet-worker.ts')],
    outfile: join(outdir, 'fleet-worker.mjs'),
  });
  return join(outdir, 'fleet-measure.mjs');
}

/** The measurement in a fresh process (see the top comment); its result is one JSON line on stdout. */
async function runMeasure(dir) {
  const entry = await bundleMeasure(dir);
  const child = spawnSync(process.execPath, [entry], {
    env: { ...process.env, P15_MEASURE_DIR: dir },
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.status !== 0) throw new Error(`measurement exited with ${child.status}`);
  return JSON.parse(child.stdout.trim().split('\n').pop());
}

/** `node server/dist/blockwise.mjs fleet plan … > /dev/null`, wall seconds (null when not built). */
function runBuiltCli(dir, files) {
  const cli = join(ROOT, 'server/dist/blockwise.mjs');
  if (!existsSync(cli)) return null;
  const args = [cli, 'fleet', 'plan', '--volumes', 'volumes.json', '--instances', 'instances.json'];
  for (let i = 1; i <= files; i++) args.push('--metrics', metricsName(i));
  const load = loadAverage();
  const t0 = performance.now();
  const child = spawnSync(process.execPath, [...args, '--statistic', 'p99'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const seconds = (performance.now() - t0) / 1000;
  if (child.status !== 0) throw new Error(`built CLI exited with ${child.status}`);
  return { seconds: round(seconds, 2), load_at_start: load };
}

function results(written, m, cli) {
  const totalSec = m.read_s + m.plan_s;
  const load = m.load_at_start?.join(' ') ?? 'unknown';
  const details = {
    volumes: VOLUMES,
    responses: written.files,
    json_mb: round(written.bytes / 1e6, 0),
    ...m,
    built_cli_s: cli?.seconds ?? null,
    built_cli_load_at_start: cli?.load_at_start ?? null,
  };
  log('P15', JSON.stringify(details));
  const out = [
    goal({
      id: 'P15a',
      title: `fleet plan of ${VOLUMES.toLocaleString('en-US')} volumes × 14 days of 5-minute points (read ${details.json_mb} MB of responses in ${m.threads} worker thread(s) + plan)`,
      value: totalSec,
      op: '<',
      target: 10,
      unit: ' s',
      details,
      note: `read ${m.read_s} s, plan ${m.plan_s} s; load average at start ${load}`,
    }),
    info({
      id: 'P15b',
      title: 'fleet plan: peak RSS of the reading and planning process (worker threads included)',
      value: m.peak_rss_mib,
      unit: ' MiB',
      digits: 0,
      details,
      note: `heap used at the end ${m.heap_used_mib} MiB`,
    }),
    info({
      id: 'P15c',
      title: 'fleet plan: reading the responses (worker threads, merged in file order)',
      value: m.read_s,
      unit: ' s',
      details,
      note: `${round(written.bytes / 1e6 / m.read_s, 0)} MB/s; ${m.read_cpu_s} CPU s (${round(written.bytes / 1e6 / m.read_cpu_s, 0)} MB per CPU second); load average at start ${load}`,
    }),
    info({
      id: 'P15d',
      title: 'fleet plan: planFleet once the summaries are read',
      value: m.plan_s,
      unit: ' s',
      details,
    }),
  ];
  if (cli)
    out.push(
      info({
        id: 'P15e',
        title: 'the built CLI end to end (node server/dist/blockwise.mjs fleet plan, text output)',
        value: cli.seconds,
        unit: ' s',
        details,
        note: `load average at start ${cli.load_at_start?.join(' ') ?? 'unknown'}`,
      }),
    );
  return out;
}
