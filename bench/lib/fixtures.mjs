// The real fio files the bench sends (fixtures/fio, copied from real runs; see its README).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from './common.mjs';

/** The largest plain-JSON fixture (fio's usual --output-format=json, no json+ bins): P1–P4, P9, R12. */
export function largestPlainFixture() {
  const candidates = ['generated', 'public'].flatMap((dir) =>
    readdirSync(join(FIXTURES, 'fio', dir))
      .filter((f) => f.endsWith('.json') && !f.endsWith('.oracle.json'))
      .map((f) => join('fio', dir, f)),
  );
  const plain = candidates
    .map((name) => ({ name, bytes: readFileSync(join(FIXTURES, name)) }))
    .filter(({ bytes }) => {
      const text = bytes.toString('utf8');
      return text.trimStart().startsWith('{') && !text.includes('"bins"');
    })
    .sort((a, b) => statSync(join(FIXTURES, b.name)).size - statSync(join(FIXTURES, a.name)).size);
  return plain[0];
}

export const JSONPLUS_FIXTURE = join('fio', 'generated', 'p_randrw_4k_mix50_jsonplus_nj2_perjob.json');

/**
 * Labels a CI job sends with an upload (what makes the server run the full analysis: limits,
 * bottleneck, right-sizing, cost), as query parameters; `n` makes each upload a distinct run.
 */
export function ciUploadPath(n, prefix = 'bench') {
  return (
    `/api/runs?name=${prefix}-${n}&series=bench&branch=main&commit=0123abc&kind=ebs` +
    '&instanceType=m7i.xlarge&volumeType=gp3&volumeSizeGiB=500&volumeIops=6000&volumeThroughputMiBps=250&region=us-east-1'
  );
}
