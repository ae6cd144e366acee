import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LABEL_WIRE_NAMES } from '@blockwise/shared/api';
import { runCli } from '../testing/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'blockwise-fio-job-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[]) => runCli(args);
const optionLines = (jobFile: string) =>
  jobFile.split('\n').filter((l) => l !== '' && !l.startsWith(';') && !l.startsWith('['));

describe('blockwise fio-job', () => {
  it('typed-in numbers: the job file on stdout, the run and upload commands on stderr', async () => {
    const r = await run([
      'fio-job',
      '--read-iops',
      '3043',
      '--write-iops',
      '6018',
      '--read-bw',
      '188MiB/s',
      '--write-bw',
      '381MiB/s',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(optionLines(r.stdout)).toContain('bssplit=32k/2:64k/98,64k/99:128k/1');
    expect(optionLines(r.stdout)).toContain('rwmixread=34');
    expect(r.stderr).toContain('fio --output-format=json+ --output=result.json blockwise.fio');
    expect(r.stderr).toContain('blockwise upload result.json --server $BLOCKWISE_URL --label kind=ebs');
  });

  it('--output writes the file; labels, series, engine, runtime and target reach the job and the upload command', async () => {
    const out = join(dir, 'db.fio');
    const r = await run([
      'fio-job',
      '--metrics',
      'fixtures/cloudwatch/console_volume_sum_5min.csv',
      '--statistic',
      'p99',
      '--engine',
      'io_uring',
      '--runtime',
      '45m',
      '--target',
      '/dev/nvme2n1',
      '--label',
      'instanceType=r6i.4xlarge',
      '--label',
      'volumeType=gp3',
      '--series',
      'db01',
      '--output',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const jobFile = readFileSync(out, 'utf8');
    // Writes at p99 average 25.0 KiB: 44% × 16 KiB + 56% × 32 KiB.
    expect(optionLines(jobFile)).toEqual(
      expect.arrayContaining([
        'filename=/dev/nvme2n1',
        'ioengine=io_uring',
        'runtime=2700',
        'rw=randrw',
        'bssplit=64k/100,16k/44:32k/56',
      ]),
    );
    // p99: 6,300 reads of 64 KiB; writes 822 IOPS.
    expect(jobFile).toMatch(/read 6,300 IOPS × 64 KiB = 393\.8 MiB\/s/);
    expect(r.stdout).toContain(`Wrote ${out}.`);
    expect(r.stdout).toContain('fio --output-format=json+ --output=result.json db.fio');
    expect(r.stdout).toContain('--label instanceType=r6i.4xlarge --label volumeType=gp3');
    expect(r.stdout).toContain('--series db01');
    expect(r.stdout).toContain('Why each setting:');
  });

  it('every label in the upload command is one `blockwise upload` accepts', async () => {
    const r = await run([
      'fio-job',
      '--sysbench',
      'fixtures/sysbench/c_rndrd_16k_direct_2threads.txt',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    const keys = [...(out.uploadCommand as string).matchAll(/--label ([A-Za-z.]+)=/g)].map((m) => m[1]!);
    expect(keys).toEqual([
      'kind',
      'instanceType',
      'volumeType',
      'volumeSizeGiB',
      'volumeIops',
      'volumeThroughputMiBps',
    ]);
    for (const k of keys) expect(Object.keys(LABEL_WIRE_NAMES)).toContain(k);
    expect(out.settings).toMatchObject({ rw: 'randread', blockSizeOption: 'bs=16k' });
  });

  it('--fio: a real fio result as the source', async () => {
    const r = await run([
      'fio-job',
      '--fio',
      'fixtures/fio/generated/c_randread_4k_libaio_qd32_timebased5s.json',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).settings).toMatchObject({ rw: 'randread', blockSizeOption: 'bs=4k' });
  });

  it.each([
    [['fio-job'], 'give one source'],
    [['fio-job', '--read-iops', '10'], 'missing: --write-iops, --read-bw, --write-bw'],
    [['fio-job', '--fio', 'a.json', '--sysbench', 'b.txt'], 'give one source, not --fio and --sysbench'],
    [
      [
        'fio-job',
        '--read-iops',
        '1',
        '--write-iops',
        '1',
        '--read-bw',
        '1MiB/s',
        '--write-bw',
        '1MiB/s',
        '--engine',
        'posixaio',
      ],
      '--engine: expected libaio or io_uring',
    ],
    [
      [
        'fio-job',
        '--read-iops',
        '1',
        '--write-iops',
        '1',
        '--read-bw',
        '1MiB/s',
        '--write-bw',
        '1MiB/s',
        '--runtime',
        '0',
      ],
      '--runtime: runtime must be at least 1 s',
    ],
    [
      [
        'fio-job',
        '--read-iops',
        '1',
        '--write-iops',
        '1',
        '--read-bw',
        '1MiB/s',
        '--write-bw',
        '1MiB/s',
        '--label',
        'novalue',
      ],
      '--label: expected key=value',
    ],
  ])('usage errors exit 2: %j', async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('a profile without I/O exits 1', async () => {
    const r = await run([
      'fio-job',
      '--read-iops',
      '0',
      '--write-iops',
      '0',
      '--read-bw',
      '0MiB/s',
      '--write-bw',
      '0MiB/s',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('[no_io]');
  });
});
