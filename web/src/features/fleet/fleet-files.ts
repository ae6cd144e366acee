import type { Problem, Result } from '@blockwise/shared/problem';

/**
 * Which AWS CLI output a dropped file is, told by its top-level key (the shared parsers check the
 * rest): `aws ec2 describe-volumes` has `Volumes`, `aws ec2 describe-instances` has
 * `Reservations`, `aws cloudwatch get-metric-data` has `MetricDataResults`.
 */
export type FleetFileKind = 'volumes' | 'instances' | 'metrics';

/** `fingerprint`: the text's length and FNV-1a hash, to tell a re-dropped file from another of the same name. */
export type FleetFile = { name: string; kind: FleetFileKind; json: unknown; fingerprint: string };

const KIND_BY_KEY: ReadonlyArray<readonly [string, FleetFileKind]> = [
  ['Volumes', 'volumes'],
  ['Reservations', 'instances'],
  ['MetricDataResults', 'metrics'],
];

export const FLEET_FILE_KINDS: Record<FleetFileKind, string> = {
  volumes: 'aws ec2 describe-volumes',
  instances: 'aws ec2 describe-instances',
  metrics: 'aws cloudwatch get-metric-data',
};

const problem = (code: string, message: string, path: string): { ok: false; error: Problem } => ({
  ok: false,
  error: { code, message, path },
});

/** 32-bit FNV-1a of the UTF-16 code units: cheap, and enough to tell two different files apart. */
function fingerprintOf(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return `${text.length}:${(hash >>> 0).toString(16)}`;
}

/** A dropped file's text → its kind and JSON, or a problem naming the file and what was expected. */
export function classifyFleetFile(name: string, text: string): Result<FleetFile> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return problem(
      'invalid_json',
      `${name}: not JSON (${(error as Error).message}); save the AWS CLI output with --output json`,
      name,
    );
  }
  if (typeof json === 'object' && json !== null && !Array.isArray(json)) {
    for (const [key, kind] of KIND_BY_KEY)
      if (Object.hasOwn(json, key))
        return { ok: true, value: { name, kind, json, fingerprint: fingerprintOf(text) } };
  }
  return problem(
    'fleet_file_unknown',
    `${name}: expected the JSON output of aws ec2 describe-volumes (a "Volumes" list), aws ec2 describe-instances ("Reservations") or aws cloudwatch get-metric-data ("MetricDataResults")`,
    name,
  );
}

/** The files a plan is made from: one describe-volumes, any get-metric-data responses, at most one describe-instances. */
export type FleetInputs = {
  volumes: FleetFile | null;
  instances: FleetFile | null;
  metrics: FleetFile[];
};

export const EMPTY_INPUTS: FleetInputs = { volumes: null, instances: null, metrics: [] };

/**
 * Adds classified files: a newer describe-volumes or describe-instances replaces the previous one
 * (they are whole snapshots); metric files accumulate (responses continue with NextToken). The
 * same file dropped again (same name and content) replaces its earlier copy; a different file
 * with a name already listed (two folders' metrics-1.json) is refused with a message, never
 * silently swapped for the first one.
 */
export function addFleetFiles(
  inputs: FleetInputs,
  files: readonly FleetFile[],
): { inputs: FleetInputs; refused: string[] } {
  let next = inputs;
  const refused: string[] = [];
  for (const file of files) {
    if (file.kind === 'volumes') next = { ...next, volumes: file };
    else if (file.kind === 'instances') next = { ...next, instances: file };
    else {
      const same = next.metrics.find((m) => m.name === file.name);
      if (same && same.fingerprint !== file.fingerprint) {
        refused.push(
          `${file.name}: another metric file of this name is already added (different content); rename one of them or remove the first before adding this one.`,
        );
        continue;
      }
      next = { ...next, metrics: [...next.metrics.filter((m) => m.name !== file.name), file] };
    }
  }
  return { inputs: next, refused };
}

export function removeFleetFile(inputs: FleetInputs, name: string): FleetInputs {
  return {
    volumes: inputs.volumes?.name === name ? null : inputs.volumes,
    instances: inputs.instances?.name === name ? null : inputs.instances,
    metrics: inputs.metrics.filter((m) => m.name !== name),
  };
}
