import type { z } from 'zod';
import { fail, ok, type Result } from '../problem.ts';
import { DescribeInstancesOutputSchema, DescribeVolumesOutputSchema, type AwsVolume } from './aws-outputs.ts';
import { volumeTypeLimits } from './limits.ts';
import type { FleetInstance, FleetVolume } from './schema.ts';

/** The first issue of a Zod error as a Problem naming the field: `Volumes.3.Size: expected number`. */
export function problemOf(error: z.ZodError, code: string, what: string) {
  const issue = error.issues[0];
  const path = issue ? issue.path.join('.') : '';
  const message = issue ? `${what}: ${path || '(top level)'}: ${issue.message}` : `${what}: invalid`;
  return fail(code, message, path || undefined);
}

/**
 * A size, IOPS or throughput past what the volume's type allows is no volume AWS describes: it is
 * refused naming the field, so no cost or target computed from it can overflow (1e308 IOPS
 * priced to Infinity, issue 24).
 */
function checkVolumeLimits(volumes: readonly AwsVolume[]): Result<void> {
  for (const [i, v] of volumes.entries()) {
    const limits = volumeTypeLimits(v.VolumeType);
    const fields = [
      ['Size', v.Size, limits.sizeGib, 'GiB'],
      ['Iops', v.Iops, limits.iops, 'IOPS'],
      ['Throughput', v.Throughput, limits.throughputMibps, 'MiB/s'],
    ] as const;
    for (const [field, value, max, unit] of fields) {
      if (value !== undefined && value > max)
        return fail(
          'volumes_invalid',
          `Volumes.${i}.${field}: ${value} ${unit} is more than a ${v.VolumeType} volume can have (at most ${max} ${unit}, AWS EBS volume types)`,
          `Volumes.${i}.${field}`,
        );
    }
  }
  return ok(undefined);
}

/** A volume listed twice would be planned, priced and counted twice: refused, naming the ids. */
function checkUniqueIds(volumes: readonly AwsVolume[]): Result<void> {
  const seen = new Map<string, number>();
  const repeated: string[] = [];
  let first = -1;
  for (const [i, v] of volumes.entries()) {
    if (!seen.has(v.VolumeId)) seen.set(v.VolumeId, i);
    else {
      if (first === -1) first = i;
      if (repeated.length < 5 && !repeated.includes(v.VolumeId)) repeated.push(v.VolumeId);
    }
  }
  if (first === -1) return ok(undefined);
  return fail(
    'volumes_invalid',
    `Volumes.${first}.VolumeId: a volume id is listed more than once (${repeated.join(', ')}): give each volume once (merge the describe-volumes pages without overlap)`,
    `Volumes.${first}.VolumeId`,
  );
}

/** `aws ec2 describe-volumes --output json` → the planner's volumes. */
export function parseFleetVolumes(json: unknown): Result<FleetVolume[]> {
  const parsed = DescribeVolumesOutputSchema.safeParse(json);
  if (!parsed.success)
    return problemOf(
      parsed.error,
      'volumes_invalid',
      'not describe-volumes output (expected {"Volumes":[...]})',
    );
  const unique = checkUniqueIds(parsed.data.Volumes);
  if (!unique.ok) return unique;
  const bounded = checkVolumeLimits(parsed.data.Volumes);
  if (!bounded.ok) return bounded;
  return ok(
    parsed.data.Volumes.map((v) => {
      const attached = v.Attachments.filter((a) => a.State === undefined || a.State !== 'detached');
      return {
        volumeId: v.VolumeId,
        type: v.VolumeType,
        sizeGib: v.Size,
        iops: v.Iops ?? null,
        throughputMibps: v.Throughput ?? null,
        state: v.State,
        availabilityZone: v.AvailabilityZone ?? null,
        instanceId: attached[0]?.InstanceId ?? null,
        alsoAttachedTo: attached.slice(1).map((a) => a.InstanceId),
        name: v.Tags?.find((t) => t.Key === 'Name')?.Value ?? null,
      };
    }),
  );
}

/** `aws ec2 describe-instances --output json` → instance id, TYPE and state (the hypervisor field is not used). */
export function parseFleetInstances(json: unknown): Result<FleetInstance[]> {
  const parsed = DescribeInstancesOutputSchema.safeParse(json);
  if (!parsed.success)
    return problemOf(
      parsed.error,
      'instances_invalid',
      'not describe-instances output (expected {"Reservations":[{"Instances":[...]}]})',
    );
  return ok(
    parsed.data.Reservations.flatMap((r) =>
      r.Instances.map((i) => ({
        instanceId: i.InstanceId,
        instanceType: i.InstanceType,
        state: i.State.Name,
      })),
    ),
  );
}
