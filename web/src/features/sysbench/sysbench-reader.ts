import { type Problem, type Result } from '@blockwise/shared/problem';
import { type IoProfile } from '@blockwise/shared/profile';
import { parseSysbench, profileFromSysbench, type SysbenchFileio } from '@blockwise/shared/sysbench';

/**
 * A `sysbench fileio … run` output read with the domain's parser and turned into a planning
 * profile (`profileFromSysbench`). Loaded lazily: the parser stays out of the first paint.
 */
export type SysbenchRead =
  { ok: true; run: SysbenchFileio; profile: Result<IoProfile> } | { ok: false; error: Problem };

export function readSysbench(input: string | Uint8Array): SysbenchRead {
  const parsed = parseSysbench(input);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  return { ok: true, run: parsed.value, profile: profileFromSysbench(parsed.value) };
}
