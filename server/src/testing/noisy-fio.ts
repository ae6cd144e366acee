/**
 * Test data builder: a real fio result file, re-measured. CI history needs several runs of one
 * job; repeated real runs differ by a few percent, so tests take one real fio-3.33 output and
 * scale its numbers the way a slower or noisier volume would change them: IOPS, bandwidth, bytes
 * moved and I/O counts by `throughput`, every completion/total latency figure (mean, extremes,
 * percentiles) by `latency`. Runtime, options and everything else stay as fio wrote them, so
 * the file still parses exactly like the original, and the block size (bytes ÷ I/Os) is unchanged.
 *
 * Only for fio 3.x JSON without json+ bins (percentiles recomputed from bins would ignore the
 * scaling); the tests use `a_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_grouped.json`.
 */

export type Rescale = { throughput?: number; latency?: number };

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function scaleKeys(o: Json, keys: readonly string[], factor: number, round: boolean) {
  for (const k of keys) {
    const v = o[k];
    if (typeof v === 'number') o[k] = round ? Math.round(v * factor) : v * factor;
  }
}

const COUNTS = ['bw', 'bw_bytes', 'io_bytes', 'io_kbytes', 'total_ios', 'bw_min', 'bw_max'] as const;
const RATES = ['iops', 'iops_min', 'iops_max', 'iops_mean', 'bw_mean', 'bw_dev', 'iops_stddev'] as const;

function scaleLatency(lat: unknown, factor: number) {
  if (!isObject(lat)) return;
  scaleKeys(lat, ['min', 'max', 'mean', 'stddev'], factor, false);
  const p = lat.percentile;
  if (isObject(p))
    for (const k of Object.keys(p)) if (typeof p[k] === 'number') p[k] = Math.round(p[k] * factor);
  if (lat.bins !== undefined) throw new Error('json+ bins cannot be rescaled: use a fixture without them');
}

/** The fio JSON document `bytes` with its numbers rescaled (see above); pretty-printed like fio. */
export function rescaleFio(bytes: Uint8Array, rescale: Rescale): Buffer {
  const doc = JSON.parse(Buffer.from(bytes).toString('utf8')) as Json;
  const t = rescale.throughput ?? 1;
  const l = rescale.latency ?? 1;
  const jobs = Array.isArray(doc.jobs) ? doc.jobs : [];
  for (const job of jobs) {
    if (!isObject(job)) continue;
    for (const dir of ['read', 'write']) {
      const d = job[dir];
      if (!isObject(d)) continue;
      scaleKeys(d, COUNTS, t, true);
      scaleKeys(d, RATES, t, false);
      scaleLatency(d.clat_ns, l);
      scaleLatency(d.lat_ns, l);
    }
  }
  return Buffer.from(`${JSON.stringify(doc, null, 2)}\n`);
}

/**
 * Six main-branch runs of one job: ±2.5 % throughput and ±3 % latency, independently — the spread
 * repeated fio runs on one EBS volume show.
 */
export const MAIN_NOISE: readonly Required<Rescale>[] = [
  { throughput: 1.0, latency: 1.0 },
  { throughput: 0.98, latency: 1.02 },
  { throughput: 1.025, latency: 0.97 },
  { throughput: 0.975, latency: 1.03 },
  { throughput: 1.02, latency: 0.98 },
  { throughput: 0.99, latency: 1.01 },
];

/** The volume a feature branch broke: 30 % fewer IOPS and MiB/s, latency 60 % higher. */
export const DEGRADED: Required<Rescale> = { throughput: 0.7, latency: 1.6 };
