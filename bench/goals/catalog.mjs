// P14: `blockwise catalog update` on a generated 1 GiB AWS Price List offer file (one region, the
// bulk API's folder layout) holds memory bounded: peak RSS ≤ 300 MB. The CLI runs as shipped
// (bundled like server/scripts/build.mjs) in its own process; its peak RSS is the kernel's
// high-water mark (VmHWM), sampled until it exits. The tests assert the bound that matters for
// correctness (the SKUs held, server/src/catalog/offer-stream.test.ts); this measures the process.
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { QUICK, freshDir, goal, log, main, round, rm, sleep, statusMiB } from '../lib/common.mjs';
import { buildCliBundle } from '../lib/bundle.mjs';
import { writeOfferMirror } from '../lib/offer-file.mjs';

const MiB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_P14_MIB ?? (QUICK ? 128 : 1024)) * MiB;
const LIMIT_MB = 300;

main('P14', async () => {
  const dir = freshDir('catalog');
  try {
    const cli = join(dir, 'blockwise.mjs');
    await buildCliBundle(cli);
    log('P14', `writing a ${round(SIZE / MiB, 0)} MiB offer file`);
    const started = performance.now();
    const mirror = join(dir, 'mirror');
    const offer = await writeOfferMirror(mirror, SIZE);
    log(
      'P14',
      `wrote ${round(offer.bytes / MiB, 0)} MiB, ${offer.products} products in ${round((performance.now() - started) / 1000, 1)} s`,
    );

    const out = join(dir, 'cat.json');
    const t0 = performance.now();
    const child = spawn(
      process.execPath,
      [cli, 'catalog', 'update', '--offers', mirror, '--base', 'builtin', '--out', out],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    let peakMiB = 0;
    let exited = null;
    child.on('exit', (code) => (exited = code));
    while (exited === null) {
      try {
        peakMiB = Math.max(peakMiB, statusMiB(child.pid, 'VmHWM'));
      } catch {
        // gone between the check and the read
      }
      await sleep(100);
    }
    const seconds = (performance.now() - t0) / 1000;
    if (exited !== 0) throw new Error(`catalog update exited ${exited}: ${stderr.slice(-500)}`);
    const catalog = JSON.parse(readFileSync(out, 'utf8'));
    const priced =
      catalog.ebs['us-east-2']?.rates?.io2?.iops3 === 0.03185 &&
      Object.keys(catalog.ec2['us-east-2']?.usdPerHour ?? {}).length > 0;
    if (!priced) throw new Error('the catalog written lacks us-east-2’s prices');
    const read = /us-east-2: ([\d.]+) MB read/.exec(stderr);
    const peakMB = (peakMiB * MiB) / 1e6;
    return [
      goal({
        id: 'P14',
        title: `catalog update of a ${round(offer.bytes / MiB, 0)} MiB offer file: peak RSS`,
        value: peakMB,
        op: '<=',
        target: LIMIT_MB,
        unit: ' MB',
        digits: 0,
        note: `${read ? `${read[1]} MB parsed` : 'parsed'} in ${round(seconds, 1)} s (${round(offer.bytes / 1e6 / seconds, 0)} MB/s of file), ${Object.keys(catalog.ec2['us-east-2'].usdPerHour).length} instance prices kept`,
        details: {
          fileBytes: statSync(offer.file).size,
          products: offer.products,
          parsedMB: read ? Number(read[1]) : null,
          seconds: round(seconds, 1),
          peakRssMiB: round(peakMiB, 1),
          stdoutTail: stdout.slice(-400),
        },
      }),
    ];
  } finally {
    rm(dir);
  }
});
