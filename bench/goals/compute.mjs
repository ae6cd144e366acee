// P12: the browser-side work stays small. (a) Chart series are downsampled to ≤ 2,000 points
// (the web app's own downsampler); (b) the full right-sizing sweep — every instance type × every
// volume type, each instance with its family for upgrade advice — takes < 16 ms (one frame);
// (c) json+ percentile merging agrees with fio's own tool (fio_jsonplus_clat2csv) on the same file.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  BENCH,
  FIXTURES,
  ROOT,
  TMP_ROOT,
  freshDir,
  goal,
  info,
  log,
  main,
  median,
  rm,
  round,
  skip,
} from '../lib/common.mjs';
import { JSONPLUS_FIXTURE } from '../lib/fixtures.mjs';
import { pathToFileURL } from 'node:url';
import { serverRequire } from '../lib/deps.mjs';
import { parseFio } from '../../shared/src/fio/parse-fio.ts';

const DOWNSAMPLE = join(ROOT, 'web', 'src', 'lib', 'downsample.ts');

async function downsampling() {
  if (!existsSync(DOWNSAMPLE))
    return [
      skip({
        id: 'P12a',
        title: 'chart points after downsampling',
        reason: 'web/src/lib/downsample.ts does not exist yet',
      }),
    ];
  const { lttb, downsampleRows } = await import(DOWNSAMPLE);
  const counts = {};
  for (const n of [5_000, 100_000, 1_000_000]) {
    const points = Array.from({ length: n }, (_, i) => ({ x: i, y: Math.sin(i / 50) * 100 + (i % 97) }));
    const rows = points.map((p, i) => ({ t: p.x, read: p.y, write: -p.y, p99: i % 13 }));
    counts[n] = { lttb: lttb(points).length, rows: downsampleRows(rows, ['read', 'write', 'p99']).length };
  }
  // Which modules of the web app use the downsampler (a chart that skips it is not covered).
  const users = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (
        /\.tsx?$/.test(e.name) &&
        !/\.test\./.test(e.name) &&
        path !== DOWNSAMPLE &&
        /downsample/.test(readFileSync(path, 'utf8'))
      )
        users.push(path.slice(ROOT.length));
    }
  };
  walk(join(ROOT, 'web', 'src'));
  const max = Math.max(...Object.values(counts).flatMap((c) => [c.lttb, c.rows]));
  return [
    goal({
      id: 'P12a',
      title: 'chart points per series after downsampling (5k–1M in)',
      value: max,
      op: '<=',
      target: 2000,
      digits: 0,
      details: { counts, used_by: users },
      note: `used by ${users.length} module(s) of web/src`,
    }),
  ];
}

