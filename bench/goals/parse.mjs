// P6: whole-document parse + validation vs JSON.parse of the same bytes. Measured by the
// package's own benchmark (shared/bench/parse-fio.bench.ts, interleaved medians), run as is.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, goal, log, main } from '../lib/common.mjs';

const LINE =
  /^(.*?) \(([\d.]+) MiB\): parseFio ([\d.]+) ms \/ JSON\.parse ([\d.]+) ms = ([\d.]+)× \(goal ≤ ([\d.]+)×\) (PASS|FAIL)/;

main('P6', async () => {
  log('P6', 'node --import tsx shared/bench/parse-fio.bench.ts');
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', join('shared', 'bench', 'parse-fio.bench.ts')],
    {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 180_000,
    },
  );
  const lines = run.stdout.split('\n').filter((l) => LINE.test(l));
  if (lines.length !== 2) throw new Error(`unexpected output (${run.status}): ${run.stdout}${run.stderr}`);
  return lines.map((line, i) => {
    const [, label, mib, fioMs, jsonMs, ratio, target] = LINE.exec(line);
    return goal({
      id: i === 0 ? 'P6a' : 'P6b',
      title: `parseFio/JSON.parse, ${i === 0 ? 'plain json' : '20 MiB json+'}`,
      value: Number(ratio),
      op: '<=',
      target: Number(target),
      unit: '×',
      details: { input: label, mib: Number(mib), parse_fio_ms: Number(fioMs), json_parse_ms: Number(jsonMs) },
      note: `${fioMs} vs ${jsonMs} ms`,
    });
  });
});