async function rightSizeSweep() {
  const { build } = serverRequire('esbuild');
  const outfile = join(TMP_ROOT, 'sweep.bundle.mjs');
  await build({
    entryPoints: [join(BENCH, 'lib', 'sweep.mjs')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'warning',
  });
  const { measureSweep } = await import(pathToFileURL(outfile).href);
  const m = measureSweep(
    join(FIXTURES, 'fio/generated/a_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_grouped.json'),
  );
  const uncached = median(m.uncached);
  return [
    goal({
      id: 'P12b',
      title: `right-sizing sweep, ${m.instances} instance types × ${m.volumeTypes} volume types, median`,
      value: median(m.times),
      op: '<',
      target: 16,
      unit: ' ms',
      details: {
        recommendations: m.recommendations,
        min_ms: round(Math.min(...m.times), 2),
        max_ms: round(Math.max(...m.times), 2),
        with_pool_lookup_per_instance_ms: round(uncached, 1),
      },
      note: `${m.recommendations} recommendations; ${round(uncached, 1)} ms when upgradePool() is called per instance`,
    }),
  ];
}

/** fio's percentile of a histogram (stat.c): the first bucket whose cumulative count reaches p% of all. */
function percentileOf(rows, p) {
  const total = rows.reduce((s, [, c]) => s + c, 0);
  let cumulative = 0;
  for (const [ns, c] of rows) {
    cumulative += c;
    if (cumulative >= (p / 100) * total) return ns;
  }
  return NaN;
}

function clat2csv() {
  const file = join(FIXTURES, JSONPLUS_FIXTURE);
  const which = spawnSync('sh', ['-c', 'command -v fio_jsonplus_clat2csv'], { encoding: 'utf8' });
  if (which.status !== 0)
    return [
      skip({
        id: 'P12c',
        title: 'json+ merge vs fio_jsonplus_clat2csv',
        reason: 'fio_jsonplus_clat2csv not installed (apt-get install fio)',
      }),
    ];
  const dir = freshDir('clat2csv');
  try {
    const fioTimes = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      const r = spawnSync('fio_jsonplus_clat2csv', [file, join(dir, 'out.csv')], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(r.stderr);
      fioTimes.push(performance.now() - t);
    }
    const bytes = readFileSync(file);
    for (let i = 0; i < 20; i++) parseFio(bytes);
    const ourTimes = [];
    let report;
    for (let i = 0; i < 50; i++) {
      const t = performance.now();
      report = parseFio(bytes).report;
      ourTimes.push(performance.now() - t);
    }
    // fio's CSVs hold each job's histogram; merge the jobs' counts, then take fio's percentiles.
    const merged = { read: new Map(), write: new Map() };
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.csv'))) {
      const [header, ...lines] = readFileSync(join(dir, f), 'utf8').trim().split('\n');
      const cols = header.split(',').map((c) => c.trim());
      for (const d of ['read', 'write']) {
        const at = cols.indexOf(`${d}_clat_ns_count`);
        for (const line of lines) {
          const cells = line.split(',').map((c) => c.trim());
          if (cells[at] === '') continue;
          const ns = Number(cells[0]);
          merged[d].set(ns, (merged[d].get(ns) ?? 0) + Number(cells[at]));
        }
      }
    }
    let compared = 0;
    let equal = 0;
    const differences = [];
    for (const d of ['read', 'write']) {
      const rows = [...merged[d]].sort((a, b) => a[0] - b[0]);
      const ours = report.total[d].clatMs.percentiles ?? {};
      for (const [key, ms] of Object.entries(ours)) {
        const theirs = percentileOf(rows, Number(key));
        compared += 1;
        if (Math.round(ms * 1e6) === theirs) equal += 1;
        else
          differences.push({ direction: d, percentile: key, ours_ns: Math.round(ms * 1e6), fio_ns: theirs });
      }
    }
    const ratio = median(ourTimes) / median(fioTimes);
    return [
      goal({
        id: 'P12c',
        title: 'json+ merged percentiles equal to fio_jsonplus_clat2csv’s',
        value: compared ? equal / compared : NaN,
        op: '>=',
        target: 1,
        unit: '',
        details: {
          compared,
          equal,
          differences,
          method: report.total.read.clatMs.method,
          parse_fio_ms: round(median(ourTimes), 2),
          fio_tool_ms: round(median(fioTimes), 0),
        },
        note: `${equal}/${compared} percentiles (${report.total.read.clatMs.method})`,
      }),
      info({
        id: 'P12d',
        title: 'time, parseFio (whole file incl. merge) / fio_jsonplus_clat2csv (Python, incl. start-up)',
        value: ratio,
        unit: '×',
        digits: 3,
        details: {},
        note: `${round(median(ourTimes), 2)} vs ${round(median(fioTimes), 0)} ms`,
      }),
    ];
  } finally {
    rm(dir);
  }
}

main('P12', async () => {
  log('P12', 'downsampling, right-sizing sweep, json+ merge vs fio_jsonplus_clat2csv');
  return [...(await downsampling()), ...(await rightSizeSweep()), ...clat2csv()];
});
